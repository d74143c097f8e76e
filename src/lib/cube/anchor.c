/* SPDX-License-Identifier: BSD-3-Clause */
/* anchor.xml through expat (streamed in chunks; a large one in two halves at once). */
#define _GNU_SOURCE /* memmem */
#include <expat.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "common/worker.h"
#include "cube/cube.h"

#define MAX_DEPTH 512

typedef struct parser {
  cube_anchor *a;
  const char *path;
  uint64_t cap_metrics, cap_regions, cap_cnodes, cap_locations, cap_attrs, cap_params;
  char *text; /* the current element's character data */
  size_t text_len, text_cap;
  char stack[MAX_DEPTH][24]; /* element names (copies: expat's are only valid in the callback) */
  int depth;
  uint32_t metric_stack[MAX_DEPTH], n_metric_stack;
  uint32_t cnode_stack[MAX_DEPTH], n_cnode_stack;
  uint32_t group_rank, node_index;
  int hpctoolkit_region; /* the current region's paradigm is "hpctoolkit" (hpcdb wrote it) */
  const char *node_name;
  int error; /* a negative status once something went wrong */
  char message[256];
} parser;

/* Whether element name el is `name`: the first letters compared inline, since
 * most of the many names tested at every element differ there. */
static inline int is(const char *el, const char *name) { return el[0] == name[0] && !strcmp(el, name); }

static const char *copy(parser *p, const char *s) {
  char *c = arena_strndup(&p->a->arena, s, strlen(s));
  if (!c) p->error = HPCDB_ENOMEM;
  return c ? c : "";
}

static const char *attr(const char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

static int parse_u32(const char *s, uint32_t *out) {
  char *end;
  if (!s || !*s) return 0;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || v > UINT32_MAX) return 0;
  *out = (uint32_t)v;
  return 1;
}

static void fail(parser *p, const char *what, const char *value) {
  if (p->error) return;
  p->error = HPCDB_ECORRUPT;
  snprintf(p->message, sizeof p->message, "%s%s%s", what, value ? ": " : "", value ? value : "");
}

static int in(const parser *p, const char *name) { return p->depth >= 2 && is(p->stack[p->depth - 2], name); }

