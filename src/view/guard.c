/* SPDX-License-Identifier: BSD-3-Clause */
/* A database truncated or rewritten while it is served: its pages are
 * memory-mapped, so reading past the new end raises SIGBUS in the thread
 * that reads it. The route runs under a guard that turns that signal into an error
 * answer; the databases are then marked damaged (their caches may be half
 * built) and every later route answers 503, while the server stays up. What
 * the interrupted route had allocated is left behind: once per damage, as no
 * route runs on a damaged database again. */
#include "guard.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>

/* per thread: SIGBUS goes to the thread that touched the page, and routes
 * run on many threads at once */
static _Thread_local sigjmp_buf guard_jump;
static _Thread_local volatile sig_atomic_t guard_armed;

static void on_sigbus(int sig) {
  if (!guard_armed) { /* not in a route: the default action */
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  siglongjmp(guard_jump, 1);
}

int guard_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigbus;
  sigemptyset(&sa.sa_mask);
  return sigaction(SIGBUS, &sa, NULL);
}

int guard_run(route_fn run, request *r) {
  if (sigsetjmp(guard_jump, 1)) {
    guard_armed = 0;
    return -2;
  }
  guard_armed = 1;
  int rc = run(r);
  guard_armed = 0;
  return rc;
}
