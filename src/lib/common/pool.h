/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's fork-join: fn(arg, t) on n threads at once, the caller's
 * being t = 0. A thread the system cannot start is skipped, since every
 * parallel step here shares its work out through a queue: fewer threads only
 * means slower. pool_start and pool_finish apart let the caller start the
 * next step's threads while it finishes this one (struct's pipeline). */
#ifndef HPCDB_COMMON_POOL_H
#define HPCDB_COMMON_POOL_H

#include <pthread.h>

enum { POOL_MAX_THREADS = 256 };

typedef struct pool pool;
typedef struct pool_thread {
  pool *p;
  unsigned t;
  pthread_t tid;
} pool_thread;

struct pool {
  void (*fn)(void *arg, unsigned t);
  void *arg;
  unsigned started; /* threads t = 1 .. started run fn */
  pool_thread threads[POOL_MAX_THREADS];
};

/* Starts fn(arg, t) for t = 1 .. n - 1 (n at most POOL_MAX_THREADS). */
void pool_start(pool *p, unsigned n, void (*fn)(void *arg, unsigned t), void *arg);
/* Runs fn(arg, 0) on the calling thread, then waits for the started ones. */
void pool_finish(pool *p);
/* Both: returns when every thread has returned from fn. */
void pool_run(unsigned n, void (*fn)(void *arg, unsigned t), void *arg);

#endif
