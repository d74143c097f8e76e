/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP regions where they were asked for (hpcdb_openmp_attribute). Without
 * an OMPT runtime (GNU libgomp has none) a worker thread's samples unwind to
 * its own root: <application thread> -> runtime frames -> the outlined region
 * (GCC's X._omp_fn.N, clang's .omp_outlined.), apart from the master's
 * main -> ... -> GOMP_parallel -> X._omp_fn.N. Here each worker's region
 * subtree moves into the master's when the master entered that outlined
 * function from one calling context only, else under an
 * "<omp parallel region X>" context below the worker's thread root. Every
 * profile keeps its own values (moved with their contexts); the inclusive
 * values of the old and new ancestors follow, so every sum over threads
 * stays what it was; the summary is made again from the threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/atomic_dir.h"
#include "common/error.h"
#include "common/vec.h"
#include "hpcdb/analysis.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"

/* The outlined body of a parallel region, as GCC and clang name it. */
static int is_outlined(const char *name) { return name && (strstr(name, "_omp_fn.") || strstr(name, "omp_outlined")); }

static int has_prefix(const char *s, const char *p) { return s && !strncmp(s, p, strlen(p)); }

/* A frame of the OpenMP runtime: in libgomp or libomp, or one of their entry points. */
static int is_runtime(const hpcdb_experiment *e, const hpcdb_context *c) {
  const hpcdb_function *f = c->function != HPCDB_NONE ? &e->functions[c->function] : NULL;
  uint32_t m = f ? f->module : c->module;
  const char *path = m != HPCDB_NONE ? e->modules[m].path : NULL;
  const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (has_prefix(base, "libgomp") || has_prefix(base, "libomp") || has_prefix(base, "libiomp")) return 1;
  const char *n = f ? f->name : NULL;
  return has_prefix(n, "GOMP_") || has_prefix(n, "gomp_") || has_prefix(n, "__kmp");
}

static const char *name_of(const hpcdb_experiment *e, uint32_t ctx) {
  uint32_t f = e->contexts[ctx].function;
  return f != HPCDB_NONE ? e->functions[f].name : NULL;
}

typedef struct region {
  uint32_t fn; /* the outlined function (clang names every one .omp_outlined.: the name is no key) */
  const char *name;
  uint32_t master;   /* its context in a master's tree; HPCDB_NONE: none, or more than one */
  int masters;       /* how many */
  uint32_t function; /* "<omp parallel region X>" in the new experiment, once made */
} region;

typedef struct attribution {
  const hpcdb_experiment *old;
  hpcdb_experiment *exp; /* the new one */
  uint8_t *moved;        /* per old context: 2 a worker's region context, 1 below one, 0 neither */
  uint32_t *worker;      /* the workers' region contexts (old indices) */
  uint32_t n_workers;
  uint64_t cap_workers;
  region *regions;
  uint32_t n_regions;
  uint64_t cap_regions;
  uint32_t *to;     /* per old context: its new index (HPCDB_NONE: dropped) */
  uint32_t next_id; /* for the contexts made here */
} attribution;

static region *region_of(attribution *a, uint32_t ctx) {
  uint32_t fn = a->old->contexts[ctx].function;
  for (uint32_t r = 0; r < a->n_regions; r++)
    if (a->regions[r].fn == fn) return &a->regions[r];
  if (VEC_RESERVE(&a->regions, &a->cap_regions, a->n_regions + 1) < 0) return NULL;
  a->regions[a->n_regions] = (region){fn, name_of(a->old, ctx), HPCDB_NONE, 0, HPCDB_NONE};
  return &a->regions[a->n_regions++];
}

/* Workers' region contexts and masters' ones, per region. A region context
 * is a worker's when only runtime frames stand between it and its thread's
 * root. */
static int classify(attribution *a) {
  const hpcdb_experiment *e = a->old;
  for (uint32_t i = 1; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    if (c->kind != HPCDB_CTX_NORMAL || c->relation != HPCDB_REL_CALL || !is_outlined(name_of(e, i))) continue;
    int worker = 1;
    uint32_t p = c->parent;
    for (; p != 0 && e->contexts[p].kind == HPCDB_CTX_NORMAL && worker; p = e->contexts[p].parent)
      if (e->contexts[p].relation != HPCDB_REL_LEXICAL && !is_runtime(e, &e->contexts[p])) worker = 0;
    if (worker && e->contexts[p].kind != HPCDB_CTX_ENTRY) continue; /* not below a thread's root */
    region *r = region_of(a, i);
    if (!r) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    if (worker) {
      if (VEC_RESERVE(&a->worker, &a->cap_workers, a->n_workers + 1) < 0)
        return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      a->worker[a->n_workers++] = i;
    } else {
      r->master = r->masters++ ? HPCDB_NONE : i;
    }
  }
  return 0;
}

