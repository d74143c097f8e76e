/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: the draft-b writer (see draftb_write.h). Big-endian
 * throughout; sections on 16-byte boundaries; every *_ptr an absolute file
 * offset of the entry itself; footers spelled as the little-endian integers
 * hpcprof wrote ("nmBDFORP", "tfBDFORP", "rtfBDTCC"); the HPCPROF-* files say
 * version 1.0, meta.db 4.0 (as its document says). */
#include "draftb_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef struct out {
  uint8_t *d;
  size_t len, cap;
  int failed;
} out;

static size_t grow(out *o, size_t n) {
  if (o->len + n > o->cap) {
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + n) cap *= 2;
    uint8_t *d = realloc(o->d, cap);
    if (!d) {
      o->failed = 1;
      return SIZE_MAX;
    }
    o->d = d;
    o->cap = cap;
  }
  size_t at = o->len;
  memset(o->d + at, 0, n);
  o->len += n;
  return at;
}
/* Each put returns the offset written at (writes nothing after a failure). */
static size_t put(out *o, const void *p, size_t n) {
  size_t at = grow(o, n);
  if (at != SIZE_MAX) memcpy(o->d + at, p, n);
  return at;
}
static size_t put8(out *o, uint8_t v) { return put(o, &v, 1); }
static size_t put16(out *o, uint16_t v) {
  uint8_t b[2];
  wr_be16(b, v);
  return put(o, b, 2);
}
static size_t put32(out *o, uint32_t v) {
  uint8_t b[4];
  wr_be32(b, v);
  return put(o, b, 4);
}
static size_t put64(out *o, uint64_t v) {
  uint8_t b[8];
  wr_be64(b, v);
  return put(o, b, 8);
}
static size_t put_str(out *o, const char *s) { return put(o, s ? s : "", strlen(s ? s : "") + 1); }
static void align(out *o, size_t a) {
  if (o->len % a) grow(o, a - o->len % a);
}
static void set64(out *o, size_t at, uint64_t v) {
  if (!o->failed) wr_be64(o->d + at, v);
}
static void set32(out *o, size_t at, uint32_t v) {
  if (!o->failed) wr_be32(o->d + at, v);
}
static void set16(out *o, size_t at, uint16_t v) {
  if (!o->failed) wr_be16(o->d + at, v);
}

static int save(out *o, const char *dir, const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int rc = o->failed ? -1 : testlib_write_file(path, o->d, o->len);
  free(o->d);
  *o = (out){0};
  return rc;
}

/* ---- meta.db ---- */

typedef struct tables {
  size_t *module_entry, *file_entry, *function_entry; /* absolute offsets of the entries */
} tables;

/* Section s of the header (in header order) spans [start, o->len). */
static void section_end(out *o, unsigned s, size_t start) {
  set64(o, 24 + 16 * s, o->len - start);
  set64(o, 32 + 16 * s, start);
}

static size_t begin_section(out *o) {
  align(o, 16);
  return o->len;
}

static void write_identifiers(out *o, const hpcdb_experiment *exp) {
  put16(o, (uint16_t)exp->n_kind_names);
  for (uint32_t i = 0; i < exp->n_kind_names; i++) put_str(o, exp->kind_names[i]);
}

static void write_metrics(out *o, const hpcdb_experiment *exp) {
  put32(o, exp->n_metrics);
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    put16(o, (uint16_t)m->n_instances);
    put_str(o, m->name);
    for (uint32_t k = 0; k < m->n_instances; k++) {
      uint32_t scope = m->instances[k].scope;
      put16(o, m->instances[k].prop_metric_id);
      size_t count_at = put16(o, 0);
      put_str(o, exp->scopes[scope].name);
      uint16_t n = 0;
      for (uint32_t j = 0; j < m->n_summaries; j++) {
        if (m->summaries[j].scope != scope) continue;
        put16(o, m->summaries[j].stat_metric_id);
        put8(o, m->summaries[j].combine);
        put_str(o, m->summaries[j].formula);
        n++;
      }
      set16(o, count_at, n);
    }
  }
}

/* A table section's count and entry size (the entries follow). */
static void table_start(out *o, uint32_t n, uint16_t size) {
  put32(o, n);
  put16(o, size);
}

