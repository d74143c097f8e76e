/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of meta.db v4.0. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/vec.h"
#include "hpctk4/validate.h"

enum { GEN, IDN, MET, CTX, STR, MOD, FIL, FUN, NSEC };

typedef struct meta_arrays {
  uint64_t at[NSEC], stride[NSEC];
  uint32_t count[NSEC];
} meta_arrays;

static const uint8_t *p8(const vfile *f, uint64_t off) { return f->d + off; }

/* The element a pointer must name in table sec (0 allowed when may_be_null). */
static int vtarget(validator *v, const vfile *f, const meta_arrays *a, unsigned sec, uint64_t p, uint64_t where,
                   const char *what, int may_be_null) {
  if (p == 0 && may_be_null) return 1;
  if (a->count[sec] == 0 || p < a->at[sec] || (p - a->at[sec]) % a->stride[sec] != 0 ||
      (p - a->at[sec]) / a->stride[sec] >= a->count[sec]) {
    VERR(v, f, where, "pointer-target", "%s 0x%llx does not point at an element of section %u", what,
         (unsigned long long)p, sec + 1);
    return 0;
  }
  return 1;
}

static void check_general(validator *v, const vfile *f) {
  uint64_t s = f->sec_off[GEN];
  if (!vin_section(v, f, GEN, s, 16, "section-bounds", "General Properties header")) return;
  vstring(v, f, GEN, rd_le64(p8(f, s)), "pTitle");
  vstring(v, f, GEN, rd_le64(p8(f, s + 8)), "pDescription");
}

static void check_id_names(validator *v, const vfile *f) {
  uint64_t s = f->sec_off[IDN];
  if (!vin_section(v, f, IDN, s, 9, "section-bounds", "Identifier Names header")) return;
  uint64_t pp = rd_le64(p8(f, s));
  uint8_t n = f->d[s + 8];
  v->n_kinds = n;
  if (!varray(v, f, IDN, pp, n, 8, "ppNames")) return;
  for (unsigned k = 0; k < n; k++) vstring(v, f, IDN, rd_le64(p8(f, pp + 8 * k)), "ppNames[kind]");
}

/* A metric's sub-structures sorted by what identifies them, so that a repeat
 * is found next to its first (n log n: a metric may list 65,535). */
typedef struct keyed {
  const vfile *f;
  uint64_t scope, formula, at; /* formula: the string's offset, 0 for scope instances */
  uint8_t combine;
} keyed;

static const char *formula_of(const keyed *k) {
  if (!k->formula || k->formula >= k->f->len || !memchr(k->f->d + k->formula, 0, (size_t)(k->f->len - k->formula)))
    return "";
  return (const char *)k->f->d + k->formula;
}

static int by_key(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->scope != y->scope) return x->scope < y->scope ? -1 : 1;
  if (x->combine != y->combine) return x->combine < y->combine ? -1 : 1;
  int c = strcmp(formula_of(x), formula_of(y));
  if (c) return c;
  return (x->at > y->at) - (x->at < y->at);
}

/* "propMetricId is the metric identifier ... for the given *pName and *pScope":
 * one instance per scope. */
static void check_instances_unique(validator *v, const vfile *f, uint64_t p, uint16_t n, uint8_t stride) {
  keyed *k = malloc((n ? n : 1) * sizeof *k);
  if (!k) return;
  for (uint16_t i = 0; i < n; i++)
    k[i] = (keyed){f, rd_le64(p8(f, p + (uint64_t)i * stride)), 0, p + (uint64_t)i * stride, 0};
  qsort(k, n, sizeof *k, by_key);
  for (uint16_t i = 1; i < n; i++)
    if (k[i].scope == k[i - 1].scope)
      VERR(v, f, k[i].at, "scope-instance-duplicate", "the metric instantiates propagation scope 0x%llx twice",
           (unsigned long long)k[i].scope);
  free(k);
}

/* "statMetricId is the metric identifier ... for the given *pName, *pScope,
 * *pFormula and combine": one summary statistic per such triple. */
static void check_summaries_unique(validator *v, const vfile *f, uint64_t p, uint16_t n, uint8_t stride) {
  keyed *k = malloc((n ? n : 1) * sizeof *k);
  if (!k) return;
  for (uint16_t i = 0; i < n; i++) {
    uint64_t e = p + (uint64_t)i * stride;
    k[i] = (keyed){f, rd_le64(p8(f, e)), rd_le64(p8(f, e + 8)), e, f->d[e + 0x10]};
  }
  qsort(k, n, sizeof *k, by_key);
  for (uint16_t i = 1; i < n; i++)
    if (k[i].scope == k[i - 1].scope && k[i].combine == k[i - 1].combine &&
        !strcmp(formula_of(&k[i]), formula_of(&k[i - 1])))
      VERR(v, f, k[i].at, "summary-duplicate",
           "the metric has two summary statistics of scope 0x%llx, formula '%s', combine %u",
           (unsigned long long)k[i].scope, formula_of(&k[i]), k[i].combine);
  free(k);
}

