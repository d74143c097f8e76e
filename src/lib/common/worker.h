/* SPDX-License-Identifier: BSD-3-Clause */
/* One helper thread beside the caller: the library's parallel steps split
 * their work in two (or hand a stage to a thread) and go on alone when no
 * thread can be started. worker_start says which happened; worker_join waits
 * for a started one. */
#ifndef HPCDB_COMMON_WORKER_H
#define HPCDB_COMMON_WORKER_H

#include <pthread.h>

typedef struct worker_thread {
  pthread_t tid;
  int started;
} worker_thread;

/* Runs fn(arg) on a thread of its own when want is non-zero: 1 when it runs
 * there, 0 when the caller must do that share itself (want was 0, or the
 * system gave no thread). */
int worker_start(worker_thread *w, int want, void *(*fn)(void *), void *arg);
/* Waits for the thread worker_start started; nothing when it started none. */
void worker_join(worker_thread *w);

#endif
