/* SPDX-License-Identifier: BSD-3-Clause */
/* Measurement files in the experiment model: contexts are CCT nodes (module +
 * ip; placeholders named by their packed characters), metrics the metric
 * table (one "point" scope instance each), one profile per file with its id
 * tuple, header pairs as attributes, the .hpctrace beside a file as its trace.
 * Choices and their reasons: docs/hpcrun-format-notes.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_model.h"
#include "hpcrun/hpcrun_placeholders.h"

static const char *const standard_kinds[] = {"SUMMARY",   "NODE",       "RANK",      "THREAD",
                                             "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};
enum { KIND_NODE = 1, KIND_RANK = 2, KIND_THREAD = 3 };

void hpcrun_builder_init(hpcrun_builder *b, hpcdb_experiment *exp, int renumber) {
  memset(b, 0, sizeof *b);
  b->exp = exp;
  b->renumber = renumber;
  b->point_scope = HPCDB_NONE;
}

void hpcrun_builder_free(hpcrun_builder *b) {
  u64map_free(&b->name_numbers);
  u64map_free(&b->metric_ids);
  u64map_free(&b->modules);
  u64map_free(&b->idle);
}

uint32_t hpcrun_stored_key(const hpcrun_file *f, uint32_t id) {
  if (f->major == 4 || (int32_t)id >= 0) return id;
  return (uint32_t)(-(int64_t)(int32_t)id); /* 02.00 negates leaf ids */
}

/* Modules are shared by path across files (interned names are the keys). */
static int find_module(hpcrun_builder *b, const hpcrun_lm_entry *lm, uint32_t *out) {
  hpcdb_experiment *exp = b->exp;
  const char *path = hpcdb_intern_n(exp, lm->name.s, lm->name.len);
  if (!path) return HPCDB_ENOMEM;
  uint64_t idx;
  if (u64map_get(&b->modules, (uint64_t)(uintptr_t)path, &idx)) {
    *out = (uint32_t)idx;
    return 0;
  }
  HPCDB_TRY(hpcdb_add_module(exp, path, (uint32_t)lm->flags, out));
  if (u64map_put(&b->modules, (uint64_t)(uintptr_t)path, *out) != 0)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing modules");
  return 0;
}

/* Global metric ids for a file's table: metrics are unified by name; the
 * k-th metric of a table with a given name is the k-th global one with it
 * (names get small numbers, so (name, k) is an exact map key). */
static int map_metrics(hpcrun_builder *b, const hpcrun_tables *t, uint16_t *ids) {
  hpcdb_experiment *exp = b->exp;
  if (t->n_metrics > (uint32_t)UINT16_MAX + 1)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%u metrics in one table; at most 65536", t->n_metrics);
  if (b->point_scope == HPCDB_NONE) {
    hpcdb_scope point = {"point", HPCDB_SCOPE_POINT, 255};
    HPCDB_TRY(hpcdb_add_scope(exp, &point, &b->point_scope));
  }
  hpcdb_u64map seen = {0}; /* name number -> occurrences so far in this table */
  int rc = 0;
  for (uint32_t m = 0; m < t->n_metrics && rc == 0; m++) {
    const char *name = hpcdb_intern_n(exp, t->metrics[m].name.s, t->metrics[m].name.len);
    uint64_t no, occ = 0, idx;
    if (!name) {
      rc = HPCDB_ENOMEM;
      break;
    }
    if (!u64map_get(&b->name_numbers, (uint64_t)(uintptr_t)name, &no)) {
      no = b->n_names++;
      if (u64map_put(&b->name_numbers, (uint64_t)(uintptr_t)name, no) != 0) rc = HPCDB_ENOMEM;
    }
    u64map_get(&seen, no, &occ);
    if (rc == 0 && u64map_put(&seen, no, occ + 1) != 0) rc = HPCDB_ENOMEM;
    uint64_t key = no << 16 | occ;
    if (rc == 0 && !u64map_get(&b->metric_ids, key, &idx)) {
      uint32_t added = 0;
      if (exp->n_metrics > UINT16_MAX) rc = hpcdb_fail(HPCDB_EUNSUPPORTED, "more than 65536 distinct metrics");
      if (rc == 0) rc = hpcdb_add_metric(exp, name, &added);
      if (rc == 0) rc = hpcdb_metric_add_instance(exp, added, b->point_scope, (uint16_t)added);
      if (rc == 0 && u64map_put(&b->metric_ids, key, added) != 0) rc = HPCDB_ENOMEM;
      idx = added;
    }
    if (rc == 0) ids[m] = (uint16_t)idx;
  }
  u64map_free(&seen);
  if (rc == HPCDB_ENOMEM) return hpcdb_fail(rc, "out of memory mapping metrics");
  return rc;
}