static void check_metrics(validator *v, const vfile *f, meta_arrays *a) {
  uint64_t s = f->sec_off[MET];
  if (!vin_section(v, f, MET, s, 0x1b, "section-bounds", "Performance Metrics header")) return;
  uint64_t pm = rd_le64(p8(f, s)), ps = rd_le64(p8(f, s + 0x10));
  uint32_t nm = rd_le32(p8(f, s + 8));
  uint16_t ns = rd_le16(p8(f, s + 0x18));
  uint8_t szm = f->d[s + 0xc], szi = f->d[s + 0xd], szs = f->d[s + 0xe], szp = f->d[s + 0x1a];
  if (szm < 32 || szi < 16 || szs < 24 || szp < 16) {
    VERR(v, f, s + 0xc, "stride", "structure sizes %u/%u/%u/%u are smaller than v4.0's 32/16/24/16", szm, szi, szs,
         szp);
    return;
  }
  if (!varray(v, f, MET, ps, ns, szp, "pScopes") || !varray(v, f, MET, pm, nm, szm, "pMetrics")) return;
  a->at[MET] = ps;
  a->stride[MET] = szp;
  a->count[MET] = ns;
  for (uint16_t i = 0; i < ns; i++) {
    uint64_t e = ps + (uint64_t)i * szp;
    vstring(v, f, MET, rd_le64(p8(f, e)), "pScopeName");
    uint8_t type = f->d[e + 8], idx = f->d[e + 9];
    if (type > 3) VNOTE(v, f, e + 8, "unknown-enum", "propagation scope type %u is not known", type);
    if (type == 3 && idx >= 16)
      VERR(v, f, e + 9, "propagation-index", "transitive scope with propagationIndex %u (must be < 16)", idx);
  }
  for (uint32_t i = 0; i < nm; i++) {
    uint64_t m = pm + (uint64_t)i * szm;
    vstring(v, f, MET, rd_le64(p8(f, m)), "metric pName");
    uint64_t pi = rd_le64(p8(f, m + 8)), pu = rd_le64(p8(f, m + 16));
    uint16_t ni = rd_le16(p8(f, m + 0x18)), nu = rd_le16(p8(f, m + 0x1a));
    if (varray(v, f, MET, pi, ni, szi, "pScopeInsts")) {
      check_instances_unique(v, f, pi, ni, szi);
      for (uint16_t k = 0; k < ni; k++) {
        uint64_t e = pi + (uint64_t)k * szi;
        vtarget(v, f, a, MET, rd_le64(p8(f, e)), e, "pScope", 0);
        uint16_t id = rd_le16(p8(f, e + 8));
        if (v->prop_id[id]) VERR(v, f, e + 8, "metric-id-duplicate", "propMetricId %u is used twice", id);
        v->prop_id[id] = 1;
      }
    }
    if (varray(v, f, MET, pu, nu, szs, "pSummaries")) {
      check_summaries_unique(v, f, pu, nu, szs);
      for (uint16_t k = 0; k < nu; k++) {
        uint64_t e = pu + (uint64_t)k * szs;
        vtarget(v, f, a, MET, rd_le64(p8(f, e)), e, "pScope", 0);
        vstring(v, f, MET, rd_le64(p8(f, e + 8)), "pFormula");
        if (f->d[e + 0x10] > 2) VNOTE(v, f, e + 0x10, "unknown-enum", "combine %u is not known", f->d[e + 0x10]);
        uint16_t id = rd_le16(p8(f, e + 0x12));
        if (v->stat_id[id]) VERR(v, f, e + 0x12, "metric-id-duplicate", "statMetricId %u is used twice", id);
        v->stat_id[id] = 1;
      }
    }
  }
}

static void check_table(validator *v, const vfile *f, meta_arrays *a, unsigned sec, uint16_t min_size) {
  uint64_t s = f->sec_off[sec];
  if (!vin_section(v, f, sec, s, 0xe, "section-bounds", "section header")) return;
  uint64_t p = rd_le64(p8(f, s)), stride = rd_le16(p8(f, s + 0xc));
  uint32_t n = rd_le32(p8(f, s + 8));
  if (stride < min_size) {
    VERR(v, f, s + 0xc, "stride", "structure size %llu is smaller than v4.0's %u", (unsigned long long)stride,
         min_size);
    return;
  }
  if (!varray(v, f, sec, p, n, stride, "array")) return;
  a->at[sec] = p;
  a->stride[sec] = stride;
  a->count[sec] = n;
}

