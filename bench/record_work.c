/* SPDX-License-Identifier: BSD-3-Clause */
/* The compute-bound program bench/record.sh measures hpcdb record's overhead
 * on: argv[1] threads (1 or more) each doing a fixed amount of work
 * (argv[2] million multiply-adds) through 12 levels of calls, so that every
 * sample unwinds a realistic stack. Built with and without frame pointers. */
#include <pthread.h>
#include <stdlib.h>

static long work_per_thread;

__attribute__((noinline)) double kernel(long n, double x) {
  for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9;
  return x;
}

__attribute__((noinline)) double level(int depth, long n, double x) {
  if (depth == 0) return kernel(n, x);
  double r = level(depth - 1, n, x);
  __asm__ volatile("" ::: "memory");
  return r + 1e-12;
}

static void *thread_main(void *arg) {
  double x = 1.0;
  for (long done = 0; done < work_per_thread; done += 100000) x = level(12, 100000, x);
  *(double *)arg = x;
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  work_per_thread = (argc > 2 ? atol(argv[2]) : 500) * 1000000L;
  if (threads < 1 || threads > 64) return 2;
  pthread_t t[64];
  double out[64];
  for (int i = 1; i < threads; i++)
    if (pthread_create(&t[i], NULL, thread_main, &out[i])) return 1;
  thread_main(&out[0]);
  for (int i = 1; i < threads; i++) pthread_join(t[i], NULL);
  return out[0] == 0.0;
}
