/* lazy_lib_resolve: one symbol of a library opened on first use. */
#include "common/lazy_lib.h"

#include <dlfcn.h>

int lazy_lib_resolve(void *handle, const char *name, void *slot) {
  void *f = dlsym(handle, name);
  if (!f) return 0;
  *(void **)slot = f;
  return 1;
}