static void check_modules_files_functions(validator *v, const vfile *f, meta_arrays *a) {
  check_table(v, f, a, MOD, 16);
  check_table(v, f, a, FIL, 16);
  check_table(v, f, a, FUN, 40);
  for (uint32_t i = 0; i < a->count[MOD]; i++)
    vstring(v, f, STR, rd_le64(p8(f, a->at[MOD] + i * a->stride[MOD] + 8)), "module pPath");
  for (uint32_t i = 0; i < a->count[FIL]; i++) {
    uint64_t e = a->at[FIL] + i * a->stride[FIL];
    vstring(v, f, STR, rd_le64(p8(f, e + 8)), "file pPath");
    if (rd_le32(p8(f, e)) & ~1u) VNOTE(v, f, e, "reserved-bits", "source file flags use reserved bits");
  }
  for (uint32_t i = 0; i < a->count[FUN]; i++) {
    uint64_t e = a->at[FUN] + i * a->stride[FUN];
    uint64_t name = rd_le64(p8(f, e)), mod = rd_le64(p8(f, e + 8)), file = rd_le64(p8(f, e + 0x18));
    if (name) vstring(v, f, STR, name, "function pName");
    vtarget(v, f, a, MOD, mod, e + 8, "function pModule", 1);
    vtarget(v, f, a, FIL, file, e + 0x18, "function pFile", 1);
    if (!name && !mod && !file) VERR(v, f, e, "function-empty", "function with no name, module or file");
  }
}

/* One {Ctx}: returns its size (0 when it cannot be walked past). */
static uint64_t check_context(validator *v, const vfile *f, const meta_arrays *a, uint64_t e, uint64_t end,
                              uint64_t *kids, uint64_t *kids_size) {
  if (end - e < 0x20) {
    VERR(v, f, e, "ctx-bounds", "a context runs past the end of its children array");
    return 0;
  }
  const uint8_t *c = p8(f, e);
  uint64_t size = 0x20 + 8 * (uint64_t)c[0x17];
  if (end - e < size) {
    VERR(v, f, e, "ctx-bounds", "a context of %llu bytes runs past the end of its children array",
         (unsigned long long)size);
    return 0;
  }
  uint32_t id = rd_le32(c + 0x10);
  uint8_t flags = c[0x14];
  uint64_t dummy;
  if (id == 0) VERR(v, f, e + 0x10, "ctx-id-zero", "ctxId 0 is reserved for the global context");
  else if (u64map_get(&v->ctx_ids, id, &dummy)) VERR(v, f, e + 0x10, "ctx-id-duplicate", "ctxId %u appears twice", id);
  else u64map_put(&v->ctx_ids, id, 1);
  if (id > v->max_ctx_id) v->max_ctx_id = id;
  if (flags & ~7u) VNOTE(v, f, e + 0x14, "reserved-bits", "context flags 0x%x use reserved bits", flags);
  if (c[0x15] > 2) VNOTE(v, f, e + 0x15, "unknown-enum", "relation %u is not known", c[0x15]);
  if (c[0x16] > 3) VNOTE(v, f, e + 0x16, "unknown-enum", "lexicalType %u is not known", c[0x16]);
  unsigned words = (flags & 1u) + 2 * ((flags >> 1) & 1u) + 2 * ((flags >> 2) & 1u);
  if (words > c[0x17]) {
    VERR(v, f, e + 0x17, "flex-size", "flags need %u flex words, nFlexWords is %u", words, c[0x17]);
  } else {
    uint64_t w = e + 0x20;
    if (flags & 1) {
      vtarget(v, f, a, FUN, rd_le64(p8(f, w)), w, "pFunction", 0);
      w += 8;
    }
    if (flags & 2) {
      vtarget(v, f, a, FIL, rd_le64(p8(f, w)), w, "pFile", 0);
      w += 16;
    }
    if (flags & 4) vtarget(v, f, a, MOD, rd_le64(p8(f, w)), w, "pModule", 0);
  }
  *kids_size = rd_le64(c);
  *kids = rd_le64(c + 8);
  return size;
}

typedef struct span {
  uint64_t off, end;
} span;