/* The strings, binaries, files and functions: header positions first_sec.. first_sec + 3. */
static void write_tables(out *o, const hpcdb_experiment *exp, tables *t, unsigned first_sec) {
  /* Context Attribute Strings */
  size_t s = begin_section(o);
  size_t *mod_str = calloc(exp->n_modules + 1, sizeof *mod_str), *file_str = calloc(exp->n_files + 1, sizeof *file_str);
  size_t *fn_str = calloc(exp->n_functions + 1, sizeof *fn_str);
  if (!mod_str || !file_str || !fn_str) o->failed = 1;
  for (uint32_t i = 0; !o->failed && i < exp->n_modules; i++) mod_str[i] = put_str(o, exp->modules[i].path);
  for (uint32_t i = 0; !o->failed && i < exp->n_files; i++) file_str[i] = put_str(o, exp->files[i].path);
  for (uint32_t i = 0; !o->failed && i < exp->n_functions; i++)
    fn_str[i] = exp->functions[i].name ? put_str(o, exp->functions[i].name) : 0;
  section_end(o, first_sec, s);
  /* binaries, files: flags and path_ptr */
  s = begin_section(o);
  table_start(o, exp->n_modules, 12);
  for (uint32_t i = 0; !o->failed && i < exp->n_modules; i++) {
    t->module_entry[i] = put32(o, exp->modules[i].flags);
    put64(o, mod_str[i]);
  }
  section_end(o, first_sec + 1, s);
  s = begin_section(o);
  table_start(o, exp->n_files, 12);
  for (uint32_t i = 0; !o->failed && i < exp->n_files; i++) {
    t->file_entry[i] = put32(o, exp->files[i].flags);
    put64(o, file_str[i]);
  }
  section_end(o, first_sec + 2, s);
  s = begin_section(o);
  table_start(o, exp->n_functions, 40);
  for (uint32_t i = 0; !o->failed && i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    t->function_entry[i] = put32(o, f->flags);
    put64(o, fn_str[i]);
    put64(o, f->module != HPCDB_NONE ? t->module_entry[f->module] : 0);
    put64(o, f->module != HPCDB_NONE ? f->offset : UINT64_MAX);
    put64(o, f->file != HPCDB_NONE ? t->file_entry[f->file] : 0);
    put32(o, f->file != HPCDB_NONE ? f->line : 0);
  }
  section_end(o, first_sec + 3, s);
  free(mod_str);
  free(file_str);
  free(fn_str);
}

static uint8_t callee_size(const hpcdb_context *c) { return c->relation == HPCDB_REL_LEXICAL ? 0 : 2; }
static uint8_t lexical_size(const hpcdb_context *c) {
  return (uint8_t)(3 + (c->function != HPCDB_NONE ? 8 : 0) + (c->file != HPCDB_NONE ? 12 : 0) +
                   (c->module != HPCDB_NONE ? 16 : 0));
}

static void put_node(out *o, const hpcdb_context *c, uint64_t block, uint64_t block_size, const tables *t) {
  put32(o, c->id);
  put64(o, block);
  put64(o, block_size);
  put8(o, callee_size(c));
  put8(o, lexical_size(c));
  if (callee_size(c)) {
    put8(o, (uint8_t)(c->relation - 1)); /* call_type: 0 normal, 1 inlined */
    put8(o, 0);                          /* no caller srcline */
  }
  uint16_t flags = (uint16_t)((c->flags & 0xf8u) | (c->function != HPCDB_NONE ? 1 : 0) |
                              (c->file != HPCDB_NONE ? 2 : 0) | (c->module != HPCDB_NONE ? 4 : 0));
  put8(o, c->lexical_type);
  put16(o, flags);
  if (c->function != HPCDB_NONE) put64(o, t->function_entry[c->function]);
  if (c->file != HPCDB_NONE) {
    put64(o, t->file_entry[c->file]);
    put32(o, c->line);
  }
  if (c->module != HPCDB_NONE) {
    put64(o, t->module_entry[c->module]);
    put64(o, c->offset);
  }
}

/* Root block, then each node's children block in breadth-first order. */
static void write_tree(out *o, const hpcdb_experiment *exp, const tables *t) {
  uint32_t n = exp->n_contexts;
  uint64_t *size = calloc(n, sizeof *size), *block = calloc(n, sizeof *block);
  uint32_t *queue = malloc(n * sizeof *queue);
  if (!size || !block || !queue) {
    o->failed = 1;
    goto done;
  }
  for (uint32_t i = 1; i < n; i++)
    size[exp->contexts[i].parent] += 22u + callee_size(&exp->contexts[i]) + lexical_size(&exp->contexts[i]);
  uint32_t head = 0, tail = 0;
  queue[tail++] = 0;
  while (head < tail)
    for (uint32_t c = exp->contexts[queue[head++]].first_child; c != HPCDB_NONE; c = exp->contexts[c].next_sibling)
      queue[tail++] = c;
  uint64_t pos = o->len + 8;
  for (uint32_t k = 0; k < tail; k++)
    if (size[queue[k]]) {
      block[queue[k]] = pos;
      pos += size[queue[k]];
    }
  put64(o, size[0]);
  for (uint32_t k = 0; k < tail; k++)
    for (uint32_t c = exp->contexts[queue[k]].first_child; c != HPCDB_NONE; c = exp->contexts[c].next_sibling)
      put_node(o, &exp->contexts[c], block[c], size[c], t);
done:
  free(size);
  free(block);
  free(queue);
}

