/* SPDX-License-Identifier: BSD-3-Clause */
/* Signals the profiler owns, with the program's view of them kept intact.
 * SIGPROF: the profiler's handler stays installed; what the program installs
 * is remembered and called for every SIGPROF that is not a sample (its own
 * setitimer, kill), and sigaction/signal report the program's own setting.
 * SIGTERM, SIGINT, SIGHUP left at their default: the profiler writes the
 * files, then the signal kills the process as it would have; a handler the
 * program installs replaces the profiler's. The same for the signals of a
 * crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS) and of a
 * limit passed (SIGXFSZ, SIGXCPU): what was measured is written, then the
 * crash goes on as it would have (on_fatal). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

static const int term_signals[] = {SIGTERM, SIGINT, SIGHUP, /* then the crashes: */
                                   SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXFSZ, SIGXCPU};
#define N_QUIT 3 /* the first N_QUIT are asked for; the others are crashes */
#define FATAL_FLUSH_SECONDS 5
#define N_TERM (int)(sizeof term_signals / sizeof term_signals[0])

static struct sigaction app_prof; /* the program's SIGPROF disposition */
static int term_ours[N_TERM];     /* our handler is installed for term_signals[i] */

static int term_index(int sig) {
  for (int i = 0; i < N_TERM; i++)
    if (term_signals[i] == sig) return i;
  return -1;
}

int rec_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  static int (*real)(int, const struct sigaction *, struct sigaction *);
  if (!real) real = (int (*)(int, const struct sigaction *, struct sigaction *))rec_real("sigaction");
  return real ? real(sig, act, old) : -1;
}

/* Writes the measurement, then dies of sig as the program would have. */
static void on_terminate(int sig) {
  rec_process_finish();
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  rec_real_sigaction(sig, &dfl, NULL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  pthread_sigmask(SIG_UNBLOCK, &s, NULL);
  raise(sig);
}

/* A crash: the files written, then the signal's default (restored by
 * SA_RESETHAND) ends the process as it would have ended without the
 * profiler. Writing takes locks (malloc, stdio) that the crashed code may
 * hold: the signal is unblocked first, so that a second fault ends the
 * process at once, and a timer sends it again after FATAL_FLUSH_SECONDS in
 * case the writing hangs. Nothing is written when the profiler's own code
 * crashed (its tree may be half updated). A program that passed its own
 * file-size limit (SIGXFSZ) is let write up to the hard limit: it is dying,
 * and otherwise its measurement could not be written. */
static void on_fatal(int sig) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  pthread_sigmask(SIG_UNBLOCK, &s, NULL);
  rec_thread *t = rec_self;
  if (!t || (!t->busy && !t->in_handler)) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = sig;
    ev._sigev_un._tid = gettid();
    timer_t timer;
    struct itimerspec when = {{0, 0}, {FATAL_FLUSH_SECONDS, 0}};
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0) timer_settime(timer, 0, &when, NULL);
    struct rlimit fsize;
    if (sig == SIGXFSZ && getrlimit(RLIMIT_FSIZE, &fsize) == 0) {
      fsize.rlim_cur = fsize.rlim_max;
      setrlimit(RLIMIT_FSIZE, &fsize);
    }
    rec_process_finish();
  }
  raise(sig);
}

void rec_forward_app_signal(int sig, siginfo_t *si, void *uc) {
  struct sigaction a = app_prof;
  if (a.sa_handler == SIG_IGN) return;
  if (a.sa_handler == SIG_DFL) { /* SIGPROF's default: terminate */
    on_terminate(sig);
    return;
  }
  if ((unsigned)a.sa_flags & SA_RESETHAND) { /* sa_flags is an int, SA_RESETHAND its sign bit */
    app_prof.sa_handler = SIG_DFL;
    app_prof.sa_flags &= ~SA_SIGINFO;
  }
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &a.sa_mask, &old);
  if (a.sa_flags & SA_SIGINFO) a.sa_sigaction(sig, si, uc);
  else a.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void rec_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = rec_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  rec_real_sigaction(REC_SIGNAL, &sa, &app_prof);
  if (app_prof.sa_sigaction == rec_sample) { /* inherited across fork: keep the program's */
    memset(&app_prof, 0, sizeof app_prof);
    app_prof.sa_handler = SIG_DFL;
  }
  for (int i = 0; i < N_TERM; i++) {
    struct sigaction cur;
    if (rec_real_sigaction(term_signals[i], NULL, &cur) < 0) continue;
    if (cur.sa_handler != SIG_DFL && cur.sa_handler != on_terminate && cur.sa_handler != on_fatal) continue;
    struct sigaction t;
    memset(&t, 0, sizeof t);
    t.sa_handler = i < N_QUIT ? on_terminate : on_fatal;
    if (i >= N_QUIT) t.sa_flags = (int)(SA_RESETHAND | SA_ONSTACK); /* on the program's alternate stack, if any */
    sigemptyset(&t.sa_mask);
    term_ours[i] = rec_real_sigaction(term_signals[i], &t, NULL) == 0;
  }
}

static void report_default(struct sigaction *old) {
  memset(old, 0, sizeof *old);
  old->sa_handler = SIG_DFL;
}

REC_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (!rec_proc.cfg.enabled) return rec_real_sigaction(sig, act, old);
  if (sig == REC_SIGNAL) {
    struct sigaction prev = app_prof;
    if (act) app_prof = *act;
    if (old) *old = prev;
    return 0;
  }
  int i = term_index(sig);
  if (i < 0 || !term_ours[i]) return rec_real_sigaction(sig, act, old);
  if (act && act->sa_handler == SIG_DFL) { /* the default stays ours to emulate */
    if (old) report_default(old);
    return 0;
  }
  int rc = rec_real_sigaction(sig, act, old);
  if (rc == 0 && old) report_default(old);
  if (rc == 0 && act) term_ours[i] = 0;
  return rc;
}

REC_EXPORT sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  if (sig == REC_SIGNAL || term_index(sig) >= 0) sigaddset(&act.sa_mask, sig);
  if (sigaction(sig, &act, &old) < 0) return SIG_ERR;
  return old.sa_handler;
}
