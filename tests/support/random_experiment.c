/* SPDX-License-Identifier: BSD-3-Clause */
#include "random_experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t next(rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint32_t below(rng *r, uint32_t n) { return n ? (uint32_t)(next(r) % n) : 0; }
static int chance(rng *r, uint32_t percent) { return below(r, 100) < percent; }

#define TRY(expr)            \
  do {                       \
    int rc_ = (expr);        \
    if (rc_ < 0) return rc_; \
  } while (0)

static void word(rng *r, char *buf, size_t size, const char *prefix) {
  static const char *const parts[] = {"a", "lib", "x86", "_", ".", "/", "é", " ", "calc", "0"};
  size_t n = (size_t)snprintf(buf, size, "%s", prefix);
  for (uint32_t k = below(r, 5); k > 0 && n + 8 < size; k--)
    n += (size_t)snprintf(buf + n, size - n, "%s", parts[below(r, 10)]);
}

static int tables(hpcdb_experiment *e, rng *r) {
  char buf[64];
  static const char *const kinds[] = {"SUMMARY",   "NODE",       "RANK",      "THREAD",
                                      "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};
  snprintf(buf, sizeof buf, "title %llu", (unsigned long long)r->s);
  TRY(hpcdb_set_title(e, buf, chance(r, 50) ? "a description\nwith lines" : ""));
  for (uint32_t i = 0, n = 1 + below(r, 8); i < n; i++) TRY(hpcdb_add_kind_name(e, kinds[i], NULL));
  for (uint32_t i = 0, n = below(r, 4); i < n; i++) {
    word(r, buf, sizeof buf, "/lib/m");
    TRY(hpcdb_add_module(e, buf, chance(r, 20) ? (uint32_t)next(r) : 0, NULL));
  }
  for (uint32_t i = 0, n = below(r, 4); i < n; i++) {
    word(r, buf, sizeof buf, "src/f");
    TRY(hpcdb_add_file(e, buf, below(r, 4), NULL));
  }
  for (uint32_t i = 0, n = below(r, 6); i < n; i++) {
    hpcdb_function f = {NULL, HPCDB_NONE, 0, HPCDB_NONE, 0, 0};
    if (e->n_modules && chance(r, 60)) {
      f.module = below(r, e->n_modules);
      f.offset = next(r) >> below(r, 64);
    }
    if (e->n_files && chance(r, 60)) f.file = below(r, e->n_files);
    f.line = f.file != HPCDB_NONE ? below(r, 5000) : 0;
    f.flags = chance(r, 20) ? (uint32_t)next(r) : 0;
    if (chance(r, 80) || (f.module == HPCDB_NONE && f.file == HPCDB_NONE)) {
      word(r, buf, sizeof buf, "fn");
      f.name = buf;
    }
    TRY(hpcdb_add_function(e, &f, NULL));
  }
  return 0;
}

static int has_instance(const hpcdb_metric *m, uint32_t scope) {
  for (uint32_t k = 0; k < m->n_instances; k++)
    if (m->instances[k].scope == scope) return 1;
  return 0;
}

static int has_summary(const hpcdb_metric *m, const hpcdb_summary *su) {
  for (uint32_t k = 0; k < m->n_summaries; k++)
    if (m->summaries[k].scope == su->scope && m->summaries[k].combine == su->combine &&
        !strcmp(m->summaries[k].formula, su->formula))
      return 1;
  return 0;
}

/* Scopes (types 0-5: 4 and 5 are unknown values) and metrics; propagated and
 * statistic ids are each unique, with random gaps. */
static int metrics(hpcdb_experiment *e, rng *r, unsigned options) {
  static const char *const names[] = {"point", "function", "lex_aware", "execution", "custom-a", "custom-b"};
  static const char *const formulas[] = {"$$", "1", "$$^2"};
  char buf[64];
  for (uint32_t i = 0, n = 1 + below(r, 5); i < n; i++) {
    hpcdb_scope s = {names[i], (uint8_t)below(r, 6), 255};
    if (s.type == HPCDB_SCOPE_TRANSITIVE) s.propagation_index = (uint8_t)below(r, 16);
    TRY(hpcdb_add_scope(e, &s, NULL));
  }
  uint16_t prop = (uint16_t)below(r, 3), stat = (uint16_t)below(r, 3);
  for (uint32_t i = 0, n = 1 + below(r, 4); i < n; i++) {
    uint32_t m;
    word(r, buf, sizeof buf, "metric");
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %u", i);
    TRY(hpcdb_add_metric(e, buf, &m));
    for (uint32_t s = 0; s < e->n_scopes; s++) {
      if (chance(r, 30)) continue;
      TRY(hpcdb_metric_add_instance(e, m, s, prop));
      prop = (uint16_t)(prop + 1 + below(r, 3));
    }
    for (uint32_t k = 0, ns = below(r, 4); k < ns; k++) {
      hpcdb_summary su = {below(r, e->n_scopes), formulas[below(r, 3)], (uint8_t)below(r, 4), stat};
      if (has_summary(&e->metrics[m], &su)) continue; /* v4.0: one statistic per (scope, formula, combine) */
      if ((options & RANDOM_DRAFT_B) && !has_instance(&e->metrics[m], su.scope)) continue;
      TRY(hpcdb_metric_add_summary(e, m, &su));
      stat = (uint16_t)(stat + 1 + below(r, 3));
    }
  }
  return 0;
}

static uint32_t fresh_id(hpcdb_experiment *e, rng *r, uint32_t range) {
  for (;;) {
    uint32_t id = 1 + below(r, range);
    if (hpcdb_find_context(e, id) == HPCDB_NONE) return id;
  }
}

static int tree(hpcdb_experiment *e, rng *r) {
  char buf[64];
  uint32_t n_normal = below(r, 60), range = 2 * n_normal + 16;
  for (uint32_t i = 0, n = 1 + below(r, 3); i < n; i++) {
    hpcdb_context c = {0};
    c.function = c.file = c.module = HPCDB_NONE;
    c.id = fresh_id(e, r, range);
    c.kind = HPCDB_CTX_ENTRY;
    c.entry_point = (uint16_t)below(r, 4);
    word(r, buf, sizeof buf, "entry");
    c.name = buf;
    TRY(hpcdb_add_context(e, &c, 0, NULL));
  }
  for (uint32_t i = 0; i < n_normal; i++) {
    hpcdb_context c = {0};
    c.id = fresh_id(e, r, range);
    c.kind = HPCDB_CTX_NORMAL;
    c.relation = (uint8_t)below(r, 4);
    c.lexical_type = (uint8_t)below(r, 5);
    c.flags = chance(r, 10) ? (uint8_t)(below(r, 32) << 3) : 0;
    c.propagation = (uint16_t)(chance(r, 50) ? next(r) : 0);
    c.function = e->n_functions && chance(r, 50) ? below(r, e->n_functions) : HPCDB_NONE;
    c.file = e->n_files && chance(r, 50) ? below(r, e->n_files) : HPCDB_NONE;
    c.line = c.file != HPCDB_NONE ? below(r, 10000) : 0;
    c.module = e->n_modules && chance(r, 50) ? below(r, e->n_modules) : HPCDB_NONE;
    c.offset = c.module != HPCDB_NONE ? next(r) >> below(r, 64) : 0;
    TRY(hpcdb_add_context(e, &c, 1 + below(r, e->n_contexts - 1), NULL));
  }
  return 0;
}

/* Sparse values of one profile over the tree's ids, the global context and
 * ids not in the tree, with the given metric ids. */
static int values(hpcdb_experiment *e, rng *r, uint32_t p, const uint16_t *ids, uint32_t n_ids) {
  uint32_t cap = 200, n = 0;
  uint32_t ctx[200];
  uint16_t met[200];
  double val[200];
  if (n_ids == 0) return 0;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    uint32_t id = e->contexts[i].id;
    for (uint32_t k = 0; k < n_ids && n < cap; k++)
      if (chance(r, 25)) {
        ctx[n] = id;
        met[n] = ids[k];
        val[n++] = chance(r, 5) ? 0.0 : (double)(int64_t)(next(r) % 2000000 - 1000000) / 64.0;
      }
  }
  uint32_t extra = 1000 + below(r, 50); /* instruction-like contexts hpcprof leaves out of the tree */
  for (uint32_t k = 0; k < n_ids && n < cap; k++)
    if (chance(r, 30)) {
      ctx[n] = extra;
      met[n] = ids[k];
      val[n++] = 1.0 / (1 + k);
    }
  return hpcdb_profile_set_values(e, p, n, ctx, met, val);
}

