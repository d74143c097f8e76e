/* Display names of C++ procedures, as hpcstruct writes them: the demangled
 * linkage name ("kernmain()" for _Z8kernmainv), through the C++ ABI's own
 * demangler in libstdc++ (every Debian C/C++ toolchain has it). */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"

/* The Itanium C++ ABI entry point (cxxabi.h is C++-only). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

const char *bs_demangled(bs_unit *u, const char *link) {
  if (!link || strncmp(link, "_Z", 2) != 0) return NULL;
  int status = 0;
  char *d = __cxa_demangle(link, NULL, NULL, &status);
  if (!d || status != 0) {
    free(d);
    return NULL;
  }
  const char *s = bs_intern(u, d);
  free(d);
  return s;
}
