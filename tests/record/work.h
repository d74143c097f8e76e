/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU work the record tests sample: spin() burns about n multiply-adds;
 * cpu_seconds() is the process's CPU time. */
#ifndef RECORD_TEST_WORK_H
#define RECORD_TEST_WORK_H

#include <time.h>

static volatile double work_sink;

static __attribute__((noinline, unused)) void spin(long n) {
  double x = work_sink;
  for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9;
  work_sink = x;
}

static __attribute__((unused)) double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