static int profiles(hpcdb_experiment *e, rng *r, unsigned options) {
  uint16_t prop[256], stat[256];
  uint32_t np = 0, ns = 0, p;
  for (uint32_t i = 0; i < e->n_metrics; i++) {
    for (uint32_t k = 0; k < e->metrics[i].n_instances && np < 256; k++)
      prop[np++] = e->metrics[i].instances[k].prop_metric_id;
    for (uint32_t k = 0; k < e->metrics[i].n_summaries && ns < 256; k++)
      stat[ns++] = e->metrics[i].summaries[k].stat_metric_id;
  }
  TRY(hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY | (chance(r, 10) ? 0x10u : 0), 0, NULL, 0, &p));
  TRY(values(e, r, p, stat, ns));
  for (uint32_t i = 0, n = below(r, 6); i < n; i++) {
    hpcdb_id ids[3];
    uint16_t n_ids = (uint16_t)(1 + below(r, 3));
    for (uint16_t k = 0; k < n_ids; k++) {
      ids[k].kind = (uint16_t)below(r, e->n_kind_names);
      ids[k].flags = (uint16_t)below(r, 4);
      ids[k].logical_id = below(r, 64);
      ids[k].physical_id = (ids[k].flags & HPCDB_ID_PHYSICAL) ? next(r) : ids[k].logical_id;
    }
    int summary = chance(r, 10) && !(options & RANDOM_DRAFT_B); /* a non-canonical summary, e.g. per node */
    TRY(hpcdb_add_profile(e, summary ? HPCDB_PROFILE_SUMMARY : 0, 1, ids, n_ids, &p));
    TRY(summary ? values(e, r, p, stat, ns) : values(e, r, p, prop, np));
  }
  return 0;
}