static int add_tree(hpcrun_builder *b, const char *path, const hpcrun_file *f, const hpcrun_tables *t,
                    hpcdb_u64map *native) {
  hpcdb_experiment *exp = b->exp;
  hpcdb_u64map modules = {0};
  int rc = 0;
  for (uint32_t i = 0; i < t->n_lm && rc == 0; i++) {
    uint32_t idx;
    rc = find_module(b, &t->lm[i], &idx);
    if (rc == 0 && u64map_put(&modules, t->lm[i].id, idx) != 0) rc = HPCDB_ENOMEM;
  }
  for (uint64_t i = 0; i < t->n_nodes && rc == 0; i++) {
    const hpcrun_cct_node *n = &t->nodes[i];
    uint64_t off = t->nodes_off + i * t->node_len;
    uint32_t key = hpcrun_stored_key(f, n->id), pkey = hpcrun_stored_key(f, n->parent);
    uint64_t v;
    if (key == 0) {
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "cct", off, "node-id-zero", "node id 0 is reserved");
      break;
    }
    if (u64map_get(native, key, &v)) {
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "cct", off, "node-id-unique", "node id %u appears twice", key);
      break;
    }
    uint32_t parent = 0;
    if (pkey != 0) {
      if (!u64map_get(native, pkey, &v)) {
        rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "cct", off + 4, "parent-exists",
                           "node %u: parent %u is not an earlier node", key, pkey);
        break;
      }
      parent = hpcdb_find_context(exp, (uint32_t)v);
    }
    hpcdb_context c = {0};
    c.id = b->renumber ? ++b->next_id : key;
    c.kind = pkey == 0 ? HPCDB_CTX_ENTRY : HPCDB_CTX_NORMAL;
    c.relation = HPCDB_REL_CALL;
    c.function = c.file = c.module = HPCDB_NONE;
    c.offset = n->ip;
    char name[9];
    if (n->lm_id == HPCRUN_LM_PLACEHOLDER) {
      hpcrun_placeholder_label(n->ip, name);
      c.name = name[0] ? name : NULL;
      c.lexical_type = HPCDB_LEX_FUNCTION;
    } else {
      c.lexical_type = HPCDB_LEX_INSTRUCTION;
      if (!u64map_get(&modules, n->lm_id, &v)) {
        rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "cct", off + hpcrun_node_lm_field(f, t), "lm-exists",
                           "node %u: load module %u is not in the load map", key, n->lm_id);
        break;
      }
      c.module = (uint32_t)v;
    }
    rc = hpcdb_add_context(exp, &c, parent, NULL);
    if (rc < 0) rc = hpcdb_fail_wrap(rc, "%s: cct: offset 0x%llx", path, (unsigned long long)off);
    else if (u64map_put(native, key, c.id) != 0) rc = HPCDB_ENOMEM;
    else if (n->lm_id == HPCRUN_LM_PLACEHOLDER && hpcrun_placeholder_role(n->ip) == PH_IDLE &&
             u64map_put(&b->idle, c.id, 1) != 0)
      rc = HPCDB_ENOMEM;
  }
  u64map_free(&modules);
  return rc;
}

static int parse_uint(const char *s, int base, uint64_t *out) {
  if (!s || !*s) return 0;
  char *end;
  unsigned long long v = strtoull(s, &end, base);
  if (*end || s[0] == '-') return 0;
  *out = v;
  return 1;
}

static const char *pair_value(const hpcrun_nvlist *l, const char *name) {
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->items[i].name.s, name) == 0) return l->items[i].value.s;
  return NULL;
}

/* Names kind_names[0..max_kind]: from the file's dictionary, else the
 * standard name, else "KIND<n>". Names already there are kept. */
