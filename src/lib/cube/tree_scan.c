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
      open.n -= ok;
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