static int traces(hpcdb_experiment *e, rng *r) {
  if (e->n_profiles < 2 || chance(r, 50)) return 0;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t p = 1; p < e->n_profiles; p++) {
    if (chance(r, 30) || (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) continue; /* threads have traces */
    uint64_t ts[40], t = 1000000 + below(r, 1000);
    uint32_t ctx[40], n = below(r, 40);
    for (uint32_t k = 0; k < n; k++) {
      t += below(r, 3) ? 1 + below(r, 500) : 0;
      ts[k] = t;
      ctx[k] = (k > 0 && ctx[k - 1] == 0) || chance(r, 70) ? e->contexts[1 + below(r, e->n_contexts - 1)].id : 0;
    }
    if (n) {
      lo = ts[0] < lo ? ts[0] : lo;
      hi = ts[n - 1] > hi ? ts[n - 1] : hi;
    }
    TRY(hpcdb_add_trace(e, p, n, ts, ctx, NULL));
  }
  if (lo > hi) lo = hi = 5;
  /* what the source recorded: possibly looser than the samples */
  e->trace_min = lo - below(r, 3);
  e->trace_max = hi + below(r, 3);
  return 0;
}

int random_experiment(hpcdb_experiment **out, uint64_t seed) { return random_experiment_with(out, seed, 0); }

