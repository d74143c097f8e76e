/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-profile spreads an exported page holds: those of the heaviest
 * top-down nodes (the first kept), as /api/spread gives them, while their
 * points fit SNAPSHOT_SPREAD_POINTS; the profiles' names once, after them.
 * A source that cannot give profiles' values leaves the reason instead. */
#include <stdlib.h>

#include "common/error.h"
#include "core/json_out.h"
#include "page/snapshot.h"

static void spread_json(FILE *out, const hpcdb_qspread *s) {
  fprintf(out, "{\"profiles\":%u", s->n_profiles);
  const char *names[] = {"min", "max", "mean", "median", "stddev", "imbalance", "bin_width"};
  double vals[] = {s->min, s->max, s->mean, s->median, s->stddev, s->imbalance, s->bin_width};
  for (int k = 0; k < 7; k++) {
    fprintf(out, ",\"%s\":", names[k]);
    json_number(out, vals[k]);
  }
  fputs(",\"bins\":[", out);
  for (int k = 0; k < HPCDB_QSPREAD_BINS; k++) fprintf(out, k ? ",%u" : "%u", s->bins[k]);
  fputs("],\"points\":[", out);
  for (uint32_t k = 0; k < s->n_points; k++) {
    fputs(k ? ",[" : "[", out);
    json_number(out, s->point_value[k]);
    fprintf(out, ",%u]", s->point_profile[k]);
  }
  fputs("]}", out);
}

/* "profile_names": {index: identity} of the profiles some point names. */
static void names_json(FILE *out, const hpcdb_experiment *e, const unsigned char *named) {
  char id[128];
  fputs(",\"profile_names\":{", out);
  for (uint32_t p = 0, first = 1; p < e->n_profiles; p++) {
    if (!named[p]) continue;
    hpcdb_profile_identity(e, &e->profiles[p], id, sizeof id);
    fprintf(out, first ? "\"%u\":" : ",\"%u\":", p);
    json_script_string(out, id);
    first = 0;
  }
  fputs("}", out);
}

int snapshot_spreads(FILE *out, hpcdb_query *q, hpcdb_qcolumn col, const snapshot_view *v, uint32_t *n) {
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  *n = 0;
  fputs(",\"spread\":{", out);
  if (hpcdb_query_n_profiles(q) == 0) {
    fputs("},\"profile_names\":{}", out);
    return 0;
  }
  hpcdb_qspread *s = malloc(sizeof *s);
  unsigned char *named = calloc((size_t)e->n_profiles + 1, 1);
  if (!s || !named) {
    free(s);
    free(named);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the page's spreads");
  }
  int rc = 0;
  for (uint32_t k = 0, points = 0; k < v->kept; k++) {
    rc = hpcdb_query_spread(q, col, v->node[k], 0, s);
    if (rc < 0 || points + s->n_points > SNAPSHOT_SPREAD_POINTS) break;
    points += s->n_points;
    fprintf(out, *n ? ",\"%u\":" : "\"%u\":", v->node[k]);
    spread_json(out, s);
    for (uint32_t p = 0; p < s->n_points; p++) named[s->point_profile[p]] = 1;
    (*n)++;
  }
  fputs("}", out);
  names_json(out, e, named);
  if (rc < 0) { /* the source cannot give profiles' values: the page says why, as hpcdb view would */
    fputs(",\"spread_error\":", out);
    json_script_string(out, hpcdb_last_error());
  }
  free(s);
  free(named);
  return 0;
}
