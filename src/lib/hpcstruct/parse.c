/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading structure files with expat, element by element: a stack of open
 * elements carries the file, the enclosing scope and procedure, and the
 * call-site line an outer <A> gives, as hpcprof reads them. */
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/vec.h"
#include "hpcstruct/hpcstruct_private.h"

#define CHUNK (1u << 20)
#define MAX_DEPTH (1u << 16) /* deeper nesting is taken as hostile */

/* Open elements: R root (outside every element), H HPCToolkitStructure,
 * M LM, F, P, A (outer <A>: file and call-site line), B (inner <A>: an
 * inlined procedure), L, S, C. */
typedef struct frame {
  char tag;
  const char *file;
  uint32_t scope;     /* the enclosing scope, HPCDB_NONE outside procedures */
  uint32_t procedure; /* the enclosing procedure, HPCDB_NONE outside one */
  uint32_t a_line;    /* the call-site line of an outer <A> */
} frame;

typedef struct sparser {
  hpcdb_struct *s;
  const char *path;
  XML_Parser x;
  frame *stack;
  uint64_t depth, cap_stack;
  module_builder mod; /* the open LM */
  int seen_root;
  int stop_at_module; /* hpcdb_hpcstruct_first_module: stop at the first <LM> */
  char *first_module;
  hpcdb_struct_range *vma; /* the element's v= ranges (reused) */
  uint64_t cap_vma;
  int error; /* negative once parsing must stop */
  uint64_t error_offset;
} sparser;

static __thread hpcstruct_problem last_problem; /* for the validator: why and where the read stopped */

static void remember(sparser *p, const char *rule, const char *detail) {
  p->error_offset = (uint64_t)(XML_GetCurrentByteIndex(p->x) < 0 ? 0 : XML_GetCurrentByteIndex(p->x));
  last_problem.offset = p->error_offset;
  last_problem.line = (uint32_t)XML_GetCurrentLineNumber(p->x);
  snprintf(last_problem.rule, sizeof last_problem.rule, "%s", rule);
  snprintf(last_problem.detail, sizeof last_problem.detail, "%s", detail);
}

static void fail(sparser *p, int status, const char *rule, const char *fmt, ...) HPCDB_PRINTF(4, 5);
static void fail(sparser *p, int status, const char *rule, const char *fmt, ...) {
  if (p->error) return;
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  remember(p, rule, detail);
  p->error =
      hpcdb_fail(status, "%s: line %lu: %s: %s", p->path, (unsigned long)XML_GetCurrentLineNumber(p->x), rule, detail);
  XML_StopParser(p->x, XML_FALSE);
}

