/* SPDX-License-Identifier: BSD-3-Clause */
/* The comparison behind hpcdb view A B: over the sources the databases'
 * queries hold (a v4.0 database's summary decoded once for both, the
 * per-profile figures of the rows a page shows read from its files),
 * compared again only when the page asks for another metric, and shared by
 * the requests reading it (compare_state.h). */
#include "compare_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

void view_compare_init(view_compare *vc) {
  pthread_mutex_init(&vc->lock, NULL);
  pthread_cond_init(&vc->made, NULL);
  vc->current = NULL;
}

void view_compare_fini(view_compare *vc) {
  view_comparison_release(vc->current);
  vc->current = NULL;
  pthread_cond_destroy(&vc->made);
  pthread_mutex_destroy(&vc->lock);
}

void view_comparison_release(view_comparison *c) {
  if (!c || atomic_fetch_sub(&c->refs, 1) != 1) return;
  hpcdb_comparison_free(c->cmp);
  hpcdb_compare_functions_free(&c->fn);
  pthread_mutex_destroy(&c->fn_lock);
  free(c->metric[0]), free(c->metric[1]);
  free(c);
}

static int same(const char *kept, const char *asked) { return kept ? asked && !strcmp(kept, asked) : !asked; }

static view_comparison *comparison_new(const char *metric, const char *metric_b) {
  view_comparison *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->metric[0] = strdup(metric);
  c->metric[1] = metric_b ? strdup(metric_b) : NULL;
  if (!c->metric[0] || (metric_b && !c->metric[1])) {
    free(c->metric[0]), free(c->metric[1]), free(c);
    return NULL;
  }
  pthread_mutex_init(&c->fn_lock, NULL);
  atomic_init(&c->refs, 2); /* the slot's and the request's */
  return c;
}

/* The comparison itself, without any lock (the slow part: the alignment, the whole runs' values). */
static int make(view_comparison *c, const view_db *dbs) {
  const char *metrics[2] = {c->metric[0], c->metric[1]}; /* B without a name: the same, or one documented as such */
  hpcdb_source *srcs[2] = {hpcdb_query_source(dbs[0].q), hpcdb_query_source(dbs[1].q)};
  for (int d = 0; d < 2; d++) c->runs[d] = hpcdb_source_experiment(srcs[d]);
  hpcdb_compare_options o = {.version = HPCDB_COMPARE_OPTIONS_VERSION, .metrics = metrics, .profiles_on_demand = 1};
  int rc = hpcdb_compare_sources(&c->cmp, srcs, 2, &o);
  if (rc < 0) snprintf(c->why, sizeof c->why, "%s", hpcdb_last_error());
  return rc;
}

/* The request's reference (*out) kept to a made comparison, or let go with its failure. */
static int outcome(view_comparison *c, view_comparison **out, char *why, size_t why_size) {
  if (c->rc == 0) return 0;
  int rc = c->rc;
  snprintf(why, why_size, "%s", c->why);
  view_comparison_release(c);
  *out = NULL;
  return rc;
}

/* c made (or failed, rc < 0, why: NULL when make said it): the requests waiting for it go on; a failure
 * is not kept as the current one. */
static void finish(view_compare *vc, view_comparison *c, int rc, const char *why) {
  pthread_mutex_lock(&vc->lock);
  int dropped = !c->made && rc < 0 && vc->current == c; /* the next request tries again */
  if (!c->made && why) snprintf(c->why, sizeof c->why, "%s", why);
  if (!c->made) c->rc = rc, c->made = 1;
  if (dropped) vc->current = NULL;
  pthread_cond_broadcast(&vc->made);
  pthread_mutex_unlock(&vc->lock);
  if (dropped) view_comparison_release(c);
}

void view_compare_abandon(view_compare *vc, view_comparison *c) {
  if (c) finish(vc, c, HPCDB_EIO, "a database file shrank while it was compared");
}

int view_compare_get(view_compare *vc, const view_db *dbs, const char *metric, const char *metric_b,
                     view_comparison **out, char *why, size_t why_size) {
  *out = NULL;
  if (!metric_b || !*metric_b) metric_b = dbs[1].metric;
  pthread_mutex_lock(&vc->lock);
  view_comparison *c = vc->current;
  if (c && same(c->metric[0], metric) && same(c->metric[1], metric_b)) {
    atomic_fetch_add(&c->refs, 1);
    *out = c;
    while (!c->made) pthread_cond_wait(&vc->made, &vc->lock); /* another request makes it */
    pthread_mutex_unlock(&vc->lock);
    return outcome(c, out, why, why_size);
  }
  view_comparison *old = c;
  c = comparison_new(metric, metric_b);
  if (!c) {
    pthread_mutex_unlock(&vc->lock);
    snprintf(why, why_size, "out of memory for the comparison");
    return HPCDB_ENOMEM;
  }
  vc->current = *out = c; /* published: requests for the same pair wait for it, the old one's readers keep theirs */
  pthread_mutex_unlock(&vc->lock);
  view_comparison_release(old);
  finish(vc, c, make(c, dbs), NULL);
  return outcome(c, out, why, why_size);
}

int view_comparison_functions(view_comparison *c, const hpcdb_compare_functions **out) {
  pthread_mutex_lock(&c->fn_lock);
  int rc = c->have_fn ? 0 : hpcdb_compare_by_function(c->cmp, &c->fn);
  if (rc == 0) c->have_fn = 1;
  pthread_mutex_unlock(&c->fn_lock);
  *out = &c->fn;
  return rc;
}
