/* SPDX-License-Identifier: BSD-3-Clause */
/* The value interface over a Cube file, opened once (hpcdb_cube_open: the
 * anchor parsed and the members placed): the tree from the reader over it,
 * without values; a metric's summary values when it is first asked for
 * (cube_column); one context's values over the locations, or one location's
 * over the contexts, read from the file when a spread or a profile's tree
 * asks for them (hpcdb_cube_cnode_values: one row and the rows it derives
 * from, never the metric's whole matrix). The reader is not for concurrent
 * use: every read holds the source's lock. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "hpcdb/source.h"
#include "query/query_internal.h"

typedef struct cube_source {
  hpcdb_experiment *exp;
  char *path;
  uint32_t *plain, n_plain;
  hpcdb_cube *cube;
  uint32_t *row_of;        /* per context index: cnode position, HPCDB_NONE */
  double *row;             /* one cnode's values: n_plain */
  hpcdb_experiment *whole; /* the file loaded whole, when a profile's sparse values were asked for */
  pthread_mutex_t lock;
} cube_source;

/* One metric's summary values, read when the metric is first asked for:
 * the tree was read without values (a Cube file stores no summary, so
 * reading every metric's at open would read the whole file once). The
 * reader makes the same contexts in the same order on every read of one
 * opened file; that is checked, not assumed. */
static int column_locked(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) {
  const cube_source *s = impl;
  const hpcdb_experiment *e = s->exp;
  const char *name = e->metrics[metric].name;
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_METRICS, &name, 1, HPCDB_READ_SUMMARY_ONLY};
  hpcdb_experiment *one;
  HPCDB_TRY(hpcdb_cube_read_opened(&one, s->cube, &ro));
  uint32_t m = 0, p = 0;
  while (m < one->n_metrics && !(name && one->metrics[m].name && !strcmp(one->metrics[m].name, name))) m++;
  int same = one->n_contexts == e->n_contexts && m < one->n_metrics;
  for (uint32_t i = 0; same && i < e->n_contexts; i++) same = one->contexts[i].id == e->contexts[i].id;
  while (p < one->n_profiles && !(one->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) p++;
  int rc = 0;
  if (!same)
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: metric \"%s\": the file read differently the second time", s->path,
                    name ? name : "?");
  else if (p == one->n_profiles)
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: metric \"%s\": the Cube reader gave no summary profile", s->path,
                    name ? name : "?");
  else query_add_profile(one, &one->profiles[p], 1, m, inc, exc, have);
  hpcdb_experiment_free(one);
  return rc;
}

/* Each context's cnode, once the reader made the contexts. */
static int map_cnodes(cube_source *s) {
  uint32_t nc = hpcdb_cube_n_cnodes(s->cube);
  if (hpcdb_cube_n_locations(s->cube) != s->n_plain)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: %u locations, but the reader made %u profiles", s->path,
                      hpcdb_cube_n_locations(s->cube), s->n_plain);
  s->row = malloc(((size_t)s->n_plain + 1) * sizeof *s->row);
  if (!(s->row_of = malloc(((size_t)s->exp->n_contexts + 1) * sizeof *s->row_of)) || !s->row)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  memset(s->row_of, 0xff, ((size_t)s->exp->n_contexts + 1) * sizeof *s->row_of);
  for (uint32_t k = 0; k < nc; k++) {
    uint32_t id = hpcdb_cube_cnode_id(s->cube, k);
    uint32_t i = id == UINT32_MAX ? HPCDB_NONE : hpcdb_find_context(s->exp, id + 1); /* cube.ctx_id_offset */
    if (i != HPCDB_NONE) s->row_of[i] = k;
  }
  return 0;
}

static int cube_metric_of(const cube_source *s, uint32_t metric, uint32_t *out) {
  const char *name = s->exp->metrics[metric].name;
  for (uint32_t m = 0; name && m < hpcdb_cube_n_metrics(s->cube); m++) {
    const char *n = hpcdb_cube_metric_name(s->cube, m);
    if (n && !strcmp(n, name)) {
      *out = m;
      return 0;
    }
  }
  return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: metric \"%s\" has no values per location", s->path, name ? name : "?");
}

/* Adds the values of a context's cnode; a context the file does not list
 * (the global context, the synthetic entry above several roots) holds the
 * inclusive sum of its children and no exclusive value. */
static int add_row(cube_source *s, uint32_t cm, uint32_t ctx, int inclusive, double *out, unsigned depth) {
  uint32_t row = s->row_of[ctx], n = s->n_plain; /* out has n_plain values (the caller checked) */
  if (row != HPCDB_NONE) {
    HPCDB_TRY(hpcdb_cube_cnode_values(s->cube, cm, row, inclusive, s->row));
    for (uint32_t k = 0; k < n; k++) out[k] += s->row[k];
    return 0;
  }
  if (!inclusive || depth > 2) return 0; /* only the root and the entry lie above the cnodes */
  const hpcdb_experiment *e = s->exp;
  for (uint32_t c = e->contexts[ctx].first_child; c != HPCDB_NONE; c = e->contexts[c].next_sibling)
    HPCDB_TRY(add_row(s, cm, c, inclusive, out, depth + 1));
  return 0;
}