static int write_meta(const hpcdb_experiment *exp, const char *dir, unsigned flags) {
  out o = {0};
  int seven = (flags & DRAFTB_SEVEN_SECTIONS) != 0;
  unsigned n_sec = seven ? 7 : 8;
  /* header positions: 8 = general, ids, metrics, tree, strings, binaries, files, functions;
   * 7 = general, metrics, tree, strings, binaries, files, functions */
  unsigned sec_metrics = seven ? 1 : 2, sec_tree = seven ? 2 : 3, sec_strings = seven ? 3 : 4;
  tables t = {calloc(exp->n_modules + 1, sizeof(size_t)), calloc(exp->n_files + 1, sizeof(size_t)),
              calloc(exp->n_functions + 1, sizeof(size_t))};
  if (!t.module_entry || !t.file_entry || !t.function_entry) o.failed = 1;
  put(&o, "HPCTOOLKIT_expmt", 16);
  put8(&o, 4);
  put8(&o, 0);
  put16(&o, (uint16_t)n_sec);
  grow(&o, 4 + 16 * (size_t)n_sec);
  size_t s = begin_section(&o);
  put_str(&o, exp->title);
  if (!seven) put_str(&o, exp->description);
  else write_identifiers(&o, exp);
  section_end(&o, 0, s);
  if (!seven) {
    s = begin_section(&o);
    write_identifiers(&o, exp);
    section_end(&o, 1, s);
  }
  s = begin_section(&o);
  write_metrics(&o, exp);
  section_end(&o, sec_metrics, s);
  write_tables(&o, exp, &t, sec_strings);
  s = begin_section(&o);
  write_tree(&o, exp, &t);
  section_end(&o, sec_tree, s);
  put(&o, "nmBDFORP", 8);
  free(t.module_entry);
  free(t.file_entry);
  free(t.function_entry);
  return save(&o, dir, "meta.db");
}

/* ---- HPCPROF-* ---- */

static void hpcprof_header(out *o, const char *magic, uint32_t count, uint16_t n_sec) {
  put(o, magic, 16);
  put8(o, 1);
  put8(o, 0);
  put32(o, count);
  put16(o, n_sec);
  grow(o, 32);
  align(o, 16);
}

static uint16_t tuple_kind(const hpcdb_id *id) {
  uint16_t interpret = (uint16_t)((id->flags >> 14) & 3u);
  if (interpret == 0 && !(id->flags & HPCDB_ID_PHYSICAL)) interpret = 3; /* logical only */
  return (uint16_t)((id->kind & 0x3fffu) | (unsigned)interpret << 14);
}

static int write_profiles(const hpcdb_experiment *exp, const char *dir) {
  out o = {0};
  uint32_t n = exp->n_profiles;
  hpcprof_header(&o, "HPCPROF-profdb__", n, 2);
  size_t infos = o.len;
  grow(&o, 52 * (size_t)n);
  set64(&o, 24, 52 * (uint64_t)n);
  set64(&o, 32, infos);
  align(&o, 8);
  size_t tuples = o.len;
  for (uint32_t i = 0; i < n; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    size_t at = put16(&o, i == 0 ? 1 : p->n_ids);
    if (i == 0) { /* the summary: [SUMMARY 0 0], as hpcprof wrote it */
      put16(&o, 0);
      put64(&o, 0);
      put64(&o, 0);
    }
    for (uint16_t k = 0; i > 0 && k < p->n_ids; k++) {
      put16(&o, tuple_kind(&p->ids[k]));
      put64(&o, p->ids[k].physical_id);
      put64(&o, p->ids[k].logical_id);
    }
    set64(&o, infos + 52 * (size_t)i, at);
  }
  set64(&o, 40, o.len - tuples);
  set64(&o, 48, tuples);
  for (uint32_t i = 0; i < n; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    align(&o, 8);
    size_t info = infos + 52 * (size_t)i;
    set64(&o, info + 32, p->n_values);
    set32(&o, info + 40, p->n_ctxs);
    set64(&o, info + 44, o.len);
    for (uint64_t v = 0; v < p->n_values; v++) {
      uint8_t b[10];
      wr_be_f64(b, p->values[v]);
      wr_be16(b + 8, p->metric_ids[v]);
      put(&o, b, 10);
    }
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      put32(&o, p->ctx_ids[k]);
      put64(&o, p->ctx_starts[k]);
    }
    put32(&o, 0x656E6421u);
    put64(&o, p->n_values);
  }
  put(&o, "tfBDFORP", 8);
  return save(&o, dir, "profile.db");
}

