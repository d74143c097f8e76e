/* SPDX-License-Identifier: BSD-3-Clause */
/* pool: every index from 0 to n - 1 runs once, index 0 on the caller's
 * thread; n of 0 or 1 is the caller alone; n above the limit is clamped;
 * two pools overlap (start one, finish the other). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "common/pool.h"
#include "testlib.h"

typedef struct tally {
  atomic_int calls[POOL_MAX_THREADS];
  atomic_int total;
  pthread_t caller;
  atomic_int zero_on_caller;
} tally;

static void count(void *arg, unsigned t) {
  tally *y = arg;
  atomic_fetch_add(&y->calls[t], 1);
  atomic_fetch_add(&y->total, 1);
  if (t == 0 && pthread_equal(pthread_self(), y->caller)) atomic_store(&y->zero_on_caller, 1);
}

static void reset(tally *y) {
  memset(y, 0, sizeof *y);
  y->caller = pthread_self();
}

int main(void) {
  static tally y;
  static pool p, q;
  unsigned sizes[] = {0, 1, 2, 7};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    reset(&y);
    pool_run(sizes[k], count, &y);
    unsigned n = sizes[k] ? sizes[k] : 1;
    CHECK(atomic_load(&y.total) == (int)n);
    for (unsigned t = 0; t < n; t++) CHECK(atomic_load(&y.calls[t]) == 1);
    CHECK(atomic_load(&y.zero_on_caller) == 1);
  }
  reset(&y);
  pool_run(POOL_MAX_THREADS + 10, count, &y);
  CHECK(atomic_load(&y.total) <= POOL_MAX_THREADS && atomic_load(&y.total) >= 1);

  static tally a, b;
  reset(&a);
  reset(&b);
  pool_start(&p, 3, count, &a);
  pool_start(&q, 3, count, &b);
  pool_finish(&p);
  pool_finish(&q);
  CHECK(atomic_load(&a.total) == 3 && atomic_load(&b.total) == 3);
  return TEST_END();
}
