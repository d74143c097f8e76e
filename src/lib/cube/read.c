/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_cube_read: a .cubex archive into the model, one metric at a time.
 * Mapping (docs/mapping.md): regions are functions (their `mod` a source
 * file, `begin` the line), cnodes contexts (id = cnode id + 1: the model's
 * id 0 is the global context) reached by calls, locations profiles (NODE /
 * RANK / THREAD from the system tree) after a summary profile, and each
 * metric a model metric with its exclusive values in a `point` scope and its
 * inclusive values in an `execution` scope; the flavour Cube does not store
 * is derived along the tree (sums, or min / max for MINDOUBLE/MAXDOUBLE).
 * A composite data type's components follow as metrics of their own
 * (components.c), some with their stored flavour only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "common/vec.h"
#include "cube/access.h"
#include "cube/cube.h"
#include "cube/early_sums.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "model/model_build.h"

/* An integer metric's value that its double rounds: the exact integer. */
typedef struct exact_value {
  uint32_t ctx;
  uint16_t metric;
  uint64_t bits;
} exact_value;

typedef struct triples {
  uint32_t *ctx;
  uint16_t *metric;
  double *value;
  uint64_t n, cap;
  exact_value *exact; /* the few values beyond a double's 53 bits */
  uint64_t n_exact, cap_exact;
} triples;

/* Room for `need` triples (grown by half at least, to amortise). */
static int reserve(triples *t, uint64_t need) {
  if (need <= t->cap) return 0;
  uint64_t cap = t->cap + t->cap / 2 > need ? t->cap + t->cap / 2 : need;
  uint32_t *c = realloc(t->ctx, cap * sizeof *c);
  if (c) t->ctx = c;
  uint16_t *m = realloc(t->metric, cap * sizeof *m);
  if (m) t->metric = m;
  double *x = realloc(t->value, cap * sizeof *x);
  if (x) t->value = x;
  if (!c || !m || !x) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)cap);
  t->cap = cap;
  return 0;
}

static int push(triples *t, uint32_t ctx, uint16_t metric, double v) {
  HPCDB_TRY(reserve(t, t->n + 1));
  t->ctx[t->n] = ctx;
  t->metric[t->n] = metric;
  t->value[t->n++] = v;
  return 0;
}

/* Integer u of type ty: its exact value beside the pushed double, when the
 * double rounds it. */
static int keep_exact(triples *t, const cube_dtype *ty, uint32_t ctx, uint16_t metric, uint64_t u) {
  if (cube_integer_exact(ty, u)) return 0;
  HPCDB_TRY(VEC_RESERVE(&t->exact, &t->cap_exact, t->n_exact + 1));
  t->exact[t->n_exact++] = (exact_value){ctx, metric, u};
  return 0;
}

static int push_integer(triples *t, const cube_dtype *ty, uint32_t ctx, uint16_t metric, uint64_t u) {
  HPCDB_TRY(push(t, ctx, metric, cube_integer_to_double(ty, u)));
  return keep_exact(t, ty, ctx, metric, u);
}

static void triples_free(triples *t) {
  free(t->ctx), free(t->metric), free(t->value), free(t->exact);
  *t = (triples){0};
}

typedef struct reader {
  const char *path;
  cube_anchor a;
  hpcdb_experiment *exp;
  uint32_t *parent, *kids_at, *kids; /* parent and children of each cnode */
  uint32_t *order;
  double *exc, *inc;         /* one metric: n_cnodes × n_locations */
  uint64_t *iexc, *iinc;     /* the same for an integer metric before conversion (allocated on first use) */
  const cube_dtype *integer; /* the current series' type when it is an integer metric's, else NULL */
  double *cols;              /* scratch: `tile` locations of both, column by column */
  uint32_t tile;
  triples *per_profile;  /* n_locations + 1 (the summary first) */
  uint32_t entry_id;     /* the synthetic entry point's context id, 0 if none */
  uint32_t *entry_roots; /* the root cnodes below it */
  uint32_t n_entry_roots;
  uint8_t *is_entry; /* cnodes hpcdb wrote for entry points */
  uint32_t *entries; /* the same as a list, in document order */
  uint32_t n_entries;
  uint32_t next_id;               /* the next free prop id, for components (after every metric's 2m, 2m + 1) */
  cube_member_index members;      /* where a plain tar's members lie (else empty) */
  cube_early early;               /* their sums begun while the anchor is parsed */
  const hpcdb_read_options *opts; /* what to read (NULL: everything) */
  int locations;                  /* 0: the summary profile's values only (HPCDB_READ_SUMMARY_ONLY) */
  uint8_t *untotalled;            /* HPCDB_READ_PROFILE_TOTALS (else NULL): the locations whose global context
                                     got no value of the current series (push_totals) */
  double *totals;                 /* the same: n_locations sums */
  uint32_t *by_id;                /* the same: cnodes by id (a profile's order), NULL when in document order */
  uint64_t *counted;              /* HPCDB_READ_COUNTS: each location's non-zero values counted, not kept */
  const uint8_t **rows; /* one metric's inclusive row of each cnode: n_locations f64 in rows_be's byte order */
  int rows_be;
  double *zero_row, *scratch, *sums; /* n_locations zeros; CUBE_SUM_PASS_ROWS rows; 2 × n_cnodes sums */
} reader;

/* Value l of a row of f64 in the given byte order. */
static double row_value(const uint8_t *row, uint32_t l, int be) {
  return be ? rd_be_f64(row + 8 * (size_t)l) : rd_le_f64(row + 8 * (size_t)l);
}

/* r->rows at the rows of r->inc, native doubles. */
static void dense_rows(reader *r) {
  for (uint32_t c = 0; c < r->a.n_cnodes; c++) r->rows[c] = (const uint8_t *)(r->inc + (size_t)c * r->a.n_locations);
  r->rows_be = cube_native_big_endian();
}

/* x combined into v as `aggregate` says; k values came before. */
static double combine(int aggregate, double v, double x, uint32_t k) {
  if (k == 0) return x;
  if (aggregate == CUBE_SUM) return v + x;
  return (aggregate == CUBE_MIN ? x < v : x > v) ? x : v;
}

/* A context that Cube has no cnode for but that holds, as in HPCToolkit's
 * databases, the inclusive values of everything below it: the synthetic
 * entry point (build.c) over its roots, and the global context over the top
 * level. Its exclusive value is 0. */
static int push_enclosing(reader *r, int aggregate, uint32_t ctx_id, uint16_t execution, const double *values,
                          const double *total, uint64_t *counts) {
  double all = 0; /* over locations as for the cnodes: min / max of the locations with a value */
  uint32_t k = 0;
  for (uint32_t l = 0; l < r->a.n_locations; l++) {
    double y = values[l];
    if (y != 0 && counts) counts[l]++;
    else if (y != 0 && (r->locations || r->untotalled)) HPCDB_TRY(push(&r->per_profile[l + 1], ctx_id, execution, y));
    if (ctx_id == 0 && r->untotalled) r->untotalled[l] = y == 0;
    if (aggregate == CUBE_SUM || y != 0) all = combine(aggregate, all, y, k++);
  }
  if (total) all = *total; /* an integer metric's, summed exactly */
  return all != 0 ? push(&r->per_profile[0], ctx_id, execution, all) : 0;
}

