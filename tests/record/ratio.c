/* SPDX-License-Identifier: BSD-3-Clause */
/* Two functions in a known ratio of CPU time: heavy() runs 150 ms of CPU
 * time, light() 50 ms, alternating, for argv[1] seconds (default 2). Long
 * stretches keep the expected share exact whatever the machine's load: only
 * the samples at the switches are in doubt. */
#include <stdlib.h>

#include "work.h"

static void run_for(double secs) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < secs) spin(2000);
}

__attribute__((noinline)) void heavy(void) { run_for(0.150); }
__attribute__((noinline)) void light(void) { run_for(0.050); }

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0, start = cpu_seconds();
  while (cpu_seconds() - start < secs) {
    heavy();
    light();
  }
  return 0;
}
