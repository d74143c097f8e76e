/* SPDX-License-Identifier: BSD-3-Clause */
/* One helper thread beside the caller (worker.h). */
#include "common/worker.h"

int worker_start(worker_thread *w, int want, void *(*fn)(void *), void *arg) {
  w->started = want && pthread_create(&w->tid, NULL, fn, arg) == 0;
  return w->started;
}

void worker_join(worker_thread *w) {
  if (w->started) pthread_join(w->tid, NULL);
  w->started = 0;
}
