/* SPDX-License-Identifier: BSD-3-Clause */
/* Work inside a signal handler: SIGALRM every 5 ms runs in_handler() (which
 * takes less than that), the rest of the time outer() runs, until the handler
 * has run 200 times (about 0.4 s of CPU time in it whatever the machine's
 * load). Samples taken in the handler unwind through the kernel's signal
 * frame back to main. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "work.h"

static volatile sig_atomic_t handled;

__attribute__((noinline)) void in_handler(void) { spin(1000000); }

static void on_alarm(int sig) {
  in_handler();
  handled++;
  __asm__ volatile("" ::: "memory"); /* keep this frame */
}

__attribute__((noinline)) void outer(void) { spin(1000); }

int main(void) {
  struct sigaction a;
  memset(&a, 0, sizeof a);
  a.sa_handler = on_alarm;
  a.sa_flags = SA_RESTART;
  if (sigaction(SIGALRM, &a, NULL) < 0) return 1;
  struct itimerval it = {{0, 5000}, {0, 5000}};
  setitimer(ITIMER_REAL, &it, NULL);
  while (handled < 200) outer();
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  return 0;
}
