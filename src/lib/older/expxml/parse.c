/* SPDX-License-Identifier: BSD-3-Clause */
/* The expat driver: chunks in, element dispatch, error messages with line
 * and column. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/vec.h"
#include "older/expxml/expxml_private.h"

#define CHUNK (1u << 20)
#define MAX_DEPTH (1u << 20)          /* deeper nesting is taken as hostile */
#define PROVISIONAL_FRESH 0x80000000u /* above every usable XML id */

static const struct {
  const char *name;
  enum xtag tag;
} known[] = {
    {"HPCToolkitExperiment", X_ROOT},
    {"Header", X_HEADER},
    {"Info", X_INFO},
    {"NV", X_NV},
    {"SecCallPathProfile", X_SEC_CPP},
    {"SecHeader", X_SEC_HEADER},
    {"SecCallPathProfileData", X_SEC_DATA},
    {"SecFlatProfile", X_SEC_FLAT},
    {"IdentifierNameTable", X_TABLE},
    {"MetricTable", X_TABLE},
    {"MetricDBTable", X_TABLE},
    {"TraceDBTable", X_TABLE},
    {"LoadModuleTable", X_TABLE},
    {"FileTable", X_TABLE},
    {"ProcedureTable", X_TABLE},
    {"Identifier", X_IDENTIFIER},
    {"Metric", X_METRIC},
    {"MetricFormula", X_METRIC_FORMULA},
    {"MetricDB", X_METRIC_DB},
    {"TraceDB", X_TRACE_DB},
    {"LoadModule", X_LOAD_MODULE},
    {"File", X_FILE},
    {"Procedure", X_PROCEDURE},
    {"PF", X_PF},
    {"Pr", X_PR},
    {"A", X_A},
    {"P", X_P},
    {"C", X_C},
    {"L", X_L},
    {"S", X_S},
    {"M", X_M},
};

static enum xtag tag_of(const char *name) {
  if (name[0] && !name[1]) { /* the tree's elements first: they are nearly all of a large file */
    switch (name[0]) {
    case 'M': return X_M;
    case 'S': return X_S;
    case 'C': return X_C;
    case 'L': return X_L;
    case 'A': return X_A;
    case 'P': return X_P;
    default: return X_OTHER;
    }
  }
  if (name[0] == 'P' && (name[1] == 'F' || name[1] == 'r') && !name[2]) return name[1] == 'F' ? X_PF : X_PR;
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (!strcmp(known[i].name, name)) return known[i].tag;
  return X_OTHER;
}

static void vmessage(xparser *p, char *buf, size_t size, const char *rule, const char *fmt, va_list ap) {
  int n = snprintf(buf, size, "line %lu, column %lu: %s%s", (unsigned long)XML_GetCurrentLineNumber(p->x),
                   (unsigned long)XML_GetCurrentColumnNumber(p->x) + 1, rule ? rule : "", rule ? ": " : "");
  if (n > 0 && (size_t)n < size) vsnprintf(buf + n, size - (size_t)n, fmt, ap);
}

void expxml_fail(xparser *p, int status, const char *rule, const char *fmt, ...) {
  if (p->error) return;
  char detail[768];
  va_list ap;
  va_start(ap, fmt);
  vmessage(p, detail, sizeof detail, rule, fmt, ap);
  va_end(ap);
  p->error = hpcdb_fail(status, "%s: %s", p->path, detail);
  XML_StopParser(p->x, XML_FALSE);
}

int expxml_problem(xparser *p, const char *rule, const char *fmt, ...) {
  char detail[768];
  va_list ap;
  va_start(ap, fmt);
  vmessage(p, detail, sizeof detail, p->opt->problem ? NULL : rule, fmt, ap);
  va_end(ap);
  if (!p->opt->problem) {
    if (!p->error) p->error = hpcdb_fail(HPCDB_ECORRUPT, "%s: %s", p->path, detail);
    XML_StopParser(p->x, XML_FALSE);
    return 0;
  }
  p->doc->problems++;
  if (p->first_fresh == PROVISIONAL_FRESH) /* a second pass finds the same problems */
    p->opt->problem(p->opt->user, (uint64_t)XML_GetCurrentByteIndex(p->x), rule, detail);
  return 1;
}

