/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/textout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static void *writer(void *arg) {
  textout *t = arg;
  pthread_mutex_lock(&t->lock);
  for (;;) {
    while (!t->pending && !t->stop) pthread_cond_wait(&t->cond, &t->lock);
    if (!t->pending) break; /* stopped, nothing left */
    const char *p = t->pending;
    size_t n = t->pending_len;
    pthread_mutex_unlock(&t->lock);
    int bad = fwrite(p, 1, n, t->f) != n ? errno : 0;
    pthread_mutex_lock(&t->lock);
    if (!t->write_failed) t->write_failed = bad;
    t->pending = NULL;
    pthread_cond_broadcast(&t->cond);
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

int textout_open(textout *t, FILE *f) {
  t->f = f;
  t->len = 0;
  t->failed = t->write_failed = t->stop = t->writer.started = 0;
  t->pending = NULL;
  t->blocks[0] = malloc(TEXTOUT_BLOCK);
  t->blocks[1] = malloc(TEXTOUT_BLOCK);
  t->buf = t->blocks[0];
  if (!t->blocks[0] || !t->blocks[1]) {
    free(t->blocks[0]);
    free(t->blocks[1]);
    t->buf = t->blocks[0] = t->blocks[1] = NULL;
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the output buffer");
  }
  if (pthread_mutex_init(&t->lock, NULL) != 0) return 0; /* no writer: fwrite in place */
  if (pthread_cond_init(&t->cond, NULL) != 0) {
    pthread_mutex_destroy(&t->lock);
    return 0;
  }
  if (!worker_start(&t->writer, 1, writer, t)) {
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
  }
  return 0;
}

/* Waits until the writer has written the block it holds. */
static void wait_idle(textout *t) {
  while (t->pending) pthread_cond_wait(&t->cond, &t->lock);
}

void textout_flush(textout *t) {
  if (!t->len) return;
  if (!t->writer.started) {
    if (fwrite(t->buf, 1, t->len, t->f) != t->len && !t->failed) t->failed = errno;
    t->len = 0;
    return;
  }
  pthread_mutex_lock(&t->lock);
  wait_idle(t); /* the other block is free again */
  t->pending = t->buf;
  t->pending_len = t->len;
  pthread_cond_broadcast(&t->cond);
  pthread_mutex_unlock(&t->lock);
  t->buf = t->buf == t->blocks[0] ? t->blocks[1] : t->blocks[0];
  t->len = 0;
}

void textout_put_slow(textout *t, const char *s, size_t n) {
  while (n > 0) {
    size_t room = TEXTOUT_BLOCK - t->len, take = n < room ? n : room;
    memcpy(t->buf + t->len, s, take);
    t->len += take;
    s += take;
    n -= take;
    if (t->len == TEXTOUT_BLOCK) textout_flush(t);
  }
}

int textout_close(textout *t) {
  textout_flush(t);
  if (t->writer.started) {
    pthread_mutex_lock(&t->lock);
    wait_idle(t);
    t->stop = 1;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
    worker_join(&t->writer);
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    if (!t->failed) t->failed = t->write_failed;
  }
  if ((fflush(t->f) != 0 || ferror(t->f)) && !t->failed) t->failed = errno;
  free(t->blocks[0]);
  free(t->blocks[1]);
  t->buf = t->blocks[0] = t->blocks[1] = NULL;
  return t->failed ? hpcdb_fail(HPCDB_EIO, "error writing the output: %s", strerror(t->failed)) : 0;
}