/* push_enclosing for an integer metric: its values at each location and
 * their sum over locations (all) as integers. */
static int push_enclosing_integer_at(reader *r, const cube_dtype *t, uint32_t ctx_id, uint16_t execution,
                                     const uint64_t *values, uint64_t all) {
  for (uint32_t l = 0; l < r->a.n_locations; l++) {
    uint64_t y = values[l];
    if (y != 0 && (r->locations || r->untotalled))
      HPCDB_TRY(push_integer(&r->per_profile[l + 1], t, ctx_id, execution, y));
    if (ctx_id == 0 && r->untotalled) r->untotalled[l] = y == 0;
  }
  return all != 0 ? push_integer(&r->per_profile[0], t, ctx_id, execution, all) : 0;
}

/* The enclosing contexts of an integer metric: sums modulo 2^64 over its
 * inclusive integers. */
static int push_enclosing_integer(reader *r, const cube_dtype *t, uint16_t execution) {
  uint32_t nl = r->a.n_locations;
  uint64_t *entry = malloc(((size_t)nl + 1) * sizeof *entry), *global = malloc(((size_t)nl + 1) * sizeof *global);
  int rc = entry && global ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t entry_all = 0, global_all = 0;
  for (uint32_t l = 0; l < nl && rc == 0; l++) {
    uint64_t e = 0, g;
    for (uint32_t k = 0; k < r->n_entry_roots; k++) e += r->iinc[(size_t)r->entry_roots[k] * nl + l];
    g = r->entry_id ? e : 0;
    for (uint32_t k = 0; k < r->n_entries; k++) g += r->iinc[(size_t)r->entries[k] * nl + l];
    entry_all += e, global_all += g;
    entry[l] = e, global[l] = g;
  }
  if (rc == 0 && r->entry_id) rc = push_enclosing_integer_at(r, t, r->entry_id, execution, entry, entry_all);
  if (rc == 0) rc = push_enclosing_integer_at(r, t, 0, execution, global, global_all);
  free(entry);
  free(global);
  return rc;
}

/* The enclosing contexts' values at each location (entry, global: zeroed
 * n_locations each) from the roots' inclusive rows (r->rows). */
static void enclosing_values(const reader *r, int aggregate, double *entry, double *global) {
  const uint8_t *const *rows = r->rows;
  int be = r->rows_be;
  for (uint32_t l = 0; l < r->a.n_locations; l++) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < r->n_entry_roots; k++)
      entry[l] = combine(aggregate, entry[l], row_value(rows[r->entry_roots[k]], l, be), k);
    if (r->entry_id) global[l] = combine(aggregate, global[l], entry[l], n++);
    for (uint32_t k = 0; k < r->n_entries; k++)
      global[l] = combine(aggregate, global[l], row_value(rows[r->entries[k]], l, be), n++);
  }
}

/* The same from each cnode's inclusive row (r->rows); counted into counts
 * instead of kept when counts is not NULL. */
static int push_enclosing_contexts(reader *r, int aggregate, uint16_t execution, uint64_t *counts) {
  uint32_t nl = r->a.n_locations;
  double *entry = calloc((size_t)nl + 1, sizeof *entry), *global = calloc((size_t)nl + 1, sizeof *global);
  int rc = entry && global ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) enclosing_values(r, aggregate, entry, global);
  if (rc == 0 && r->entry_id) rc = push_enclosing(r, aggregate, r->entry_id, execution, entry, NULL, counts);
  if (rc == 0) rc = push_enclosing(r, aggregate, 0, execution, global, NULL, counts);
  free(entry);
  free(global);
  return rc;
}

/* Columns [l0, l0 + w) of an n_cnodes × n_locations matrix, column by column. */
static void columns(double *cols, const double *m, uint32_t nc, uint32_t nl, uint32_t l0, uint32_t w) {
  for (uint32_t c = 0; c < nc; c++)
    for (uint32_t j = 0; j < w; j++) cols[(size_t)j * nc + c] = m[(size_t)c * nl + l0 + j];
}

/* Each location's values of one metric, appended to its profile in one go.
 * The matrices are row-major (cnode × location); a tile of locations is
 * turned into columns first, since walking a column in place missed the cache
 * and the TLB on every value. */
static int append_locations(reader *r, uint16_t point, uint16_t execution) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  for (uint32_t l0 = 0; l0 < nl; l0 += r->tile) {
    uint32_t w = nl - l0 < r->tile ? nl - l0 : r->tile;
    double *xs = r->cols, *ys = r->cols + (size_t)r->tile * nc;
    columns(xs, r->exc, nc, nl, l0, w);
    columns(ys, r->inc, nc, nl, l0, w);
    for (uint32_t j = 0; j < w; j++, xs += nc, ys += nc) {
      triples *dst = &r->per_profile[l0 + j + 1];
      uint64_t n = 0;
      for (uint32_t c = 0; c < nc; c++) n += (uint64_t)(xs[c] != 0) + (uint64_t)(ys[c] != 0);
      HPCDB_TRY(reserve(dst, dst->n + n));
      for (uint32_t c = 0; c < nc; c++) {
        uint32_t id = r->a.cnodes[c].id + 1;
        if (xs[c] != 0) dst->ctx[dst->n] = id, dst->metric[dst->n] = point, dst->value[dst->n++] = xs[c];
        if (ys[c] != 0) dst->ctx[dst->n] = id, dst->metric[dst->n] = execution, dst->value[dst->n++] = ys[c];
        if (r->integer && fabs(xs[c]) >= CUBE_EXACT_LIMIT) /* rare: the integer beside its rounded double */
          HPCDB_TRY(keep_exact(dst, r->integer, id, point, r->iexc[(size_t)c * nl + l0 + j]));
        if (r->integer && fabs(ys[c]) >= CUBE_EXACT_LIMIT)
          HPCDB_TRY(keep_exact(dst, r->integer, id, execution, r->iinc[(size_t)c * nl + l0 + j]));
      }
    }
  }
  return 0;
}

/* HPCDB_READ_PROFILE_TOTALS: the profiles view totals a location by its
 * value at the global context, and where it has none there (r->untotalled)
 * by the sum of its point values in the order of its contexts; such a
 * location gets that sum (totals[l]) as its one point value, at the global
 * context. */
static int push_totals(reader *r, uint16_t point, const double *totals) {
  for (uint32_t l = 0; l < r->a.n_locations; l++)
    if (r->untotalled[l] && totals[l] != 0) HPCDB_TRY(push(&r->per_profile[l + 1], 0, point, totals[l]));
  return 0;
}

static int any_untotalled(const reader *r) {
  for (uint32_t l = 0; r->untotalled && l < r->a.n_locations; l++)
    if (r->untotalled[l]) return 1;
  return 0;
}

/* r->totals: each location's exclusive values in exc (cnode x location)
 * summed in the order of a profile's contexts, entry points left out (they
 * have none); row by row, so that it vectorizes. */
static void exclusive_totals(reader *r, const double *exc) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  double *restrict sums = r->totals;
  memset(sums, 0, nl * sizeof *sums);
  for (uint32_t k = 0; k < nc; k++) {
    uint32_t c = r->by_id ? r->by_id[k] : k;
    const double *restrict row = exc + (size_t)c * nl;
    if (!r->is_entry[c])
      for (uint32_t l = 0; l < nl; l++) sums[l] += row[l];
  }
}