static const char *attr(const char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

static const char *intern(sparser *p, const char *s) {
  const char *r = strpool_intern(&p->s->strings, s, strlen(s));
  if (!r) fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  return r;
}

/* A line attribute: decimal, optionally "begin-end" (the begin is taken). */
static int line_attr(sparser *p, const char **atts, const char *tag, int required, uint32_t *out) {
  const char *s = attr(atts, "l");
  *out = 0;
  if (!s) {
    if (required) fail(p, HPCDB_ECORRUPT, "missing-attribute", "<%s> has no l= (line)", tag);
    return !required;
  }
  uint64_t v = 0;
  const char *c = s;
  if (*c < '0' || *c > '9') {
    fail(p, HPCDB_ECORRUPT, "bad-line", "<%s l=\"%.40s\">: not a decimal line number", tag, s);
    return 0;
  }
  while (*c >= '0' && *c <= '9') {
    v = v * 10 + (uint64_t)(*c++ - '0');
    if (v > UINT32_MAX) {
      fail(p, HPCDB_ECORRUPT, "bad-line", "<%s l=\"%.40s\">: line number above 2^32", tag, s);
      return 0;
    }
  }
  if (*c == '-') {
    const char *e = c + 1;
    while (*e >= '0' && *e <= '9') e++;
    if (e == c + 1) c = e - 1;
    else c = e;
  }
  if (*c) {
    fail(p, HPCDB_ECORRUPT, "bad-line", "<%s l=\"%.40s\">: not a decimal line number", tag, s);
    return 0;
  }
  *out = (uint32_t)v;
  return 1;
}

/* The v= ranges of an element (required), in the parser's buffer. */
static int vma_attr(sparser *p, const char **atts, const char *tag, hpcdb_struct_range **r, uint32_t *n) {
  const char *s = attr(atts, "v");
  if (!s) {
    fail(p, HPCDB_ECORRUPT, "missing-attribute", "<%s> has no v= (address ranges)", tag);
    return 0;
  }
  const char *why = NULL;
  int rc = vma_parse(s, &p->vma, &p->cap_vma, n, &why);
  *r = p->vma;
  if (rc < 0) {
    fail(p, rc, "bad-vma", "<%s v=\"%.60s\">: %s", tag, s, why);
    return 0;
  }
  return 1;
}

static uint32_t add_scope(sparser *p, const hpcdb_struct_scope *sc) {
  hpcdb_struct_module *m = p->mod.m;
  if (m->n_scopes == UINT32_MAX - 1) {
    fail(p, HPCDB_EUNSUPPORTED, "too-many-scopes", "more than 2^32 scopes in one load module");
    return HPCDB_NONE;
  }
  if (VEC_RESERVE(&m->scopes, &p->mod.cap_scopes, (uint64_t)m->n_scopes + 1) < 0) {
    fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    return HPCDB_NONE;
  }
  m->scopes[m->n_scopes] = *sc;
  m->scopes[m->n_scopes].xml_line = (uint32_t)XML_GetCurrentLineNumber(p->x);
  return m->n_scopes++;
}

static void add_ranges(sparser *p, const hpcdb_struct_range *r, uint32_t n, uint32_t scope) {
  hpcdb_struct_module *m = p->mod.m;
  if ((uint64_t)m->n_ranges + n >= UINT32_MAX) {
    fail(p, HPCDB_EUNSUPPORTED, "too-many-ranges", "more than 2^32 address ranges in one load module");
    return;
  }
  if (VEC_RESERVE(&m->ranges, &p->mod.cap_ranges, (uint64_t)m->n_ranges + n) < 0) {
    fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    return;
  }
  for (uint32_t i = 0; i < n; i++) m->ranges[m->n_ranges++] = (hpcdb_struct_range){r[i].lo, r[i].hi, scope};
}

static int parent_is(char tag, const char *allowed) { return strchr(allowed, tag) != NULL; }

/* The element an open frame stands for, for messages. */
static const char *tag_name(char tag) {
  switch (tag) {
  case 'H': return "HPCToolkitStructure";
  case 'M': return "LM";
  case 'B': return "A";
  default: {
    static const char *const one[] = {"F", "P", "A", "L", "S", "C"};
    const char *letters = "FPALSC", *at = strchr(letters, tag);
    return at && tag ? one[at - letters] : "?";
  }
  }
}

static void start_module(sparser *p, const char **atts, frame *next) {
  const char *n = attr(atts, "n");
  if (!n || !*n) return fail(p, HPCDB_ECORRUPT, "missing-attribute", "<LM> has no n= (load module path)");
  if (p->stop_at_module) {
    if (!(p->first_module = strdup(n))) return fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    XML_StopParser(p->x, XML_FALSE);
    return;
  }
  hpcdb_struct *s = p->s;
  if (VEC_RESERVE(&s->modules, &s->cap_modules, (uint64_t)s->n_modules + 1) < 0)
    return fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  hpcdb_struct_module *m = &s->modules[s->n_modules++];
  memset(m, 0, sizeof *m);
  m->name = intern(p, n);
  const char *hc = attr(atts, "has-calls");
  m->has_calls = hc && !strcmp(hc, "1");
  u64map_free(&p->mod.entries);
  p->mod = (module_builder){m, 0, 0, {0}};
  next->file = NULL;
}

static void start_procedure(sparser *p, const char **atts, const frame *top, frame *next) {
  if (top->procedure != HPCDB_NONE) return fail(p, HPCDB_ECORRUPT, "nesting", "<P> inside a procedure");
  const char *n = attr(atts, "n");
  if (!n) return fail(p, HPCDB_ECORRUPT, "missing-attribute", "<P> has no n= (name)");
  hpcdb_struct_range *r;
  uint32_t nr;
  if (!vma_attr(p, atts, "P", &r, &nr)) return;
  uint64_t entry = nr ? r[0].lo : 0;
  int single = nr == 1 && r[0].hi - r[0].lo == 1;
  if (!single)
    return fail(p, HPCDB_ECORRUPT, "procedure-entry",
                "<P n=\"%.60s\">: v= must be one range of one byte (the entry address)", n);
  hpcdb_struct_module *m = p->mod.m;
  uint64_t other;
  if (u64map_get(&p->mod.entries, entry, &other)) /* entries are unique within a load module */
    return fail(p, HPCDB_ECORRUPT, "procedure-duplicate",
                "<P n=\"%.60s\">: entry 0x%llx is also the entry of <P> at line %u", n, (unsigned long long)entry,
                m->scopes[other].xml_line);
  hpcdb_struct_scope sc = {0};
  sc.kind = HPCDB_SCOPE_PROCEDURE;
  sc.parent = HPCDB_NONE;
  sc.name = intern(p, n);
  const char *ln = attr(atts, "ln");
  sc.link_name = ln ? intern(p, ln) : NULL;
  sc.file = top->file;
  if (!line_attr(p, atts, "P", top->file != NULL, &sc.line)) return;
  sc.entry = entry;
  uint32_t id = add_scope(p, &sc);
  if (id == HPCDB_NONE) return;
  if (u64map_put(&p->mod.entries, entry, id) != 0) return fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  p->mod.m->scopes[id].procedure = id;
  next->scope = next->procedure = id;
}

static void start_alien(sparser *p, const char **atts, const frame *top, frame *next) {
  const char *f = attr(atts, "f");
  if (top->tag != 'A') { /* the outer one: a file and the call site's line */
    next->tag = 'A';
    if (f && *f && !(next->file = intern(p, f))) return;
    line_attr(p, atts, "A", 1, &next->a_line);
    return;
  }
  if (!top->file) return fail(p, HPCDB_ECORRUPT, "missing-file", "an inlined <A> with no file around it");
  hpcdb_struct_scope sc = {0};
  sc.kind = HPCDB_SCOPE_INLINED;
  sc.parent = top->scope;
  sc.procedure = top->procedure;
  const char *n = attr(atts, "n");
  sc.name = intern(p, n ? n : "");
  sc.file = f && *f ? intern(p, f) : top->file;
  if (!line_attr(p, atts, "A", 1, &sc.line)) return;
  sc.call_file = top->file;
  sc.call_line = top->a_line;
  uint32_t id = add_scope(p, &sc);
  if (id == HPCDB_NONE) return;
  next->tag = 'B';
  next->scope = id;
  next->file = sc.file;
}

static void start_loop(sparser *p, const char **atts, const frame *top, frame *next) {
  const char *f = attr(atts, "f");
  hpcdb_struct_scope sc = {0};
  sc.kind = HPCDB_SCOPE_LOOP;
  sc.parent = top->scope;
  sc.procedure = top->procedure;
  sc.file = f && *f ? intern(p, f) : top->file;
  if (!sc.file) return fail(p, HPCDB_ECORRUPT, "missing-file", "<L> with no f= and no file around it");
  if (!line_attr(p, atts, "L", 1, &sc.line)) return;
  hpcdb_struct_range *r;
  uint32_t nr;
  if (!vma_attr(p, atts, "L", &r, &nr)) return;
  if (nr == 0) return fail(p, HPCDB_ECORRUPT, "loop-entry", "<L> has no address (its v= is empty)");
  sc.entry = r[0].lo;
  uint32_t id = add_scope(p, &sc);
  if (id == HPCDB_NONE) return;
  next->scope = id;
  next->file = sc.file;
}

static void start_statement(sparser *p, const char **atts, const frame *top, int call) {
  const char *tag = call ? "C" : "S";
  if (!top->file) return fail(p, HPCDB_ECORRUPT, "missing-file", "<%s> with no file around it", tag);
  hpcdb_struct_scope sc = {0};
  sc.kind = HPCDB_SCOPE_STATEMENT;
  sc.is_call = (uint8_t)call;
  sc.parent = top->scope;
  sc.procedure = top->procedure;
  sc.file = top->file;
  if (!line_attr(p, atts, tag, 1, &sc.line)) return;
  hpcdb_struct_range *r;
  uint32_t nr;
  if (!vma_attr(p, atts, tag, &r, &nr)) return;
  if (call && nr != 1) {
    return fail(p, HPCDB_ECORRUPT, "call-range", "<C> must have exactly one address range, not %u", nr);
  }
  const char *t = attr(atts, "t");
  if (call && t && *t) {
    if (!hex_address(t, &sc.target))
      return fail(p, HPCDB_ECORRUPT, "bad-target", "<C t=\"%.40s\">: not a hex address", t);
  }
  uint32_t id = add_scope(p, &sc);
  if (id != HPCDB_NONE) add_ranges(p, r, nr, id);
}

static void XMLCALL on_start(void *user, const char *name, const char **atts) {
  sparser *p = user;
  if (p->error) return;
  if (p->depth + 1 >= MAX_DEPTH) return fail(p, HPCDB_ECORRUPT, "nesting", "elements nested deeper than %u", MAX_DEPTH);
  if (VEC_RESERVE(&p->stack, &p->cap_stack, p->depth + 2) < 0) return fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  const frame *top = &p->stack[p->depth];
  frame next = *top;
  char t = top->tag;
  if (!strcmp(name, "HPCToolkitStructure")) {
    if (t != 'R' || p->seen_root) return fail(p, HPCDB_ECORRUPT, "nesting", "<HPCToolkitStructure> is not the root");
    p->seen_root = 1;
    next.tag = 'H';
  } else if (t == 'R') {
    return fail(p, HPCDB_ECORRUPT, "root", "the root element is <%.40s>, not <HPCToolkitStructure>", name);
  } else if (!strcmp(name, "LM")) {
    if (t != 'H') return fail(p, HPCDB_ECORRUPT, "nesting", "<LM> inside <%s>", tag_name(t));
    next.tag = 'M';
    start_module(p, atts, &next);
  } else if (!strcmp(name, "F")) {
    if (t != 'M') return fail(p, HPCDB_ECORRUPT, "nesting", "<F> outside a load module's top level");
    const char *n = attr(atts, "n");
    if (!n || !*n) return fail(p, HPCDB_ECORRUPT, "missing-attribute", "<F> has no n= (file name)");
    next.tag = 'F';
    next.file = intern(p, n);
  } else if (!strcmp(name, "P")) {
    if (!parent_is(t, "MF")) return fail(p, HPCDB_ECORRUPT, "nesting", "<P> inside <%s>", tag_name(t));
    next.tag = 'P';
    start_procedure(p, atts, top, &next);
  } else if (!strcmp(name, "A")) {
    if (!parent_is(t, "PABL")) return fail(p, HPCDB_ECORRUPT, "nesting", "<A> outside a procedure");
    start_alien(p, atts, top, &next);
  } else if (!strcmp(name, "L")) {
    if (!parent_is(t, "PABL")) return fail(p, HPCDB_ECORRUPT, "nesting", "<L> outside a procedure");
    next.tag = 'L';
    start_loop(p, atts, top, &next);
  } else if (!strcmp(name, "S") || !strcmp(name, "C")) {
    int call = name[0] == 'C';
    if (!parent_is(t, call ? "PABLC" : "PABL"))
      return fail(p, HPCDB_ECORRUPT, "nesting", "<%s> %s", name,
                  t == 'F' || t == 'M' ? "outside a procedure" : "inside a statement");
    next.tag = name[0];
    start_statement(p, atts, top, call);
  } else {
    return fail(p, HPCDB_ECORRUPT, "unknown-element", "<%.40s> is not an element of structure files", name);
  }
  p->stack[++p->depth] = next;
}

static void XMLCALL on_end(void *user, const char *name) {
  sparser *p = user;
  (void)name;
  if (p->error || p->depth == 0) return;
  if (p->stack[p->depth].tag == 'M' && p->mod.m) {
    int rc = ranges_finish(p->mod.m);
    if (rc < 0) return fail(p, rc, "memory", "out of memory");
    p->mod.m = NULL;
    u64map_free(&p->mod.entries);
  }
  p->depth--;
}

static int parser_init(sparser *p, hpcdb_struct *s, const char *path) {
  memset(p, 0, sizeof *p);
  p->s = s;
  p->path = path;
  if (!(p->x = XML_ParserCreate(NULL))) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", path);
  XML_SetUserData(p->x, p);
  XML_SetElementHandler(p->x, on_start, on_end);
  if (VEC_RESERVE(&p->stack, &p->cap_stack, 64) < 0) {
    XML_ParserFree(p->x);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", path);
  }
  p->stack[0] = (frame){'R', NULL, HPCDB_NONE, HPCDB_NONE, 0};
  return 0;
}

/* Feeds one chunk; 1 to go on, 0 when stopped (done or failed). */
static int feed(sparser *p, const char *data, size_t len, int last) {
  if (len > INT32_MAX) return fail(p, HPCDB_EUNSUPPORTED, "size", "a chunk above 2 GiB"), 0;
  if (XML_Parse(p->x, data, (int)len, last) != XML_STATUS_ERROR) return 1;
  if (!p->error && !(p->stop_at_module && p->first_module)) {
    remember(p, "xml", XML_ErrorString(XML_GetErrorCode(p->x)));
    p->error = hpcdb_fail(XML_GetErrorCode(p->x) == XML_ERROR_NO_MEMORY ? HPCDB_ENOMEM : HPCDB_ECORRUPT,
                          "%s: line %lu: xml: %s", p->path, (unsigned long)XML_GetCurrentLineNumber(p->x),
                          XML_ErrorString(XML_GetErrorCode(p->x)));
  }
  return 0;
}

static int parser_finish(sparser *p, int seen_bytes) {
  if (!p->error && !p->stop_at_module && seen_bytes && !p->seen_root) {
    remember(p, "root", "no <HPCToolkitStructure> element");
    p->error = hpcdb_fail(HPCDB_ECORRUPT, "%s: line 1: root: no <HPCToolkitStructure> element", p->path);
  }
  XML_ParserFree(p->x);
  free(p->stack);
  free(p->vma);
  u64map_free(&p->mod.entries);
  return p->error;
}

static hpcdb_struct *struct_new(void) { return calloc(1, sizeof(hpcdb_struct)); }

/* Reads path through p (already set up); an empty file is no modules. */
static int parse_file(sparser *p) {
  int fd = open(p->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    XML_ParserFree(p->x);
    free(p->stack);
    return hpcdb_fail(HPCDB_EIO, "%s: %s", p->path, strerror(errno));
  }
  char *buf = malloc(CHUNK);
  uint64_t total = 0;
  int go = buf != NULL;
  if (!buf) p->error = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", p->path);
  while (go) {
    ssize_t got = read(fd, buf, CHUNK);
    if (got < 0) {
      if (errno == EINTR) continue;
      p->error = hpcdb_fail(HPCDB_EIO, "%s: %s", p->path, strerror(errno));
      break;
    }
    total += (uint64_t)got;
    if (got == 0 && total == 0) break; /* an empty file: nothing to parse */
    go = feed(p, buf, (size_t)got, got == 0) && got > 0;
  }
  free(buf);
  close(fd);
  return parser_finish(p, total > 0);
}

int hpcdb_hpcstruct_read(hpcdb_struct **out, const char *path) {
  *out = NULL;
  hpcdb_struct *s = struct_new();
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", path);
  sparser p;
  int rc = parser_init(&p, s, path);
  if (rc == 0) rc = parse_file(&p);
  if (rc < 0) {
    hpcdb_hpcstruct_free(s);
    return rc;
  }
  *out = s;
  return 0;
}

int hpcdb_hpcstruct_read_mem(hpcdb_struct **out, const char *name, const void *data, size_t len) {
  *out = NULL;
  hpcdb_struct *s = struct_new();
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", name);
  sparser p;
  int rc = parser_init(&p, s, name);
  if (rc == 0) {
    const char *d = data;
    size_t off = 0;
    int go = len > 0;
    while (go) {
      size_t n = len - off > CHUNK ? CHUNK : len - off;
      off += n;
      go = feed(&p, d + off - n, n, off == len) && off < len;
    }
    rc = parser_finish(&p, len > 0);
  }
  if (rc < 0) {
    hpcdb_hpcstruct_free(s);
    return rc;
  }
  *out = s;
  return 0;
}

int hpcdb_hpcstruct_first_module(char **out, const char *path) {
  *out = NULL;
  hpcdb_struct *s = struct_new();
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", path);
  sparser p;
  int rc = parser_init(&p, s, path);
  if (rc == 0) {
    p.stop_at_module = 1;
    rc = parse_file(&p);
    if (rc == 0) *out = p.first_module;
    else free(p.first_module);
  }
  hpcdb_hpcstruct_free(s);
  return rc;
}

const hpcstruct_problem *hpcstruct_last_problem(void) { return &last_problem; }

void hpcdb_hpcstruct_free(hpcdb_struct *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->n_modules; i++) {
    free(s->modules[i].scopes);
    free(s->modules[i].ranges);
  }
  free(s->modules);
  strpool_free(&s->strings);
  free(s);
}

uint32_t hpcdb_hpcstruct_n_modules(const hpcdb_struct *s) { return s ? s->n_modules : 0; }

const hpcdb_struct_module *hpcdb_hpcstruct_module(const hpcdb_struct *s, uint32_t i) {
  return s && i < s->n_modules ? &s->modules[i] : NULL;
}
