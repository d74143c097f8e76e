/* SPDX-License-Identifier: BSD-3-Clause */
/* meta.db v4.0 into the model: general properties, identifier names,
 * metrics and their propagation scopes and summaries, load modules, source
 * files, functions and the context tree. Strides and structure sizes come
 * from the file (forward compatibility); unknown enumeration values are kept. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "hpctk4/hpctk4_read.h"
#include "hpctk4/subtree_scopes.h"

enum {
  SEC_GENERAL,
  SEC_IDNAMES,
  SEC_METRICS,
  SEC_CONTEXT,
  SEC_STRINGS,
  SEC_MODULES,
  SEC_FILES,
  SEC_FUNCTIONS,
  N_SECTIONS
};
static const char *const section_names[N_SECTIONS] = {
    "General Properties",  "Identifier Names", "Performance Metrics", "Context Tree",
    "Common String Table", "Load Modules",     "Source Files",        "Functions"};

typedef struct meta_reader {
  hpctk4_file f;
  hpcdb_experiment *exp;
  /* arrays other structures point into: start offset, stride, count */
  uint64_t scopes_at, modules_at, files_at, functions_at;
  uint64_t scope_stride, module_stride, file_stride, function_stride;
  uint32_t n_scopes_read, n_modules_read, n_files_read, n_functions_read;
} meta_reader;

#define FAIL(status, sec, off, rule, ...) hpcdb_fail_at(status, r->f.path, section_names[sec], off, rule, __VA_ARGS__)

/* [off, off + n) inside section sec. */
static int in_section(const meta_reader *r, unsigned sec, uint64_t off, uint64_t n, const char *what) {
  uint64_t lo = r->f.sec_off[sec], size = r->f.sec_size[sec];
  if (off < lo || !in_bounds(size, off - lo, n))
    return FAIL(HPCDB_ECORRUPT, sec, off, "section-bounds", "%s (%llu bytes) is not inside the section", what,
                (unsigned long long)n);
  return 0;
}

/* count elements of stride bytes at off, inside section sec, aligned to 8. */
static int array_in_section(const meta_reader *r, unsigned sec, uint64_t off, uint64_t count, uint64_t stride,
                            const char *what) {
  uint64_t total;
  if (!mul_ok(count, stride, &total))
    return FAIL(HPCDB_ECORRUPT, sec, off, "count-overflow", "%s: %llu × %llu bytes overflows", what,
                (unsigned long long)count, (unsigned long long)stride);
  if (count && off % 8 != 0) return FAIL(HPCDB_ECORRUPT, sec, off, "alignment", "%s is not 8-byte aligned", what);
  return count ? in_section(r, sec, off, total, what) : 0;
}

/* A NUL-terminated string wholly inside section sec; *out points into the file. */
static int string_in(const meta_reader *r, unsigned sec, uint64_t off, const char *what, const char **out) {
  hpcdb_cursor c;
  hpctk4_cursor(&r->f, &c, section_names[sec]);
  size_t len;
  return cursor_cstring_at(&c, off, r->f.sec_off[sec], r->f.sec_off[sec] + r->f.sec_size[sec], out, &len, what);
}

/* Which element of an array a pointer names; it must point at an element. */
static int element_index(const meta_reader *r, unsigned sec, uint64_t p, uint64_t at, uint64_t stride, uint32_t count,
                         uint64_t where, const char *what, uint32_t *out) {
  if (p < at || (p - at) % stride != 0 || (p - at) / stride >= count)
    return FAIL(HPCDB_ECORRUPT, sec, where, "pointer-target", "%s 0x%llx does not point at an element", what,
                (unsigned long long)p);
  *out = (uint32_t)((p - at) / stride);
  return 0;
}

static const uint8_t *at(const meta_reader *r, uint64_t off) { return r->f.data + off; }

static int read_general(meta_reader *r) {
  uint64_t s = r->f.sec_off[SEC_GENERAL];
  HPCDB_TRY(in_section(r, SEC_GENERAL, s, 16, "General Properties header"));
  const char *title = NULL, *description = NULL;
  uint64_t pt = rd_le64(at(r, s)), pd = rd_le64(at(r, s + 8));
  if (pt) HPCDB_TRY(string_in(r, SEC_GENERAL, pt, "pTitle", &title));
  if (pd) HPCDB_TRY(string_in(r, SEC_GENERAL, pd, "pDescription", &description));
  return hpcdb_set_title(r->exp, title, description);
}

