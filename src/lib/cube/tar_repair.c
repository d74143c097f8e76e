/* SPDX-License-Identifier: BSD-3-Clause */
/* The tar stream of a .cubex on its way into libarchive's tar reader, with
 * CubeW 4.8's header checksum bug mended: that writer stores, for some
 * members, a checksum exactly 32 below the right one (specs/README.md).
 * CubeLib and pycubexr read such files; libarchive takes the header for
 * damage and skips the member. Only a header whose stored checksum is the
 * right one minus 32 is changed (and counted); any other mismatch reaches
 * libarchive as it is and is refused there.
 *
 * The file is decompressed first (libarchive's filters, "raw" format), then
 * handed to the tar reader in 512-byte-aligned pieces; the headers are found
 * by following each member's size (ustar octal or base-256, or a pax `size`
 * record before it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "cube/cube.h"

#define BLOCK 512u
#define CHUNK (1u << 16)
#define PAX_MAX (1u << 20) /* a pax header larger than this is not looked into */

typedef struct tar_stream {
  struct archive *raw; /* the decompressed file */
  uint8_t *buf;
  size_t len, cap;
  uint64_t base;        /* stream offset of buf[0] */
  uint64_t next_header; /* stream offset of the next header block */
  uint64_t pax_size;    /* a pending pax `size` for the next member, or UINT64_MAX */
  int eof;
  uint32_t *repaired; /* the caller's count, or NULL */
} tar_stream;

static uint64_t octal(const uint8_t *p, size_t n, int *ok) {
  uint64_t v = 0;
  size_t i = 0;
  while (i < n && p[i] == ' ') i++;
  size_t first = i;
  for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) v = v << 3 | (uint64_t)(p[i] - '0');
  *ok = i > first && (i == n || p[i] == ' ' || p[i] == 0);
  return v;
}

/* The size field: octal, or base-256 when its first byte has the top bit. */
static uint64_t size_field(const uint8_t *h) {
  int ok;
  if (h[124] & 0x80) {
    uint64_t v = 0;
    for (int i = 4; i < 12; i++) v = v << 8 | h[124 + i];
    return v;
  }
  uint64_t v = octal(h + 124, 12, &ok);
  return ok ? v : 0;
}

/* The `size=` record of a pax header's data, or UINT64_MAX. */
static uint64_t pax_size(const uint8_t *p, size_t n) {
  size_t at = 0;
  while (at < n) {
    size_t len = 0, i = at;
    while (i < n && p[i] >= '0' && p[i] <= '9' && len < n) len = len * 10 + (size_t)(p[i++] - '0');
    if (i >= n || p[i] != ' ' || len == 0 || len > n - at) return UINT64_MAX;
    const uint8_t *kv = p + i + 1, *end = p + at + len;
    if (end - kv > 5 && !memcmp(kv, "size=", 5)) {
      uint64_t v = 0;
      for (kv += 5; kv < end && *kv >= '0' && *kv <= '9'; kv++) v = v * 10 + (uint64_t)(*kv - '0');
      return v;
    }
    at += len;
  }
  return UINT64_MAX;
}

/* Mends a header block whose checksum is CubeW 4.8's (the right one - 32). */
static void mend(tar_stream *s, uint8_t *h) {
  unsigned sum = 0;
  int ssum = 0, ok;
  for (unsigned i = 0; i < BLOCK; i++) {
    uint8_t b = i >= 148 && i < 156 ? ' ' : h[i];
    sum += b;
    ssum += (signed char)b;
  }
  uint64_t stored = octal(h + 148, 8, &ok);
  if (!ok || stored == sum || (int64_t)stored == ssum || stored + 32 != sum) return;
  char field[9];
  snprintf(field, sizeof field, "%06o", sum & 0777777u);
  memcpy(h + 148, field, 6);
  h[154] = 0, h[155] = ' ';
  if (s->repaired) (*s->repaired)++;
}