/* One model metric's values from a Cube metric's data: the metric's single
 * number (component UINT32_MAX) or one of its components. Without
 * derivation only the stored flavour is set, and nothing is combined over
 * locations or into the contexts Cube has no cnode for. */
typedef struct series {
  const cube_metric *m;
  const cube_dtype *t;
  uint32_t component;
  int aggregate; /* enum cube_aggregate */
  int derive;
  uint16_t point, execution; /* prop ids (only the stored flavour's is used without derivation) */
} series;

/* The other flavour from the stored one, children after parents in document
 * order; the same order of operations as hpcdb_cube_metric_values (access.c). */
static void derive_other(reader *r, const series *s) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  int inclusive = s->m->flavour == CUBE_INCLUSIVE;
  double *stored = inclusive ? r->inc : r->exc, *other = inclusive ? r->exc : r->inc;
  memcpy(other, stored, (size_t)nc * nl * sizeof *other);
  if (inclusive) {
    for (uint32_t c = 0; c < nc; c++) {
      uint32_t p = r->a.cnodes[c].parent;
      if (p != UINT32_MAX)
        for (uint32_t l = 0; l < nl; l++) r->exc[(size_t)p * nl + l] -= r->inc[(size_t)c * nl + l];
    }
    for (size_t i = 0; i < (size_t)nc * nl; i++) /* a difference of equal sums is 0, not rounding residue */
      if (fabs(r->exc[i]) <= 1e-12 * fabs(r->inc[i])) r->exc[i] = 0;
    return;
  }
  for (uint32_t c = nc; c-- > 0;) {
    uint32_t p = r->a.cnodes[c].parent;
    if (p == UINT32_MAX) continue;
    for (uint32_t l = 0; l < nl; l++) {
      double *pv = &r->inc[(size_t)p * nl + l], cv = r->inc[(size_t)c * nl + l];
      if (s->aggregate == CUBE_MIN) { /* as CubeLib: a child without a value counts as 0 */
        if (cv < *pv) *pv = cv;
      } else if (s->aggregate == CUBE_MAX) {
        if (cv > *pv) *pv = cv;
      } else {
        *pv += cv;
      }
    }
  }
}

/* The summary profile: each cnode's values combined over locations. */
static int summarize(reader *r, const series *s, int integer) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  for (uint32_t c = 0; c < nc; c++) {
    double sx = 0, sy = 0;
    if (integer) { /* modulo 2^64 */
      uint64_t ux = 0, uy = 0;
      uint32_t id = r->a.cnodes[c].id + 1;
      for (uint32_t l = 0; l < nl; l++) ux += r->iexc[(size_t)c * nl + l], uy += r->iinc[(size_t)c * nl + l];
      if (ux != 0) HPCDB_TRY(push_integer(&r->per_profile[0], s->t, id, s->point, ux));
      if (uy != 0) HPCDB_TRY(push_integer(&r->per_profile[0], s->t, id, s->execution, uy));
      continue;
    }
    int first = 1;
    for (uint32_t l = 0; l < nl && !integer; l++) {
      double x = r->exc[(size_t)c * nl + l], y = r->inc[(size_t)c * nl + l];
      if (s->aggregate == CUBE_SUM) {
        sx += x;
        sy += y;
      } else if (x != 0 || y != 0) {
        int lower = s->aggregate == CUBE_MIN;
        sx = first || (lower ? x < sx : x > sx) ? x : sx;
        sy = first || (lower ? y < sy : y > sy) ? y : sy;
        first = 0;
      }
    }
    if (sx != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, s->point, sx));
    if (sy != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, s->execution, sy));
  }
  return 0;
}

/* An integer metric's values as CubeLib combines them: 64-bit integers
 * (sign-extended), the other flavour derived modulo 2^64, then each value
 * converted to a double once (into exc / inc; the integers stay in iexc /
 * iinc for the values the doubles round). */
static int fill_integer(reader *r, const series *s, const cube_values *v) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  size_t cells = (size_t)nc * nl, size = s->t->size;
  if (!r->iexc) {
    r->iexc = malloc((cells + 1) * sizeof *r->iexc);
    r->iinc = malloc((cells + 1) * sizeof *r->iinc);
    if (!r->iexc || !r->iinc)
      return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %u cnodes x %u locations", r->path, nc, nl);
  }
  int inclusive = s->m->flavour == CUBE_INCLUSIVE;
  uint64_t *stored = inclusive ? r->iinc : r->iexc, *other = inclusive ? r->iexc : r->iinc;
  memset(r->iexc, 0, cells * sizeof *r->iexc);
  memset(r->iinc, 0, cells * sizeof *r->iinc);
  for (uint32_t k = 0; k < v->n_rows; k++) {
    uint64_t *dst = stored + (size_t)r->order[v->row_pos[k]] * nl;
    const uint8_t *row = v->data + (size_t)k * nl * size;
    for (uint32_t l = 0; l < nl; l++) dst[l] = cube_decode_integer(s->t, row + l * size, v->big_endian);
  }
  if (s->derive) {
    memcpy(other, stored, cells * sizeof *other);
    if (inclusive) { /* each node off its parent */
      for (uint32_t c = 0; c < nc; c++) {
        uint32_t p = r->a.cnodes[c].parent;
        if (p != UINT32_MAX)
          for (uint32_t l = 0; l < nl; l++) r->iexc[(size_t)p * nl + l] -= r->iinc[(size_t)c * nl + l];
      }
    } else { /* children into parents, last first */
      for (uint32_t c = nc; c-- > 0;) {
        uint32_t p = r->a.cnodes[c].parent;
        if (p != UINT32_MAX)
          for (uint32_t l = 0; l < nl; l++) r->iinc[(size_t)p * nl + l] += r->iinc[(size_t)c * nl + l];
      }
    }
  }
  for (uint32_t c = 0; c < nc; c++) /* entry points have inclusive values only */
    if (r->is_entry[c]) memset(&r->iexc[(size_t)c * nl], 0, nl * sizeof *r->iexc);
  for (size_t i = 0; i < cells; i++) {
    r->exc[i] = cube_integer_to_double(s->t, r->iexc[i]);
    r->inc[i] = cube_integer_to_double(s->t, r->iinc[i]);
  }
  return 0;
}

/* One series' stored values into r->inc, by cnode (0 where the index has no
 * row), and r->rows pointing at its rows. */
static void decode_dense(reader *r, const series *s, const cube_values *v) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  size_t size = s->t->size;
  memset(r->inc, 0, (size_t)nc * nl * sizeof *r->inc);
  for (uint32_t k = 0; k < v->n_rows; k++) {
    const uint8_t *bytes = v->data + (size_t)k * nl * size;
    double *dst = r->inc + (size_t)r->order[v->row_pos[k]] * nl;
    for (uint32_t l = 0; l < nl; l++)
      dst[l] = s->component == UINT32_MAX ? cube_decode(s->t, bytes + l * size, v->big_endian)
                                          : cube_decode_component(s->t, s->component, bytes + l * size, v->big_endian);
  }
  dense_rows(r);
}