static int read_id_names(meta_reader *r) {
  uint64_t s = r->f.sec_off[SEC_IDNAMES];
  HPCDB_TRY(in_section(r, SEC_IDNAMES, s, 9, "Identifier Names header"));
  uint64_t pp = rd_le64(at(r, s));
  uint8_t n = at(r, s)[8];
  HPCDB_TRY(array_in_section(r, SEC_IDNAMES, pp, n, 8, "ppNames"));
  for (unsigned k = 0; k < n; k++) {
    const char *name;
    HPCDB_TRY(string_in(r, SEC_IDNAMES, rd_le64(at(r, pp + 8 * k)), "ppNames[kind]", &name));
    HPCDB_TRY(hpcdb_add_kind_name(r->exp, name, NULL));
  }
  return 0;
}

static int read_scopes(meta_reader *r, uint64_t p, uint16_t n, uint8_t stride) {
  if (stride < 16)
    return FAIL(HPCDB_ECORRUPT, SEC_METRICS, r->f.sec_off[SEC_METRICS] + 0x1a, "stride",
                "szScope %u is smaller than 16", stride);
  HPCDB_TRY(array_in_section(r, SEC_METRICS, p, n, stride, "pScopes"));
  r->scopes_at = p;
  r->scope_stride = stride;
  for (uint16_t i = 0; i < n; i++) {
    const uint8_t *s = at(r, p + (uint64_t)i * stride);
    hpcdb_scope sc = {NULL, s[8], s[9]};
    HPCDB_TRY(string_in(r, SEC_METRICS, rd_le64(s), "pScopeName", &sc.name));
    HPCDB_TRY(hpcdb_add_scope(r->exp, &sc, NULL));
  }
  r->n_scopes_read = n;
  return 0;
}

static int scope_of(const meta_reader *r, uint64_t p, uint64_t where, uint32_t *out) {
  return element_index(r, SEC_METRICS, p, r->scopes_at, r->scope_stride, r->n_scopes_read, where, "pScope", out);
}

/* A custom scope for execution values that are not subtree sums
 * (subtree_scopes.h) becomes `execution` again, with the metric's
 * execution_combine saying how they combine. */
static int subtree_scope(meta_reader *r, uint32_t idx, uint32_t *scope) {
  uint8_t c = hpctk4_subtree_combine(&r->exp->scopes[*scope]);
  if (c == HPCDB_COMBINE_SUM) return 0;
  HPCDB_TRY(hpcdb_metric_set_combine(r->exp, idx, r->exp->metrics[idx].integer, c));
  for (uint32_t i = 0; i < r->exp->n_scopes; i++)
    if (r->exp->scopes[i].type == HPCDB_SCOPE_EXECUTION && r->exp->scopes[i].name &&
        !strcmp(r->exp->scopes[i].name, "execution"))
      return (*scope = i), 0;
  hpcdb_scope execution = {"execution", HPCDB_SCOPE_EXECUTION, 255};
  return hpcdb_add_scope(r->exp, &execution, scope);
}