static int ensure_kinds(hpcrun_builder *b, const hpcrun_file *f, uint32_t max_kind) {
  hpcdb_experiment *exp = b->exp;
  if (exp->n_kind_names > max_kind) return 0;
  const char **dict = calloc((size_t)max_kind + 1, sizeof *dict);
  if (!dict) return hpcdb_fail(HPCDB_ENOMEM, "out of memory naming kinds");
  for (uint16_t i = f->n_kinds; i-- > 0;) /* the first entry of a kind wins */
    if ((f->kinds[i].kind & HPCRUN_KIND_MASK) <= max_kind)
      dict[f->kinds[i].kind & HPCRUN_KIND_MASK] = f->kinds[i].name.s;
  int rc = 0;
  while (rc == 0 && exp->n_kind_names <= max_kind) {
    uint32_t k = exp->n_kind_names;
    char fallback[16];
    const char *name = dict[k];
    if (!name && k < sizeof standard_kinds / sizeof *standard_kinds) name = standard_kinds[k];
    if (!name) {
      snprintf(fallback, sizeof fallback, "KIND%u", k);
      name = fallback;
    }
    rc = hpcdb_add_kind_name(exp, name, NULL);
  }
  free(dict);
  return rc;
}

/* 04.00: the id tuple. The top two bits of a kind say which ids are valid:
 * all but "logical only" have a meaningful physical id (HPCDB_ID_PHYSICAL);
 * the two bits are kept in hpcdb_id.flags bits 14-15. */
static int v4_identity(hpcrun_builder *b, const char *path, const hpcrun_file *f, hpcdb_id *ids) {
  uint32_t max_kind = 0;
  for (uint16_t i = 0; i < f->n_kinds; i++)
    if ((f->kinds[i].kind & HPCRUN_KIND_MASK) > max_kind) max_kind = f->kinds[i].kind & HPCRUN_KIND_MASK;
  for (uint16_t i = 0; i < f->sparse.n_ids; i++) {
    const hpcrun_id_elem *e = &f->sparse.ids[i];
    uint16_t kind = e->kind & HPCRUN_KIND_MASK, interp = e->kind >> HPCRUN_KIND_INTERPRET_SHIFT;
    if (e->logical > UINT32_MAX)
      return hpcdb_fail_at(HPCDB_EUNSUPPORTED, path, "sparse values",
                           f->sections[HPCRUN_SEC_VALUES].start + 2 + 18 * (uint64_t)i, "logical-id-range",
                           "logical id %llu does not fit 32 bits", (unsigned long long)e->logical);
    if (kind > max_kind) max_kind = kind;
    ids[i].kind = kind;
    ids[i].flags = (uint16_t)((interp != HPCRUN_IDS_LOGIC_ONLY ? HPCDB_ID_PHYSICAL : 0) |
                              (unsigned)interp << HPCRUN_KIND_INTERPRET_SHIFT);
    ids[i].physical_id = e->physical;
    ids[i].logical_id = (uint32_t)e->logical;
  }
  return ensure_kinds(b, f, max_kind);
}

/* 02.00/03.00 have no id tuple: host-id (hex), mpi-rank and thread-id. */
static int v2_identity(hpcrun_builder *b, const hpcrun_file *f, hpcdb_id *ids, uint16_t *n) {
  uint64_t v;
  *n = 0;
  if (parse_uint(pair_value(&f->header, "host-id"), 16, &v))
    ids[(*n)++] = (hpcdb_id){KIND_NODE, HPCDB_ID_PHYSICAL, 0, v};
  if (parse_uint(pair_value(&f->header, "mpi-rank"), 10, &v) && v <= UINT32_MAX)
    ids[(*n)++] = (hpcdb_id){KIND_RANK, 0, (uint32_t)v, v};
  if (parse_uint(pair_value(&f->header, "thread-id"), 10, &v) && v <= UINT32_MAX)
    ids[(*n)++] = (hpcdb_id){KIND_THREAD, 0, (uint32_t)v, v};
  return ensure_kinds(b, f, KIND_THREAD);
}

typedef struct triples {
  uint64_t n;
  uint32_t *ctx;
  uint16_t *metric;
  double *value;
} triples;

static int triples_alloc(triples *t, uint64_t cap) {
  t->n = 0;
  t->ctx = malloc((size_t)(cap ? cap : 1) * sizeof *t->ctx);
  t->metric = malloc((size_t)(cap ? cap : 1) * sizeof *t->metric);
  t->value = malloc((size_t)(cap ? cap : 1) * sizeof *t->value);
  if (t->ctx && t->metric && t->value) return 0;
  return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)cap);
}

