/* SPDX-License-Identifier: BSD-3-Clause */
/* One node of any view over the profiles (view=: a bottom-up or flat row summed over its contexts), by group of identity (by=kind: main threads,
 * worker threads, GPU streams; by=rank; by=node): per group min, median,
 * mean and max over the profiles with a value, the imbalance max / mean as
 * hpcdb report --view profiles defines it, and how many profiles are zero
 * (left out of those figures); every profile's value in identity order (rank,
 * then thread) for a plot. A group's selection is the --profile pattern that
 * picks exactly its profiles (null when none does): group=SELECTION on the
 * tree routes shows its tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hpcdb/report.h"
#include "routes.h"

enum { BY_KIND, BY_RANK, BY_NODE };
enum { MAIN, WORKER, GPU }; /* by=kind's groups */

typedef struct member {
  double v;
  uint32_t profile; /* index into exp->profiles */
  const hpcdb_profile *p;
  uint64_t key; /* the group: MAIN / WORKER / GPU, or the rank's or node's id */
  int has_key;  /* 0: the identity has no such level (one group of its own) */
} member;

static const char *kind_name(const hpcdb_experiment *e, const hpcdb_id *id) {
  return id->kind < e->n_kind_names ? e->kind_names[id->kind] : NULL;
}

/* The index of p's identity level named kind (any case), or with kind NULL of its innermost GPU
 * level (a stream's); -1: none. */
static int level_at(const hpcdb_experiment *e, const hpcdb_profile *p, const char *kind) {
  int at = -1;
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const char *k = kind_name(e, &p->ids[i]);
    if (k && (kind ? !strcasecmp(k, kind) : !strncmp(k, "GPU", 3))) at = i;
    if (at >= 0 && kind) break;
  }
  return at;
}

/* A level's id as the --profile pattern reads it. */
static uint64_t id_at(const hpcdb_profile *p, int at) {
  return p->ids[at].flags & HPCDB_ID_PHYSICAL ? p->ids[at].physical_id : p->ids[at].logical_id;
}

static void key_of(const hpcdb_experiment *e, member *m, int by) {
  int at;
  if (by == BY_KIND) {
    m->has_key = 1;
    m->key = level_at(e, m->p, NULL) >= 0                                     ? GPU
             : (at = level_at(e, m->p, "THREAD")) >= 0 && id_at(m->p, at) > 0 ? WORKER
                                                                              : MAIN;
  } else if ((at = level_at(e, m->p, by == BY_RANK ? "RANK" : "NODE")) >= 0) {
    m->has_key = 1;
    m->key = id_at(m->p, at);
  }
}

/* Identity order: level by level, by kind then id (RANK 0 THREAD 0, RANK 0 THREAD 1, ..., RANK 1 ...). */
static int by_identity(const void *x, const void *y) {
  const hpcdb_profile *a = ((const member *)x)->p, *b = ((const member *)y)->p;
  for (uint16_t i = 0; i < a->n_ids && i < b->n_ids; i++) {
    if (a->ids[i].kind != b->ids[i].kind) return a->ids[i].kind < b->ids[i].kind ? -1 : 1;
    if (a->ids[i].logical_id != b->ids[i].logical_id) return a->ids[i].logical_id < b->ids[i].logical_id ? -1 : 1;
  }
  return (a->n_ids > b->n_ids) - (a->n_ids < b->n_ids);
}

