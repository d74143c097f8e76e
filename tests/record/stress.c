/* SPDX-License-Identifier: BSD-3-Clause */
/* Programs that are hard on a profiler living inside them (tests/record/stress.sh
 * runs each with and without hpcdb record: the same output, the same exit
 * status). argv[1] names the program (more of them in stress_extra.c); each
 * prints what it computed, which must not depend on being measured. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stress.h"
#include "work.h"

void stress_burn(double seconds) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < seconds) spin(20000);
}

static void *short_thread(void *arg) {
  spin(2000);
  return arg;
}

static int threads(const char *count_arg) { /* 10,000 short-lived threads (or as many as asked), 50 at a time */
  long done = 0, rounds = (count_arg ? atol(count_arg) : 10000) / 50;
  for (long round = 0; round < rounds; round++) {
    pthread_t t[50];
    for (int i = 0; i < 50; i++)
      if (pthread_create(&t[i], NULL, short_thread, (void *)1) != 0) return 1;
    for (int i = 0; i < 50; i++) {
      void *r;
      pthread_join(t[i], &r);
      done += (long)r;
    }
  }
  printf("threads %ld\n", done);
  return 0;
}

static int fork_level(int depth) { /* two children per level: the leaves count */
  if (depth == 0) {
    stress_burn(0.02);
    return 1;
  }
  int sum = 0;
  pid_t kids[2];
  for (int i = 0; i < 2; i++)
    if ((kids[i] = fork()) == 0) _exit(fork_level(depth - 1));
  for (int i = 0; i < 2; i++) {
    int st;
    if (waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st)) sum += WEXITSTATUS(st);
  }
  return sum;
}

static int exec_chain(char **argv) { /* execs itself 5 times */
  int left = argv[2] ? atoi(argv[2]) : 5;
  stress_burn(0.02);
  if (left == 0) {
    printf("exec chain done\n");
    return 0;
  }
  char n[16];
  snprintf(n, sizeof n, "%d", left - 1);
  fflush(stdout);
  execl("/proc/self/exe", argv[0], "exec-chain", n, (char *)NULL);
  return 1;
}

static int vfork_exec(void) {
  volatile int ok = 0; /* volatile: kept across vfork */
  for (volatile int i = 0; i < 20; i++) {
    pid_t p = vfork();
    if (p == 0) {
      execl("/bin/true", "true", (char *)NULL);
      _exit(127);
    }
    int st;
    if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0) ok++;
    stress_burn(0.005);
  }
  printf("vfork+exec %d of 20\n", (int)ok);
  return 0;
}

static volatile sig_atomic_t ticks;
static void count_tick(int sig) {
  (void)sig;
  ticks++;
}

static int own_timer(int which, int sig) { /* its own SIGPROF or SIGALRM timer and handler */
  signal(sig, count_tick);
  struct itimerval it = {{0, 2000}, {0, 2000}};
  setitimer(which, &it, NULL);
  while (ticks < 50) spin(20000);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(which, &off, NULL);
  printf("own %s: at least 50 ticks\n", sig == SIGPROF ? "SIGPROF" : "SIGALRM");
  return 0;
}

static int alt_stack(void) { /* a handler that runs on its own stack */
  size_t bytes = (size_t)SIGSTKSZ * 4; /* glibc's SIGSTKSZ is sysconf's long */
  stack_t ss = {.ss_sp = malloc(bytes), .ss_size = bytes};
  if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0) return 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = count_tick;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  for (int i = 0; i < 500; i++) {
    raise(SIGUSR1);
    spin(5000);
  }
  printf("sigaltstack: %d handled\n", (int)ticks);
  return 0;
}

static sigjmp_buf jump;
static void jump_out(int sig) {
  (void)sig;
  siglongjmp(jump, 1);
}

static int longjmp_handler(void) { /* leaves its handler with siglongjmp, 300 times */
  signal(SIGUSR1, jump_out);
  volatile int jumps = 0; /* volatile: kept across siglongjmp */
  for (volatile int i = 0; i < 300; i++) {
    if (sigsetjmp(jump, 1) == 0) {
      spin(20000);
      raise(SIGUSR1);
    } else {
      jumps++;
    }
  }
  printf("longjmp out of a handler: %d\n", (int)jumps);
  return 0;
}

static __attribute__((noinline)) long down(long n) { /* not a tail call */
  if (n == 0) return 0;
  volatile long keep = n;
  long r = down(n - 1) + 1;
  if ((n & 0xffff) == 0) spin(200);
  return r + (keep - n);
}