int random_experiment_with(hpcdb_experiment **out, uint64_t seed, unsigned options) {
  rng r = {seed};
  hpcdb_experiment *e;
  *out = NULL;
  TRY(hpcdb_experiment_new(&e));
  int rc = tables(e, &r);
  if (rc == 0) rc = metrics(e, &r, options);
  if (rc == 0) rc = tree(e, &r);
  if (rc == 0) rc = profiles(e, &r, options);
  if (rc == 0) rc = traces(e, &r);
  if (rc < 0) {
    hpcdb_experiment_free(e);
    return rc;
  }
  *out = e;
  return 0;
}

/* ---- comparison ----------------------------------------------------------- */

#define DIFF(...)                       \
  do {                                  \
    snprintf(why, whylen, __VA_ARGS__); \
    return 0;                           \
  } while (0)

static int str_eq(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }
static const char *show(const char *s) { return s ? s : "(null)"; }

#define SAME_STR(what, a, b) \
  if (!str_eq((a), (b))) DIFF("%s: '%s' vs '%s'", what, show(a), show(b))
#define SAME_NUM(what, a, b) \
  if ((a) != (b)) DIFF("%s: %llu vs %llu", what, (unsigned long long)(a), (unsigned long long)(b))

/* The v4.0 reader records what the files said about themselves as "hpctk4.*"
 * attributes at the end (provenance, like format and origin): not compared. */
static void content_attrs(const hpcdb_experiment *e, const hpcdb_attr **attrs, uint32_t *n) {
  *attrs = e->attrs;
  *n = e->n_attrs;
  while (*n > 0 && e->attrs[*n - 1].key && strncmp(e->attrs[*n - 1].key, "hpctk4.", 7) == 0) (*n)--;
}

static int tables_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  SAME_STR("title", a->title, b->title);
  SAME_STR("description", a->description, b->description);
  const hpcdb_attr *xa, *ya;
  uint32_t nxa, nya;
  content_attrs(a, &xa, &nxa);
  content_attrs(b, &ya, &nya);
  SAME_NUM("attribute count", nxa, nya);
  for (uint32_t i = 0; i < nxa; i++) {
    SAME_STR("attribute key", xa[i].key, ya[i].key);
    SAME_STR("attribute value", xa[i].value, ya[i].value);
  }
  SAME_NUM("kind name count", a->n_kind_names, b->n_kind_names);
  for (uint32_t i = 0; i < a->n_kind_names; i++) SAME_STR("kind name", a->kind_names[i], b->kind_names[i]);
  SAME_NUM("module count", a->n_modules, b->n_modules);
  for (uint32_t i = 0; i < a->n_modules; i++) {
    SAME_STR("module path", a->modules[i].path, b->modules[i].path);
    SAME_NUM("module flags", a->modules[i].flags, b->modules[i].flags);
  }
  SAME_NUM("file count", a->n_files, b->n_files);
  for (uint32_t i = 0; i < a->n_files; i++) {
    SAME_STR("file path", a->files[i].path, b->files[i].path);
    SAME_NUM("file flags", a->files[i].flags, b->files[i].flags);
  }
  SAME_NUM("function count", a->n_functions, b->n_functions);
  for (uint32_t i = 0; i < a->n_functions; i++) {
    const hpcdb_function *x = &a->functions[i], *y = &b->functions[i];
    SAME_STR("function name", x->name, y->name);
    SAME_NUM("function module", x->module, y->module);
    SAME_NUM("function offset", x->offset, y->offset);
    SAME_NUM("function file", x->file, y->file);
    SAME_NUM("function line", x->line, y->line);
    SAME_NUM("function flags", x->flags, y->flags);
  }
  return 1;
}