static int by_value(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The --profile pattern of the group of members g[0..size) (by kind: verified over every profile,
 * group_of[p] the group of profile p), in sel; "" when no pattern picks exactly its profiles. */
static void selection(const hpcdb_experiment *e, const member *g, uint32_t size, const uint8_t *in_group, int by,
                      char *sel, size_t room) {
  uint64_t lo = UINT64_MAX, hi = 0;
  const char *level = g->key == GPU ? NULL : "thread";
  sel[0] = '\0';
  if (!g->has_key) return;
  if (by != BY_KIND) { /* every profile with that rank (node) is in the group: exact */
    snprintf(sel, room, "%s=%llu", by == BY_RANK ? "rank" : "node", (unsigned long long)g->key);
    return;
  }
  for (uint32_t k = 0; k < size; k++) { /* the range of the group's thread or stream ids */
    int at = level_at(e, g[k].p, level);
    if (at < 0) continue;
    uint64_t id = id_at(g[k].p, at);
    lo = id < lo ? id : lo, hi = id > hi ? id : hi;
    if (!level) level = kind_name(e, &g[k].p->ids[at]); /* the streams' level, by its name */
  }
  if (lo < hi) snprintf(sel, room, "%s=%llu-%llu", level, (unsigned long long)lo, (unsigned long long)hi);
  else if (lo == hi) snprintf(sel, room, "%s=%llu", level, (unsigned long long)lo);
  for (uint32_t p = 0; sel[0] && p < e->n_profiles; p++)
    if (in_group[p] != hpcdb_profile_matches(e, &e->profiles[p], sel)) sel[0] = '\0';
}

static void group_name(const member *g, int by, char *name, size_t size) {
  static const char *const kinds[] = {"main threads", "worker threads", "GPU streams"};
  if (by == BY_KIND) snprintf(name, size, "%s", kinds[g->key]);
  else if (!g->has_key) snprintf(name, size, "(no %s)", by == BY_RANK ? "RANK" : "NODE");
  else snprintf(name, size, "%s %llu", by == BY_RANK ? "RANK" : "NODE", (unsigned long long)g->key);
}

static int by_group(const void *x, const void *y) {
  const member *a = x, *b = y;
  if (a->has_key != b->has_key) return a->has_key < b->has_key ? 1 : -1; /* "(no RANK)" last */
  return (a->key > b->key) - (a->key < b->key);
}

/* One group's figures over its members g[0..size) with a value (zeros counted apart). */
static void group_json(jbuf *b, const hpcdb_experiment *e, const member *g, uint32_t size, uint8_t *in_group, int by,
                       double *scratch) {
  uint32_t m = 0;
  double sum = 0;
  for (uint32_t k = 0; k < size; k++)
    if (g[k].v != 0) scratch[m++] = g[k].v, sum += g[k].v;
  qsort(scratch, m, sizeof *scratch, by_value);
  char name[64], sel[160];
  group_name(g, by, name, sizeof name);
  for (uint32_t k = 0; k < size; k++) in_group[g[k].profile] = 1;
  selection(e, g, size, in_group, by, sel, sizeof sel);
  for (uint32_t k = 0; k < size; k++) in_group[g[k].profile] = 0;
  jb_raw(b, "{\"name\":");
  jb_str(b, name);
  jb_raw(b, ",\"selection\":");
  if (sel[0]) jb_str(b, sel);
  else jb_raw(b, "null");
  jb_fmt(b, ",\"profiles\":%u,\"zeros\":%u", size, size - m);
  double mean = m ? sum / m : 0, max = m ? scratch[m - 1] : 0;
  double fig[] = {m ? scratch[0] : 0, m ? (m % 2 ? scratch[m / 2] : (scratch[m / 2 - 1] + scratch[m / 2]) / 2) : 0,
                  mean, max, mean != 0 ? max / mean : 0};
  const char *names[] = {"min", "median", "mean", "max", "imbalance"};
  for (int k = 0; k < 5; k++) {
    jb_fmt(b, ",\"%s\":", names[k]);
    jb_num(b, fig[k]);
  }
  jb_raw(b, "}");
}

/* The groups of members ms (sorted by group here), one JSON object each. */
static int groups_json(jbuf *b, const hpcdb_experiment *e, member *ms, uint32_t n, int by, double *scratch) {
  uint8_t *in_group = calloc((size_t)e->n_profiles + 1, 1);
  if (!in_group) return -1;
  qsort(ms, n, sizeof *ms, by_group);
  for (uint32_t from = 0, to; from < n; from = to) {
    for (to = from + 1; to < n && by_group(&ms[from], &ms[to]) == 0; to++) continue;
    if (from) jb_raw(b, ",");
    group_json(b, e, ms + from, to - from, in_group, by, scratch);
  }
  free(in_group);
  return 0;
}

int route_groups(request *r) {
  view_db *db;
  hpcdb_qcolumn col;
  uint32_t node;
  int exclusive;
  hpcdb_qview view;
  if (req_db(r, &db) < 0 || req_column(r, db, &col) < 0 || req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0 ||
      req_flavour(r, &exclusive) < 0 || req_view(r, &view) < 0)
    return -1;
  const char *by_arg = req_arg(r, "by");
  int by = !by_arg || !strcmp(by_arg, "kind") ? BY_KIND
           : !strcmp(by_arg, "rank")          ? BY_RANK
           : !strcmp(by_arg, "node")          ? BY_NODE
                                              : -1;
  if (by < 0) return req_error(r, 400, "by: expected kind, rank or node");
  if (node >= hpcdb_query_n_nodes(db->q, view)) return req_error(r, 404, "node %u does not exist in this view", node);
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  uint32_t n = hpcdb_query_n_profiles(db->q);
  double *v = malloc(((size_t)n + 1) * sizeof *v), *scratch = malloc(((size_t)n + 1) * sizeof *scratch);
  uint32_t *pi = malloc(((size_t)n + 1) * sizeof *pi);
  member *ms = malloc(((size_t)n + 1) * sizeof *ms);
  int rc = 0;
  if (!v || !scratch || !pi || !ms) rc = req_error(r, 500, "out of memory");
  else if (hpcdb_query_view_profiles(db->q, view, col, node, exclusive, v, pi) < 0)
    rc = req_error(r, 422, "%s", hpcdb_last_error());
  if (rc == 0) {
    for (uint32_t k = 0; k < n; k++) {
      ms[k] = (member){v[k] + 0.0, pi[k], &e->profiles[pi[k]], 0, 0};
      key_of(e, &ms[k], by);
    }
    jbuf *b = &r->out;
    jb_fmt(b, "{\"by\":\"%s\",\"profiles\":%u,\"groups\":[",
           by == BY_KIND   ? "kind"
           : by == BY_RANK ? "rank"
                           : "node",
           n);
    if (groups_json(b, e, ms, n, by, scratch) < 0) rc = req_error(r, 500, "out of memory");
  }
  if (rc == 0) { /* every profile's value, in identity order */
    jbuf *b = &r->out;
    qsort(ms, n, sizeof *ms, by_identity);
    jb_raw(b, "],\"values\":[");
    char id[128];
    for (uint32_t k = 0; k < n; k++) {
      jb_raw(b, k ? ",[" : "[");
      jb_num(b, ms[k].v);
      hpcdb_profile_identity(e, &e->profiles[ms[k].profile], id, sizeof id);
      jb_fmt(b, ",%u,", ms[k].profile);
      jb_str(b, id);
      jb_raw(b, "]");
    }
    jb_raw(b, "]}");
  }
  free(v);
  free(scratch);
  free(pi);
  free(ms);
  return rc;
}