typedef struct cell {
  uint32_t ctx;
  uint16_t metric;
  uint32_t profile;
  double value;
} cell;

static int by_cell(const void *a, const void *b) {
  const cell *x = a, *y = b;
  if (x->ctx != y->ctx) return x->ctx < y->ctx ? -1 : 1;
  if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
  return x->profile < y->profile ? -1 : x->profile > y->profile;
}

static int write_cct(const hpcdb_experiment *exp, const char *dir) {
  uint64_t total = 0;
  uint32_t n_ctx = 0;
  for (uint32_t i = 0; i < exp->n_contexts; i++)
    if (exp->contexts[i].id >= n_ctx) n_ctx = exp->contexts[i].id + 1;
  for (uint32_t i = 1; i < exp->n_profiles; i++) {
    total += exp->profiles[i].n_values;
    for (uint32_t k = 0; k < exp->profiles[i].n_ctxs; k++)
      if (exp->profiles[i].ctx_ids[k] >= n_ctx) n_ctx = exp->profiles[i].ctx_ids[k] + 1;
  }
  cell *cells = malloc((total ? total : 1) * sizeof *cells);
  if (!cells) return -1;
  uint64_t m = 0;
  for (uint32_t i = 1; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    for (uint32_t k = 0; k < p->n_ctxs; k++)
      for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
        cells[m++] = (cell){p->ctx_ids[k], p->metric_ids[v], i, p->values[v]};
  }
  qsort(cells, total, sizeof *cells, by_cell);
  out o = {0};
  hpcprof_header(&o, "HPCPROF-cctdb___", n_ctx, 1);
  size_t infos = o.len;
  grow(&o, 22 * (size_t)n_ctx);
  set64(&o, 24, 22 * (uint64_t)n_ctx);
  set64(&o, 32, infos);
  uint64_t c = 0;
  for (uint32_t id = 0; id < n_ctx; id++) {
    size_t info = infos + 22 * (size_t)id;
    set32(&o, info, id);
    uint64_t lo = c;
    while (c < total && cells[c].ctx == id) c++;
    if (c == lo) continue; /* no values: no block */
    align(&o, 4);
    set64(&o, info + 4, c - lo);
    set64(&o, info + 14, o.len);
    for (uint64_t j = lo; j < c; j++) {
      uint8_t b[12];
      wr_be_f64(b, cells[j].value);
      wr_be32(b + 8, cells[j].profile);
      put(&o, b, 12);
    }
    uint16_t n_metrics = 0;
    for (uint64_t j = lo; j < c; j++)
      if (j == lo || cells[j].metric != cells[j - 1].metric) {
        put16(&o, cells[j].metric);
        put64(&o, j - lo);
        n_metrics++;
      }
    put16(&o, 0x6564);
    put64(&o, c - lo);
    if (!o.failed) wr_be16(o.d + info + 12, n_metrics);
  }
  free(cells);
  put(&o, "rtfBDTCC", 8);
  return save(&o, dir, "cct.db");
}

static int write_traces(const hpcdb_experiment *exp, const char *dir) {
  out o = {0};
  uint32_t n = exp->n_traces;
  hpcprof_header(&o, "HPCPROF-tracedb_", n, 1);
  set64(&o, 40, exp->trace_min);
  set64(&o, 48, exp->trace_max);
  size_t headers = o.len;
  grow(&o, 22 * (size_t)n);
  set64(&o, 24, 22 * (uint64_t)n);
  set64(&o, 32, headers);
  for (uint32_t i = 0; i < n; i++) {
    const hpcdb_trace *t = &exp->traces[i];
    align(&o, 8);
    size_t h = headers + 22 * (size_t)i;
    set32(&o, h, t->profile);
    set64(&o, h + 6, o.len);
    for (uint64_t k = 0; k < t->n; k++) {
      put64(&o, t->timestamps[k]);
      put32(&o, t->ctx_ids[k]);
    }
    set64(&o, h + 14, o.len);
  }
  return save(&o, dir, "trace.db");
}

int draftb_write(const hpcdb_experiment *exp, const char *dir, unsigned flags) {
  if (exp->n_profiles == 0 || exp->profiles[0].has_id_tuple) return -1;
  if (write_meta(exp, dir, flags) != 0 || write_profiles(exp, dir) != 0 || write_cct(exp, dir) != 0) return -1;
  if (exp->has_traces) return write_traces(exp, dir);
  char path[4200];
  snprintf(path, sizeof path, "%s/trace.db", dir);
  remove(path); /* a stale one from an earlier write */
  return 0;
}
