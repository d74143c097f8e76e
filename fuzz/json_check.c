/* SPDX-License-Identifier: BSD-3-Clause */
/* A recursive-descent JSON recogniser; depth bounded, nothing allocated. */
#include "json_check.h"

#include <string.h>

typedef struct cursor {
  const char *p, *end;
  int depth;
} cursor;

static int value(cursor *c);

static void space(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static int take(cursor *c, char ch) {
  space(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static int string(cursor *c) {
  if (!take(c, '"')) return 0;
  while (c->p < c->end) {
    unsigned char ch = (unsigned char)*c->p++;
    if (ch == '"') return 1;
    if (ch < 0x20) return 0; /* control characters must be escaped */
    if (ch != '\\') continue;
    if (c->p >= c->end) return 0;
    char e = *c->p++;
    if (e == 'u') {
      for (int k = 0; k < 4; k++, c->p++)
        if (c->p >= c->end || !strchr("0123456789abcdefABCDEF", *c->p) || !*c->p) return 0;
    } else if (!strchr("\"\\/bfnrt", e) || !e) {
      return 0;
    }
  }
  return 0;
}

static int digits(cursor *c) {
  const char *at = c->p;
  while (c->p < c->end && is_digit(*c->p)) c->p++;
  return c->p > at;
}

static int number(cursor *c) {
  if (c->p < c->end && *c->p == '-') c->p++;
  if (c->p < c->end && *c->p == '0') c->p++;
  else if (!digits(c)) return 0;
  if (c->p < c->end && *c->p == '.' && (c->p++, !digits(c))) return 0;
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
    c->p++;
    if (c->p < c->end && (*c->p == '+' || *c->p == '-')) c->p++;
    if (!digits(c)) return 0;
  }
  return 1;
}

static int word(cursor *c, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n)) return 0;
  c->p += n;
  return 1;
}

static int members(cursor *c, char close, int object) {
  if (++c->depth > 200) return 0;
  if (take(c, close)) return c->depth--, 1;
  do {
    if (object && (!string(c) || !take(c, ':'))) return 0;
    if (!value(c)) return 0;
  } while (take(c, ','));
  c->depth--;
  return take(c, close);
}

static int value(cursor *c) {
  space(c);
  if (c->p >= c->end) return 0;
  switch (*c->p) {
  case '{': c->p++; return members(c, '}', 1);
  case '[': c->p++; return members(c, ']', 0);
  case '"': return string(c);
  case 't': return word(c, "true");
  case 'f': return word(c, "false");
  case 'n': return word(c, "null");
  default: return number(c);
  }
}

int json_valid(const char *text, size_t len) {
  cursor c = {text, text + len, 0};
  if (!value(&c)) return 0;
  space(&c);
  return c.p == c.end;
}