static void triples_free(triples *t) {
  free(t->ctx);
  free(t->metric);
  free(t->value);
}

/* The values of slice i (hpcrun_sparse_check has checked the slices). */
static int v4_slice(const char *path, const hpcrun_file *f, const uint16_t *mids, uint32_t i, hpcdb_u64map *native,
                    triples *out) {
  const hpcrun_sparse *s = &f->sparse;
  uint64_t off = s->ctxs_off + 12 * (uint64_t)i, lo = s->ctx_starts[i], hi = s->ctx_starts[i + 1];
  uint64_t v;
  if (!u64map_get(native, s->ctx_ids[i], &v))
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off, "value-cct-exists", "context %u is not a cct node",
                         s->ctx_ids[i]);
  for (uint64_t k = lo; k < hi; k++) {
    uint16_t m = s->metric_ids[k];
    out->ctx[out->n] = (uint32_t)v;
    out->metric[out->n] = mids[m];
    out->value[out->n++] = hpcrun_metric_value(&f->t.metrics[m], s->value_bits[k]);
  }
  return 0;
}

static int v4_values(const char *path, const hpcrun_file *f, const uint16_t *mids, hpcdb_u64map *native, triples *out) {
  HPCDB_TRY(hpcrun_sparse_check(f, path));
  int rc = 0;
  for (uint32_t i = 0; i < f->sparse.n_nz_ctxs && rc == 0; i++) rc = v4_slice(path, f, mids, i, native, out);
  return rc;
}

/* Dense 02.00 values: only the non-zero ones become model values. */
static void v2_values(const hpcrun_epoch *e, const uint16_t *mids, const hpcrun_file *f, hpcdb_u64map *native,
                      triples *out) {
  for (uint64_t k = 0; k < e->t.n_nodes; k++) {
    uint64_t v;
    if (!u64map_get(native, hpcrun_stored_key(f, e->t.nodes[k].id), &v)) continue;
    for (uint32_t m = 0; m < e->t.n_metrics; m++) {
      uint64_t bits = e->values[k * e->t.n_metrics + m];
      if (!bits) continue;
      out->ctx[out->n] = (uint32_t)v;
      out->metric[out->n] = mids[m];
      out->value[out->n++] = hpcrun_metric_value(&e->t.metrics[m], bits);
    }
  }
}

static int add_attrs(hpcrun_builder *b, const hpcrun_file *f, const char *prefix) {
  for (uint32_t i = 0; i < f->header.n; i++) {
    const hpcrun_nvpair *p = &f->header.items[i];
    if (!prefix) {
      HPCDB_TRY(hpcdb_add_attr(b->exp, p->name.s, p->value.s));
      continue;
    }
    size_t len = strlen(prefix) + p->name.len + 2;
    char *key = malloc(len);
    if (!key) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    snprintf(key, len, "%s:%s", prefix, p->name.s);
    int rc = hpcdb_add_attr(b->exp, key, p->value.s);
    free(key);
    HPCDB_TRY(rc);
  }
  return 0;
}

/* Recorded trace bounds (ns; 02.00 recorded microseconds). */
static void time_range(hpcrun_builder *b, const hpcrun_file *f) {
  uint64_t lo, hi, scale = f->major == 2 ? 1000 : 1;
  hpcdb_experiment *exp = b->exp;
  uint64_t min = exp->trace_min, max = exp->trace_max;
  if (parse_uint(pair_value(&f->header, "trace-min-time"), 10, &lo) && lo <= UINT64_MAX / scale &&
      (!b->have_range || lo * scale < min)) {
    min = lo * scale;
    b->have_range = 1;
  }
  if (parse_uint(pair_value(&f->header, "trace-max-time"), 10, &hi) && hi <= UINT64_MAX / scale && hi * scale > max) {
    max = hi * scale;
    b->have_range = 1;
  }
  hpcdb_set_trace_range(exp, min, max);
}

/* Trace cct ids name nodes of the file; with several epochs a later epoch's
 * node wins (one map, built once). */