static int profiles_locked(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n) {
  cube_source *s = impl;
  uint32_t cm = 0;
  HPCDB_TRY(cube_metric_of(s, metric, &cm));
  if (n < s->n_plain) return hpcdb_fail(HPCDB_EINVAL, "room for %u profiles, the file has %u locations", n, s->n_plain);
  return add_row(s, cm, ctx, inclusive, out, 0);
}

/* One location's column: its values at each cnode, then the contexts above
 * the cnodes as add_row makes them (children after parents: the last first);
 * the summary profile: the model's. */
static int profile_column_locked(void *impl, uint32_t profile, uint32_t metric, double *inc, double *exc,
                                 unsigned *have) {
  cube_source *s = impl;
  if (s->exp->profiles[profile].flags & HPCDB_PROFILE_SUMMARY) return column_locked(impl, metric, inc, exc, have);
  uint32_t slot = 0, cm = 0;
  while (slot < s->n_plain && s->plain[slot] != profile) slot++;
  HPCDB_TRY(cube_metric_of(s, metric, &cm));
  if (slot == s->n_plain) return hpcdb_fail(HPCDB_EINVAL, "profile %u is not one of the file's locations", profile);
  const hpcdb_experiment *e = s->exp;
  uint32_t nc = hpcdb_cube_n_cnodes(s->cube);
  double *col = malloc(((size_t)nc + 1) * sizeof *col);
  if (!col) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  for (int flavour = 1; flavour >= 0 && rc == 0; flavour--) {
    double *to = flavour ? inc : exc;
    rc = hpcdb_cube_location_values(s->cube, cm, slot, flavour, col);
    for (uint32_t i = e->n_contexts; rc == 0 && i-- > 0;) {
      if (s->row_of[i] != HPCDB_NONE) {
        to[i] = col[s->row_of[i]];
        continue;
      }
      double x = 0;
      for (uint32_t c = e->contexts[i].first_child; flavour && c != HPCDB_NONE; c = e->contexts[c].next_sibling)
        x += to[c];
      to[i] = x;
    }
  }
  free(col);
  *have = HPCDB_QHAVE_INCLUSIVE | HPCDB_QHAVE_EXCLUSIVE;
  return rc;
}

/* The value interface: each read under the lock. */
static int cube_column(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) {
  cube_source *s = impl;
  pthread_mutex_lock(&s->lock);
  int rc = column_locked(impl, metric, inc, exc, have);
  pthread_mutex_unlock(&s->lock);
  return rc;
}

static int cube_profiles(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n) {
  cube_source *s = impl;
  pthread_mutex_lock(&s->lock);
  int rc = profiles_locked(impl, ctx, metric, inclusive, out, n);
  pthread_mutex_unlock(&s->lock);
  return rc;
}

static int cube_profile_column(void *impl, uint32_t profile, uint32_t metric, double *inc, double *exc,
                               unsigned *have) {
  cube_source *s = impl;
  pthread_mutex_lock(&s->lock);
  int rc = profile_column_locked(impl, profile, metric, inc, exc, have);
  pthread_mutex_unlock(&s->lock);
  return rc;
}

/* A location's sparse values: every metric's member holds some of them, so
 * the file is read whole once (as a reader would) and kept. */
static int profile_locked(cube_source *s, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  if (!s->whole) HPCDB_TRY(hpcdb_cube_read_opened(&s->whole, s->cube, NULL));
  if (s->whole->n_profiles != s->exp->n_profiles)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: the file read differently the second time", s->path);
  return query_model_profile(s->whole, profile, out, ints);
}

static int cube_profile(void *impl, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  cube_source *s = impl;
  pthread_mutex_lock(&s->lock);
  int rc = profile_locked(s, profile, out, ints);
  pthread_mutex_unlock(&s->lock);
  return rc;
}

static void cube_close(void *impl) {
  cube_source *s = impl;
  if (!s) return;
  pthread_mutex_destroy(&s->lock);
  hpcdb_experiment_free(s->whole);
  hpcdb_cube_close(s->cube);
  hpcdb_experiment_free(s->exp);
  free(s->path);
  free(s->plain);
  free(s->row);
  free(s->row_of);
  free(s);
}

static const hpcdb_qsource_ops cube_ops = {HPCDB_QSOURCE_OPS_VERSION, "cube", cube_column, cube_profiles, cube_close,
                                           cube_profile_column};

int query_source_cube(hpcdb_source *out, const char *path) {
  cube_source *s = calloc(1, sizeof *s);
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  pthread_mutex_init(&s->lock, NULL);
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_STRUCTURE, NULL, 0,
                           0}; /* values: cube_column, per metric */
  int rc = (s->path = strdup(path)) ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = hpcdb_cube_open(&s->cube, path);
  if (rc == 0) rc = hpcdb_cube_read_opened(&s->exp, s->cube, &ro);
  if (rc == 0) rc = query_plain_profiles(s->exp, &s->plain, &s->n_plain);
  if (rc == 0) rc = map_cnodes(s);
  if (rc < 0) {
    cube_close(s);
    return rc;
  }
  out->q = (hpcdb_qsource){&cube_ops, s, s->exp, s->n_plain, s->plain};
  out->extra = (source_extra){cube_profile, 1, 1};
  return 0;
}
