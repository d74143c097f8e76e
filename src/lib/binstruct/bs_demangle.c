/* SPDX-License-Identifier: BSD-3-Clause */
/* Display names of C++ procedures, as hpcstruct writes them: the demangled
 * linkage name ("kernmain()" for _Z8kernmainv), through the C++ ABI's own
 * demangler in libstdc++ (every Debian C/C++ toolchain has it). libstdc++ is
 * opened on the first mangled name, not linked: loading it at every start
 * cost about 1.8 ms (an empty program with hpcdb's other libraries: 5.3 ms
 * with it, 3.6 ms without), while only `hpcdb struct` and analyses that read
 * binaries demangle. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "common/lazy_lib.h"

/* The C++ runtime's soname (unchanged since GCC 3.4). */
#define STDCXX_SONAME "libstdc++.so.6"

/* The Itanium C++ ABI entry point (cxxabi.h is C++-only). */
typedef char *cxa_demangle_fn(const char *mangled, char *buf, size_t *len, int *status);

static cxa_demangle_fn *cxa_demangle;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_uint failures; /* names left mangled for want of memory or of libstdc++ */

unsigned bs_demangle_failures(void) { return atomic_load(&failures); }

static void load(void) {
  static const lazy_sym sym = {"__cxa_demangle", 0}; /* into cxa_demangle itself */
  (void)lazy_lib_open(STDCXX_SONAME, &sym, 1, &cxa_demangle);
}

const char *bs_demangled(bs_unit *u, const char *link) {
  if (!link || strncmp(link, "_Z", 2) != 0) return NULL;
  pthread_once(&once, load);
  int status = 0;
  char *d = cxa_demangle ? cxa_demangle(link, NULL, NULL, &status) : NULL;
  if (!cxa_demangle || status == -1) atomic_fetch_add(&failures, 1); /* -1: out of memory */
  if (!d || status != 0) {
    free(d);
    return NULL;
  }
  const char *s = bs_intern(u, d);
  if (!s) atomic_fetch_add(&failures, 1); /* out of memory too: not the mangled name instead */
  free(d);
  return s;
}
