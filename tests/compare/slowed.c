/* SPDX-License-Identifier: BSD-3-Clause */
/* The program the compare tests record: work_a and work_b each spin a fixed
 * amount per round; argv[1] multiplies work_b's (2: the slowed build), argv[2]
 * the rounds. Work is counted, not timed, so a slower function takes more CPU
 * time whatever the machine's load. Built at -O0 and -O2 for the alignment test
 * (addresses and inlining differ, names do not). */
#include <stdlib.h>

#include "../record/work.h"

static long chunk(long n) { return n; } /* inlined at -O2, a call at -O0 */

__attribute__((noinline)) void work_a(long n) { spin(chunk(n)); }
__attribute__((noinline)) void work_b(long n) { spin(chunk(n)); }

int main(int argc, char **argv) {
  double factor = argc > 1 ? atof(argv[1]) : 1;
  long rounds = argc > 2 ? atol(argv[2]) : 120;
  for (long i = 0; i < rounds; i++) {
    work_a(1000000);
    work_b((long)(1000000 * factor));
  }
  return 0;
}