/* The same context: what unification would have merged. */
static int same_context(const hpcdb_context *x, const hpcdb_context *y) {
  return x->kind == y->kind && x->relation == y->relation && x->lexical_type == y->lexical_type &&
         x->function == y->function && x->file == y->file && x->line == y->line && x->module == y->module &&
         x->offset == y->offset;
}

/* The child of parent (new) like proto (old), made when missing. */
static int child_like(attribution *a, uint32_t parent, const hpcdb_context *proto, uint32_t *out) {
  hpcdb_experiment *e = a->exp;
  for (uint32_t k = e->contexts[parent].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
    if (same_context(&e->contexts[k], proto)) {
      *out = k;
      return 0;
    }
  hpcdb_context c = *proto;
  c.id = a->next_id++;
  return hpcdb_add_context(e, &c, parent, out);
}

/* "<omp parallel region X>" below the worker's thread root (new index), made once. */
static int region_node(attribution *a, region *r, uint32_t worker, uint32_t *out) {
  const hpcdb_experiment *o = a->old;
  uint32_t root = o->contexts[worker].parent;
  while (o->contexts[root].kind == HPCDB_CTX_NORMAL) root = o->contexts[root].parent;
  if (r->function == HPCDB_NONE) {
    char name[1024];
    snprintf(name, sizeof name, "<omp parallel region %s>", r->name);
    hpcdb_function fn = {name, HPCDB_NONE, 0, HPCDB_NONE, 0, 0};
    HPCDB_TRY(hpcdb_add_function(a->exp, &fn, &r->function));
  }
  hpcdb_context c = o->contexts[worker];
  c.function = r->function;
  c.module = c.file = HPCDB_NONE;
  c.offset = 0;
  c.line = 0;
  return child_like(a, a->to[root], &c, out);
}

/* The experiment without the workers' region subtrees, then those placed
 * where their regions were entered (a->to for every old context). */
static int build_tree(attribution *a) {
  const hpcdb_experiment *o = a->old;
  for (uint32_t w = 0; w < a->n_workers; w++) a->moved[a->worker[w]] = 2;
  for (uint32_t i = 1; i < o->n_contexts; i++) /* subtrees: parents come before children */
    if (!a->moved[i] && a->moved[o->contexts[i].parent]) a->moved[i] = 1;
  for (uint32_t i = 0; i < o->n_contexts; i++)
    a->next_id = o->contexts[i].id >= a->next_id ? o->contexts[i].id + 1 : a->next_id;
  a->to[0] = 0;
  for (uint32_t i = 1; i < o->n_contexts; i++) {
    a->to[i] = HPCDB_NONE;
    if (a->moved[i]) continue;
    HPCDB_TRY(hpcdb_add_context(a->exp, &o->contexts[i], a->to[o->contexts[i].parent], &a->to[i]));
  }
  for (uint32_t w = 0; w < a->n_workers; w++) {
    uint32_t wk = a->worker[w];
    region *r = region_of(a, wk);
    uint32_t place;
    if (r->master != HPCDB_NONE && !a->moved[r->master]) { /* the master's own region context (not itself a
                                                               worker's nested region, moving too) */
      a->to[wk] = a->to[r->master];
      continue;
    }
    HPCDB_TRY(region_node(a, r, wk, &place));
    HPCDB_TRY(child_like(a, place, &o->contexts[wk], &a->to[wk]));
  }
  for (uint32_t i = 1; i < o->n_contexts; i++) /* the rest of each subtree, below its moved parent */
    if (a->moved[i] && a->to[i] == HPCDB_NONE)
      HPCDB_TRY(child_like(a, a->to[o->contexts[i].parent], &o->contexts[i], &a->to[i]));
  return 0;
}

typedef struct triple {
  uint32_t ctx; /* new index */
  uint16_t metric;
  double value;
} triple;

static int by_cell(const void *x, const void *y) {
  const triple *a = x, *b = y;
  if (a->ctx != b->ctx) return a->ctx < b->ctx ? -1 : 1;
  return (a->metric > b->metric) - (a->metric < b->metric);
}

/* One thread's values at their new contexts; each moved region's inclusive
 * values leave its old ancestors and join its new ones. */
static int move_values(attribution *a, uint32_t profile, const uint8_t *inclusive) {
  const hpcdb_experiment *o = a->old;
  const hpcdb_profile *p = &o->profiles[profile];
  triple *t = NULL;
  uint64_t n = 0, cap = 0;
  int rc = 0;
  for (uint32_t k = 0; k < p->n_ctxs && rc == 0; k++) {
    uint32_t i = hpcdb_find_context(o, p->ctx_ids[k]);
    if (i == HPCDB_NONE) continue;
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1] && rc == 0; v++) {
      if ((rc = VEC_RESERVE(&t, &cap, n + 1)) < 0) break;
      t[n++] = (triple){a->to[i], p->metric_ids[v], p->values[v]};
      if (a->moved[i] != 2 || !inclusive[p->metric_ids[v]]) continue; /* a worker's region context's inclusive value */
      /* -x on the old ancestors, +x on the new ones (the common ones cancel) */
      for (uint32_t up = o->contexts[i].parent; up != HPCDB_NONE && rc == 0; up = o->contexts[up].parent) {
        if ((rc = VEC_RESERVE(&t, &cap, n + 1)) < 0) break;
        t[n++] = (triple){a->to[up], p->metric_ids[v], -p->values[v]};
      }
      for (uint32_t up = a->exp->contexts[a->to[i]].parent; up != HPCDB_NONE && rc == 0;
           up = a->exp->contexts[up].parent) {
        if ((rc = VEC_RESERVE(&t, &cap, n + 1)) < 0) break;
        t[n++] = (triple){up, p->metric_ids[v], p->values[v]};
      }
    }
  }
  if (rc < 0) {
    free(t);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a profile's values");
  }
  if (n) qsort(t, n, sizeof *t, by_cell); /* t is NULL for a profile without values */
  uint32_t *ids = malloc((n + 1) * sizeof *ids);
  uint16_t *metrics = malloc((n + 1) * sizeof *metrics);
  double *values = malloc((n + 1) * sizeof *values);
  uint64_t m = 0;
  for (uint64_t s = 0; s < n && ids && metrics && values;) {
    uint64_t e = s;
    double sum = 0, scale = 0;
    for (; e < n && t[e].ctx == t[s].ctx && t[e].metric == t[s].metric; e++)
      sum += t[e].value, scale = fmax(scale, fabs(t[e].value));
    /* an ancestor whose only cost left: what remains of x - x is rounding, not cost */
    if (e - s == 1 || fabs(sum) > 1e-12 * scale) {
      ids[m] = a->exp->contexts[t[s].ctx].id;
      metrics[m] = t[s].metric;
      values[m++] = sum;
    }
    s = e;
  }
  rc = ids && metrics && values ? hpcdb_profile_set_values(a->exp, profile, m, ids, metrics, values)
                                : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a profile's values");
  free(t);
  free(ids);
  free(metrics);
  free(values);
  return rc;
}

