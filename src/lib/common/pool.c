/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/pool.h"

#include <stdlib.h>

static void *pool_main(void *arg) {
  pool_thread *th = arg;
  th->p->fn(th->p->arg, th->t);
  return NULL;
}

void pool_start(pool *p, unsigned n, void (*fn)(void *arg, unsigned t), void *arg) {
  p->fn = fn;
  p->arg = arg;
  p->started = 0;
  if (n > POOL_MAX_THREADS) n = POOL_MAX_THREADS;
  for (unsigned t = 1; t < n; t++) {
    pool_thread *th = &p->threads[t];
    th->p = p;
    th->t = t;
    if (pthread_create(&th->tid, NULL, pool_main, th) != 0) break;
    p->started = t;
  }
}

void pool_finish(pool *p) {
  p->fn(p->arg, 0);
  for (unsigned t = 1; t <= p->started; t++) pthread_join(p->threads[t].tid, NULL);
  p->started = 0;
}

void pool_run(unsigned n, void (*fn)(void *arg, unsigned t), void *arg) {
  pool *p = malloc(sizeof *p);
  if (!p) {
    fn(arg, 0); /* no room to start threads: the caller's thread does it all */
    return;
  }
  pool_start(p, n, fn, arg);
  pool_finish(p);
  free(p);
}