/* The summary profile's values from per-cnode sums of each flavour. */
static int push_sums(reader *r, const series *s, const double *sx, const double *sy) {
  for (uint32_t c = 0; c < r->a.n_cnodes; c++) {
    if (sx[c] != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, s->point, sx[c]));
    if (sy[c] != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, s->execution, sy[c]));
  }
  return 0;
}

/* A summed floating-point series stored inclusive, when no location's values
 * are kept (summary only, or counted): cube_sum_pass over its rows. A DOUBLE
 * metric's rows are its data member's bytes where they lie (rows without data
 * are zeros); other values are decoded into r->inc first. */
static int sum_inclusive(reader *r, const series *s, const cube_values *v) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  if (s->t->kind == CUBE_DT_DOUBLE && s->component == UINT32_MAX) {
    for (uint32_t c = 0; c < nc; c++) r->rows[c] = (const uint8_t *)r->zero_row;
    for (uint32_t k = 0; k < v->n_rows; k++) r->rows[r->order[v->row_pos[k]]] = v->data + (size_t)k * nl * 8;
    r->rows_be = v->big_endian;
  } else {
    decode_dense(r, s, v);
  }
  cube_sum_tree t = {nc, nl, r->kids_at, r->kids, r->is_entry, 0, NULL, NULL};
  if (r->untotalled && !r->by_id) { /* the totals in document order, which is the contexts' (on one thread) */
    memset(r->totals, 0, nl * sizeof *r->totals);
    t.exc_totals = r->totals;
  }
  cube_sum_pass(&t, r->rows, r->rows_be, r->scratch, r->sums, r->sums + nc, r->counted);
  HPCDB_TRY(push_sums(r, s, r->sums, r->sums + nc));
  HPCDB_TRY(push_enclosing_contexts(r, CUBE_SUM, s->execution, r->counted));
  if (!any_untotalled(r)) return 0;
  if (r->by_id) { /* the exclusive rows as the pass derived them, then summed by id */
    for (uint32_t c = 0; c < nc; c++)
      if (!r->is_entry[c]) cube_sum_rows_of(&t, r->rows, r->rows_be, c, r->scratch, r->exc + (size_t)c * nl);
    exclusive_totals(r, r->exc);
  }
  return push_totals(r, s->point, r->totals);
}

/* sum_inclusive's work from the early sums (early_sums.c), which took no
 * cnode for an entry point: the entry points' exclusive sums made 0 and
 * their exclusive values uncounted; the rows of the roots (entry points and
 * the roots below the synthetic one are roots) for the enclosing contexts. */
static int sum_inclusive_early(reader *r, const series *s, const cube_early_metric *em) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  memcpy(r->sums, em->exc, (size_t)nc * sizeof *r->sums);
  memcpy(r->sums + nc, em->inc, (size_t)nc * sizeof *r->sums);
  for (uint32_t l = 0; r->counted && l < nl; l++) r->counted[l] += em->counts[l];
  for (uint32_t i = 0; i < r->early.n_roots; i++) {
    uint32_t c = r->early.roots[i];
    const double *exc = em->root_exc + (size_t)i * nl;
    r->rows[c] = (const uint8_t *)(em->root_inc + (size_t)i * nl);
    if (!r->is_entry[c]) continue;
    r->sums[c] = 0;
    for (uint32_t l = 0; r->counted && l < nl; l++) r->counted[l] -= exc[l] != 0;
  }
  r->rows_be = cube_native_big_endian();
  HPCDB_TRY(push_sums(r, s, r->sums, r->sums + nc));
  HPCDB_TRY(push_enclosing_contexts(r, CUBE_SUM, s->execution, r->counted));
  return r->untotalled ? push_totals(r, s->point, em->exc_totals) : 0;
}

/* HPCDB_READ_PROFILE_TOTALS: whether the early sums' totals are each
 * location's exclusive values summed as push_totals needs them, wherever
 * the location has no value at the global context (from the roots' rows):
 * the early sums left the roots out, which is right for an entry point
 * (none) and for a root with no exclusive value there; they are in document
 * order, which must be the contexts'. Otherwise the metric is read the
 * ordinary way. */
static int early_totals_fit(reader *r, const cube_early_metric *em) {
  uint32_t nl = r->a.n_locations;
  if (r->by_id) return 0;
  for (uint32_t k = 0; k < r->n_entries; k++) /* the entry points are roots, so left out */
    if (r->a.cnodes[r->entries[k]].parent != UINT32_MAX) return 0;
  for (uint32_t i = 0; i < r->early.n_roots; i++)
    r->rows[r->early.roots[i]] = (const uint8_t *)(em->root_inc + (size_t)i * nl);
  r->rows_be = cube_native_big_endian();
  double *entry = calloc((size_t)nl + 1, sizeof *entry), *global = calloc((size_t)nl + 1, sizeof *global);
  int fit = entry && global; /* out of memory: the ordinary read says so */
  if (fit) enclosing_values(r, CUBE_SUM, entry, global);
  for (uint32_t l = 0; fit && l < nl; l++)
    for (uint32_t i = 0; global[l] == 0 && i < r->early.n_roots; i++)
      fit &= r->is_entry[r->early.roots[i]] || em->root_exc[(size_t)i * nl + l] == 0;
  free(entry);
  free(global);
  return fit;
}

/* Summary only, a summed floating-point series stored exclusive: the same
 * values as derive_other and summarize, with one cnode x location matrix
 * (r->inc) instead of two: the exclusive sums first, then the inclusive values
 * in place. */
static int summary_of_exclusive_sum(reader *r, const series *s, const cube_values *v) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  double *m = r->inc, *sx = r->sums, *sy = r->sums + nc;
  decode_dense(r, s, v);
  if (r->untotalled) exclusive_totals(r, m); /* before the inclusive values take the matrix */
  for (uint32_t c = 0; c < nc; c++) {
    double x = 0;
    for (uint32_t l = 0; l < nl && !r->is_entry[c]; l++) x += m[(size_t)c * nl + l];
    sx[c] = x;
  }
  for (uint32_t c = nc; c-- > 0;) {
    uint32_t p = r->a.cnodes[c].parent;
    if (p != UINT32_MAX)
      for (uint32_t l = 0; l < nl; l++) m[(size_t)p * nl + l] += m[(size_t)c * nl + l];
  }
  for (uint32_t c = 0; c < nc; c++) {
    double y = 0;
    for (uint32_t l = 0; l < nl; l++) y += m[(size_t)c * nl + l];
    sy[c] = y;
  }
  HPCDB_TRY(push_sums(r, s, sx, sy));
  HPCDB_TRY(push_enclosing_contexts(r, CUBE_SUM, s->execution, NULL));
  return r->untotalled ? push_totals(r, s->point, r->totals) : 0;
}

/* The values of one series for every cnode and location, then into the
 * profiles' value lists. */
