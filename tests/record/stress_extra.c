/* SPDX-License-Identifier: BSD-3-Clause */
/* More programs that are hard on a profiler inside them (see stress.c): a
 * crash, forks beside sampled threads, signal storms, signals blocked,
 * posix_spawn, allocation from many threads, a file-size limit, and a
 * program that runs for minutes (the long campaign: bench/record_stress.sh). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stress.h"
#include "work.h"

extern char **environ;

static int *volatile nowhere; /* NULL, unknown to the compiler */

/* A crash leaves no core file (and does not wait for one to be written). */
static void no_core(void) {
  struct rlimit rl = {0, 0};
  setrlimit(RLIMIT_CORE, &rl);
}

int stress_segfault(void) { /* dies of SIGSEGV after some work: exit status 139 both ways */
  no_core();
  printf("about to write through a null pointer\n");
  stress_burn(0.2);
  *nowhere = 1;
  return 0;
}

int stress_abort(void) {
  no_core();
  printf("about to abort\n");
  stress_burn(0.2);
  abort();
}

static volatile int spinning = 1;
static void *spin_until_told(void *arg) {
  while (spinning) spin(20000);
  return arg;
}

int stress_fork_threads(void) { /* fork while other threads are being sampled */
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&t[i], NULL, spin_until_told, NULL) != 0) return 1;
  int sum = 0;
  for (int i = 0; i < 10; i++) {
    pid_t p = fork();
    if (p == 0) {
      stress_burn(0.01);
      _exit(i);
    }
    int st;
    if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st)) sum += WEXITSTATUS(st);
  }
  spinning = 0;
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("fork beside threads: children's statuses sum to %d\n", sum);
  return 0;
}

static volatile sig_atomic_t storm_seen;
static void storm_handler(int sig) {
  (void)sig;
  storm_seen = 1;
}

static void *storm(void *main_thread) {
  for (int i = 0; i < 5000; i++) {
    pthread_kill(*(pthread_t *)main_thread, SIGUSR1);
    if (i % 64 == 0) sched_yield();
  }
  return NULL;
}

int stress_signal_storm(void) { /* 5,000 signals from another thread while sampled */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = storm_handler;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  pthread_t self = pthread_self(), t;
  if (pthread_create(&t, NULL, storm, &self) != 0) return 1;
  stress_burn(0.1);
  pthread_join(t, NULL);
  printf("signal storm: 5000 sent, handled: %s\n", storm_seen ? "yes" : "no");
  return 0;
}

static void *blocked_worker(void *arg) {
  stress_burn(0.05);
  return arg;
}

int stress_blocked_signals(void) { /* every signal blocked, in main and its threads, then let through */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    if (pthread_create(&t[i], NULL, blocked_worker, NULL) != 0) return 1;
  stress_burn(0.1);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  stress_burn(0.05);
  printf("signals blocked, then let through\n");
  return 0;
}

int stress_posix_spawn(void) { /* 20 children started by posix_spawn (vfork-like clone) */
  int ok = 0;
  for (int i = 0; i < 20; i++) {
    pid_t p;
    char *argv[] = {"true", NULL};
    int st;
    if (posix_spawn(&p, "/bin/true", NULL, NULL, argv, environ) == 0 && waitpid(p, &st, 0) == p &&
        WIFEXITED(st) && WEXITSTATUS(st) == 0)
      ok++;
    stress_burn(0.005);
  }
  printf("posix_spawn %d of 20\n", ok);
  return 0;
}

static void *allocate(void *arg) { /* malloc and free as fast as it can: samples land inside malloc */
  unsigned long sum = 0;
  for (int i = 0; i < 200000; i++) {
    size_t n = (size_t)(16 + (i * 37) % 4000);
    unsigned char *p = malloc(n);
    if (!p) return (void *)0;
    p[0] = (unsigned char)i;
    p[n - 1] = 1;
    sum += p[n - 1];
    free(p);
  }
  return (void *)sum;
}

int stress_malloc_threads(void) {
  pthread_t t[4];
  unsigned long total = 0;
  for (int i = 0; i < 4; i++)
    if (pthread_create(&t[i], NULL, allocate, NULL) != 0) return 1;
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (unsigned long)r;
  }
  printf("malloc/free from 4 threads: %lu\n", total);
  return 0;
}

/* Writes past its own file-size limit (the soft one): killed by SIGXFSZ (exit 153). */
int stress_file_size_limit(void) {
  struct rlimit rl;
  getrlimit(RLIMIT_FSIZE, &rl);
  rl.rlim_cur = 4096;
  setrlimit(RLIMIT_FSIZE, &rl);
  char path[] = "/tmp/hpcdb-stress-fsize-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 1;
  unlink(path);
  printf("writing past a 4 KiB file-size limit\n");
  stress_burn(0.05);
  static char block[8192];
  ssize_t n = write(fd, block, sizeof block); /* 4096 written, then SIGXFSZ on the next */
  n = write(fd, block, sizeof block);
  printf("still alive after writing past the limit (%zd)\n", n);
  return 3;
}

static void *round_worker(void *arg) {
  stress_burn(0.05);
  return arg;
}

/* Runs for SECONDS of wall time (10 minutes by default), a round a second:
 * a short-lived thread and some work, then sleeping to the round's end. */
int stress_long_run(const char *seconds_arg) {
  long seconds = seconds_arg ? atol(seconds_arg) : 600;
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (long r = 0; r < seconds; r++) {
    pthread_t t;
    if (pthread_create(&t, NULL, round_worker, NULL) != 0) return 1;
    stress_burn(0.05);
    pthread_join(t, NULL);
    next.tv_sec++;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) != 0) {
    }
  }
  printf("ran %ld rounds of a second\n", seconds);
  return 0;
}
