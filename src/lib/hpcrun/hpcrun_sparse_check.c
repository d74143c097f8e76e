/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure of a 04.00 file's sparse values that every consumer indexes
 * with: the slices lie within the values, each metric id is in the table,
 * each context has one slice and each metric one value per slice. The parser
 * only reads the arrays; the validator reports these one by one, and readers
 * (the model, the analysis) call this before using them. */
#include <stdlib.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "hpcrun/hpcrun_file.h"

/* Which node ids exist and which already have a slice: a byte per id while
 * ids are dense (hpcrun numbers nodes as it makes them), hash maps otherwise. */
typedef struct node_set {
  uint8_t *state; /* per id: 0 no node, 1 a node, 2 a node with its slice; NULL: the maps */
  uint64_t n_state;
  hpcdb_u64map nodes, seen;
} node_set;

static int node_set_init(node_set *ns, const hpcrun_tables *t) {
  uint64_t max = 0;
  for (uint64_t k = 0; k < t->n_nodes; k++) max = t->nodes[k].id > max ? t->nodes[k].id : max;
  if (max <= 4 * t->n_nodes + 1024 && (ns->state = calloc(max + 1, 1)) != NULL) {
    ns->n_state = max + 1;
    for (uint64_t k = 0; k < t->n_nodes; k++) ns->state[t->nodes[k].id] = 1;
    return 0;
  }
  for (uint64_t k = 0; k < t->n_nodes; k++)
    if (u64map_put(&ns->nodes, t->nodes[k].id, k) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  return 0;
}

static void node_set_free(node_set *ns) {
  free(ns->state);
  u64map_free(&ns->nodes);
  u64map_free(&ns->seen);
}

/* 0 for no node, 1 for a node, 2 for a node met before; marks id as met. */
static int node_set_meet(node_set *ns, uint32_t id) {
  if (ns->state) {
    if (id >= ns->n_state || ns->state[id] == 0) return 0;
    if (ns->state[id] == 2) return 2;
    ns->state[id] = 2;
    return 1;
  }
  uint64_t dummy;
  if (!u64map_get(&ns->nodes, id, &dummy)) return 0;
  if (u64map_get(&ns->seen, id, &dummy)) return 2;
  return u64map_put(&ns->seen, id, 1) != 0 ? -1 : 1;
}

static int check_slice(const char *path, const hpcrun_file *f, uint32_t i, node_set *ns, uint32_t *stamp) {
  const hpcrun_sparse *s = &f->sparse;
  uint64_t off = s->ctxs_off + 12 * (uint64_t)i, lo = s->ctx_starts[i], hi = s->ctx_starts[i + 1];
  if (lo > hi || hi > s->n_values)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off + 4, "start-sorted",
                         "values [%llu, %llu) are not a slice of the %llu values", (unsigned long long)lo,
                         (unsigned long long)hi, (unsigned long long)s->n_values);
  int met = node_set_meet(ns, s->ctx_ids[i]);
  if (met < 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (met == 0)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off, "value-cct-exists", "context %u is not a cct node",
                         s->ctx_ids[i]);
  /* Real files do not sort contexts; a second slice for one is an error. */
  if (met == 2)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off, "value-cct-unique",
                         "context %u has a second value slice", s->ctx_ids[i]);
  for (uint64_t k = lo; k < hi; k++) {
    uint16_t m = s->metric_ids[k];
    if (m >= f->t.n_metrics)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->values_off + 10 * k + 8, "metric-id-range",
                           "metric id %u, but the table has %u metrics", m, f->t.n_metrics);
    if (stamp[m] == i + 1)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->values_off + 10 * k + 8, "value-metric-unique",
                           "context %u has two values for metric %u", s->ctx_ids[i], m);
    stamp[m] = i + 1; /* metric m has a value in slice i */
  }
  return 0;
}

int hpcrun_sparse_check(const hpcrun_file *f, const char *path) {
  const hpcrun_sparse *s = &f->sparse;
  if (s->ctx_starts[s->n_nz_ctxs] != s->n_values)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->ctxs_off + 12 * (uint64_t)s->n_nz_ctxs + 4,
                         "sentinel-start", "the last start index %llu is not the value count %llu",
                         (unsigned long long)s->ctx_starts[s->n_nz_ctxs], (unsigned long long)s->n_values);
  node_set ns = {0};
  uint32_t *stamp = calloc((size_t)f->t.n_metrics + 1, sizeof *stamp);
  int rc = stamp ? node_set_init(&ns, &f->t) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < s->n_nz_ctxs && rc == 0; i++) rc = check_slice(path, f, i, &ns, stamp);
  node_set_free(&ns);
  free(stamp);
  return rc;
}