static int add_series(reader *r, const series *s, const cube_values *v) {
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  size_t size = s->t->size;
  int integer = s->component == UINT32_MAX && s->t->kind == CUBE_DT_INTEGER;
  if (!integer && s->derive && s->aggregate == CUBE_SUM && (!r->locations || r->counted)) {
    if (s->m->flavour == CUBE_INCLUSIVE) return sum_inclusive(r, s, v);
    if (!r->locations) return summary_of_exclusive_sum(r, s, v);
  }
  r->integer = integer ? s->t : NULL;
  if (integer) {
    HPCDB_TRY(fill_integer(r, s, v));
  } else {
    double *stored = s->m->flavour == CUBE_INCLUSIVE ? r->inc : r->exc;
    memset(r->exc, 0, (size_t)nc * nl * sizeof *r->exc);
    memset(r->inc, 0, (size_t)nc * nl * sizeof *r->inc);
    for (uint32_t k = 0; k < v->n_rows; k++) {
      uint32_t c = r->order[v->row_pos[k]];
      const uint8_t *row = v->data + (size_t)k * nl * size;
      for (uint32_t l = 0; l < nl; l++)
        stored[(size_t)c * nl + l] = s->component == UINT32_MAX
                                         ? cube_decode(s->t, row + l * size, v->big_endian)
                                         : cube_decode_component(s->t, s->component, row + l * size, v->big_endian);
    }
    if (s->derive) derive_other(r, s);
    for (uint32_t c = 0; c < nc; c++) /* entry points have inclusive values only */
      if (r->is_entry[c]) memset(&r->exc[(size_t)c * nl], 0, nl * sizeof *r->exc);
  }
  if (r->locations) HPCDB_TRY(append_locations(r, s->point, s->execution));
  if (!s->derive) { /* the stored flavour only: an exclusive one is totalled by its point values everywhere */
    if (!r->untotalled || s->m->flavour == CUBE_INCLUSIVE) return 0;
    memset(r->untotalled, 1, nl);
    exclusive_totals(r, r->exc);
    return push_totals(r, s->point, r->totals);
  }
  HPCDB_TRY(summarize(r, s, integer));
  if (integer) {
    HPCDB_TRY(push_enclosing_integer(r, s->t, s->execution));
  } else {
    dense_rows(r);
    HPCDB_TRY(push_enclosing_contexts(r, s->aggregate, s->execution, NULL));
  }
  if (!any_untotalled(r)) return 0;
  exclusive_totals(r, r->exc);
  return push_totals(r, s->point, r->totals);
}

static uint32_t scope_of_type(const hpcdb_experiment *exp, uint8_t type) {
  for (uint32_t i = 0; i < exp->n_scopes; i++) /* build.c made point and execution */
    if (exp->scopes[i].type == type) return i;
  return HPCDB_NONE;
}

/* The model metric of one component: with derivation both scopes and their
 * summaries (prop ids id, id + 1), else the stored flavour's scope only. */
static int declare_component(reader *r, const cube_metric *m, const cube_component *cp, const series *s) {
  const char *base = *m->uniq ? m->uniq : m->disp;
  char name[600], descr[640];
  snprintf(name, sizeof name, "%s:%s", base, cp->name);
  snprintf(descr, sizeof descr, "component %s of %s (%s)", cp->name, base, m->dtype);
  uint32_t idx, point = scope_of_type(r->exp, HPCDB_SCOPE_POINT),
                execution = scope_of_type(r->exp, HPCDB_SCOPE_EXECUTION);
  HPCDB_TRY(hpcdb_add_metric(r->exp, name, &idx));
  HPCDB_TRY(hpcdb_metric_describe(r->exp, idx, descr, NULL));
  /* its inclusive values combine along the tree as the component does (min / max: not v4.0's execution sum) */
  r->exp->metrics[idx].execution_combine = cp->aggregate == CUBE_MIN   ? HPCDB_COMBINE_MIN
                                           : cp->aggregate == CUBE_MAX ? HPCDB_COMBINE_MAX
                                                                       : HPCDB_COMBINE_SUM;
  if (!s->derive)
    return hpcdb_metric_add_instance(r->exp, idx, m->flavour == CUBE_INCLUSIVE ? execution : point, s->point);
  uint8_t combine = cp->aggregate == CUBE_MIN   ? HPCDB_COMBINE_MIN
                    : cp->aggregate == CUBE_MAX ? HPCDB_COMBINE_MAX
                                                : HPCDB_COMBINE_SUM;
  hpcdb_summary sp = {point, "$$", combine, s->point}, se = {execution, "$$", combine, s->execution};
  HPCDB_TRY(hpcdb_metric_add_instance(r->exp, idx, point, s->point));
  HPCDB_TRY(hpcdb_metric_add_instance(r->exp, idx, execution, s->execution));
  HPCDB_TRY(hpcdb_metric_add_summary(r->exp, idx, &sp));
  return hpcdb_metric_add_summary(r->exp, idx, &se);
}

/* A model metric per component of metric mi, each with its values; prop ids
 * from r->next_id on (after every Cube metric's 2m and 2m + 1). */
static int add_components(reader *r, uint32_t mi, const cube_dtype *t, const cube_values *v) {
  const cube_metric *m = &r->a.metrics[mi];
  uint32_t nl = r->a.n_locations, terms = 0;
  if (t->kind == CUBE_DT_SCALE_FUNC) /* the terms present in the file; counts checked by the caller */
    for (size_t i = 0; i < (size_t)v->n_rows * nl; i++) {
      int64_t n = cube_scale_func_terms(v->data + i * t->size, v->big_endian);
      terms = n > (int64_t)terms ? (uint32_t)n : terms;
    }
  uint32_t n = cube_n_components(t, terms), ids = 0;
  cube_component cp;
  for (uint32_t k = 0; k < n; k++) {
    cube_component_of(t, k, m->flavour, &cp);
    ids += cp.derivable && !m->stored_only ? 2 : 1;
  }
  if (r->next_id + ids > 65536) { /* the model's metric ids are 16 bits */
    char key[600], why[128];
    snprintf(key, sizeof key, "cube.components-omitted.%s", m->uniq);
    snprintf(why, sizeof why, "%u components need more metric ids than the model has (65536)", n);
    return hpcdb_add_attr(r->exp, key, why);
  }
  for (uint32_t k = 0; k < n; k++) {
    cube_component_of(t, k, m->flavour, &cp);
    int derive = cp.derivable && !m->stored_only;
    series s = {m, t, k, cp.aggregate, derive, (uint16_t)r->next_id, (uint16_t)(r->next_id + (uint32_t)derive)};
    r->next_id += derive ? 2 : 1;
    HPCDB_TRY(declare_component(r, m, &cp, &s));
    HPCDB_TRY(add_series(r, &s, v));
  }
  return 0;
}

/* SCALE_FUNC values whose term or measurement count overruns the value. */
static int check_scale_func(reader *r, const cube_metric *m, const cube_dtype *t, const cube_values *v) {
  uint32_t nl = r->a.n_locations;
  for (size_t i = 0; i < (size_t)v->n_rows * nl; i++)
    if (cube_scale_func_terms(v->data + i * t->size, v->big_endian) < 0)
      return hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "data", 10 + i * t->size, "scale-func-count",
                           "metric %s: row %zu, location %zu: more than %u terms or %u measurements", m->uniq, i / nl,
                           i % nl, CUBE_SCALE_FUNC_TERMS, CUBE_SCALE_FUNC_MEASUREMENTS);
  return 0;
}

/* Metric mi: its single number (both flavours, as the metric aggregates;
 * only the stored one for a metric hpcdb wrote as such), then its components. */
