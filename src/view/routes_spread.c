/* SPDX-License-Identifier: BSD-3-Clause */
/* One node over the profiles: the spread, summarised by the query layer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

int route_spread(request *r) {
  view_db *db;
  hpcdb_qcolumn col;
  uint32_t node;
  int exclusive;
  if (req_db(r, &db) < 0 || req_column(r, db, &col) < 0 || req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0 ||
      req_flavour(r, &exclusive) < 0)
    return -1;
  if (node >= hpcdb_query_n_nodes(db->q, HPCDB_QVIEW_TOP_DOWN))
    return req_error(r, 404, "node %u does not exist", node);
  hpcdb_qspread *s = malloc(sizeof *s);
  if (!s) return req_error(r, 500, "out of memory");
  if (hpcdb_query_spread(db->q, col, node, exclusive, s) < 0) {
    free(s);
    return req_error(r, 422, "%s", hpcdb_last_error());
  }
  jbuf *b = &r->out;
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  jb_fmt(b, "{\"profiles\":%u", s->n_profiles);
  const char *names[] = {"min", "max", "mean", "median", "stddev", "imbalance", "bin_width"};
  double vals[] = {s->min, s->max, s->mean, s->median, s->stddev, s->imbalance, s->bin_width};
  int is_unsigned = hpcdb_query_column_integer(db->q, col) == HPCDB_INTEGER_UNSIGNED;
  for (int k = 0; k < 7; k++) {
    jb_fmt(b, ",\"%s\":", names[k]);
    jb_value(b, vals[k], is_unsigned && k < 2); /* min and max: values of the column */
  }
  jb_raw(b, ",\"bins\":[");
  for (int k = 0; k < HPCDB_QSPREAD_BINS; k++) jb_fmt(b, k ? ",%u" : "%u", s->bins[k]);
  jb_raw(b, "],\"points\":[");
  char id[128];
  for (uint32_t k = 0; k < s->n_points; k++) {
    jb_raw(b, k ? ",[" : "[");
    jb_value(b, s->point_value[k], is_unsigned);
    hpcdb_profile_identity(e, &e->profiles[s->point_profile[k]], id, sizeof id);
    jb_fmt(b, ",%u,", s->point_profile[k]);
    jb_str(b, id);
    jb_raw(b, "]");
  }
  jb_raw(b, "]}");
  free(s);
  return 0;
}
