/* SPDX-License-Identifier: BSD-3-Clause */
/* A recursive function: descend() calls itself 40 deep and works at every
 * level, for argv[1] seconds of CPU time. */
#include <stdlib.h>

#include "work.h"

__attribute__((noinline)) int descend(int depth) {
  spin(2000);
  int r = depth > 0 ? descend(depth - 1) : 0;
  __asm__ volatile("" ::: "memory"); /* keep the frame: no tail call */
  return r + 1;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.5, start = cpu_seconds();
  while (cpu_seconds() - start < secs) descend(40);
  return 0;
}