/* Reads until buf holds `want` bytes or the stream ends. */
static int fill(tar_stream *s, size_t want) {
  const archive_lib *al = archive_lib_loaded();
  if (want > s->cap) {
    uint8_t *b = realloc(s->buf, want);
    if (!b) return -1;
    s->buf = b, s->cap = want;
  }
  while (s->len < want && !s->eof) {
    la_ssize_t got = al->read_data(s->raw, s->buf + s->len, want - s->len);
    if (got < 0) return -1;
    if (got == 0) s->eof = 1;
    s->len += (size_t)got;
  }
  return 0;
}

/* The headers that start in buf, mended; the member sizes say where the next one is. */
static int walk_headers(tar_stream *s) {
  while (s->next_header >= s->base && s->next_header - s->base <= s->len &&
         s->len - (s->next_header - s->base) >= BLOCK) {
    uint8_t *h = s->buf + (s->next_header - s->base);
    uint64_t size = 0;
    static const uint8_t zero[BLOCK];
    if (memcmp(h, zero, BLOCK) != 0) {
      mend(s, h);
      uint8_t type = h[156];
      size = type == '1' || type == '2' || type == '3' || type == '4' || type == '5' || type == '6' ? 0 : size_field(h);
      if (s->pax_size != UINT64_MAX && type != 'x' && type != 'g') size = s->pax_size, s->pax_size = UINT64_MAX;
      if (type == 'x' && size <= PAX_MAX) { /* its records, whole, before the next header */
        size_t end = (size_t)(s->next_header - s->base) + BLOCK + (size_t)size;
        end += (BLOCK - end % BLOCK) % BLOCK; /* buf stays a whole number of blocks */
        if (end > s->len && fill(s, end) < 0) return -1;
        h = s->buf + (s->next_header - s->base);
        if (end <= s->len) s->pax_size = pax_size(h + BLOCK, (size_t)size);
      }
    }
    uint64_t blocks = size / BLOCK + (size % BLOCK != 0);
    if (blocks > (UINT64_MAX - s->next_header) / BLOCK - 1) {
      s->next_header = UINT64_MAX; /* nonsense: libarchive says so */
      break;
    }
    s->next_header += BLOCK * (blocks + 1);
  }
  return 0;
}

static la_ssize_t stream_read(struct archive *ar, void *user, const void **out) {
  const archive_lib *al = archive_lib_loaded();
  tar_stream *s = user;
  s->base += s->len;
  s->len = 0;
  if (fill(s, CHUNK) < 0 || walk_headers(s) < 0) {
    al->set_error(ar, EIO, "%s", al->error_string(s->raw) ? al->error_string(s->raw) : "out of memory");
    return -1;
  }
  *out = s->buf;
  return (la_ssize_t)s->len;
}

static int stream_close(struct archive *ar, void *user) {
  const archive_lib *al = archive_lib_loaded();
  (void)ar;
  tar_stream *s = user;
  al->read_free(s->raw);
  free(s->buf);
  free(s);
  return ARCHIVE_OK;
}

int cube_open_archive_counting(struct archive **out, const char *path, uint32_t *repaired) {
  const archive_lib *al = archive_lib_open(path);
  if (!al) return HPCDB_EIO;
  tar_stream *s = calloc(1, sizeof *s);
  struct archive *ar = al->read_new();
  if (s) s->raw = al->read_new(), s->pax_size = UINT64_MAX, s->repaired = repaired;
  if (!s || !s->raw || !ar) {
    if (s) al->read_free(s->raw);
    free(s);
    al->read_free(ar);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  struct archive_entry *e;
  al->read_support_filter_all(s->raw);
  al->read_support_format_raw(s->raw);
  if (al->read_open_filename(s->raw, path, CHUNK) != ARCHIVE_OK || al->read_next_header(s->raw, &e) != ARCHIVE_OK) {
    int rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a readable tar archive: %s", path, al->error_string(s->raw));
    stream_close(NULL, s);
    al->read_free(ar);
    return rc;
  }
  al->read_support_format_tar(ar);
  if (al->read_open(ar, s, NULL, stream_read, stream_close) != ARCHIVE_OK) { /* closes s */
    int rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a readable tar archive: %s", path, al->error_string(ar));
    al->read_free(ar);
    return rc;
  }
  *out = ar;
  return 0;
}
