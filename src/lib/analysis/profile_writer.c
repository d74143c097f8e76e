/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.db gets each profile in file order: from a thread of its own when
 * the analysis has several workers (a bounded queue; the pipeline waits when
 * it is full), else at once. Only the writer touches the stream until it is
 * closed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "common/worker.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"

/* A profile's values on their way to profile.db. */
typedef struct write_item {
  uint32_t profile;
  hpcdb_profile csr;
} write_item;

struct profile_writer {
  hpcdb_hpctk4_stream *stream;
  worker_thread writer; /* .started: profiles go through the writer thread */
  int closing;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  write_item *ring;
  size_t cap, head, count;
  int rc;
  char error[1024];
};

void analysis_csr_free(hpcdb_profile *p) {
  free(p->ctx_ids);
  free(p->ctx_starts);
  free(p->metric_ids);
  free(p->values);
  memset(p, 0, sizeof *p);
}

static int store(profile_writer *w, write_item *it) {
  int rc = hpcdb_hpctk4_stream_profile(w->stream, it->profile, &it->csr);
  analysis_csr_free(&it->csr);
  return rc;
}

static void *writer_main(void *arg) {
  profile_writer *w = arg;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (w->count == 0 && !w->closing) pthread_cond_wait(&w->changed, &w->lock);
    if (w->count == 0) break;
    write_item it = w->ring[w->head];
    w->head = (w->head + 1) % w->cap;
    w->count--;
    int failed = w->rc < 0;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    int rc = 0;
    if (failed) analysis_csr_free(&it.csr);
    else rc = store(w, &it);
    pthread_mutex_lock(&w->lock);
    if (rc < 0) {
      w->rc = rc;
      snprintf(w->error, sizeof w->error, "%s", hpcdb_last_error());
    }
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

int profile_writer_open(profile_writer **out, hpcdb_hpctk4_stream *stream, unsigned threads) {
  *out = NULL;
  profile_writer *w = calloc(1, sizeof *w);
  if (!w) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  w->stream = stream;
  if (threads > 1) {
    w->cap = 4 * (size_t)threads;
    if (!(w->ring = calloc(w->cap, sizeof *w->ring))) {
      free(w);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    worker_start(&w->writer, 1, writer_main, w); /* else: stored at once */
  }
  *out = w;
  return 0;
}

int profile_writer_put(profile_writer *w, uint32_t profile, hpcdb_profile *csr) {
  write_item it = {profile, *csr};
  memset(csr, 0, sizeof *csr);
  if (!w->writer.started) return store(w, &it);
  pthread_mutex_lock(&w->lock);
  while (w->count == w->cap && w->rc == 0) pthread_cond_wait(&w->changed, &w->lock);
  int rc = w->rc;
  if (rc == 0) {
    w->ring[(w->head + w->count) % w->cap] = it;
    w->count++;
    pthread_cond_broadcast(&w->changed);
  }
  pthread_mutex_unlock(&w->lock);
  if (rc < 0) {
    analysis_csr_free(&it.csr);
    return hpcdb_fail(rc, "%s", w->error);
  }
  return 0;
}

int profile_writer_close(profile_writer *w) {
  if (!w) return 0;
  int rc = 0;
  if (w->writer.started) {
    pthread_mutex_lock(&w->lock);
    w->closing = 1;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    worker_join(&w->writer);
    if ((rc = w->rc) < 0) rc = hpcdb_fail(rc, "%s", w->error);
  }
  if (w->ring) {
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->changed);
  }
  free(w->ring);
  free(w);
  return rc;
}
