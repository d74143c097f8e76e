/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_diff: semantic comparison of two experiments. Contexts are matched by
 * calling path (core/paths.h), profiles by identity, metrics by name and
 * scope (statistics also by formula and combination), values within a
 * relative tolerance (absent = 0). Values at context ids that neither tree
 * lists (hpcprof's hidden instruction contexts) have no path: they are
 * compared as totals per profile and metric, since their raw ids differ from
 * run to run. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "core/paths.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"

typedef struct differ {
  const hpcdb_experiment *a, *b;
  path_index pa, pb;
  double tol;
  const char *scope; /* only this scope's values, or NULL */
  uint64_t count, max;
  hpcdb_line_fn fn;
  void *user;
  /* metric ids: A -> B and B -> A, for propagated (thread) and statistic
   * (summary) values; -1 where the other side has no such metric */
  int32_t metric_map[65536], stat_map[65536], metric_back[65536], stat_back[65536];
  char **id_a, **id_b;                   /* profile identities (repeats numbered) */
  double total_a[65536], total_b[65536]; /* hidden-context totals per metric id */
  uint8_t seen_a[65536], seen_b[65536];
} differ;

static void report(differ *d, const char *fmt, ...) {
  d->count++;
  if (d->max && d->count > d->max) return;
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (d->fn) d->fn(d->user, line);
}

static int differs(const differ *d, double x, double y) {
  if (x == y) return 0;
  if (isnan(x) || isnan(y)) return !(isnan(x) && isnan(y));
  return fabs(x - y) > d->tol * fmax(fabs(x), fabs(y));
}

static void compare_contexts(differ *d) {
  char path[1024];
  for (int side = 0; side < 2; side++) {
    const hpcdb_experiment *e = side ? d->b : d->a;
    const path_index *mine = side ? &d->pb : &d->pa, *other = side ? &d->pa : &d->pb;
    for (uint32_t i = 1; i < e->n_contexts; i++) {
      uint64_t j;
      if (u64map_get(&other->by_key, mine->key[i], &j)) continue;
      /* report only the top of a missing subtree */
      uint32_t parent = e->contexts[i].parent;
      if (parent != 0 && !u64map_get(&other->by_key, mine->key[parent], &j)) continue;
      context_path(e, i, path, sizeof path);
      report(d, "context only in %s: %s", side ? "B" : "A", path);
    }
  }
}

/* Metric ids of A mapped to B's by (metric name, scope name[, formula, combine]). */
static void map_metrics(differ *d) {
  for (int i = 0; i < 65536; i++) d->metric_map[i] = d->stat_map[i] = d->metric_back[i] = d->stat_back[i] = -1;
  const hpcdb_experiment *a = d->a, *b = d->b;
  for (uint32_t i = 0; i < a->n_metrics; i++) {
    const hpcdb_metric *ma = &a->metrics[i];
    const hpcdb_metric *mb = NULL;
    for (uint32_t k = 0; k < b->n_metrics && !mb; k++)
      if (ma->name && b->metrics[k].name && !strcmp(ma->name, b->metrics[k].name)) mb = &b->metrics[k];
    if (!mb) {
      report(d, "metric only in A: \"%s\"", ma->name ? ma->name : "");
      continue;
    }
    for (uint32_t s = 0; s < ma->n_instances; s++) {
      const char *scope = a->scopes[ma->instances[s].scope].name;
      int found = 0;
      if (d->scope && strcmp(scope, d->scope) != 0) continue;
      for (uint32_t t = 0; t < mb->n_instances && !found; t++)
        if (!strcmp(scope, b->scopes[mb->instances[t].scope].name)) {
          d->metric_map[ma->instances[s].prop_metric_id] = mb->instances[t].prop_metric_id;
          d->metric_back[mb->instances[t].prop_metric_id] = ma->instances[s].prop_metric_id;
          found = 1;
        }
      if (!found && !d->scope) report(d, "metric \"%s\" scope %s only in A", ma->name, scope);
    }
    for (uint32_t s = 0; s < ma->n_summaries; s++) {
      const hpcdb_summary *sa = &ma->summaries[s];
      int found = 0;
      if (d->scope && strcmp(a->scopes[sa->scope].name, d->scope) != 0) continue;
      for (uint32_t t = 0; t < mb->n_summaries && !found; t++) {
        const hpcdb_summary *sb = &mb->summaries[t];
        if (!strcmp(a->scopes[sa->scope].name, b->scopes[sb->scope].name) && sa->combine == sb->combine &&
            !strcmp(sa->formula ? sa->formula : "", sb->formula ? sb->formula : "")) {
          d->stat_map[sa->stat_metric_id] = sb->stat_metric_id;
          d->stat_back[sb->stat_metric_id] = sa->stat_metric_id;
          found = 1;
        }
      }
      if (!found && !d->scope)
        report(d, "metric \"%s\" summary %s of %s over scope %s only in A", ma->name,
               sa->combine == 0   ? "sum"
               : sa->combine == 1 ? "min"
                                  : "max",
               sa->formula, a->scopes[sa->scope].name);
    }
  }
  for (uint32_t k = 0; k < b->n_metrics; k++) {
    int found = 0;
    for (uint32_t i = 0; i < a->n_metrics && !found; i++)
      found = a->metrics[i].name && b->metrics[k].name && !strcmp(a->metrics[i].name, b->metrics[k].name);
    if (!found) report(d, "metric only in B: \"%s\"", b->metrics[k].name ? b->metrics[k].name : "");
  }
}

static const char *metric_text(const hpcdb_experiment *e, uint16_t id, int stat, char *buf, size_t size) {
  uint32_t m, which;
  int is_stat;
  if (!hpcdb_metric_of_id(e, id, &m, &is_stat, &which)) {
    snprintf(buf, size, "metric #%u", id);
    return buf;
  }
  const hpcdb_metric *mt = &e->metrics[m];
  if (is_stat)
    snprintf(buf, size, "\"%s\" %s %s(%s)", mt->name, e->scopes[mt->summaries[which].scope].name,
             mt->summaries[which].combine == 0   ? "sum"
             : mt->summaries[which].combine == 1 ? "min"
                                                 : "max",
             mt->summaries[which].formula);
  else snprintf(buf, size, "\"%s\" %s", mt->name, e->scopes[mt->instances[which].scope].name);
  (void)stat;
  return buf;
}

/* B's context index for A's context id: by path; HPCDB_NONE when A's id is
 * not in A's tree (*hidden set) or B lacks the path. */
static uint32_t matching_context(const differ *d, uint32_t a_id, int *hidden) {
  uint32_t ai = hpcdb_find_context(d->a, a_id);
  *hidden = ai == HPCDB_NONE;
  uint64_t bi;
  if (ai == HPCDB_NONE || !u64map_get(&d->pb.by_key, d->pa.key[ai], &bi)) return HPCDB_NONE;
  return (uint32_t)bi;
}

/* Totals per metric of the values at ids no tree lists. */
static void hidden_totals(const hpcdb_experiment *e, const hpcdb_profile *p, double *totals, uint8_t *seen) {
  memset(totals, 0, 65536 * sizeof *totals);
  memset(seen, 0, 65536);
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    if (hpcdb_find_context(e, p->ctx_ids[k]) != HPCDB_NONE) continue;
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      totals[p->metric_ids[v]] += p->values[v];
      seen[p->metric_ids[v]] = 1;
    }
  }
}

