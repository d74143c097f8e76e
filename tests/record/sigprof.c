/* SPDX-License-Identifier: BSD-3-Clause */
/* A program with its own SIGPROF handler and ITIMER_PROF timer: the handler
 * must still run, and sigaction must still report it. Prints what it saw;
 * exits 0 when all is as without the profiler. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "work.h"

static volatile sig_atomic_t ticks;

static void on_prof(int sig) { ticks++; }

__attribute__((noinline)) void busy(double secs) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < secs) spin(100000);
}

int main(void) {
  struct sigaction sa, seen;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, NULL) < 0 || sigaction(SIGPROF, NULL, &seen) < 0) return 2;
  int same = seen.sa_handler == on_prof;
  struct itimerval it = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_PROF, &it, NULL);
  busy(0.5);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  printf("own handler reported by sigaction: %s\n", same ? "yes" : "no");
  printf("own handler ran: %s\n", ticks >= 10 ? "yes" : "no");
  return same && ticks >= 10 ? 0 : 1;
}
