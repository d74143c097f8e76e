/* SPDX-License-Identifier: BSD-3-Clause */
/* lazy_lib_open: a library opened on first use, its functions resolved. */
#include "common/lazy_lib.h"

#include <dlfcn.h>
#include <stdio.h>

static char last_error[512];

const char *lazy_lib_error(void) { return last_error; }

int lazy_lib_open(const char *soname, const lazy_sym *syms, size_t n, void *table) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *e = dlerror(); /* not found, or e.g. no address space left to map it */
    snprintf(last_error, sizeof last_error, "%s", e ? e : "dlopen failed");
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    void *f = dlsym(handle, syms[i].name);
    if (!f) {
      snprintf(last_error, sizeof last_error, "%s: no %s", soname, syms[i].name);
      dlclose(handle);
      return 0;
    }
    /* a function pointer's storage: dlsym returns an object pointer, which POSIX lets us store this way */
    *(void **)((char *)table + syms[i].offset) = f;
  }
  return 1;
}