static void compare_profile_values(differ *d, const hpcdb_profile *pa, const hpcdb_profile *pb, const char *who) {
  int summary = (pa->flags & HPCDB_PROFILE_SUMMARY) != 0;
  const int32_t *map = summary ? d->stat_map : d->metric_map;
  const int32_t *back = summary ? d->stat_back : d->metric_back;
  char path[1024], mtext[256];
  /* every value of A against B */
  for (uint32_t k = 0; k < pa->n_ctxs; k++) {
    int hidden;
    uint32_t bi = matching_context(d, pa->ctx_ids[k], &hidden);
    if (hidden) continue;
    for (uint64_t v = pa->ctx_starts[k]; v < pa->ctx_starts[k + 1]; v++) {
      int32_t bm = map[pa->metric_ids[v]];
      if (bm < 0) continue; /* the metric itself was reported */
      double y = 0;
      if (bi != HPCDB_NONE) hpcdb_profile_value(pb, d->b->contexts[bi].id, (uint16_t)bm, &y);
      else if (pa->values[v] == 0) continue;
      if (!differs(d, pa->values[v], y)) continue;
      context_path(d->a, hpcdb_find_context(d->a, pa->ctx_ids[k]), path, sizeof path);
      report(d, "value %s, %s at %s: %.17g vs %.17g", who,
             metric_text(d->a, pa->metric_ids[v], summary, mtext, sizeof mtext), path, pa->values[v], y);
    }
  }
  /* values B has where A has none */
  for (uint32_t k = 0; k < pb->n_ctxs; k++) {
    uint32_t bi = hpcdb_find_context(d->b, pb->ctx_ids[k]);
    if (bi == HPCDB_NONE) continue;
    uint64_t ai;
    int have_ctx = u64map_get(&d->pa.by_key, d->pb.key[bi], &ai);
    for (uint64_t v = pb->ctx_starts[k]; v < pb->ctx_starts[k + 1]; v++) {
      if (pb->values[v] == 0) continue;
      int32_t am = back[pb->metric_ids[v]];
      if (am < 0) continue;
      double x = 0;
      if (have_ctx && hpcdb_profile_value(pa, d->a->contexts[ai].id, (uint16_t)am, &x)) continue;
      context_path(d->b, bi, path, sizeof path);
      report(d, "value %s, %s at %s: absent in A, %.17g in B", who,
             metric_text(d->b, pb->metric_ids[v], summary, mtext, sizeof mtext), path, pb->values[v]);
    }
  }
  /* hidden contexts: totals per metric, both ways (with a scope filter, their
   * values are in their parents' inclusive values, which are compared) */
  if (d->scope) return;
  hidden_totals(d->a, pa, d->total_a, d->seen_a);
  hidden_totals(d->b, pb, d->total_b, d->seen_b);
  for (int i = 0; i < 65536; i++) {
    double x, y;
    if (d->seen_a[i] && map[i] >= 0) {
      x = d->total_a[i];
      y = d->total_b[map[i]];
    } else if (d->seen_b[i] && back[i] >= 0 && !d->seen_a[back[i]]) {
      x = 0;
      y = d->total_b[i];
    } else {
      continue;
    }
    if (differs(d, x, y))
      report(d, "value %s, %s at contexts outside the tree (total): %.17g vs %.17g", who,
             metric_text(d->seen_a[i] ? d->a : d->b, (uint16_t)i, summary, mtext, sizeof mtext), x, y);
  }
}