static int add_metric(reader *r, uint32_t mi, const cube_values *v) {
  const cube_metric *m = &r->a.metrics[mi];
  uint32_t nc = r->a.n_cnodes;
  cube_dtype t;
  cube_dtype_parse(&t, m->dtype);
  if (m->flavour == CUBE_INCLUSIVE) HPCDB_TRY(cube_inclusive_order(nc, r->parent, r->kids_at, r->kids, r->order));
  else
    for (uint32_t c = 0; c < nc; c++) r->order[c] = c;
  if (t.kind == CUBE_DT_SCALE_FUNC) HPCDB_TRY(check_scale_func(r, m, &t, v));
  series s = {m, &t, UINT32_MAX, m->aggregate, !m->stored_only, (uint16_t)(2 * mi), (uint16_t)(2 * mi + 1)};
  if (m->stored_only && m->flavour == CUBE_INCLUSIVE) s.point = s.execution;
  if (t.kind != CUBE_DT_SCALE_FUNC) HPCDB_TRY(add_series(r, &s, v));
  return add_components(r, mi, &t, v);
}

/* The cnodes that are entry points, and the roots that build.c hung below a
 * synthetic entry point. */
static int find_entry_roots(reader *r) {
  uint32_t e = r->entry_id ? hpcdb_find_context(r->exp, r->entry_id) : HPCDB_NONE;
  r->is_entry = calloc((size_t)r->a.n_cnodes + 1, 1);
  r->entries = malloc(((size_t)r->a.n_cnodes + 1) * sizeof *r->entries);
  if (!r->is_entry || !r->entries) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t c = 0; c < r->a.n_cnodes; c++) {
    uint32_t x = hpcdb_find_context(r->exp, r->a.cnodes[c].id + 1);
    r->is_entry[c] = x != HPCDB_NONE && r->exp->contexts[x].kind == HPCDB_CTX_ENTRY;
    if (r->is_entry[c]) r->entries[r->n_entries++] = c;
  }
  if (e == HPCDB_NONE) return 0;
  r->entry_roots = malloc(((size_t)r->a.n_cnodes + 1) * sizeof *r->entry_roots);
  if (!r->entry_roots) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t c = 0; c < r->a.n_cnodes; c++) {
    uint32_t x = r->a.cnodes[c].parent == UINT32_MAX ? hpcdb_find_context(r->exp, r->a.cnodes[c].id + 1) : HPCDB_NONE;
    if (x != HPCDB_NONE && r->exp->contexts[x].parent == e) r->entry_roots[r->n_entry_roots++] = c;
  }
  return 0;
}

typedef struct id_slot {
  uint32_t id, cnode;
} id_slot;

static int by_id(const void *a, const void *b) {
  const id_slot *x = a, *y = b;
  return x->id != y->id ? (x->id < y->id ? -1 : 1) : (x->cnode < y->cnode ? -1 : x->cnode > y->cnode);
}

/* HPCDB_READ_PROFILE_TOTALS: r->by_id, the cnodes in the order of a
 * profile's contexts (by id), unless that is document order (left NULL). */
static int order_by_id(reader *r) {
  uint32_t nc = r->a.n_cnodes, c = 1;
  while (c < nc && r->a.cnodes[c - 1].id < r->a.cnodes[c].id) c++;
  if (c >= nc) return 0;
  id_slot *slots = malloc(((size_t)nc + 1) * sizeof *slots);
  r->by_id = malloc(((size_t)nc + 1) * sizeof *r->by_id);
  if (!slots || !r->by_id) {
    free(slots);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (c = 0; c < nc; c++) slots[c] = (id_slot){r->a.cnodes[c].id, c};
  qsort(slots, nc, sizeof *slots, by_id);
  for (c = 0; c < nc; c++) r->by_id[c] = slots[c].cnode;
  free(slots);
  return 0;
}

static int metric_of_member(const cube_anchor *a, const char *name, const char *suffix, uint32_t *out) {
  unsigned long id;
  if (!cube_member_metric_id(name, suffix, &id)) return 0;
  for (uint32_t i = 0; i < a->n_metrics; i++)
    if (a->metrics[i].id == id) {
      *out = i;
      return 1;
    }
  return 0;
}

/* Whether metric mi's values are read. A metric that is split into
 * components, or whose type is not decoded, is always read: its model
 * metrics (or the attribute saying why it has none) appear as it is read, and
 * skipping it would change the metric list. */
static int wanted(const reader *r, uint32_t mi) {
  if (!r->opts || r->opts->values == HPCDB_READ_ALL) return 1;
  const cube_metric *m = &r->a.metrics[mi];
  cube_dtype t;
  if (!cube_dtype_parse(&t, m->dtype) || !cube_dtype_size(m->dtype) || t.kind == CUBE_DT_SCALE_FUNC ||
      cube_n_components(&t, 0) > 0)
    return 1;
  if (r->opts->values == HPCDB_READ_COUNTS) return 1;
  if (r->opts->values != HPCDB_READ_METRICS) return 0;
  const char *name = *m->uniq ? m->uniq : m->disp; /* the model metric's name (build.c) */
  for (uint32_t i = 0; i < r->opts->n_metrics; i++)
    if (r->opts->metrics[i] && !strcmp(r->opts->metrics[i], name)) return 1;
  return 0;
}

/* Whether metric mi is read as sum_inclusive reads a DOUBLE metric, which
 * is what the early sums stand for. */
static int early_fits(const reader *r, uint32_t mi) {
  const cube_metric *m = &r->a.metrics[mi];
  cube_dtype t;
  return wanted(r, mi) && cube_dtype_parse(&t, m->dtype) && t.kind == CUBE_DT_DOUBLE && t.size == 8 &&
         m->flavour == CUBE_INCLUSIVE && m->aggregate == CUBE_SUM && !m->stored_only && (!r->locations || r->counted);
}

/* The metrics the early sums are not taken for are skipped; the rest are
 * summed on this thread too, and the helper joined. */
static void finish_early(reader *r) {
  for (uint32_t i = 0; i < r->early.n_metrics; i++) {
    uint32_t m;
    if (!metric_of_member(&r->a, r->early.metrics[i].dt->name, ".data", &m) || !early_fits(r, m))
      cube_early_skip(&r->early.metrics[i]);
  }
  cube_early_finish(&r->early, r->parent, r->a.n_cnodes);
}

/* Metric m's values from its index and data members. */
static int decode_metric(reader *r, uint32_t m, const uint8_t *ix, size_t ix_len, const uint8_t *dt, size_t dt_len) {
  int rc;
  cube_values v;
  size_t size = cube_dtype_size(r->a.metrics[m].dtype);
  if (!size) { /* a type this reader cannot decode: the metric stays empty, and says why */
    char key[600];
    snprintf(key, sizeof key, "cube.not-decoded.%s", r->a.metrics[m].uniq);
    rc = hpcdb_add_attr(r->exp, key, r->a.metrics[m].dtype);
  } else {
    rc = cube_values_decode(&v, ix, ix_len, dt, dt_len, size, r->a.n_locations, r->a.n_cnodes, r->path,
                            r->a.metrics[m].uniq);
    if (rc == 0) {
      rc = add_metric(r, m, &v);
      cube_values_free(&v);
    }
  }
  return rc;
}

static int mended_warning(reader *r, uint32_t mended) {
  if (!mended) return 0;
  char why[160];
  snprintf(why, sizeof why,
           "%u tar header(s) with a checksum 32 below the right one (CubeW 4.8's bug): read as if right", mended);
  return hpcdb_add_warning(r->exp, why);
}

/* One member through the member index, read whole. */
static int read_indexed_member(reader *r, const cube_member_index *x, const cube_indexed_member *im, cube_member *out) {
  if (im->size > SIZE_MAX - 1 || !(out->data = malloc((size_t)im->size + 1)))
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for a %llu-byte member", r->path, (unsigned long long)im->size);
  out->len = (size_t)im->size;
  if (cube_member_read(x, im->offset, out->data, out->len)) return 0;
  free(out->data);
  out->data = NULL;
  return hpcdb_fail_at(HPCDB_ECORRUPT, r->path, im->name, 0, "archive", "short member: truncated");
}

/* The second pass of a plain tar whose members the member index placed: as
 * the streaming pass below (members in archive order, the first of each
 * name, a metric decoded once both are there), but only the wanted members'
 * bytes are read, by their offsets. */
static int read_metrics_indexed(reader *r, const cube_member_index *x) {
  const cube_indexed_member **ix = calloc(r->a.n_metrics + 1, sizeof *ix),
                            **dt = calloc(r->a.n_metrics + 1, sizeof *dt);
  int rc = ix && dt ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < x->n && rc == 0; i++) {
    const cube_indexed_member *im = &x->members[i];
    uint32_t m;
    const cube_indexed_member **slot = NULL;
    if (metric_of_member(&r->a, im->name, ".index", &m)) slot = &ix[m];
    else if (metric_of_member(&r->a, im->name, ".data", &m)) slot = &dt[m];
    if (!slot || *slot || !wanted(r, m)) continue;
    *slot = im;
    const cube_early_metric *em = ix[m] && dt[m] && early_fits(r, m) ? cube_early_find(&r->early, ix[m], dt[m]) : NULL;
    if (em && em->n_locations == r->a.n_locations && (!r->untotalled || early_totals_fit(r, em))) {
      cube_dtype t;
      cube_dtype_parse(&t, r->a.metrics[m].dtype);
      series s = {&r->a.metrics[m], &t, UINT32_MAX, CUBE_SUM, 1, (uint16_t)(2 * m), (uint16_t)(2 * m + 1)};
      const cube_values none = {0}; /* a DOUBLE has no components: add_components only checks the ids */
      rc = sum_inclusive_early(r, &s, em);
      if (rc == 0) rc = add_components(r, m, &t, &none);
    } else if (ix[m] && dt[m]) {
      cube_member a = {0};
      cube_member_view b = {0};
      rc = read_indexed_member(r, x, ix[m], &a);
      if (rc == 0 && (rc = cube_member_view_load(x, dt[m]->offset, dt[m]->size, &b)) == 0)
        rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, dt[m]->name, 0, "archive", "short member: truncated");
      if (rc > 0) rc = decode_metric(r, m, a.data, a.len, b.data, b.len);
      free(a.data);
      cube_member_view_close(&b);
    }
  }
  free(ix);
  free(dt);
  return rc == 0 ? mended_warning(r, x->mended) : rc;
}