const char *expxml_attr(const char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (!strcmp(atts[i], name)) return atts[i + 1];
  return NULL;
}

int expxml_int(const char *s, int64_t *out) {
  if (!s || !*s) return 0;
  char *end;
  errno = 0;
  long long v = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? (long long)strtoull(s, &end, 16) : strtoll(s, &end, 10);
  if (errno || *end) return 0;
  *out = v;
  return 1;
}

uint32_t expxml_line(const char *s) {
  if (!s) return 0;
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  return end != s && v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* An element hpcdb has no use for: its name and attributes (first occurrence
 * of each name) become an attribute "xml.<name>"; its subtree is skipped. */
static void keep_unknown(xparser *p, const char *el, const char **atts) {
  uint64_t key = hash_bytes(el, strlen(el)), seen;
  if (u64map_get(&p->unknown_names, key, &seen)) return;
  if (u64map_put(&p->unknown_names, key, 1) < 0) return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  char k[128], v[1024];
  size_t n = 0;
  v[0] = '\0';
  for (int i = 0; atts[i] && n < sizeof v; i += 2)
    n += (size_t)snprintf(v + n, sizeof v - n, "%s%s=%s", n ? " " : "", atts[i], atts[i + 1]);
  snprintf(k, sizeof k, "xml.%s", el);
  if (hpcdb_add_attr(p->exp, k, v) < 0) expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
}

static void XMLCALL on_start(void *user, const char *el, const char **atts) {
  xparser *p = user;
  if (p->error) return;
  if (p->skip) {
    p->skip++;
    return;
  }
  enum xtag tag = tag_of(el);
  if (p->depth == MAX_DEPTH)
    return expxml_fail(p, HPCDB_ECORRUPT, "depth", "elements nested deeper than %u", MAX_DEPTH);
  if (VEC_RESERVE(&p->stack, &p->cap_stack, p->depth + 1) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  xframe f = p->depth ? p->stack[p->depth - 1] : (xframe){X_OTHER, HPCDB_NONE, HPCDB_NONE};
  f.tag = (uint8_t)tag;
  p->stack[p->depth++] = f;
  if (tag == X_ROOT) {
    const char *v = expxml_attr(atts, "version");
    snprintf(p->doc->version, sizeof p->doc->version, "%s", v ? v : "");
  } else if (tag == X_OTHER || tag == X_SEC_FLAT) {
    keep_unknown(p, el, atts); /* flat profiles repeat the tree's values by static structure */
    p->depth--;
    p->skip = 1;
  } else if (tag == X_SEC_DATA) {
    expxml_start_data(p);
  } else if (tag >= X_PF) {
    expxml_start_tree_element(p, tag, atts);
  } else {
    expxml_start_header_element(p, tag, atts);
  }
}

static void XMLCALL on_end(void *user, const char *el) {
  xparser *p = user;
  (void)el;
  if (p->error) return;
  if (p->skip) {
    p->skip--;
    return;
  }
  if (!p->depth) return;
  enum xtag tag = p->stack[p->depth - 1].tag;
  if (tag < X_PF) expxml_end_header_element(p, tag);
  p->depth--;
}

/* Where the XML comes from: a file descriptor read in chunks, or memory. */
typedef struct source {
  int fd;
  const char *data;
  size_t len;
  char *buf; /* CHUNK bytes for the file */
} source;

static int feed(xparser *p, const char *data, size_t n, int last) {
  if (XML_Parse(p->x, data, (int)n, last) == XML_STATUS_ERROR && !p->error)
    p->error = hpcdb_fail(XML_GetErrorCode(p->x) == XML_ERROR_NO_MEMORY ? HPCDB_ENOMEM : HPCDB_ECORRUPT,
                          "%s: line %lu, column %lu: not well-formed: %s", p->path,
                          (unsigned long)XML_GetCurrentLineNumber(p->x),
                          (unsigned long)XML_GetCurrentColumnNumber(p->x) + 1, XML_ErrorString(XML_GetErrorCode(p->x)));
  return p->error;
}

static void feed_all(xparser *p, const source *src) {
  if (src->fd < 0) {
    for (size_t off = 0; !p->error;) {
      size_t n = src->len - off < CHUNK ? src->len - off : CHUNK;
      if (feed(p, src->data + off, n, off + n == src->len) || (off += n) == src->len) break;
    }
    return;
  }
  for (;;) {
    ssize_t n = read(src->fd, src->buf, CHUNK);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      p->error = hpcdb_fail(HPCDB_EIO, "%s: read failed: %s", p->path, strerror(errno));
      return;
    }
    if (feed(p, src->buf, (size_t)n, n == 0) || n == 0) return;
  }
}

static void free_parser(xparser *p) {
  XML_ParserFree(p->x);
  free(p->stack);
  free(p->proc);
  free(p->kinds);
  u64map_free(&p->modules);
  u64map_free(&p->files);
  u64map_free(&p->procs);
  u64map_free(&p->functions);
  u64map_free(&p->unknown_names);
  u64map_free(&p->metric_ids);
  u64map_free(&p->metric_db_ids);
}

/* One pass over the whole document into a new experiment. */
static int pass(hpcdb_experiment **out, const char *path, const source *src, const expxml_options *opt, expxml_doc *doc,
                uint32_t first_fresh) {
  *out = NULL;
  memset(doc, 0, sizeof *doc);
  xparser p;
  memset(&p, 0, sizeof p);
  HPCDB_TRY(hpcdb_experiment_new(&p.exp));
  p.doc = doc;
  p.opt = opt;
  p.path = path;
  p.metric_open = UINT32_MAX;
  p.next_fresh = p.first_fresh = first_fresh;
  if (!(p.x = XML_ParserCreate(NULL))) {
    hpcdb_experiment_free(p.exp);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  XML_SetUserData(p.x, &p);
  XML_SetElementHandler(p.x, on_start, on_end);
  feed_all(&p, src);
  free_parser(&p);
  if (!p.error && !doc->version[0]) p.error = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no HPCToolkitExperiment element", path);
  if (p.error) {
    expxml_doc_free(doc);
    hpcdb_experiment_free(p.exp);
    return p.error;
  }
  *out = p.exp;
  return 0;
}

static int parse(hpcdb_experiment **out, const char *path, const source *src, const expxml_options *opt,
                 expxml_doc *doc) {
  HPCDB_TRY(pass(out, path, src, opt, doc, PROVISIONAL_FRESH));
  if (!doc->n_fresh) return 0;
  uint32_t first = doc->max_xml_id > opt->entry_id ? doc->max_xml_id + 1 : opt->entry_id + 1;
  if (first < opt->min_fresh_id) first = opt->min_fresh_id;
  if (first == PROVISIONAL_FRESH) return 0;
  uint64_t problems = doc->problems; /* reported once, by the first pass */
  hpcdb_experiment_free(*out);
  expxml_doc_free(doc);
  if (src->fd >= 0 && lseek(src->fd, 0, SEEK_SET) != 0)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot read it a second time: %s", path, strerror(errno));
  HPCDB_TRY(pass(out, path, src, opt, doc, first));
  doc->problems = problems;
  return 0;
}

int expxml_read_buffer(hpcdb_experiment **out, const char *data, size_t len, const char *path,
                       const expxml_options *opt, expxml_doc *doc) {
  source src = {-1, data, len, NULL};
  return parse(out, path, &src, opt, doc);
}

int expxml_read_file(hpcdb_experiment **out, const char *path, const expxml_options *opt, expxml_doc *doc) {
  *out = NULL;
  source src = {open(path, O_RDONLY), NULL, 0, malloc(CHUNK)};
  int rc = src.fd < 0 ? hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", path, strerror(errno))
           : !src.buf ? hpcdb_fail(HPCDB_ENOMEM, "out of memory")
                      : parse(out, path, &src, opt, doc);
  free(src.buf);
  if (src.fd >= 0) close(src.fd);
  return rc;
}

void expxml_doc_free(expxml_doc *doc) {
  free(doc->metrics);
  free(doc->metric_dbs);
  free(doc->run_ctx);
  free(doc->run_start);
  free(doc->value_metric);
  free(doc->value);
  u64map_free(&doc->xml_ids);
  free(doc->mirrors);
  memset(doc, 0, sizeof *doc);
}

uint32_t expxml_find_metric(const expxml_doc *doc, int64_t id) {
  for (uint32_t i = 0; i < doc->n_metrics; i++)
    if (doc->metrics[i].id == id) return i;
  return UINT32_MAX;
}
