/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* memmem */
/* The cnode tree of anchor.xml found without an XML parser: the tags
 * <cnode ...>, <cnode .../> and </cnode> in order, outside comments, CDATA
 * sections and processing instructions (elsewhere XML has no '<' but a
 * tag's). A few milliseconds for what expat takes tens of milliseconds over,
 * so that the early sums (early_sums.c) can start at once; the reader uses
 * them only once expat's tree has been found to be this one. */
#include <stdlib.h>
#include <string.h>

#include "cube/early_sums.h"

static int starts(const uint8_t *p, const uint8_t *end, const char *s) {
  size_t n = strlen(s);
  return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* Just past the first `close` at or after p; NULL when there is none. */
static const uint8_t *past(const uint8_t *p, const uint8_t *end, const char *close) {
  size_t n = strlen(close);
  const uint8_t *q = memmem(p, (size_t)(end - p), close, n);
  return q ? q + n : NULL;
}

/* A name ends at white space, '>' or '/'. */
static int name_ends(const uint8_t *p, const uint8_t *end) {
  return p == end || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '>' || *p == '/';
}

/* The '>' that ends the tag whose attributes start at p (quoted values may
 * hold '>'); NULL when the document ends first. */
static const uint8_t *tag_end(const uint8_t *p, const uint8_t *end) {
  for (char quote = 0; p < end; p++) {
    if (quote) quote = *p == quote ? 0 : quote;
    else if (*p == '"' || *p == '\'') quote = (char)*p;
    else if (*p == '>') return p;
  }
  return NULL;
}

typedef struct growing {
  uint32_t *items;
  uint32_t n, cap;
} growing;

static int append(growing *g, uint32_t v) {
  if (g->n == g->cap) {
    uint32_t cap = g->cap ? 2 * g->cap : 1024;
    uint32_t *items = cap > g->cap ? realloc(g->items, (size_t)cap * sizeof *items) : NULL;
    if (!items) return 0;
    g->items = items, g->cap = cap;
  }
  g->items[g->n++] = v;
  return 1;
}

int cube_scan_cnode_tree(const uint8_t *xml, size_t len, uint32_t **parent, uint32_t *n) {
  growing parents = {0}, open = {0}; /* each cnode's parent; the cnodes not yet closed */
  const uint8_t *p = xml, *end = xml + len;
  int ok = !(len >= 2 && xml[0] == 0x1f && xml[1] == 0x8b); /* gzip-compressed: expat's alone */
  while (ok && (p = memchr(p, '<', (size_t)(end - p))) != NULL) {
    if (starts(p, end, "<!--")) p = past(p + 4, end, "-->");
    else if (starts(p, end, "<![CDATA[")) p = past(p + 9, end, "]]>");
    else if (starts(p, end, "<?")) p = past(p + 2, end, "?>");
    else if (starts(p, end, "<!")) ok = 0; /* a DOCTYPE: its internal subset is not scanned */
    else if (starts(p, end, "</cnode") && name_ends(p + 7, end)) {
      ok = open.n > 0;
      if (ok) open.n--;
      p += 7;
    } else if (starts(p, end, "<cnode") && name_ends(p + 6, end)) {
      const uint8_t *gt = tag_end(p + 6, end);
      ok = gt && append(&parents, open.n ? open.items[open.n - 1] : UINT32_MAX) &&
           (gt[-1] == '/' || append(&open, parents.n - 1));
      p = gt ? gt + 1 : end;
    } else {
      p++;
    }
    ok = ok && p != NULL;
  }
  ok = ok && open.n == 0;
  free(open.items);
  if (!ok) {
    free(parents.items);
    return 0;
  }
  *parent = parents.items;
  *n = parents.n;
  return 1;
}

/* The trimmed text of the first <tag>text</tag> in [p, end); NULL when
 * there is none, or the text holds markup or a reference ('<', '&'). */
static char *text_of(const uint8_t *p, const uint8_t *end, const char *open, const char *close) {
  const uint8_t *a = memmem(p, (size_t)(end - p), open, strlen(open)), *z;
  if (!a) return NULL;
  a += strlen(open);
  z = memchr(a, '<', (size_t)(end - a));
  if (!z || !starts(z, end, close) || memchr(a, '&', (size_t)(z - a))) return NULL;
  while (a < z && (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r')) a++;
  while (z > a && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\n' || z[-1] == '\r')) z--;
  char *t = malloc((size_t)(z - a) + 1);
  if (t) memcpy(t, a, (size_t)(z - a)), t[z - a] = 0;
  return t;
}

/* The value of attribute id="..." in the tag [p, gt). */
static int id_of(const uint8_t *p, const uint8_t *gt, unsigned long *id) {
  for (; (p = memmem(p, (size_t)(gt - p), "id=", 3)) != NULL; p += 3)
    if (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r') {
      p += 3 + (p[3] == '"' || p[3] == '\'');
      if (p >= gt || *p < '0' || *p > '9') return 0;
      for (*id = 0; p < gt && *p >= '0' && *p <= '9' && *id < 1ul << 32; p++)
        *id = *id * 10 + (unsigned long)(*p - '0');
      return 1;
    }
  return 0;
}

char *cube_scan_metric_name(const uint8_t *xml, size_t len, unsigned long id) {
  const uint8_t *p = xml, *end = xml + len;
  while ((p = memmem(p, (size_t)(end - p), "<metric", 7)) != NULL) {
    const uint8_t *gt = name_ends(p + 7, end) ? tag_end(p + 7, end) : NULL;
    unsigned long got;
    p += 7;
    if (!gt || !id_of(p, gt, &got) || got != id) continue;
    const uint8_t *next = memmem(gt, (size_t)(end - gt), "<metric", 7); /* its names come before its children */
    next = next ? next : end;
    char *uniq = text_of(gt, next, "<uniq_name>", "</uniq_name>");
    if (uniq && *uniq) return uniq;
    free(uniq);
    return text_of(gt, next, "<disp_name>", "</disp_name>");
  }
  return NULL;
}
