/* SPDX-License-Identifier: BSD-3-Clause */
/* A growable byte buffer for the Cube writer; a failed allocation is
 * remembered and reported once, when the buffer is used. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/huge_pages.h"
#include "cube/cube_write.h"

static int grow(cube_buf *b, size_t n) {
  if (b->failed) return 0;
  if (n <= b->cap - b->len) return 1;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap - b->len < n) {
    if (cap > SIZE_MAX / 2) return !(b->failed = 1);
    cap *= 2;
  }
  uint8_t *d = realloc(b->data, cap);
  if (!d) return !(b->failed = 1);
  huge_pages_advise(d, cap); /* anchor.xml is ~0.5 KB per cnode: MBs of fresh pages, one fault per 2 MiB */
  b->data = d;
  b->cap = cap;
  return 1;
}

void cube_buf_put(cube_buf *b, const void *data, size_t n) {
  if (!n || !grow(b, n)) return;
  memcpy(b->data + b->len, data, n);
  b->len += n;
}

void cube_buf_printf(cube_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !grow(b, (size_t)n + 1)) return;
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void cube_buf_escaped(cube_buf *b, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '&') cube_buf_put(b, "&amp;", 5);
    else if (c == '<') cube_buf_put(b, "&lt;", 4);
    else if (c == '>') cube_buf_put(b, "&gt;", 4);
    else if (c == '"') cube_buf_put(b, "&quot;", 6);
    else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') continue; /* not allowed in XML 1.0 */
    else if (c == '\t' || c == '\n' || c == '\r') cube_buf_printf(b, "&#%u;", c);
    else cube_buf_put(b, s, 1);
  }
}

void cube_buf_free(cube_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}