static void *deep(void *arg) {
  long frames = (long)arg, r = 0;
  for (int i = 0; i < 5; i++) r = down(frames);
  return (void *)r;
}

static int deep_recursion(void) { /* 1,000,000 frames, on a thread with a stack to hold them */
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, (size_t)256 << 20);
  pthread_t t;
  if (pthread_create(&t, &a, deep, (void *)1000000L) != 0) return 1;
  void *r;
  pthread_join(t, &r);
  printf("deep recursion: %ld frames\n", (long)r);
  return 0;
}

static int dlopen_loop(void) {
  int ok = 0;
  for (int i = 0; i < 200; i++) {
    void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h && dlsym(h, "zlibVersion")) ok++;
    spin(3000);
    if (h) dlclose(h);
  }
  printf("dlopen/dlclose %d of 200\n", ok);
  return 0;
}

static void *exit_soon(void *arg) {
  (void)arg;
  stress_burn(0.05);
  fflush(stdout);
  _exit(5);
}

static int exit_from_thread(void) {
  printf("_exit(5) from a thread\n");
  pthread_t t;
  if (pthread_create(&t, NULL, exit_soon, NULL) != 0) return 1;
  pthread_join(t, NULL); /* never returns: the thread ends the process */
  return 1;
}

static int close_all(void) { /* every descriptor but stdout closed, the recorder's too */
  for (int fd = 0; fd < 4096; fd++)
    if (fd != 1) close(fd);
  stress_burn(0.1);
  printf("closed every descriptor but 1\n");
  return 0;
}

static int select_sleeps(void) { /* short sleeps that must not be cut short (EINTR) */
  int eintr = 0;
  for (int i = 0; i < 20; i++) {
    struct timeval tv = {0, 5000};
    if (select(0, NULL, NULL, NULL, &tv) < 0 && errno == EINTR) eintr++;
    spin(20000);
  }
  printf("select: %d interrupted\n", eintr);
  return 0;
}

static void *worker(void *arg) {
  stress_burn(0.005);
  return arg;
}

static int many_at_once(void) { /* 200 threads sampled at the same time */
  pthread_t t[200];
  int n = 0;
  for (int i = 0; i < 200; i++) n += pthread_create(&t[i], NULL, worker, NULL) == 0;
  for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
  printf("threads at once: %d\n", n);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *m = argc > 1 ? argv[1] : "";
  if (!strcmp(m, "threads")) return threads(argv[2]);
  if (!strcmp(m, "threads-at-once")) return many_at_once();
  if (!strcmp(m, "fork-tree")) return printf("fork tree: %d leaves\n", fork_level(3)) < 0;
  if (!strcmp(m, "exec-chain")) return exec_chain(argv);
  if (!strcmp(m, "vfork-exec")) return vfork_exec();
  if (!strcmp(m, "own-sigprof")) return own_timer(ITIMER_PROF, SIGPROF);
  if (!strcmp(m, "own-sigalrm")) return own_timer(ITIMER_REAL, SIGALRM);
  if (!strcmp(m, "sigaltstack")) return alt_stack();
  if (!strcmp(m, "longjmp-handler")) return longjmp_handler();
  if (!strcmp(m, "deep-recursion")) return deep_recursion();
  if (!strcmp(m, "dlopen-loop")) return dlopen_loop();
  if (!strcmp(m, "exit-from-thread")) return exit_from_thread();
  if (!strcmp(m, "close-all")) return close_all();
  if (!strcmp(m, "select-sleeps")) return select_sleeps();
  if (!strcmp(m, "segfault")) return stress_segfault();
  if (!strcmp(m, "abort")) return stress_abort();
  if (!strcmp(m, "fork-threads")) return stress_fork_threads();
  if (!strcmp(m, "signal-storm")) return stress_signal_storm();
  if (!strcmp(m, "blocked-signals")) return stress_blocked_signals();
  if (!strcmp(m, "posix-spawn")) return stress_posix_spawn();
  if (!strcmp(m, "malloc-threads")) return stress_malloc_threads();
  if (!strcmp(m, "file-size-limit")) return stress_file_size_limit();
  if (!strcmp(m, "long-run")) return stress_long_run(argv[2]);
  fprintf(stderr, "stress: unknown program '%s'\n", m);
  return 2;
}
