/* SPDX-License-Identifier: BSD-3-Clause */
/* Text output in large blocks: writers append into a 1 MiB buffer (numbers
 * formatted in place by dtoa.h, no printf per value); a full buffer goes to
 * a writer thread, which hands it to the FILE with one fwrite while the next
 * block is formatted (the kernel's copy into the page cache then overlaps the
 * formatting). Between open and close only the textout writes to the FILE. */
#ifndef HPCDB_TEXTOUT_H
#define HPCDB_TEXTOUT_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/dtoa.h"
#include "common/worker.h"

#define TEXTOUT_BLOCK (1u << 20)

typedef struct textout {
  FILE *f;
  char *buf; /* the block being filled: one of blocks */
  size_t len;
  int failed; /* the errno of the first write that failed (0: none) */
  char *blocks[2];
  /* the writer thread: pending is the block it writes (NULL: idle) */
  worker_thread writer; /* .started: blocks go through the writer thread */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  const char *pending;
  size_t pending_len;
  int stop, write_failed; /* write_failed: as failed, in the writer thread */
} textout;

/* 0, or HPCDB_ENOMEM (message set). */
int textout_open(textout *t, FILE *f);
/* Hands the block to the writer (or writes it) and starts the next one. */
void textout_flush(textout *t);
/* Flushes (also the FILE), stops the writer and frees; 0, or HPCDB_EIO when anything failed. */
int textout_close(textout *t);
void textout_put_slow(textout *t, const char *s, size_t n);

/* Room for n <= 4096 more bytes at the returned pointer; advance with t->len += used. */
static inline char *textout_room(textout *t, size_t n) {
  if (TEXTOUT_BLOCK - t->len < n) textout_flush(t);
  return t->buf + t->len;
}

static inline void textout_put(textout *t, const char *s, size_t n) {
  if (n <= TEXTOUT_BLOCK - t->len) {
    memcpy(t->buf + t->len, s, n);
    t->len += n;
  } else {
    textout_put_slow(t, s, n);
  }
}

static inline void textout_str(textout *t, const char *s) { textout_put(t, s, strlen(s)); }

static inline void textout_char(textout *t, char c) {
  if (t->len == TEXTOUT_BLOCK) textout_flush(t);
  t->buf[t->len++] = c;
}

static inline void textout_u64(textout *t, uint64_t v) { t->len += fmt_u64(textout_room(t, DTOA_BUF), v); }
static inline void textout_i64(textout *t, int64_t v) { t->len += fmt_i64(textout_room(t, DTOA_BUF), v); }
static inline void textout_double(textout *t, double v) { t->len += fmt_double(textout_room(t, DTOA_BUF), v); }

#endif