/* Queues a children array; an array seen before means the tree has a cycle. */
static void queue_array(validator *v, const vfile *f, hpcdb_u64map *seen, span **q, uint64_t *n, uint64_t *cap,
                        uint64_t p, uint64_t size, uint64_t where, uint64_t *stray, uint64_t *stray_at) {
  /* "pChildren is 0 if there are no child Contexts ... szChildren ... 0": hpcprof writes a pointer
   * with szChildren 0, so that direction is counted for one note */
  if (size == 0 && p != 0 && (*stray)++ == 0) *stray_at = where;
  if (size != 0 && p == 0)
    VERR(v, f, where, "children-size", "szChildren %llu with pChildren 0", (unsigned long long)size);
  if (size == 0 || p == 0) return;
  uint64_t dummy;
  if (p % 8 != 0) {
    VERR(v, f, where, "alignment", "pChildren 0x%llx is not 8-byte aligned", (unsigned long long)p);
    return;
  }
  if (!vin_section(v, f, CTX, p, size, "section-bounds", "children array")) return;
  if (u64map_get(seen, p, &dummy)) {
    VERR(v, f, where, "ctx-cycle", "children array 0x%llx is reached twice (a cycle or shared subtree)",
         (unsigned long long)p);
    return;
  }
  u64map_put(seen, p, 1);
  if (VEC_RESERVE(q, cap, *n + 1) == 0) (*q)[(*n)++] = (span){p, p + size};
}

static void check_context_tree(validator *v, const vfile *f, const meta_arrays *a) {
  uint64_t s = f->sec_off[CTX];
  if (!vin_section(v, f, CTX, s, 0xb, "section-bounds", "Context Tree header")) return;
  uint64_t pe = rd_le64(p8(f, s));
  uint16_t ne = rd_le16(p8(f, s + 8));
  uint8_t sz = f->d[s + 0xa];
  if (sz < 32) {
    VERR(v, f, s + 0xa, "stride", "szEntryPoint %u is smaller than 32", sz);
    return;
  }
  if (!varray(v, f, CTX, pe, ne, sz, "pEntryPoints")) return;
  hpcdb_u64map seen = {0};
  span *q = NULL;
  uint64_t n = 0, cap = 0, stray = 0, stray_at = 0;
  for (uint16_t i = 0; i < ne; i++) {
    uint64_t e = pe + (uint64_t)i * sz;
    uint32_t id = rd_le32(p8(f, e + 0x10));
    uint64_t dummy;
    if (id == 0) VERR(v, f, e + 0x10, "ctx-id-zero", "entry point with ctxId 0");
    else if (u64map_get(&v->ctx_ids, id, &dummy))
      VERR(v, f, e + 0x10, "ctx-id-duplicate", "ctxId %u appears twice", id);
    else u64map_put(&v->ctx_ids, id, 1);
    if (id > v->max_ctx_id) v->max_ctx_id = id;
    if (rd_le16(p8(f, e + 0x14)) > 2)
      VNOTE(v, f, e + 0x14, "unknown-enum", "entryPoint %u is not known", rd_le16(p8(f, e + 0x14)));
    vstring(v, f, STR, rd_le64(p8(f, e + 0x18)), "pPrettyName");
    queue_array(v, f, &seen, &q, &n, &cap, rd_le64(p8(f, e + 8)), rd_le64(p8(f, e)), e + 8, &stray, &stray_at);
  }
  for (uint64_t k = 0; k < n; k++) {
    span arr = q[k];
    for (uint64_t e = arr.off; e < arr.end;) {
      uint64_t kids, kids_size, size = check_context(v, f, a, e, arr.end, &kids, &kids_size);
      if (!size) break;
      queue_array(v, f, &seen, &q, &n, &cap, kids, kids_size, e + 8, &stray, &stray_at);
      e += size;
    }
  }
  if (stray)
    VNOTE(v, f, stray_at, "children-size",
          "%llu contexts without children have a non-zero pChildren (the spec says 0; hpcprof writes one)",
          (unsigned long long)stray);
  free(q);
  u64map_free(&seen);
}

void validate_meta(validator *v, vfile *f) {
  vcheck_header(v, f, "meta", "_meta.db", NSEC, 1u << STR);
  if (!f->usable) return;
  meta_arrays a;
  memset(&a, 0, sizeof a);
  check_general(v, f);
  check_id_names(v, f);
  check_metrics(v, f, &a);
  check_modules_files_functions(v, f, &a);
  check_context_tree(v, f, &a);
  v->have_meta = 1;
  /* a bit set for the per-value lookups, when the ids are not absurdly sparse */
  if (v->max_ctx_id < (1u << 30) && (v->ctx_bits = calloc(v->max_ctx_id / 8 + 1, 1)))
    for (uint64_t i = 0; i < v->ctx_ids.cap; i++)
      if (v->ctx_ids.used[i]) v->ctx_bits[v->ctx_ids.keys[i] >> 3] |= (uint8_t)(1u << (v->ctx_ids.keys[i] & 7));
}
