/* SPDX-License-Identifier: BSD-3-Clause */
/* JSON text into a growing buffer. */
#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(jbuf *b, size_t more) {
  if (b->failed) return -1;
  if (b->n + more + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->n + more + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) {
    b->failed = 1;
    return -1;
  }
  b->p = p;
  b->cap = cap;
  return 0;
}

void jb_raw(jbuf *b, const char *s) {
  size_t n = strlen(s);
  if (grow(b, n) < 0) return;
  memcpy(b->p + b->n, s, n + 1);
  b->n += n;
}

void jb_fmt(jbuf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    jb_raw(b, small);
    return;
  }
  if (grow(b, (size_t)n) < 0) return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

void jb_str(jbuf *b, const char *s) {
  jb_raw(b, "\"");
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"') jb_raw(b, "\\\"");
    else if (c == '\\') jb_raw(b, "\\\\");
    else if (c == '\n') jb_raw(b, "\\n");
    else if (c == '\t') jb_raw(b, "\\t");
    else if (c < 0x20 || c == '<' || c == '>' || c == '&') jb_fmt(b, "\\u%04x", c); /* never markup in a response */
    else {
      char one[2] = {(char)c, 0};
      jb_raw(b, one);
    }
  }
  jb_raw(b, "\"");
}

void jb_num(jbuf *b, double v) {
  if (!isfinite(v) || v == 0) v = 0; /* never -0 */
  char s[32];
  snprintf(s, sizeof s, "%.17g", v);
  double back = strtod(s, NULL);
  for (int p = 6; p < 17; p++) { /* the shortest text that reads back the same */
    char t[32];
    snprintf(t, sizeof t, "%.*g", p, v);
    if (strtod(t, NULL) == back) {
      jb_raw(b, t);
      return;
    }
  }
  jb_raw(b, s);
}

void jb_value(jbuf *b, double v, int is_unsigned) {
  if (!is_unsigned || !(v < 0 && v >= -9223372036854775808.0 && v == floor(v))) {
    jb_num(b, v);
    return;
  }
  jb_fmt(b, "%llu", (unsigned long long)(uint64_t)(int64_t)v);
}

void jb_free(jbuf *b) {
  free(b->p);
  b->p = NULL;
  b->n = b->cap = 0;
}