/* The second pass: each metric's .index and .data, decoded as soon as both
 * are there; the members of metrics not wanted are skipped unread (in a
 * plain tar, by their offsets; a compressed one is streamed through). */
static int read_metrics(reader *r) {
  if (r->members.n) return read_metrics_indexed(r, &r->members);
  struct archive *ar;
  uint32_t mended = 0;
  HPCDB_TRY(cube_open_archive_counting(&ar, r->path, &mended));
  const archive_lib *al = archive_lib_loaded();
  cube_member *ix = calloc(r->a.n_metrics + 1, sizeof *ix), *dt = calloc(r->a.n_metrics + 1, sizeof *dt);
  int rc = ix && dt ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  struct archive_entry *e;
  while (rc == 0) {
    int h = al->read_next_header(ar, &e);
    if (h == ARCHIVE_EOF) break;
    if (h != ARCHIVE_OK && h != ARCHIVE_WARN) { /* ARCHIVE_RETRY: a damaged header */
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "archive", 0, "tar", "%s", al->error_string(ar));
      break;
    }
    const char *name = cube_member_name(e);
    uint32_t m;
    cube_member *slot = NULL;
    if (metric_of_member(&r->a, name, ".index", &m)) slot = &ix[m];
    else if (metric_of_member(&r->a, name, ".data", &m)) slot = &dt[m];
    if (!slot || slot->data || !wanted(r, m)) continue;
    if ((rc = cube_read_member(ar, e, slot, r->path)) < 0) break;
    if (ix[m].data && dt[m].data) {
      rc = decode_metric(r, m, ix[m].data, ix[m].len, dt[m].data, dt[m].len);
      free(ix[m].data);
      free(dt[m].data);
      ix[m].data = dt[m].data = NULL;
    }
  }
  for (uint32_t i = 0; ix && dt && i < r->a.n_metrics; i++) {
    free(ix[i].data);
    free(dt[i].data);
  }
  free(ix);
  free(dt);
  al->read_free(ar);
  return rc == 0 ? mended_warning(r, mended) : rc;
}

/* The integers beside a profile's values that their doubles round (the
 * model fills in the rest). */
static int set_exact(hpcdb_experiment *exp, uint32_t profile, const triples *t) {
  const hpcdb_profile *p = &exp->profiles[profile];
  uint64_t *ints = calloc(p->n_values + 1, sizeof *ints);
  if (!ints) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < t->n_exact; i++) {
    const exact_value *e = &t->exact[i];
    uint32_t lo = 0, hi = p->n_ctxs;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (p->ctx_ids[mid] < e->ctx) lo = mid + 1;
      else hi = mid;
    }
    for (uint64_t v = lo < p->n_ctxs ? p->ctx_starts[lo] : 0; lo < p->n_ctxs && v < p->ctx_starts[lo + 1]; v++)
      if (p->metric_ids[v] == e->metric) ints[v] = e->bits;
  }
  return hpcdb_profile_adopt_integers(exp, profile, ints);
}

/* A profile's values from its triples in CSR form: a counting sort by
 * context id (ids are cnode ids + 1, at most the largest + 2), then each
 * context's few values by metric id; this replaces a general sort. */