/* The tables of old (all but contexts and values) into a->exp, at the same indices. */
static int copy_tables(attribution *a) {
  const hpcdb_experiment *o = a->old;
  hpcdb_experiment *e = a->exp;
  HPCDB_TRY(hpcdb_set_format(e, o->format, o->version_major, o->version_minor));
  HPCDB_TRY(hpcdb_set_title(e, o->title, o->description));
  for (uint32_t i = 0; i < o->n_attrs; i++) HPCDB_TRY(hpcdb_add_attr(e, o->attrs[i].key, o->attrs[i].value));
  for (uint32_t i = 0; i < o->n_kind_names; i++) HPCDB_TRY(hpcdb_add_kind_name(e, o->kind_names[i], NULL));
  for (uint32_t i = 0; i < o->n_modules; i++)
    HPCDB_TRY(hpcdb_add_module(e, o->modules[i].path, o->modules[i].flags, NULL));
  for (uint32_t i = 0; i < o->n_files; i++) HPCDB_TRY(hpcdb_add_file(e, o->files[i].path, o->files[i].flags, NULL));
  for (uint32_t i = 0; i < o->n_functions; i++) HPCDB_TRY(hpcdb_add_function(e, &o->functions[i], NULL));
  for (uint32_t i = 0; i < o->n_scopes; i++) HPCDB_TRY(hpcdb_add_scope(e, &o->scopes[i], NULL));
  for (uint32_t m = 0; m < o->n_metrics; m++) {
    const hpcdb_metric *x = &o->metrics[m];
    HPCDB_TRY(hpcdb_add_metric(e, x->name, NULL));
    HPCDB_TRY(hpcdb_metric_describe(e, m, x->description, x->unit));
    HPCDB_TRY(hpcdb_metric_set_combine(e, m, x->integer, x->execution_combine));
    for (uint32_t k = 0; k < x->n_instances; k++)
      HPCDB_TRY(hpcdb_metric_add_instance(e, m, x->instances[k].scope, x->instances[k].prop_metric_id));
    for (uint32_t k = 0; k < x->n_summaries; k++) HPCDB_TRY(hpcdb_metric_add_summary(e, m, &x->summaries[k]));
  }
  for (uint32_t p = 0; p < o->n_profiles; p++)
    HPCDB_TRY(hpcdb_add_profile(e, o->profiles[p].flags, o->profiles[p].has_id_tuple, o->profiles[p].ids,
                                o->profiles[p].n_ids, NULL));
  if (o->has_traces) hpcdb_set_has_traces(e);
  hpcdb_set_trace_range(e, o->trace_min, o->trace_max);
  return 0;
}