static int read_metric(meta_reader *r, uint64_t m, uint8_t sz_inst, uint8_t sz_sum) {
  const uint8_t *md = at(r, m);
  const char *name;
  HPCDB_TRY(string_in(r, SEC_METRICS, rd_le64(md), "pName", &name));
  uint64_t p_inst = rd_le64(md + 8), p_sum = rd_le64(md + 16);
  uint16_t n_inst = rd_le16(md + 0x18), n_sum = rd_le16(md + 0x1a);
  HPCDB_TRY(array_in_section(r, SEC_METRICS, p_inst, n_inst, sz_inst, "pScopeInsts"));
  HPCDB_TRY(array_in_section(r, SEC_METRICS, p_sum, n_sum, sz_sum, "pSummaries"));
  uint32_t idx;
  HPCDB_TRY(hpcdb_add_metric(r->exp, name, &idx));
  for (uint16_t k = 0; k < n_inst; k++) {
    uint64_t e = p_inst + (uint64_t)k * sz_inst;
    uint32_t scope = 0;
    HPCDB_TRY(scope_of(r, rd_le64(at(r, e)), e, &scope));
    HPCDB_TRY(subtree_scope(r, idx, &scope));
    HPCDB_TRY(hpcdb_metric_add_instance(r->exp, idx, scope, rd_le16(at(r, e + 8))));
  }
  for (uint16_t k = 0; k < n_sum; k++) {
    uint64_t e = p_sum + (uint64_t)k * sz_sum;
    hpcdb_summary s = {0, NULL, at(r, e + 0x10)[0], rd_le16(at(r, e + 0x12))};
    HPCDB_TRY(scope_of(r, rd_le64(at(r, e)), e, &s.scope));
    HPCDB_TRY(subtree_scope(r, idx, &s.scope));
    HPCDB_TRY(string_in(r, SEC_METRICS, rd_le64(at(r, e + 8)), "pFormula", &s.formula));
    HPCDB_TRY(hpcdb_metric_add_summary(r->exp, idx, &s));
  }
  return 0;
}

static int read_metrics(meta_reader *r) {
  uint64_t s = r->f.sec_off[SEC_METRICS];
  HPCDB_TRY(in_section(r, SEC_METRICS, s, 0x1b, "Performance Metrics header"));
  const uint8_t *h = at(r, s);
  uint64_t p_metrics = rd_le64(h), p_scopes = rd_le64(h + 0x10);
  uint32_t n_metrics = rd_le32(h + 8);
  uint8_t sz_metric = h[0xc], sz_inst = h[0xd], sz_sum = h[0xe], sz_scope = h[0x1a];
  if (sz_metric < 32 || sz_inst < 16 || sz_sum < 24)
    return FAIL(HPCDB_ECORRUPT, SEC_METRICS, s + 0xc, "stride",
                "structure sizes %u/%u/%u are smaller than v4.0's 32/16/24", sz_metric, sz_inst, sz_sum);
  HPCDB_TRY(read_scopes(r, p_scopes, rd_le16(h + 0x18), sz_scope));
  HPCDB_TRY(array_in_section(r, SEC_METRICS, p_metrics, n_metrics, sz_metric, "pMetrics"));
  for (uint32_t i = 0; i < n_metrics; i++)
    HPCDB_TRY(read_metric(r, p_metrics + (uint64_t)i * sz_metric, sz_inst, sz_sum));
  return 0;
}

/* The header of the Load Modules, Source Files or Functions section. */
static int table_header(meta_reader *r, unsigned sec, uint16_t min_size, uint64_t *p, uint32_t *n, uint64_t *stride) {
  uint64_t s = r->f.sec_off[sec];
  HPCDB_TRY(in_section(r, sec, s, 0xe, "section header"));
  *p = rd_le64(at(r, s));
  *n = rd_le32(at(r, s + 8));
  *stride = rd_le16(at(r, s + 0xc));
  if (*stride < min_size)
    return FAIL(HPCDB_ECORRUPT, sec, s + 0xc, "stride", "structure size %llu is smaller than v4.0's %u",
                (unsigned long long)*stride, min_size);
  return array_in_section(r, sec, *p, *n, *stride, "array");
}

static int read_modules_and_files(meta_reader *r) {
  uint32_t n;
  HPCDB_TRY(table_header(r, SEC_MODULES, 16, &r->modules_at, &n, &r->module_stride));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *m = at(r, r->modules_at + i * r->module_stride);
    const char *path;
    HPCDB_TRY(string_in(r, SEC_STRINGS, rd_le64(m + 8), "module pPath", &path));
    HPCDB_TRY(hpcdb_add_module(r->exp, path, rd_le32(m), NULL));
  }
  r->n_modules_read = n;
  HPCDB_TRY(table_header(r, SEC_FILES, 16, &r->files_at, &n, &r->file_stride));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *f = at(r, r->files_at + i * r->file_stride);
    const char *path;
    HPCDB_TRY(string_in(r, SEC_STRINGS, rd_le64(f + 8), "file pPath", &path));
    HPCDB_TRY(hpcdb_add_file(r->exp, path, rd_le32(f), NULL));
  }
  r->n_files_read = n;
  return 0;
}

