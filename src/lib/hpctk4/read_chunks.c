/* SPDX-License-Identifier: BSD-3-Clause */
/* hpctk4_chunks: a file's arrays read in order through a reused buffer. */
#include <errno.h>
#include <unistd.h>

#include "hpctk4/hpctk4_read.h"

void hpctk4_chunks_init(hpctk4_chunks *r, int fd, const uint8_t *data, uint64_t len, uint8_t *buf) {
  r->fd = fd;
  r->data = data;
  r->len = len;
  r->buf = fd >= 0 ? buf : NULL;
  r->at = UINT64_MAX; /* nothing buffered: hpctk4_chunk always calls hpctk4_chunks_fill */
  r->n = 0;
}

const uint8_t *hpctk4_chunks_fill(hpctk4_chunks *r, uint64_t off, uint64_t n) {
  uint64_t want = r->len - off < HPCTK4_CHUNK_BYTES ? r->len - off : HPCTK4_CHUNK_BYTES, got = 0;
  if (!r->buf || n > want) return r->data + off;
  while (got < want) {
    ssize_t k = pread(r->fd, r->buf + got, (size_t)(want - got), (off_t)(off + got));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (uint64_t)k;
  }
  if (got < n) { /* the file changed or cannot be read: the mapped bytes from now on */
    r->buf = NULL;
    r->at = UINT64_MAX;
    r->n = 0;
    return r->data + off;
  }
  r->at = off;
  r->n = got;
  return r->buf;
}