/* The traces, their contexts' ids made the new ones. */
static int copy_traces(attribution *a) {
  const hpcdb_experiment *o = a->old;
  for (uint32_t t = 0; t < o->n_traces; t++) {
    const hpcdb_trace *tr = &o->traces[t];
    uint32_t *ids = malloc((tr->n + 1) * sizeof *ids);
    if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
    for (uint64_t k = 0; k < tr->n; k++) {
      uint32_t i = tr->ctx_ids[k] ? hpcdb_find_context(o, tr->ctx_ids[k]) : HPCDB_NONE;
      ids[k] = i != HPCDB_NONE && a->to[i] != HPCDB_NONE ? a->exp->contexts[a->to[i]].id : tr->ctx_ids[k];
    }
    int rc = hpcdb_add_trace(a->exp, tr->profile, tr->n, tr->timestamps, ids, NULL);
    free(ids);
    HPCDB_TRY(rc);
  }
  return 0;
}

/* The summary's lex_aware of loops (the loop-exclusive sums of lexical.c, which the threads' values
 * do not hold) from the old summary, merged where loops moved into others. */
static int loop_partials(attribution *a, loop_lex_summary *s) {
  const hpcdb_experiment *o = a->old;
  uint64_t np = s->all_stats ? N_PARTIALS : 1;
  uint32_t max_id = 0;
  for (uint32_t i = 0; i < a->exp->n_contexts; i++)
    max_id = a->exp->contexts[i].id > max_id ? a->exp->contexts[i].id : max_id;
  if (!(s->is_loop = calloc((size_t)max_id + 1, 1))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  s->n_is_loop = (uint64_t)max_id + 1;
  for (uint32_t i = 0; i < a->exp->n_contexts; i++)
    if (a->exp->contexts[i].lexical_type == HPCDB_LEX_LOOP) s->is_loop[a->exp->contexts[i].id] = 1;
  const hpcdb_profile *p = o->n_profiles ? &o->profiles[0] : NULL;
  for (uint32_t k = 0; p && (p->flags & HPCDB_PROFILE_SUMMARY) && k < p->n_ctxs; k++) {
    uint32_t i = hpcdb_find_context(o, p->ctx_ids[k]);
    if (i == HPCDB_NONE || o->contexts[i].lexical_type != HPCDB_LEX_LOOP || a->to[i] == HPCDB_NONE) continue;
    uint32_t id = a->exp->contexts[a->to[i]].id;
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      uint32_t sid = p->metric_ids[v], metric = (uint32_t)(sid / (np * N_SCOPES)),
               partial = (uint32_t)(sid / N_SCOPES % np);
      if (sid % N_SCOPES != SCOPE_LEX_AWARE) continue;
      int first;
      double *cell = loop_lex_cell(s, id, metric, &first);
      if (!cell) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      for (uint64_t q = 0; first && q < np; q++) cell[q] = NAN; /* not yet given */
      double *x = &cell[s->all_stats ? partial : 0], y = p->values[v];
      if (isnan(*x)) *x = y;
      else if (s->all_stats && partial == PARTIAL_MIN) *x = fmin(*x, y);
      else if (s->all_stats && partial == PARTIAL_MAX) *x = fmax(*x, y);
      else *x += y; /* count, sum, sum of squares */
    }
  }
  for (uint64_t q = 0; q < s->n * np; q++) s->acc[q] = isnan(s->acc[q]) ? 0 : s->acc[q];
  return 0;
}