static int module_of(const meta_reader *r, uint64_t p, uint64_t where, uint32_t *out) {
  return element_index(r, SEC_MODULES, p, r->modules_at, r->module_stride, r->n_modules_read, where, "pModule", out);
}

static int file_of(const meta_reader *r, uint64_t p, uint64_t where, uint32_t *out) {
  return element_index(r, SEC_FILES, p, r->files_at, r->file_stride, r->n_files_read, where, "pFile", out);
}

static int read_functions(meta_reader *r) {
  uint32_t n;
  HPCDB_TRY(table_header(r, SEC_FUNCTIONS, 40, &r->functions_at, &n, &r->function_stride));
  for (uint32_t i = 0; i < n; i++) {
    uint64_t e = r->functions_at + i * r->function_stride;
    const uint8_t *p = at(r, e);
    hpcdb_function fn = {NULL, HPCDB_NONE, rd_le64(p + 0x10), HPCDB_NONE, rd_le32(p + 0x20), rd_le32(p + 0x24)};
    if (rd_le64(p)) HPCDB_TRY(string_in(r, SEC_STRINGS, rd_le64(p), "function pName", &fn.name));
    if (rd_le64(p + 8)) HPCDB_TRY(module_of(r, rd_le64(p + 8), e + 8, &fn.module));
    if (rd_le64(p + 0x18)) HPCDB_TRY(file_of(r, rd_le64(p + 0x18), e + 0x18, &fn.file));
    HPCDB_TRY(hpcdb_add_function(r->exp, &fn, NULL));
  }
  r->n_functions_read = n;
  return 0;
}

/* ---- the context tree ---------------------------------------------------- */

typedef struct child_array {
  uint64_t off, end;
  uint32_t parent; /* model index */
} child_array;

/* Adds one context, checking its id; rejects cycles and duplicates by id. */
static int add_context(meta_reader *r, hpcdb_context *c, uint32_t parent, uint64_t where, uint32_t *out) {
  if (c->id == 0)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, where + 0x10, "ctx-id-zero", "ctxId 0 is reserved for the global context");
  if (hpcdb_find_context(r->exp, c->id) != HPCDB_NONE)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, where + 0x10, "ctx-id-duplicate",
                "ctxId %u appears twice (or the tree has a cycle)", c->id);
  return hpcdb_add_context(r->exp, c, parent, out);
}

/* Decodes one {Ctx}; *next gets the offset after it. */
static int read_context(meta_reader *r, uint64_t e, uint64_t end, uint32_t parent, child_array *kids, uint64_t *next) {
  if (end - e < 0x20)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, e, "ctx-bounds", "context runs past the end of its array");
  const uint8_t *p = at(r, e);
  uint64_t size = 0x20 + 8 * (uint64_t)p[0x17];
  if (end - e < size)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, e, "ctx-bounds", "context of %llu bytes runs past its array",
                (unsigned long long)size);
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_NORMAL;
  c.id = rd_le32(p + 0x10);
  c.flags = p[0x14];
  c.relation = p[0x15];
  c.lexical_type = p[0x16];
  c.propagation = rd_le16(p + 0x18);
  c.function = c.file = c.module = HPCDB_NONE;
  unsigned words = (c.flags & 1u) + 2 * ((c.flags >> 1) & 1u) + 2 * ((c.flags >> 2) & 1u);
  if (words > p[0x17])
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, e + 0x17, "flex-size", "flags need %u flex words but nFlexWords is %u",
                words, p[0x17]);
  uint64_t w = e + 0x20;
  if (c.flags & HPCDB_CTXF_FUNCTION) {
    HPCDB_TRY(element_index(r, SEC_FUNCTIONS, rd_le64(at(r, w)), r->functions_at, r->function_stride,
                            r->n_functions_read, w, "pFunction", &c.function));
    w += 8;
  }
  if (c.flags & HPCDB_CTXF_SRCLOC) {
    HPCDB_TRY(file_of(r, rd_le64(at(r, w)), w, &c.file));
    c.line = rd_le32(at(r, w + 8));
    w += 16;
  }
  if (c.flags & HPCDB_CTXF_POINT) {
    HPCDB_TRY(module_of(r, rd_le64(at(r, w)), w, &c.module));
    c.offset = rd_le64(at(r, w + 8));
  }
  HPCDB_TRY(add_context(r, &c, parent, e, &kids->parent));
  kids->off = rd_le64(p + 8);
  kids->end = rd_le64(p); /* size for now */
  *next = e + size;
  return 0;
}