static int add_trace(hpcrun_builder *b, uint32_t profile, const hpcrun_trace_file *t, const char *trace_path,
                     hpcdb_u64map *maps, uint32_t n_maps) {
  hpcdb_u64map merged = {0};
  hpcdb_u64map *ids = &maps[0];
  if (n_maps > 1) {
    ids = &merged;
    for (uint32_t s = 0; s < n_maps; s++)
      for (uint64_t k = 0; k < maps[s].cap; k++)
        if (maps[s].used[k] && u64map_put(&merged, maps[s].keys[k], maps[s].vals[k]) != 0) {
          u64map_free(&merged);
          return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
        }
  }
  uint32_t *ctx = malloc((size_t)(t->n ? t->n : 1) * sizeof *ctx);
  int rc = ctx ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
  uint64_t rec = (t->flags & HPCTRACE_FLAG_DATA_CENTRIC) ? 16 : 12;
  for (uint64_t i = 0; i < t->n && rc == 0; i++) {
    uint64_t v = 0, idle;
    if (t->cct_ids[i] != 0 && !u64map_get(ids, t->cct_ids[i], &v)) /* 0: no context */
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, trace_path, "trace records", HPCTRACE_HEADER_LEN + i * rec + 8,
                         "trace-cct-exists", "record %llu: cct id %u is not a node of the profile",
                         (unsigned long long)i, t->cct_ids[i]);
    else ctx[i] = u64map_get(&b->idle, v, &idle) ? 0 : (uint32_t)v; /* idle: no context, as hpcprof writes it */
  }
  if (rc == 0) rc = hpcdb_add_trace(b->exp, profile, t->n, t->times, ctx, NULL);
  free(ctx);
  u64map_free(&merged);
  return rc;
}

int hpcrun_builder_add(hpcrun_builder *b, const char *path, const hpcrun_file *f, const hpcrun_trace_file *t,
                       const char *trace_path, const char *attr_prefix) {
  hpcdb_experiment *exp = b->exp;
  int v4 = f->major == 4;
  uint32_t n_src = v4 ? 1 : f->n_epochs;
  uint64_t cap = 0;
  for (uint32_t s = 0; s < n_src; s++)
    cap += v4 ? f->sparse.n_values : f->epochs[s].t.n_nodes * f->epochs[s].t.n_metrics;
  hpcdb_u64map *maps = calloc(n_src ? n_src : 1, sizeof *maps);
  uint16_t *mids = NULL;
  hpcdb_id *ids = calloc(v4 ? (size_t)f->sparse.n_ids + 1 : 3, sizeof *ids);
  triples vals = {0};
  int rc = maps && ids ? triples_alloc(&vals, cap) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = add_attrs(b, f, attr_prefix);
  for (uint32_t s = 0; s < n_src && rc == 0; s++) {
    const hpcrun_tables *tb = v4 ? &f->t : &f->epochs[s].t;
    free(mids);
    mids = calloc((size_t)tb->n_metrics + 1, sizeof *mids);
    if (!mids) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    if (rc == 0) rc = map_metrics(b, tb, mids);
    if (rc == 0) rc = add_tree(b, path, f, tb, &maps[s]);
    if (rc == 0 && v4) rc = v4_values(path, f, mids, &maps[s], &vals);
    else if (rc == 0) v2_values(&f->epochs[s], mids, f, &maps[s], &vals);
  }
  uint16_t n_ids = 0;
  if (rc == 0 && v4) {
    rc = v4_identity(b, path, f, ids);
    n_ids = f->sparse.n_ids;
  } else if (rc == 0) {
    rc = v2_identity(b, f, ids, &n_ids);
  }
  uint32_t profile = 0;
  if (rc == 0) rc = hpcdb_add_profile(exp, 0, n_ids > 0, ids, n_ids, &profile);
  if (rc == 0) {
    rc = hpcdb_profile_set_values(exp, profile, vals.n, vals.ctx, vals.metric, vals.value);
    if (rc < 0) rc = hpcdb_fail_wrap(rc, "%s: sparse values", path);
  }
  if (rc == 0 && t) rc = add_trace(b, profile, t, trace_path, maps, n_src);
  if (rc == 0) time_range(b, f);
  if (rc == 0 && !exp->title) rc = hpcdb_set_title(exp, pair_value(&f->header, "program-name"), NULL);
  for (uint32_t s = 0; maps && s < n_src; s++) u64map_free(&maps[s]);
  free(maps);
  free(mids);
  free(ids);
  triples_free(&vals);
  return rc;
}
