/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.db and cct.db checked side by side: the calling thread checks
 * profile.db while a second thread checks cct.db's header and value blocks
 * (which need only meta.db's facts and profile.db's infos). The second
 * thread's diagnostics wait in a small bounded queue and are reported once
 * profile.db's are, so the output is the sequential one, line for line; the
 * checks that need all of profile.db (nCtxs, the transpose) run after it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpctk4/validate.h"
#include "common/worker.h"

enum { QUEUE_SLOTS = 64 };

typedef struct queued {
  int is_count_check; /* where validate_cct_count's diagnostic belongs */
  hpcdb_severity sev;
  const char *path, *rule; /* both outlive the check: file path, string literal */
  uint64_t off;
  char detail[1024];
} queued;

typedef struct cct_job {
  validator tv;            /* a copy of the validator whose callback queues */
  hpcdb_validation counts; /* the copy's counts: the real ones are kept on delivery */
  vfile *f;
  cct_pass pass;
  int header_ok;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  queued slots[QUEUE_SLOTS];
  unsigned head, n; /* ring buffer */
  int done;
} cct_job;

static void push(cct_job *j, const queued *q) {
  pthread_mutex_lock(&j->lock);
  while (j->n == QUEUE_SLOTS) pthread_cond_wait(&j->changed, &j->lock);
  j->slots[(j->head + j->n) % QUEUE_SLOTS] = *q;
  j->n++;
  pthread_cond_broadcast(&j->changed);
  pthread_mutex_unlock(&j->lock);
}

static void queue_diagnostic(void *user, const hpcdb_diagnostic *d) {
  queued q = {0, d->severity, d->file, d->rule, d->offset, ""};
  snprintf(q.detail, sizeof q.detail, "%s", d->detail);
  push(user, &q);
}

static void *check_cct(void *arg) {
  cct_job *j = arg;
  j->header_ok = validate_cct_header(&j->tv, j->f, &j->pass);
  if (j->header_ok) {
    queued mark = {1, HPCDB_SEV_NOTE, NULL, NULL, 0, ""};
    push(j, &mark);
    validate_cct_values(&j->tv, j->f, &j->pass);
  }
  pthread_mutex_lock(&j->lock);
  j->done = 1;
  pthread_cond_broadcast(&j->changed);
  pthread_mutex_unlock(&j->lock);
  return NULL;
}

/* Reports the queued diagnostics in order until the thread is done. */
static void drain(validator *v, cct_job *j) {
  pthread_mutex_lock(&j->lock);
  for (;;) {
    while (j->n == 0 && !j->done) pthread_cond_wait(&j->changed, &j->lock);
    if (j->n == 0) break;
    queued *q = &j->slots[j->head];
    pthread_mutex_unlock(&j->lock);
    if (q->is_count_check) validate_cct_count(v, j->f, &j->pass);
    else vreport(v, q->sev, q->path, q->off, q->rule, q->detail);
    pthread_mutex_lock(&j->lock);
    j->head = (j->head + 1) % QUEUE_SLOTS;
    j->n--;
    pthread_cond_broadcast(&j->changed);
  }
  pthread_mutex_unlock(&j->lock);
}

void validate_profile_and_cct(validator *v, vfile *prof, vfile *cct) {
  int values = validate_profile_infos(v, prof);
  cct_job *j = malloc(sizeof *j);
  worker_thread thread;
  int started = 0;
  if (j) {
    j->tv = *v;
    j->tv.fn = queue_diagnostic;
    j->tv.user = j;
    j->counts = (hpcdb_validation){0};
    j->tv.result = &j->counts;
    j->f = cct;
    j->head = j->n = 0;
    j->done = j->header_ok = 0;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->changed, NULL);
    started = worker_start(&thread, 1, check_cct, j);
  }
  if (values) validate_profile_values(v, prof);
  v->prof = *prof;
  if (!started) { /* no thread: the sequential order, on this one */
    if (j) {
      pthread_mutex_destroy(&j->lock);
      pthread_cond_destroy(&j->changed);
    }
    free(j);
    validate_cct(v, cct);
    return;
  }
  drain(v, j);
  worker_join(&thread);
  if (j->header_ok) validate_cct_transpose(v, cct, &j->pass);
  pthread_mutex_destroy(&j->lock);
  pthread_cond_destroy(&j->changed);
  free(j);
}
