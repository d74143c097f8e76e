/* SPDX-License-Identifier: BSD-3-Clause */
/* The section header: Header/Info, identifier names, the metric and
 * metric-db tables, the trace db, and the load module, file and procedure
 * tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "older/expxml/expxml_private.h"

#define MAX_KIND 0xFFFF

static uint64_t key_of(int64_t id) { return (uint64_t)id; }

/* The table entry's id: every table entry must have a unique integer i. */
static int entry_id(xparser *p, const char **atts, hpcdb_u64map *seen, const char *what, int64_t *id) {
  const char *i = expxml_attr(atts, "i");
  uint64_t old;
  if (!expxml_int(i, id)) {
    expxml_problem(p, "table-id", "%s without an integer i (\"%s\")", what, i ? i : "");
    return 0;
  }
  if (u64map_get(seen, key_of(*id), &old)) {
    expxml_problem(p, "duplicate-id", "%s i=\"%lld\" is declared twice", what, (long long)*id);
    return 0;
  }
  return 1;
}

static void name_value(xparser *p, const char **atts) {
  const char *n = expxml_attr(atts, "n"), *v = expxml_attr(atts, "v");
  if (!n) return;
  if (p->metric_open != UINT32_MAX) {
    if (!strcmp(n, "units") && v) p->doc->metrics[p->metric_open].unit = hpcdb_intern(p->exp, v);
  } else if (p->in_header) {
    char key[256];
    snprintf(key, sizeof key, "info.%s", n);
    if (hpcdb_add_attr(p->exp, key, v ? v : "") < 0) expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  }
}