static uint32_t find_profile(const hpcdb_experiment *e, char **ids, const char *identity, int summary) {
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (((e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) != 0) == summary && !strcmp(ids[p], identity)) return p;
  return HPCDB_NONE;
}

static const hpcdb_trace *trace_of(const hpcdb_experiment *e, uint32_t profile) {
  for (uint32_t t = 0; t < e->n_traces; t++)
    if (e->traces[t].profile == profile) return &e->traces[t];
  return NULL;
}

/* The key of the calling path a trace sample is in (hidden ids: by id). */
static uint64_t sample_key(const hpcdb_experiment *e, const path_index *pi, uint32_t id) {
  uint32_t i = hpcdb_find_context(e, id);
  return i == HPCDB_NONE ? hash_u64(id) : pi->key[i];
}

static void compare_traces(differ *d, uint32_t ia, uint32_t ib, const char *who) {
  const hpcdb_trace *ta = trace_of(d->a, ia), *tb = trace_of(d->b, ib);
  if ((!ta && !tb) || d->scope) return;
  if (!ta || !tb) {
    report(d, "trace of %s only in %s", who, ta ? "A" : "B");
    return;
  }
  if (ta->n != tb->n) {
    report(d, "trace of %s: %llu samples vs %llu", who, (unsigned long long)ta->n, (unsigned long long)tb->n);
    return;
  }
  for (uint64_t k = 0; k < ta->n; k++)
    if (ta->timestamps[k] != tb->timestamps[k] ||
        sample_key(d->a, &d->pa, ta->ctx_ids[k]) != sample_key(d->b, &d->pb, tb->ctx_ids[k])) {
      report(d, "trace of %s: sample %llu differs (time %llu vs %llu, or calling path)", who, (unsigned long long)k,
             (unsigned long long)ta->timestamps[k], (unsigned long long)tb->timestamps[k]);
      return;
    }
}

static void compare_profiles(differ *d) {
  for (uint32_t p = 0; p < d->a->n_profiles; p++) {
    const hpcdb_profile *pa = &d->a->profiles[p];
    const char *id = d->id_a[p];
    uint32_t q = find_profile(d->b, d->id_b, id, (pa->flags & HPCDB_PROFILE_SUMMARY) != 0);
    if (q == HPCDB_NONE) {
      report(d, "profile only in A: %s", id);
      continue;
    }
    compare_profile_values(d, pa, &d->b->profiles[q], id);
    compare_traces(d, p, q, id);
  }
  for (uint32_t q = 0; q < d->b->n_profiles; q++) {
    const hpcdb_profile *pb = &d->b->profiles[q];
    if (find_profile(d->a, d->id_a, d->id_b[q], (pb->flags & HPCDB_PROFILE_SUMMARY) != 0) == HPCDB_NONE)
      report(d, "profile only in B: %s", d->id_b[q]);
  }
}

int hpcdb_diff(uint64_t *n_differences, const hpcdb_experiment *a, const hpcdb_experiment *b,
               const hpcdb_diff_options *options, hpcdb_line_fn fn, void *user) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_DIFF_OPTIONS_VERSION, "hpcdb_diff_options");
  *n_differences = 0;
  differ *d = calloc(1, sizeof *d);
  if (!d) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  d->a = a;
  d->b = b;
  d->tol = options && options->rel_tolerance > 0 ? options->rel_tolerance : 1e-9;
  d->scope = options ? options->scope : NULL;
  d->max = options ? options->max_reported : 0;
  d->fn = fn;
  d->user = user;
  int rc = path_index_build(&d->pa, a);
  if (rc == 0) rc = path_index_build(&d->pb, b);
  if (rc == 0) rc = profile_identities(a, &d->id_a);
  if (rc == 0) rc = profile_identities(b, &d->id_b);
  if (rc == 0) {
    if ((d->pa.duplicates || d->pb.duplicates) && fn) {
      char line[160]; /* a note, not a difference */
      snprintf(line, sizeof line, "note: %u (A) and %u (B) contexts share a calling path with a sibling",
               d->pa.duplicates, d->pb.duplicates);
      fn(user, line);
    }
    compare_contexts(d);
    map_metrics(d);
    compare_profiles(d);
    *n_differences = d->count;
  }
  path_index_free(&d->pa);
  path_index_free(&d->pb);
  identities_free(d->id_a, a->n_profiles);
  identities_free(d->id_b, b->n_profiles);
  free(d);
  return rc;
}
