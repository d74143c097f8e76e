/* SPDX-License-Identifier: BSD-3-Clause */
/* Ends in the way argv[1] says after some work: "_exit" calls _exit(3),
 * "sigterm" is killed by SIGTERM, "segv" writes through a null pointer,
 * "abort" calls abort(). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "work.h"

__attribute__((noinline)) void before_end(void) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < 0.3) spin(100000);
}

static int *volatile nowhere; /* NULL, unknown to the compiler */

int main(int argc, char **argv) {
  before_end();
  if (argc > 1 && !strcmp(argv[1], "_exit")) _exit(3);
  if (argc > 1 && !strcmp(argv[1], "sigterm")) raise(SIGTERM);
  if (argc > 1 && !strcmp(argv[1], "segv")) *nowhere = 1;
  if (argc > 1 && !strcmp(argv[1], "abort")) abort();
  return 0;
}
