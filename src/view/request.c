/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading and checking a request's arguments: numbers in decimal digits
 * only and within bounds, names from a fixed set; anything else is a 400. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/report.h"
#include "routes.h"

int req_error(request *r, unsigned status, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  jb_free(&r->out);
  r->out.failed = 0;
  jb_raw(&r->out, "{\"error\":");
  jb_str(&r->out, msg);
  jb_raw(&r->out, "}");
  r->status = status;
  return -1;
}

const char *req_arg(request *r, const char *name) { return r->arg(r->arg_ctx, name); }

int req_u32(request *r, const char *name, uint32_t def, uint32_t max, uint32_t *out) {
  const char *s = req_arg(r, name);
  if (!s) {
    *out = def;
    return 0;
  }
  uint64_t v = 0;
  size_t n = strlen(s);
  if (n == 0 || n > 10) return req_error(r, 400, "%s: expected a number from 0 to %u", name, max);
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return req_error(r, 400, "%s: expected a number from 0 to %u", name, max);
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  if (v > max) return req_error(r, 400, "%s: %llu is more than %u", name, (unsigned long long)v, max);
  *out = (uint32_t)v;
  return 0;
}

int req_db(request *r, view_db **out) {
  uint32_t k;
  if (req_u32(r, "db", 0, 1, &k) < 0) return -1;
  if ((int)k >= r->n_dbs)
    return req_error(r, 404, "db %u: only %d database%s open", k, r->n_dbs, r->n_dbs > 1 ? "s" : "");
  *out = &r->dbs[k];
  return 0;
}

int req_view(request *r, hpcdb_qview *out) {
  const char *v = req_arg(r, "view");
  if (!v || !strcmp(v, "top-down")) *out = HPCDB_QVIEW_TOP_DOWN;
  else if (!strcmp(v, "bottom-up")) *out = HPCDB_QVIEW_BOTTOM_UP;
  else if (!strcmp(v, "flat")) *out = HPCDB_QVIEW_FLAT;
  else return req_error(r, 400, "view: expected top-down, bottom-up or flat");
  return 0;
}

int req_profile(request *r, view_db *db, uint32_t *out) {
  const char *p = req_arg(r, "profile");
  *out = HPCDB_NONE;
  if (!p || !*p) return 0;
  uint32_t n = hpcdb_query_experiment(db->q)->n_profiles;
  if (req_u32(r, "profile", 0, UINT32_MAX - 1, out) < 0) return -1;
  if (*out >= n) return req_error(r, 404, "profile %u does not exist (the experiment has %u)", *out, n);
  return 0;
}

int req_group(request *r, view_db *db, uint32_t **set, uint32_t *n) {
  const char *g = req_arg(r, "group");
  char why[256];
  *set = NULL, *n = 0;
  if (!g || !*g) return 0;
  if (strchr(g, '=') && hpcdb_profile_pattern_check(g, why, sizeof why) < 0) return req_error(r, 400, "group: %s", why);
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  if (!(*set = malloc(((size_t)e->n_profiles + 1) * sizeof **set))) return req_error(r, 500, "out of memory");
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (hpcdb_profile_matches(e, &e->profiles[p], g)) (*set)[(*n)++] = p;
  if (*n) return 0;
  free(*set);
  *set = NULL;
  return req_error(r, 404, "group: no profile matches '%s'", g);
}

int req_spec_column(request *r, view_db *db, const char *what, const char *spec, hpcdb_qcolumn *out) {
  uint32_t profile, *set, n;
  if (req_profile(r, db, &profile) < 0 || req_group(r, db, &set, &n) < 0) return -1;
  int rc = set ? hpcdb_query_profiles_column(db->q, spec, set, n, out)
               : hpcdb_query_profile_column(db->q, spec, profile, out);
  free(set);
  return rc < 0 ? req_error(r, 400, "%s: %s", what, hpcdb_last_error()) : 0;
}

int req_column(request *r, view_db *db, hpcdb_qcolumn *out) {
  const char *m = req_arg(r, "metric");
  if (!m || !*m) {
    if (hpcdb_query_default_column(db->q, out) < 0) return req_error(r, 400, "metric: %s", hpcdb_last_error());
    m = hpcdb_query_column_name(db->q, *out);
  }
  return req_spec_column(r, db, "metric", m, out);
}

int req_flavour(request *r, int *exclusive) {
  const char *f = req_arg(r, "flavour");
  if (f && strcmp(f, "inclusive") && strcmp(f, "exclusive"))
    return req_error(r, 400, "flavour: expected inclusive or exclusive");
  *exclusive = f && !strcmp(f, "exclusive");
  return 0;
}
