/* SPDX-License-Identifier: BSD-3-Clause */
/* Byte buffer addressed by file offsets, string tables, the common header. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/huge_pages.h"
#include "hpctk4/hpctk4_write.h"

static int hpctk4_wbuf_grow(hpctk4_wbuf *b, uint64_t need) {
  if (need <= b->cap) return 0;
  uint64_t cap = b->cap ? b->cap : 4096;
  while (cap < need) {
    if (cap > UINT64_MAX / 2)
      return hpcdb_fail(HPCDB_ENOMEM, "output of %llu bytes is too large", (unsigned long long)need);
    cap *= 2;
  }
  if (cap > SIZE_MAX) return hpcdb_fail(HPCDB_ENOMEM, "output of %llu bytes is too large", (unsigned long long)need);
  uint8_t *p = realloc(b->data, (size_t)cap);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu bytes of output", (unsigned long long)cap);
  huge_pages_advise(p, (size_t)cap);
  b->data = p;
  b->cap = cap;
  return 0;
}

int hpctk4_wbuf_alloc(hpctk4_wbuf *b, uint64_t n, uint64_t align, uint64_t *off) {
  uint64_t start = (b->len + align - 1) / align * align, end;
  if (start < b->len || !add_ok(start, n, &end)) return hpcdb_fail(HPCDB_ENOMEM, "output of more than 2^64 bytes");
  HPCDB_TRY(hpctk4_wbuf_grow(b, end));
  memset(b->data + b->len, 0, (size_t)(end - b->len));
  b->len = end;
  if (off) *off = start;
  return 0;
}

int hpctk4_wbuf_align(hpctk4_wbuf *b, uint64_t align) { return hpctk4_wbuf_alloc(b, 0, align, NULL); }

void hpctk4_wbuf_free(hpctk4_wbuf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

int hpctk4_strtab_put(hpctk4_strtab *t, const char *s, uint64_t *off) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  uint64_t h = hash_bytes(s, n), prev;
  if (u64map_get(&t->seen, h, &prev) && strcmp((const char *)t->buf->data + prev, s) == 0) {
    *off = prev;
    return 0;
  }
  HPCDB_TRY(hpctk4_wbuf_alloc(t->buf, n, 1, off));
  memcpy(t->buf->data + *off, s, n);
  /* On a hash collision the newer copy takes the slot; both stay valid. */
  if (u64map_put(&t->seen, h, *off) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a string table");
  return 0;
}

void hpctk4_strtab_free(hpctk4_strtab *t) { u64map_free(&t->seen); }

void hpctk4_write_header(uint8_t *p, const char format[4]) {
  memcpy(p, "HPCTOOLKIT", 10);
  memcpy(p + 10, format, 4);
  p[14] = 4;
  p[15] = 0;
}

void hpctk4_set_section(uint8_t *header, unsigned index, uint64_t size, uint64_t offset) {
  wr_le64(header + 16 + 16 * index, size);
  wr_le64(header + 24 + 16 * index, offset);
}