static void XMLCALL on_start(void *user, const char *el, const char **atts) {
  parser *p = user;
  cube_anchor *a = p->a;
  if (p->error) return;
  if (p->depth == MAX_DEPTH) return fail(p, "elements nested too deep", NULL);
  size_t n = strlen(el) < sizeof p->stack[0] ? strlen(el) : sizeof p->stack[0] - 1; /* truncated as snprintf would */
  memcpy(p->stack[p->depth], el, n);
  p->stack[p->depth++][n] = '\0';
  p->text_len = 0;
  if (is(el, "cube")) {
    const char *v = attr(atts, "version");
    snprintf(a->version, sizeof a->version, "%s", v ? v : "");
  } else if (is(el, "attr") && p->depth == 2) {
    if (VEC_RESERVE(&a->attrs, &p->cap_attrs, (uint64_t)a->n_attrs + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    const char *k = attr(atts, "key"), *v = attr(atts, "value");
    a->attrs[a->n_attrs++] = (cube_attr){copy(p, k ? k : ""), copy(p, v ? v : "")};
  } else if (is(el, "attr") && in(p, "region") && a->n_regions) {
    cube_region *r = &a->regions[a->n_regions - 1];
    const char *k = attr(atts, "key"), *v = attr(atts, "value");
    if (k && v && !strcmp(k, "hpctoolkit::module")) r->module = copy(p, v);
    else if (k && v && !strcmp(k, "hpctoolkit::offset")) r->offset = strtoull(v, NULL, 0);
    else if (k && !strcmp(k, "hpctoolkit::unnamed")) r->unnamed = 1;
  } else if (is(el, "parameter") && in(p, "cnode") && p->n_cnode_stack) {
    if (VEC_RESERVE(&a->params, &p->cap_params, (uint64_t)a->n_params + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    const char *k = attr(atts, "parkey"), *v = attr(atts, "parvalue");
    a->params[a->n_params++] =
        (cube_param){p->cnode_stack[p->n_cnode_stack - 1], copy(p, k ? k : ""), copy(p, v ? v : "")};
  } else if (is(el, "metric")) {
    if (VEC_RESERVE(&a->metrics, &p->cap_metrics, (uint64_t)a->n_metrics + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    cube_metric *m = &a->metrics[a->n_metrics];
    memset(m, 0, sizeof *m);
    if (!parse_u32(attr(atts, "id"), &m->id)) return fail(p, "metric without a numeric id", attr(atts, "id"));
    const char *type = attr(atts, "type");
    m->flavour = !type || !strcmp(type, "EXCLUSIVE") ? CUBE_EXCLUSIVE
                 : !strcmp(type, "INCLUSIVE")        ? CUBE_INCLUSIVE
                                                     : CUBE_SIMPLE;
    m->derived = type && (strstr(type, "DERIVED") != NULL);
    m->parent = p->n_metric_stack ? p->metric_stack[p->n_metric_stack - 1] : UINT32_MAX;
    m->uniq = m->disp = m->dtype = m->uom = m->descr = "";
    p->metric_stack[p->n_metric_stack++] = a->n_metrics++;
  } else if (is(el, "region")) {
    if (VEC_RESERVE(&a->regions, &p->cap_regions, (uint64_t)a->n_regions + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    cube_region *r = &a->regions[a->n_regions];
    memset(r, 0, sizeof *r);
    if (!parse_u32(attr(atts, "id"), &r->id)) return fail(p, "region without a numeric id", attr(atts, "id"));
    const char *mod = attr(atts, "mod"), *begin = attr(atts, "begin");
    r->mod = copy(p, mod ? mod : "");
    r->begin = begin ? (int32_t)strtol(begin, NULL, 10) : -1;
    r->name = "";
    p->hpctoolkit_region = 0;
    a->n_regions++;
  } else if (is(el, "cnode")) {
    if (VEC_RESERVE(&a->cnodes, &p->cap_cnodes, (uint64_t)a->n_cnodes + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    cube_cnode *c = &a->cnodes[a->n_cnodes];
    memset(c, 0, sizeof *c);
    if (!parse_u32(attr(atts, "id"), &c->id) || !parse_u32(attr(atts, "calleeId"), &c->callee))
      return fail(p, "cnode without numeric id and calleeId", attr(atts, "id"));
    const char *line = attr(atts, "line"), *mod = attr(atts, "mod");
    c->line = line ? (int32_t)strtol(line, NULL, 10) : -1;
    c->mod = mod ? copy(p, mod) : NULL;
    c->parent = p->n_cnode_stack ? p->cnode_stack[p->n_cnode_stack - 1] : UINT32_MAX;
    p->cnode_stack[p->n_cnode_stack++] = a->n_cnodes++;
  } else if (is(el, "location") || is(el, "thread")) {
    if (VEC_RESERVE(&a->locations, &p->cap_locations, (uint64_t)a->n_locations + 1) < 0) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    cube_location *l = &a->locations[a->n_locations];
    memset(l, 0, sizeof *l);
    const char *id = attr(atts, "Id") ? attr(atts, "Id") : attr(atts, "id");
    if (!parse_u32(id, &l->id)) return fail(p, "location without a numeric Id", id);
    l->group_rank = p->group_rank;
    l->node = p->node_name ? p->node_name : "";
    l->node_index = p->node_index;
    a->n_locations++;
  } else if (is(el, "systemtreenode") || is(el, "node") || is(el, "machine")) {
    if (is(el, "node") || is(el, "systemtreenode")) a->n_nodes++;
  }
}

static void XMLCALL on_text(void *user, const char *s, int len) {
  parser *p = user;
  if (p->error || len <= 0) return;
  if (p->text_len + (size_t)len + 1 > p->text_cap) {
    size_t cap = (p->text_len + (size_t)len + 1) * 2;
    char *t = realloc(p->text, cap);
    if (!t) {
      p->error = HPCDB_ENOMEM;
      return;
    }
    p->text = t;
    p->text_cap = cap;
  }
  memcpy(p->text + p->text_len, s, (size_t)len);
  p->text_len += (size_t)len;
  p->text[p->text_len] = '\0';
}

static const char *text(parser *p) {
  if (!p->text_len) return "";
  size_t a = 0, z = p->text_len; /* trimmed */
  while (a < z && (p->text[a] == ' ' || p->text[a] == '\n' || p->text[a] == '\t' || p->text[a] == '\r')) a++;
  while (z > a && (p->text[z - 1] == ' ' || p->text[z - 1] == '\n' || p->text[z - 1] == '\t' || p->text[z - 1] == '\r'))
    z--;
  char *c = arena_strndup(&p->a->arena, p->text + a, z - a);
  if (!c) p->error = HPCDB_ENOMEM;
  return c ? c : "";
}

static void XMLCALL on_end(void *user, const char *el) {
  parser *p = user;
  cube_anchor *a = p->a;
  if (p->error) return;
  if (in(p, "metric") && p->n_metric_stack) {
    cube_metric *m = &a->metrics[p->metric_stack[p->n_metric_stack - 1]];
    if (is(el, "uniq_name")) m->uniq = text(p);
    else if (is(el, "disp_name")) m->disp = text(p);
    else if (is(el, "dtype")) m->dtype = text(p);
    else if (is(el, "uom")) m->uom = text(p);
    else if (is(el, "descr")) m->descr = text(p);
    else if (is(el, "cubepl")) m->derived = 1;
  } else if (in(p, "region") && is(el, "name") && a->n_regions) {
    a->regions[a->n_regions - 1].name = text(p);
  } else if (in(p, "region") && is(el, "paradigm") && a->n_regions) {
    p->hpctoolkit_region = !strcmp(text(p), "hpctoolkit");
  } else if (in(p, "region") && is(el, "role") && a->n_regions) {
    const char *role = text(p);
    a->regions[a->n_regions - 1].synthetic = p->hpctoolkit_region && strcmp(role, "function") != 0;
    a->regions[a->n_regions - 1].role = p->hpctoolkit_region ? cube_role_of(role) : CUBE_ROLE_OTHER;
  } else if ((in(p, "location") || in(p, "thread")) && is(el, "rank") && a->n_locations) {
    uint32_t r = 0;
    parse_u32(text(p), &r);
    a->locations[a->n_locations - 1].rank = r;
  } else if ((in(p, "locationgroup") || in(p, "process")) && is(el, "rank")) {
    parse_u32(text(p), &p->group_rank);
  } else if ((in(p, "systemtreenode") || in(p, "node")) && is(el, "name")) {
    p->node_name = text(p);
    p->node_index = a->n_nodes ? a->n_nodes - 1 : 0;
  }
  if (is(el, "metric") && p->n_metric_stack) {
    cube_metric *m = &a->metrics[p->metric_stack[--p->n_metric_stack]];
    m->aggregate = !strcmp(m->dtype, "MINDOUBLE") ? CUBE_MIN : !strcmp(m->dtype, "MAXDOUBLE") ? CUBE_MAX : CUBE_SUM;
  }
  if (is(el, "cnode") && p->n_cnode_stack) p->n_cnode_stack--;
  if (is(el, "process") || is(el, "locationgroup")) p->group_rank = 0;
  p->depth--;
  p->text_len = 0;
}

/* Metrics hpcdb wrote with one flavour and no summary: the attribute
 * hpctoolkit::stored-only::<metric id> (write_anchor.c). */
static void mark_stored_only(cube_anchor *a) {
  static const char prefix[] = "hpctoolkit::stored-only::";
  for (uint32_t i = 0; i < a->n_attrs; i++) {
    uint32_t id;
    if (strncmp(a->attrs[i].key, prefix, sizeof prefix - 1) || !parse_u32(a->attrs[i].key + sizeof prefix - 1, &id))
      continue;
    for (uint32_t m = 0; m < a->n_metrics; m++)
      if (a->metrics[m].id == id) a->metrics[m].stored_only = 1;
  }
}

static XML_Parser new_parser(parser *p, cube_anchor *a, const char *path, const char *encoding) {
  memset(p, 0, sizeof *p);
  p->a = a;
  p->path = path;
  XML_Parser x = XML_ParserCreate(encoding);
  if (!x) return NULL;
  XML_SetUserData(x, p);
  XML_SetElementHandler(x, on_start, on_end);
  XML_SetCharacterDataHandler(x, on_text);
  return x;
}

/* n bytes of text into x in 64 KiB pieces, the last one final when `final`:
 * 0, or -1 once expat or a handler finds something wrong. */
static int feed(XML_Parser x, const parser *p, const char *s, size_t n, int final) {
  for (size_t off = 0;;) {
    size_t k = n - off < 65536 ? n - off : 65536;
    if (XML_Parse(x, s + off, (int)k, final && off + k == n) == XML_STATUS_ERROR || p->error) return -1;
    off += k;
    if (off == n) return 0;
  }
}

/* The whole text on this thread; errors say where expat stopped. */
static int parse_whole(cube_anchor *a, const char *text, size_t len, const char *path) {
  parser p;
  XML_Parser x = new_parser(&p, a, path, NULL);
  if (!x) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  if (feed(x, &p, text, len, 1) < 0 && !p.error)
    rc = hpcdb_fail_at(XML_GetErrorCode(x) == XML_ERROR_NO_MEMORY ? HPCDB_ENOMEM : HPCDB_ECORRUPT, path, "anchor.xml",
                       (uint64_t)XML_GetCurrentByteIndex(x), "xml", "line %lu: %s",
                       (unsigned long)XML_GetCurrentLineNumber(x), XML_ErrorString(XML_GetErrorCode(x)));
  XML_ParserFree(x);
  free(p.text);
  if (rc == 0 && p.error)
    rc = p.error == HPCDB_ENOMEM ? hpcdb_fail(HPCDB_ENOMEM, "out of memory reading anchor.xml")
                                 : hpcdb_fail_at(HPCDB_ECORRUPT, path, "anchor.xml", 0, "anchor", "%s", p.message);
  return rc;
}

/* A large anchor is parsed in two halves at once: up to the first <cnode>
 * (attributes, metrics, regions) on this thread, and from there (the cnodes
 * and the system tree) on another, as if inside <cube><program>, which is
 * where Cube writers put them. The guess is checked: the first half must end
 * inside exactly those two elements, both halves must parse, the second may
 * hold no metrics and the first no cnodes or system tree. Anything else is
 * parsed whole, which also finds and reports its errors. */
#define SPLIT_MIN ((size_t)1 << 20) /* below this a thread's start costs about what it saves */

typedef struct second_half {
  parser p;
  XML_Parser x;
  cube_anchor b;
  const char *text;
  size_t len;
  int ok;
} second_half;

static void *parse_second_half(void *arg) {
  static const char open[] = "<cube><program>";
  second_half *h = arg;
  h->ok = feed(h->x, &h->p, open, sizeof open - 1, 0) == 0 && feed(h->x, &h->p, h->text, h->len, 1) == 0;
  return NULL;
}

/* The encoding the XML declaration names, into enc ("" when it names none):
 * 1, or 0 when the text does not plainly begin with markup in an 8-bit encoding. */
static int declared_encoding(const char *s, size_t len, char *enc, size_t cap) {
  enc[0] = '\0';
  if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) s += 3, len -= 3; /* a UTF-8 byte order mark */
  if (len < 5 || memcmp(s, "<?xml", 5) != 0) return len > 0 && s[0] == '<';
  const char *end = memmem(s, len < 512 ? len : 512, "?>", 2);
  const char *e = end ? memmem(s, (size_t)(end - s), "encoding", 8) : NULL;
  if (!end || !e) return end != NULL;
  for (e += 8; e < end && (*e == ' ' || *e == '=' || *e == '\t' || *e == '\r' || *e == '\n'); e++) continue;
  if (e == end || (*e != '"' && *e != '\'')) return 0;
  const char *q = memchr(e + 1, *e, (size_t)(end - e - 1));
  if (!q || (size_t)(q - e - 1) >= cap) return 0;
  memcpy(enc, e + 1, (size_t)(q - e - 1));
  enc[q - e - 1] = '\0';
  return 1;
}

/* The offset of the first "<cnode" start tag, or len. */
static size_t first_cnode(const char *s, size_t len) {
  for (const char *p = s, *end = s + len; (p = memmem(p, (size_t)(end - p), "<cnode", 6)) != NULL; p++) {
    char c = end - p > 6 ? p[6] : '\0';
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/') return (size_t)(p - s);
  }
  return len;
}

/* n items of `size` bytes appended to *to: 1, or 0 without memory. */
static int append(void *to_, uint32_t *n_to, const void *from, uint32_t n, size_t size) {
  void **to = to_;
  if (n == 0) return 1;
  void *grown = realloc(*to, ((size_t)*n_to + n) * size);
  if (!grown) return 0;
  memcpy((char *)grown + (size_t)*n_to * size, from, (size_t)n * size);
  *to = grown;
  *n_to += n;
  return 1;
}

/* The second half's items after the first's: 1, or 0 where the halves do not fit together so. */
static int merge_halves(cube_anchor *a, cube_anchor *b) {
  if (b->n_metrics || a->n_cnodes || a->n_params || a->n_locations || a->n_nodes) return 0;
  if (!append(&a->regions, &a->n_regions, b->regions, b->n_regions, sizeof *b->regions) ||
      !append(&a->attrs, &a->n_attrs, b->attrs, b->n_attrs, sizeof *b->attrs))
    return 0;
  a->cnodes = b->cnodes, a->n_cnodes = b->n_cnodes, b->cnodes = NULL; /* indices into b's cnodes stay right */
  a->params = b->params, a->n_params = b->n_params, b->params = NULL;
  a->locations = b->locations, a->n_locations = b->n_locations, b->locations = NULL;
  a->n_nodes = b->n_nodes;
  arena_adopt(&a->arena, &b->arena);
  return 1;
}

/* 1 when parsed in halves; 0 (a left empty) when the text is to be parsed whole. */
static int parse_split(cube_anchor *a, const char *text, size_t len, const char *path, size_t split_min) {
  char encoding[32];
  size_t cut =
      len >= split_min && declared_encoding(text, len, encoding, sizeof encoding) ? first_cnode(text, len) : len;
  if (cut == len) return 0;
  second_half h;
  memset(&h, 0, sizeof h);
  h.text = text + cut, h.len = len - cut;
  parser p;
  XML_Parser x = new_parser(&p, a, path, NULL);
  h.x = new_parser(&h.p, &h.b, path, encoding[0] ? encoding : NULL);
  worker_thread helper;
  int started = worker_start(&helper, x && h.x, parse_second_half, &h);
  static const char close[] = "</program></cube>";
  int ok = started && feed(x, &p, text, cut, 0) == 0 && p.depth == 2 && !strcmp(p.stack[0], "cube") &&
           !strcmp(p.stack[1], "program") && feed(x, &p, close, sizeof close - 1, 1) == 0;
  worker_join(&helper);
  ok = ok && h.ok && merge_halves(a, &h.b);
  if (x) XML_ParserFree(x);
  if (h.x) XML_ParserFree(h.x);
  free(p.text), free(h.p.text);
  cube_anchor_free(&h.b);
  if (!ok) cube_anchor_free(a);
  return ok;
}

int cube_anchor_parse(cube_anchor *a, const uint8_t *xml, size_t len, const char *path) {
  return cube_anchor_parse_halves(a, xml, len, path, SPLIT_MIN, NULL);
}

/* text into a, in halves where it can be. */
static int parse_text(cube_anchor *a, const char *text, size_t len, const char *path, size_t split_min, int *halved) {
  int split = parse_split(a, text, len, path, split_min);
  if (halved) *halved = split;
  return split ? 0 : parse_whole(a, text, len, path);
}

int cube_anchor_parse_halves(cube_anchor *a, const uint8_t *xml, size_t len, const char *path, size_t split_min,
                             int *halved) {
  memset(a, 0, sizeof *a);
  if (halved) *halved = 0;
  uint8_t *plain = NULL;
  if (len >= 2 && xml[0] == 0x1f && xml[1] == 0x8b) {
    HPCDB_TRY(cube_anchor_gunzip(xml, len, &plain, &len, path));
    xml = plain;
  }
  int rc = parse_text(a, (const char *)xml, len, path, split_min, halved);
  /* CubeW's unquoted values: only a text that fails can hold one */
  if (rc < 0 && cube_anchor_has_bare_values(xml, len)) {
    char *fixed;
    size_t fixed_len;
    cube_anchor_free(a);
    if (cube_anchor_quote_bare_values(xml, len, &fixed, &fixed_len) < 0) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    } else {
      rc = parse_text(a, fixed, fixed_len, path, split_min, halved);
      free(fixed);
    }
  }
  free(plain);
  if (rc == 0) mark_stored_only(a);
  if (rc < 0) cube_anchor_free(a);
  return rc;
}

void cube_anchor_free(cube_anchor *a) {
  free(a->metrics);
  free(a->regions);
  free(a->cnodes);
  free(a->locations);
  free(a->attrs);
  free(a->params);
  arena_free(&a->arena);
  memset(a, 0, sizeof *a);
}