/* Queues a children array (size sz at p) of the context at model index parent. */
static int queue_children(meta_reader *r, child_array **queue, uint64_t *n, uint64_t *cap, uint64_t p, uint64_t sz,
                          uint32_t parent, uint64_t where) {
  if (sz == 0) return 0; /* pChildren may be non-zero then: ignored */
  if (p % 8 != 0)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, where, "alignment", "pChildren 0x%llx is not 8-byte aligned",
                (unsigned long long)p);
  HPCDB_TRY(in_section(r, SEC_CONTEXT, p, sz, "children array"));
  HPCDB_TRY(VEC_RESERVE(queue, cap, *n + 1));
  (*queue)[(*n)++] = (child_array){p, p + sz, parent};
  return 0;
}

/* Breadth-first over children arrays with an explicit queue (no recursion:
 * depth is the file's to choose). Every context is at least 32 bytes, so a
 * walk visiting more contexts than the section holds must be going round a
 * cycle: the duplicate-id check stops it first. */
static int read_context_tree(meta_reader *r) {
  uint64_t s = r->f.sec_off[SEC_CONTEXT];
  HPCDB_TRY(in_section(r, SEC_CONTEXT, s, 0xb, "Context Tree header"));
  uint64_t p_entries = rd_le64(at(r, s));
  uint16_t n_entries = rd_le16(at(r, s + 8));
  uint8_t sz_entry = at(r, s)[0xa];
  if (sz_entry < 32)
    return FAIL(HPCDB_ECORRUPT, SEC_CONTEXT, s + 0xa, "stride", "szEntryPoint %u is smaller than 32", sz_entry);
  HPCDB_TRY(array_in_section(r, SEC_CONTEXT, p_entries, n_entries, sz_entry, "pEntryPoints"));
  child_array *queue = NULL;
  uint64_t n = 0, cap = 0;
  int rc = 0;
  for (uint16_t i = 0; i < n_entries && rc == 0; i++) {
    uint64_t e = p_entries + (uint64_t)i * sz_entry;
    const uint8_t *p = at(r, e);
    hpcdb_context c = {0};
    c.kind = HPCDB_CTX_ENTRY;
    c.id = rd_le32(p + 0x10);
    c.entry_point = rd_le16(p + 0x14);
    c.function = c.file = c.module = HPCDB_NONE;
    uint32_t idx;
    if ((rc = string_in(r, SEC_STRINGS, rd_le64(p + 0x18), "pPrettyName", &c.name)) == 0 &&
        (rc = add_context(r, &c, 0, e, &idx)) == 0)
      rc = queue_children(r, &queue, &n, &cap, rd_le64(p + 8), rd_le64(p), idx, e + 8);
  }
  for (uint64_t q = 0; q < n && rc == 0; q++) {
    child_array a = queue[q];
    for (uint64_t e = a.off; e < a.end && rc == 0;) {
      child_array kids;
      uint64_t next = a.end;
      if ((rc = read_context(r, e, a.end, a.parent, &kids, &next)) == 0)
        rc = queue_children(r, &queue, &n, &cap, kids.off, kids.end, kids.parent, e + 8);
      e = next;
    }
  }
  free(queue);
  return rc;
}

int hpctk4_parse_meta(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path) {
  meta_reader r = {0};
  r.exp = exp;
  HPCDB_TRY(hpctk4_open_bytes(&r.f, data, len, path, "meta", "_meta.db", N_SECTIONS));
  HPCDB_TRY(hpcdb_set_format(exp, hpctk4_format.name, r.f.major, r.f.minor));
  HPCDB_TRY(read_general(&r));
  HPCDB_TRY(read_id_names(&r));
  HPCDB_TRY(read_metrics(&r));
  HPCDB_TRY(read_modules_and_files(&r));
  HPCDB_TRY(read_functions(&r));
  return read_context_tree(&r);
}
