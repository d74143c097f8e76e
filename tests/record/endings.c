/* Ends in the way argv[1] says after some work: "_exit" calls _exit(3),
 * "sigterm" is killed by SIGTERM. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "work.h"

__attribute__((noinline)) void before_end(void) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < 0.3) spin(100000);
}

int main(int argc, char **argv) {
  before_end();
  if (argc > 1 && !strcmp(argv[1], "_exit")) _exit(3);
  if (argc > 1 && !strcmp(argv[1], "sigterm")) raise(SIGTERM);
  return 0;
}
