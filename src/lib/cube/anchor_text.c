/* SPDX-License-Identifier: BSD-3-Clause */
/* anchor.xml's text before expat sees it: gzip-compressed anchors inflated,
 * and CubeW's unquoted attribute values quoted (used by anchor.c). */
#define ZLIB_CONST /* zlib's input pointer is const (its own option) */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/error.h"
#include "cube/cube.h"

/* CubeW writes some attribute values without quotes (name=value): quote
 * them so expat reads the file. Only inside tags, outside quoted values. */
int cube_anchor_quote_bare_values(const uint8_t *in_, size_t len, char **out, size_t *out_len) {
  const char *s = (const char *)in_;
  char *o = malloc(len * 3 / 2 + 16);
  if (!o) return HPCDB_ENOMEM;
  size_t n = 0, cap = len * 3 / 2 + 16;
  int tag = 0;
  char quote = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (n + 4 > cap) {
      char *g = realloc(o, cap * 2);
      if (!g) {
        free(o);
        return HPCDB_ENOMEM;
      }
      o = g;
      cap *= 2;
    }
    if (quote) {
      if (c == quote) quote = 0;
    } else if (tag && (c == '"' || c == '\'')) {
      quote = c;
    } else if (c == '<') {
      tag = !(i + 1 < len && (s[i + 1] == '!' || s[i + 1] == '?'));
    } else if (c == '>') {
      tag = 0;
    } else if (tag && c == '=' && i + 1 < len && s[i + 1] != '"' && s[i + 1] != '\'') {
      o[n++] = '=';
      o[n++] = '"';
      while (i + 1 < len && s[i + 1] != ' ' && s[i + 1] != '>' && s[i + 1] != '\t' && s[i + 1] != '\n' &&
             !(s[i + 1] == '/' && i + 2 < len && s[i + 2] == '>')) {
        if (n + 4 > cap) {
          char *g = realloc(o, cap * 2);
          if (!g) {
            free(o);
            return HPCDB_ENOMEM;
          }
          o = g;
          cap *= 2;
        }
        o[n++] = s[++i];
      }
      o[n++] = '"';
      continue;
    }
    o[n++] = c;
  }
  *out = o;
  *out_len = n;
  return 0;
}

/* Whether cube_anchor_quote_bare_values would change anything: only an '=' not followed
 * by a quote can be a bare value (looked for only when a parse has failed). */
int cube_anchor_has_bare_values(const uint8_t *s, size_t len) {
  for (const uint8_t *p = s, *end = s + len; (p = memchr(p, '=', (size_t)(end - p))) != NULL; p++)
    if (p + 1 == end || (p[1] != '"' && p[1] != '\'')) return 1;
  return 0;
}

/* gzip-compressed anchor.xml into a malloc'ed buffer. */
int cube_anchor_gunzip(const uint8_t *in_, size_t len, uint8_t **out, size_t *out_len, const char *path) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return hpcdb_fail(HPCDB_ENOMEM, "zlib init failed");
  size_t cap = len * 4 + 1024, n = 0;
  uint8_t *o = malloc(cap);
  int rc = Z_OK;
  z.next_in = in_;
  z.avail_in = (uInt)len;
  while (o && rc == Z_OK) {
    if (n == cap) {
      uint8_t *g = cap < (1u << 30) ? realloc(o, cap * 2) : NULL;
      if (!g) {
        free(o);
        o = NULL;
        break;
      }
      o = g;
      cap *= 2;
    }
    z.next_out = o + n;
    z.avail_out = (uInt)(cap - n);
    rc = inflate(&z, Z_NO_FLUSH);
    n = cap - z.avail_out;
  }
  inflateEnd(&z);
  if (!o) return hpcdb_fail(HPCDB_ENOMEM, "%s: anchor.xml too large", path);
  if (rc != Z_STREAM_END) {
    free(o);
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "anchor.xml", 0, "gzip", "broken gzip stream");
  }
  *out = o;
  *out_len = n;
  return 0;
}