static int metrics_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  SAME_NUM("scope count", a->n_scopes, b->n_scopes);
  for (uint32_t i = 0; i < a->n_scopes; i++) {
    SAME_STR("scope name", a->scopes[i].name, b->scopes[i].name);
    SAME_NUM("scope type", a->scopes[i].type, b->scopes[i].type);
    SAME_NUM("scope propagation index", a->scopes[i].propagation_index, b->scopes[i].propagation_index);
  }
  SAME_NUM("metric count", a->n_metrics, b->n_metrics);
  for (uint32_t i = 0; i < a->n_metrics; i++) {
    const hpcdb_metric *x = &a->metrics[i], *y = &b->metrics[i];
    SAME_STR("metric name", x->name, y->name);
    SAME_STR("metric description", x->description, y->description);
    SAME_STR("metric unit", x->unit, y->unit);
    SAME_NUM("scope instance count", x->n_instances, y->n_instances);
    for (uint32_t k = 0; k < x->n_instances; k++) {
      SAME_NUM("instance scope", x->instances[k].scope, y->instances[k].scope);
      SAME_NUM("propMetricId", x->instances[k].prop_metric_id, y->instances[k].prop_metric_id);
    }
    SAME_NUM("summary count", x->n_summaries, y->n_summaries);
    for (uint32_t k = 0; k < x->n_summaries; k++) {
      SAME_NUM("summary scope", x->summaries[k].scope, y->summaries[k].scope);
      SAME_STR("summary formula", x->summaries[k].formula, y->summaries[k].formula);
      SAME_NUM("summary combine", x->summaries[k].combine, y->summaries[k].combine);
      SAME_NUM("statMetricId", x->summaries[k].stat_metric_id, y->summaries[k].stat_metric_id);
    }
  }
  return 1;
}

static int context_equal(const hpcdb_context *x, const hpcdb_context *y, char *why, size_t whylen) {
  char what[64];
#define CTX_NUM(field)                                         \
  snprintf(what, sizeof what, "context %u %s", x->id, #field); \
  SAME_NUM(what, x->field, y->field)
  CTX_NUM(id);
  CTX_NUM(kind);
  CTX_NUM(relation);
  CTX_NUM(lexical_type);
  CTX_NUM(flags);
  CTX_NUM(propagation);
  CTX_NUM(entry_point);
  CTX_NUM(function);
  CTX_NUM(file);
  CTX_NUM(line);
  CTX_NUM(module);
  CTX_NUM(offset);
#undef CTX_NUM
  snprintf(what, sizeof what, "context %u name", x->id);
  SAME_STR(what, x->name, y->name);
  return 1;
}

/* Both trees in pre-order, children in order. */
static int trees_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  SAME_NUM("context count", a->n_contexts, b->n_contexts);
  uint32_t *stack = malloc(2 * sizeof *stack * (a->n_contexts + 1));
  if (!stack) DIFF("out of memory");
  uint32_t depth = 0;
  int same = 1;
  stack[depth++] = 0;
  stack[depth++] = 0;
  while (same && depth > 0) {
    uint32_t y = stack[--depth], x = stack[--depth];
    same = context_equal(&a->contexts[x], &b->contexts[y], why, whylen);
    uint32_t nx = 0, ny = 0;
    for (uint32_t c = a->contexts[x].first_child; c != HPCDB_NONE; c = a->contexts[c].next_sibling) nx++;
    for (uint32_t c = b->contexts[y].first_child; c != HPCDB_NONE; c = b->contexts[c].next_sibling) ny++;
    if (same && nx != ny) {
      snprintf(why, whylen, "context %u: %u vs %u children", a->contexts[x].id, nx, ny);
      same = 0;
    }
    /* push children last-to-first so the first child is compared first */
    uint32_t *kids = same && nx ? malloc(2 * sizeof *kids * nx) : NULL;
    if (same && nx && !kids) same = 0;
    uint32_t k = 0;
    for (uint32_t c = a->contexts[x].first_child, d = b->contexts[y].first_child; same && c != HPCDB_NONE;
         c = a->contexts[c].next_sibling, d = b->contexts[d].next_sibling, k++) {
      kids[2 * k] = c;
      kids[2 * k + 1] = d;
    }
    while (same && k-- > 0) {
      stack[depth++] = kids[2 * k];
      stack[depth++] = kids[2 * k + 1];
    }
    free(kids);
  }
  free(stack);
  return same;
}

