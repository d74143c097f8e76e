/* SPDX-License-Identifier: BSD-3-Clause */
/* Calls plugin_work() in a library opened with dlopen (the one beside this
 * program), then closes it: the samples name the library and its offsets. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char self[PATH_MAX], lib[PATH_MAX + 32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 1;
  self[n] = '\0';
  snprintf(lib, sizeof lib, "%s/librecord_plugin.so", dirname(self));
  void *h = dlopen(lib, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*work)(double) = (void (*)(double))dlsym(h, "plugin_work");
  if (!work) return 1;
  work(argc > 1 ? atof(argv[1]) : 0.5);
  return dlclose(h) != 0;
}
