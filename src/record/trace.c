/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread .hpctrace: (time, context id) records gathered in a buffer and
 * written in blocks with write(2) (async-signal-safe) to a temporary file,
 * renamed to its final name when the thread's measurement is complete.
 * Format 01.01: 32-byte header, 12-byte big-endian records. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record.h"

static void be64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}
static void be32(uint8_t *p, uint32_t v) {
  for (int i = 3; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

static void write_all(rec_trace *tr, const uint8_t *p, size_t n) {
  while (n && !tr->failed) {
    ssize_t w = write(tr->fd, p, n);
    if (w < 0) {
      tr->failed = 1;
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

int rec_trace_open(rec_thread *t, const char *final_path) {
  rec_trace *tr = &t->trace;
  memset(tr, 0, sizeof *tr);
  tr->fd = -1;
  size_t n = strlen(final_path) + 8;
  tr->final_path = strdup(final_path);
  tr->tmp_path = malloc(n);
  tr->buf = mmap(NULL, REC_TRACE_BUF * 12, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!tr->final_path || !tr->tmp_path || tr->buf == MAP_FAILED) goto fail;
  snprintf(tr->tmp_path, n, "%s.part", final_path);
  tr->fd = open(tr->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tr->fd < 0) goto fail;
  uint8_t head[32] = "HPCRUN-trace______01.01b";
  memset(head + 24, 0, 8); /* flags: no data-centric metric ids */
  write_all(tr, head, sizeof head);
  return tr->failed ? -1 : 0;
fail:
  rec_warn("cannot create the trace file", final_path);
  if (tr->buf == MAP_FAILED) tr->buf = NULL;
  tr->failed = 1;
  return -1;
}

void rec_trace_append(rec_thread *t, uint64_t time_ns, uint32_t node_id) {
  rec_trace *tr = &t->trace;
  if (tr->failed || !tr->buf) return;
  if (time_ns < tr->max_time) time_ns = tr->max_time; /* keep the records in order */
  if (!tr->min_time) tr->min_time = time_ns;
  tr->max_time = time_ns;
  uint8_t *r = tr->buf + (size_t)tr->n * 12;
  be64(r, time_ns);
  be32(r + 8, node_id);
  if (++tr->n == REC_TRACE_BUF) {
    write_all(tr, tr->buf, (size_t)tr->n * 12);
    tr->n = 0;
  }
}

void rec_trace_close(rec_thread *t) {
  rec_trace *tr = &t->trace;
  if (tr->fd >= 0) {
    if (tr->n) write_all(tr, tr->buf, (size_t)tr->n * 12);
    tr->n = 0;
    if (fsync(tr->fd) < 0) tr->failed = 1;
    close(tr->fd);
    tr->fd = -1;
    if (!tr->failed && rename(tr->tmp_path, tr->final_path) < 0) tr->failed = 1;
    if (tr->failed) {
      unlink(tr->tmp_path);
      rec_warn("cannot write the trace file", tr->final_path);
    }
  }
}

void rec_trace_free(rec_thread *t) {
  rec_trace *tr = &t->trace;
  if (tr->buf) munmap(tr->buf, REC_TRACE_BUF * 12);
  free(tr->tmp_path);
  free(tr->final_path);
  tr->buf = NULL;
  tr->tmp_path = tr->final_path = NULL;
}