static void identifier(xparser *p, const char **atts) {
  int64_t kind;
  const char *n = expxml_attr(atts, "n");
  if (!expxml_int(expxml_attr(atts, "i"), &kind) || kind < 0 || kind > MAX_KIND || !n) {
    expxml_problem(p, "identifier", "Identifier needs i (0..%d) and n", MAX_KIND);
    return;
  }
  if (VEC_RESERVE(&p->kinds, &p->cap_kinds, (uint64_t)kind + 1) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  for (; p->n_kinds <= (uint64_t)kind; p->n_kinds++) p->kinds[p->n_kinds] = NULL;
  if (p->kinds[kind]) {
    expxml_problem(p, "duplicate-id", "Identifier i=\"%lld\" is declared twice", (long long)kind);
    return;
  }
  p->kinds[kind] = hpcdb_intern(p->exp, n);
}

/* Kind names in the order of their ids (hpcprof writes them unordered). */
static void flush_identifiers(xparser *p) {
  for (uint64_t k = 0; k < p->n_kinds; k++) {
    char name[32];
    snprintf(name, sizeof name, "KIND%llu", (unsigned long long)k);
    if (hpcdb_add_kind_name(p->exp, p->kinds[k] ? p->kinds[k] : name, NULL) < 0)
      return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  }
  p->n_kinds = 0;
}

static int64_t opt_int(xparser *p, const char **atts, const char *name) {
  const char *s = expxml_attr(atts, name);
  int64_t v;
  if (!s) return EXPXML_NO_ID;
  if (!expxml_int(s, &v)) {
    expxml_problem(p, "attribute", "%s=\"%s\" is not an integer", name, s);
    return EXPXML_NO_ID;
  }
  return v;
}

static void metric(xparser *p, const char **atts, int is_db) {
  int64_t id;
  expxml_doc *d = p->doc;
  hpcdb_u64map *ids = is_db ? &p->metric_db_ids : &p->metric_ids;
  if (!entry_id(p, atts, ids, is_db ? "MetricDB" : "Metric", &id)) return;
  expxml_metric **items = is_db ? &d->metric_dbs : &d->metrics;
  uint32_t *n = is_db ? &d->n_metric_dbs : &d->n_metrics;
  if (*n == UINT16_MAX) return expxml_fail(p, HPCDB_EUNSUPPORTED, "metric-count", "more than %u metrics", UINT16_MAX);
  if (VEC_RESERVE(items, is_db ? &d->cap_metric_dbs : &d->cap_metrics, (uint64_t)*n + 1) < 0 ||
      u64map_put(ids, key_of(id), *n) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  expxml_metric *m = &(*items)[*n];
  memset(m, 0, sizeof *m);
  const char *name = expxml_attr(atts, "n"), *t = expxml_attr(atts, "t"), *v = expxml_attr(atts, "v");
  m->id = id;
  m->name = hpcdb_intern(p->exp, name ? name : "");
  m->description = hpcdb_intern(p->exp, expxml_attr(atts, "md"));
  m->kind = hpcdb_intern(p->exp, v);
  m->type = !t                        ? EXPXML_NIL
            : !strcmp(t, "inclusive") ? EXPXML_INCLUSIVE
            : !strcmp(t, "exclusive") ? EXPXML_EXCLUSIVE
                                      : EXPXML_NIL;
  m->partner = opt_int(p, atts, "partner");
  m->db_id = opt_int(p, atts, "db-id");
  m->db_num_metrics = opt_int(p, atts, "db-num-metrics");
  m->db_header_sz = opt_int(p, atts, "db-header-sz");
  m->db_glob = hpcdb_intern(p->exp, expxml_attr(atts, "db-glob"));
  m->line = (uint64_t)XML_GetCurrentLineNumber(p->x);
  if (!name)
    expxml_problem(p, "metric-name", "%s i=\"%lld\" has no name", is_db ? "MetricDB" : "Metric", (long long)id);
  if (!is_db) p->metric_open = *n;
  (*n)++;
}

static void formula(xparser *p, const char **atts) {
  if (p->metric_open == UINT32_MAX) return;
  const char *t = expxml_attr(atts, "t");
  if (t && !strcmp(t, "view")) p->doc->metrics[p->metric_open].is_view = 1;
}

static void trace_db(xparser *p, const char **atts) {
  int64_t lo = opt_int(p, atts, "db-min-time"), hi = opt_int(p, atts, "db-max-time");
  p->doc->has_trace_db = 1;
  p->doc->trace_min = lo == EXPXML_NO_ID ? 0 : (uint64_t)lo;
  p->doc->trace_max = hi == EXPXML_NO_ID ? 0 : (uint64_t)hi;
}

static void load_module_or_file(xparser *p, const char **atts, int is_file) {
  int64_t id;
  hpcdb_u64map *map = is_file ? &p->files : &p->modules;
  if (!entry_id(p, atts, map, is_file ? "File" : "LoadModule", &id)) return;
  const char *n = expxml_attr(atts, "n");
  uint32_t index;
  int rc = is_file ? hpcdb_add_file(p->exp, n ? n : "", 0, &index) : hpcdb_add_module(p->exp, n ? n : "", 0, &index);
  if (rc < 0 || u64map_put(map, key_of(id), index) < 0) expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
}

static void procedure(xparser *p, const char **atts) {
  int64_t id, offset = 0;
  if (!entry_id(p, atts, &p->procs, "Procedure", &id)) return;
  const char *n = expxml_attr(atts, "n"), *v = expxml_attr(atts, "v");
  if (v && (!expxml_int(v, &offset) || offset < 0)) offset = 0; /* legacy v= is a range set, not an address */
  if (VEC_RESERVE(&p->proc, &p->cap_proc, p->n_proc + 1) < 0 || u64map_put(&p->procs, key_of(id), p->n_proc) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  p->proc[p->n_proc++] = (xproc){hpcdb_intern(p->exp, n ? n : ""), (uint64_t)offset};
}

void expxml_start_header_element(xparser *p, enum xtag tag, const char **atts) {
  switch (tag) {
  case X_HEADER: {
    const char *n = expxml_attr(atts, "n");
    p->in_header = 1;
    if (n && hpcdb_set_title(p->exp, n, p->exp->description) < 0)
      expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    break;
  }
  case X_SEC_CPP: {
    const char *n = expxml_attr(atts, "n");
    if (n && !p->exp->title && hpcdb_set_title(p->exp, n, NULL) < 0)
      expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    break;
  }
  case X_NV: name_value(p, atts); break;
  case X_IDENTIFIER: identifier(p, atts); break;
  case X_METRIC: metric(p, atts, 0); break;
  case X_METRIC_DB: metric(p, atts, 1); break;
  case X_TRACE_DB: trace_db(p, atts); break;
  case X_LOAD_MODULE: load_module_or_file(p, atts, 0); break;
  case X_FILE: load_module_or_file(p, atts, 1); break;
  case X_PROCEDURE: procedure(p, atts); break;
  case X_METRIC_FORMULA: formula(p, atts); break;
  case X_OTHER:
  case X_ROOT:
  case X_INFO:
  case X_SEC_HEADER:
  case X_SEC_DATA:
  case X_SEC_FLAT:
  case X_TABLE: break; /* containers */
  case X_PF:
  case X_PR:
  case X_A:
  case X_P:
  case X_C:
  case X_L:
  case X_S:
  case X_M: break; /* the calling-context tree's (tree.c) */
  }
}

void expxml_end_header_element(xparser *p, enum xtag tag) {
  if (tag == X_HEADER) p->in_header = 0;
  else if (tag == X_METRIC) p->metric_open = UINT32_MAX;
  else if (tag == X_TABLE && p->n_kinds) flush_identifiers(p);
}