/* 1 for the metric ids of inclusive (execution) values. */
static void inclusive_ids(const hpcdb_experiment *e, uint8_t *inclusive) {
  for (uint32_t m = 0; m < e->n_metrics; m++)
    for (uint32_t k = 0; k < e->metrics[m].n_instances; k++) {
      const hpcdb_scope_instance *in = &e->metrics[m].instances[k];
      inclusive[in->prop_metric_id] = e->scopes[in->scope].type == HPCDB_SCOPE_EXECUTION;
    }
}

static int all_stats_of(const hpcdb_experiment *e) {
  for (uint32_t m = 0; m < e->n_metrics; m++)
    for (uint32_t k = 0; k < e->metrics[m].n_summaries; k++)
      if (e->metrics[m].summaries[k].combine != HPCDB_COMBINE_SUM) return 1;
  return 0;
}

static int write_attributed(attribution *a, const char *db, unsigned threads, unsigned write_flags) {
  uint8_t *inclusive = calloc(65536, 1);
  if (!inclusive) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  inclusive_ids(a->old, inclusive);
  int rc = 0;
  for (uint32_t p = 0; p < a->old->n_profiles && rc == 0; p++)
    if (!(a->old->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) rc = move_values(a, p, inclusive);
  free(inclusive);
  if (rc == 0) rc = copy_traces(a);
  loop_lex_summary loops = {0};
  loops.all_stats = all_stats_of(a->old);
  summary_maker maker;
  int made = 0;
  if (rc == 0) rc = loop_partials(a, &loops);
  if (rc == 0 && (rc = summary_maker_init(&maker, loops.all_stats, a->exp->n_metrics)) == 0) made = 1;
  hpcdb_hpctk4_stream *s = NULL;
  if (rc == 0) rc = hpcdb_hpctk4_stream_open(&s, db, write_flags);
  if (rc == 0) {
    maker.loops = &loops;
    hpcdb_hpctk4_stream_set_threads(s, threads);
    hpcdb_hpctk4_stream_set_summary(s, 0, summary_make, &maker);
    rc = hpcdb_hpctk4_stream_finish(s, a->exp);
  }
  if (made) summary_maker_free(&maker);
  loop_lex_summary_free(&loops);
  return rc;
}

/* The regions of the database in src placed and written to dst; nothing is
 * written when it has no OpenMP workers (*regions 0). */
static int attribute(const char *src, const char *dst, unsigned threads, unsigned write_flags, uint32_t *regions) {
  *regions = 0;
  hpcdb_experiment *old;
  HPCDB_TRY(hpcdb_read(&old, src));
  attribution a = {0};
  a.old = old;
  int rc = classify(&a);
  if (rc == 0 && a.n_workers > 0 && old->n_profiles && !(old->profiles[0].flags & HPCDB_PROFILE_SUMMARY))
    rc = hpcdb_fail(HPCDB_EINVAL, "%s: no summary profile first: not a database hpcdb analyze wrote", src);
  if (rc == 0 && a.n_workers > 0) {
    a.moved = calloc(old->n_contexts, 1);
    a.to = malloc((size_t)old->n_contexts * sizeof *a.to);
    rc = a.moved && a.to ? hpcdb_experiment_new(&a.exp) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    if (rc == 0) rc = copy_tables(&a);
    if (rc == 0) rc = build_tree(&a);
    if (rc == 0) rc = write_attributed(&a, dst, threads, write_flags);
    if (rc == 0) *regions = a.n_workers;
  }
  hpcdb_experiment_free(a.exp);
  hpcdb_experiment_free(old);
  free(a.moved);
  free(a.to);
  free(a.worker);
  free(a.regions);
  return rc;
}

int hpcdb_openmp_attribute(const char *db, unsigned threads, unsigned write_flags, uint32_t *regions) {
  return attribute(db, db, threads, write_flags | HPCDB_WRITE_FORCE, regions);
}

int analysis_openmp_commit(hpcdb_atomic_dir *held, unsigned threads, unsigned write_flags) {
  uint32_t regions;
  unsigned flags = (write_flags & ~HPCDB_WRITE_FORCE) | (held->replace ? HPCDB_WRITE_FORCE : 0);
  int rc = attribute(held->temp, held->target, threads, flags, &regions);
  if (rc == 0 && regions == 0) rc = atomic_dir_commit(held); /* as written: nothing to place */
  atomic_dir_abort(held);
  return rc;
}