static int profiles_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  char what[64];
  SAME_NUM("profile count", a->n_profiles, b->n_profiles);
  for (uint32_t i = 0; i < a->n_profiles; i++) {
    const hpcdb_profile *x = &a->profiles[i], *y = &b->profiles[i];
    snprintf(what, sizeof what, "profile %u flags", i);
    SAME_NUM(what, x->flags, y->flags);
    snprintf(what, sizeof what, "profile %u has id tuple", i);
    SAME_NUM(what, x->has_id_tuple, y->has_id_tuple);
    snprintf(what, sizeof what, "profile %u id count", i);
    SAME_NUM(what, x->n_ids, y->n_ids);
    snprintf(what, sizeof what, "profile %u context count", i);
    SAME_NUM(what, x->n_ctxs, y->n_ctxs);
    snprintf(what, sizeof what, "profile %u value count", i);
    SAME_NUM(what, x->n_values, y->n_values);
    for (uint16_t k = 0; k < x->n_ids; k++)
      if (memcmp(&x->ids[k], &y->ids[k], sizeof x->ids[k]) != 0)
        DIFF("profile %u id %u: kind %u/%u flags %u/%u logical %u/%u physical %llu/%llu", i, k, x->ids[k].kind,
             y->ids[k].kind, x->ids[k].flags, y->ids[k].flags, x->ids[k].logical_id, y->ids[k].logical_id,
             (unsigned long long)x->ids[k].physical_id, (unsigned long long)y->ids[k].physical_id);
    for (uint32_t k = 0; k < x->n_ctxs; k++)
      if (x->ctx_ids[k] != y->ctx_ids[k] || x->ctx_starts[k + 1] != y->ctx_starts[k + 1])
        DIFF("profile %u context #%u: id %u/%u", i, k, x->ctx_ids[k], y->ctx_ids[k]);
    for (uint64_t v = 0; v < x->n_values; v++)
      if (x->metric_ids[v] != y->metric_ids[v] || memcmp(&x->values[v], &y->values[v], sizeof(double)) != 0)
        DIFF("profile %u value #%llu: metric %u/%u value %.17g/%.17g", i, (unsigned long long)v, x->metric_ids[v],
             y->metric_ids[v], x->values[v], y->values[v]);
  }
  return 1;
}

static int traces_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  SAME_NUM("has traces", a->has_traces, b->has_traces);
  SAME_NUM("trace count", a->n_traces, b->n_traces);
  if (a->has_traces) {
    SAME_NUM("trace min", a->trace_min, b->trace_min);
    SAME_NUM("trace max", a->trace_max, b->trace_max);
  }
  for (uint32_t i = 0; i < a->n_traces; i++) {
    const hpcdb_trace *x = &a->traces[i], *y = &b->traces[i];
    SAME_NUM("trace profile", x->profile, y->profile);
    SAME_NUM("trace length", x->n, y->n);
    for (uint64_t k = 0; k < x->n; k++)
      if (x->timestamps[k] != y->timestamps[k] || x->ctx_ids[k] != y->ctx_ids[k])
        DIFF("trace %u sample %llu: (%llu, %u) vs (%llu, %u)", i, (unsigned long long)k,
             (unsigned long long)x->timestamps[k], x->ctx_ids[k], (unsigned long long)y->timestamps[k], y->ctx_ids[k]);
  }
  return 1;
}

int experiments_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen) {
  if (whylen) why[0] = '\0';
  return tables_equal(a, b, why, whylen) && metrics_equal(a, b, why, whylen) && trees_equal(a, b, why, whylen) &&
         profiles_equal(a, b, why, whylen) && traces_equal(a, b, why, whylen);
}