static int set_profile(hpcdb_experiment *exp, uint32_t profile, const triples *t) {
  uint32_t max = 0;
  for (uint64_t i = 0; i < t->n; i++) max = t->ctx[i] > max ? t->ctx[i] : max;
  uint64_t *at = calloc((size_t)max + 2, sizeof *at);
  uint32_t n_ctxs = 0;
  if (!at) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)t->n);
  for (uint64_t i = 0; i < t->n; i++) at[t->ctx[i] + 1]++;
  for (uint32_t c = 0; c <= max; c++) n_ctxs += at[c + 1] != 0;
  hpcdb_profile csr;
  int rc = model_csr_alloc(&csr, n_ctxs, t->n);
  if (rc < 0) {
    free(at);
    return rc;
  }
  uint32_t *ids = csr.ctx_ids;
  uint64_t *starts = csr.ctx_starts;
  uint16_t *metrics = csr.metric_ids;
  double *values = csr.values;
  for (uint32_t c = 0, k = 0; c <= max; c++) {
    if (at[c + 1]) ids[k++] = c;
    at[c + 1] += at[c];
  }
  for (uint64_t i = 0; i < t->n; i++) { /* scatter, then insertion-sort each context's run */
    uint64_t j = at[t->ctx[i]]++;
    metrics[j] = t->metric[i];
    values[j] = t->value[i];
  }
  uint64_t from = 0;
  for (uint32_t k = 0; k < n_ctxs; k++) {
    uint64_t to = at[ids[k]];
    starts[k] = from;
    for (uint64_t i = from + 1; i < to; i++)
      for (uint64_t j = i; j > from && metrics[j - 1] > metrics[j]; j--) {
        uint16_t m = metrics[j];
        double v = values[j];
        metrics[j] = metrics[j - 1], values[j] = values[j - 1];
        metrics[j - 1] = m, values[j - 1] = v;
      }
    from = to;
  }
  starts[n_ctxs] = t->n;
  free(at);
  HPCDB_TRY(hpcdb_profile_adopt_csr(exp, profile, n_ctxs, ids, starts, t->n, metrics, values));
  return t->n_exact ? set_exact(exp, profile, t) : 0;
}

/* opened: a file hpcdb_cube_open has read the anchor and placed the members
 * of (borrowed, not parsed again), else NULL. */
static int read_cube(hpcdb_experiment **out, const char *path, const hpcdb_read_options *opts,
                     const hpcdb_cube *opened) {
  *out = NULL;
  reader r;
  memset(&r, 0, sizeof r);
  r.path = path;
  r.opts = opts;
  int counting = opts && opts->values == HPCDB_READ_COUNTS;
  int totals =
      opts && (opts->flags & HPCDB_READ_PROFILE_TOTALS) && !(opts->flags & HPCDB_READ_SUMMARY_ONLY) && !counting;
  r.locations = !opts || (!(opts->flags & HPCDB_READ_SUMMARY_ONLY) && !totals);
  if (opened) r.members = opened->members;
  else HPCDB_TRY(cube_member_index_build(&r.members, path));
  int values = !opts || opts->values == HPCDB_READ_ALL || opts->values == HPCDB_READ_COUNTS ||
               opts->values == HPCDB_READ_METRICS;
  if (values && (!r.locations || (opts && opts->values == HPCDB_READ_COUNTS))) /* where sum_inclusive reads */
    cube_early_start(&r.early, &r.members, path, opts && opts->values == HPCDB_READ_METRICS ? opts->metrics : NULL,
                     opts && opts->values == HPCDB_READ_METRICS ? opts->n_metrics : 0, totals);
  int rc = 0;
  if (opened) r.a = opened->a;
  else rc = cube_read_anchor(&r.a, path, &r.members);
  if (rc < 0) {
    cube_early_free(&r.early);
    cube_member_index_free(&r.members);
    return rc;
  }
  uint32_t nc = r.a.n_cnodes, nl = r.a.n_locations;
  rc = hpcdb_experiment_new(&r.exp);
  r.parent = malloc(((size_t)nc + 1) * sizeof *r.parent);
  r.kids_at = calloc((size_t)nc + 2, sizeof *r.kids_at);
  r.kids = malloc(((size_t)nc + 1) * sizeof *r.kids);
  r.order = malloc(((size_t)nc + 1) * sizeof *r.order);
  r.exc = malloc(((size_t)nc * nl + 1) * sizeof *r.exc);
  r.inc = malloc(((size_t)nc * nl + 1) * sizeof *r.inc);
  r.tile = cube_tile_width(nc, nl);
  r.cols = malloc(((size_t)2 * r.tile * nc + 1) * sizeof *r.cols);
  r.per_profile = calloc((size_t)nl + 1, sizeof *r.per_profile);
  r.rows = malloc(((size_t)nc + 1) * sizeof *r.rows);
  r.zero_row = calloc((size_t)nl + 1, sizeof *r.zero_row);
  r.scratch = malloc(((size_t)CUBE_SUM_PASS_ROWS * nl + 1) * sizeof *r.scratch);
  r.sums = malloc(((size_t)2 * nc + 1) * sizeof *r.sums);
  if (counting) r.counted = calloc((size_t)nl + 1, sizeof *r.counted);
  if (totals) r.untotalled = calloc((size_t)nl + 1, 1), r.totals = calloc((size_t)nl + 1, sizeof *r.totals);
  if (rc == 0 &&
      (!r.parent || !r.kids_at || !r.kids || !r.order || !r.exc || !r.inc || !r.cols || !r.per_profile || !r.rows ||
       !r.zero_row || !r.scratch || !r.sums || (counting && !r.counted) || (totals && (!r.untotalled || !r.totals))))
    rc = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %u cnodes x %u locations", path, nc, nl);
  if (rc == 0) { /* children lists in document order */
    for (uint32_t c = 0; c < nc; c++) r.parent[c] = r.a.cnodes[c].parent;
    rc = cube_children(nc, r.parent, r.kids_at, r.kids);
  }
  if (rc == 0) rc = cube_build_model(r.exp, &r.a, path, &r.entry_id);
  if (rc == 0) rc = find_entry_roots(&r);
  if (rc == 0 && totals) rc = order_by_id(&r);
  r.next_id = 2 * r.a.n_metrics;
  if (rc == 0) finish_early(&r);
  if (rc == 0) rc = read_metrics(&r);
  for (uint32_t p = 0; rc == 0 && p <= nl; p++) {
    rc = set_profile(r.exp, p, &r.per_profile[p]);
    if (rc == 0 && p > 0 && r.counted) rc = hpcdb_profile_set_counted(r.exp, p, r.counted[p - 1]);
    triples_free(&r.per_profile[p]);
  }
  if (rc == 0) rc = hpcdb_set_origin(r.exp, path);
  for (uint32_t p = 0; r.per_profile && p <= nl; p++) triples_free(&r.per_profile[p]);
  free(r.per_profile);
  free(r.parent);
  free(r.entry_roots);
  free(r.is_entry);
  free(r.entries);
  free(r.kids_at);
  free(r.kids);
  free(r.order);
  free(r.exc);
  free(r.inc);
  free(r.iexc);
  free(r.iinc);
  free(r.cols);
  free(r.counted);
  free(r.untotalled);
  free(r.totals);
  free(r.by_id);
  free(r.rows);
  free(r.zero_row);
  free(r.scratch);
  free(r.sums);
  cube_early_free(&r.early);
  if (!opened) cube_anchor_free(&r.a);
  if (!opened) cube_member_index_free(&r.members);
  if (rc < 0) {
    hpcdb_experiment_free(r.exp);
    return rc;
  }
  *out = r.exp;
  return 0;
}

int hpcdb_cube_read(hpcdb_experiment **out, const char *path) { return read_cube(out, path, NULL, NULL); }

int cube_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options) {
  return read_cube(out, path, options, NULL);
}

int hpcdb_cube_read_opened(hpcdb_experiment **out, const hpcdb_cube *c, const hpcdb_read_options *options) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_READ_OPTIONS_VERSION, "hpcdb_read_options");
  return read_cube(out, c->path, options, c);
}
