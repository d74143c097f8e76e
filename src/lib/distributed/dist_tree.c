/* SPDX-License-Identifier: BSD-3-Clause */
/* The run's unified tree, and each rank's profiles through the
 * single-process pipeline, every file decoded and unified once.
 *
 * Each rank runs the first half of hpcdb_analyze's pipeline over its files,
 * with the same code and in the same order as one process: decoded, unified
 * into a tree of its own (a file that fails midway leaves in the tree what it
 * left in one process's), registered; of each file it keeps the raw cells
 * (every context and metric's value before propagation, in its own tree's
 * ids) and the trace. Its tree becomes its part of the reduction as it is
 * (merged_tree_adopt: the ids stay). The trees go up a tree of ranks
 * (reduction_plan): a rank merges each tree it receives after its own, in
 * rank order (lower ranks' files come first: tree_merge.h), keeps where the
 * sender's ids went, then sends the result to its parent and frees it.
 * Rank 0 ends with the run's tree. The maps come back down the same way:
 * rank 0 sends each rank that sent it a tree where that tree's ids are in
 * the run's; a rank composes what it gets with its own maps for the ranks
 * below it. Rank 0 then broadcasts the run's tree as propagation reads it
 * (parents and bits: tree_serialize_view), each rank renumbers its raw cells
 * and traces, and the second half of the pipeline propagates them over the
 * run's tree: the values, traces and warnings are one process's. */
#include <stdlib.h>
#include <string.h>

#include "distributed/dist.h"
#include "analysis/structure_map.h"
#include "common/error.h"
#include "common/vec.h"
#include "model/model_build.h"

/* This rank's profiles' experiment and its tree's, as hpcdb_analyze starts them. */
static int local_tree(dist_run *d) {
  hpcdb_experiment *tree_exp;
  HPCDB_TRY(hpcdb_experiment_new(&d->exp));
  HPCDB_TRY(hpcdb_add_profile(d->exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL));
  HPCDB_TRY(hpcdb_experiment_new(&tree_exp));
  int rc = unified_tree_init(&d->tree, tree_exp, d->measurements);
  if (rc < 0) {
    hpcdb_experiment_free(tree_exp);
    return rc;
  }
  d->tree.defer_links = 1; /* as hpcdb_analyze: linked once, on rank 0, when the run's tree is merged */
  if (d->rank != 0 && VEC_RESERVE(&d->tree.keys, &d->tree.cap_keys, 1024) < 0) /* sent: its contexts' own keys kept */
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  HPCDB_TRY(hpcdb_set_format(tree_exp, "hpctoolkit-v4", 4, 0));
  if (!d->opt->ignore_structs)
    HPCDB_TRY(structure_map_open(&d->tree.structure, tree_exp, d->measurements, d->opt, keep_warning_fn(), d));
  HPCDB_TRY(analysis_add_scopes(tree_exp));
  return hpcdb_add_profile(tree_exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL);
}

/* The pass's keep: a file's raw cells and trace, in profile order. */
static int keep_raw(void *user, raw_profile *raw) {
  dist_run *d = user;
  if (raw->profile != d->n_raws + 1) /* the pass registers this rank's profiles after the summary, in order */
    return hpcdb_fail(HPCDB_EINVAL, "profile %u arrived out of order", raw->profile);
  if (VEC_RESERVE(&d->raws, &d->cap_raws, d->n_raws + 1) < 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  d->raws[d->n_raws++] = *raw;
  memset(raw, 0, sizeof *raw);
  return 0;
}

static void keep_warning(void *user, const char *message) { dist_msg_str(&((dist_run *)user)->warnings, message); }

hpcdb_warning_fn keep_warning_fn(void) { return keep_warning; }

static int unify_files(dist_run *d) {
  analysis_pass p = {d->exp, &d->tree, d->opt, keep_raw, d, keep_warning, d, &d->res, 0};
  int rc = analysis_run_pass(&p, &d->files);
  d->have_range = p.have_range;
  return rc < 0 ? rc : dist_msg_status(&d->warnings);
}

static int send_msg(dist_run *d, const dist_msg *m, int dest) {
  d->bytes_sent += m->len;
  return d->comm->send(d->comm->ctx, m->data, m->len, dest);
}

/* The tree's parts to the parent; an empty part tells that this branch
 * failed (the failing rank says why). */
typedef struct link {
  dist_run *d;
  int peer;
} link;

static int put_part(void *user, const dist_msg *part) {
  link *l = user;
  return send_msg(l->d, part, l->peer);
}

static int get_part(void *user, void **data, uint64_t *len) {
  link *l = user;
  return l->d->comm->recv(l->d->comm->ctx, l->peer, data, len);
}

static int send_tree(dist_run *d, const merged_tree *m, int ok, int dest) {
  link l = {d, dest};
  if (ok) return tree_send(m, put_part, &l);
  dist_msg empty = {0};
  return send_msg(d, &empty, dest);
}

/* The reduction's shape: the ranks of each run of FAN_IN consecutive ranks
 * send their trees straight to its first, which merges them in rank order;
 * those first ranks then form a binomial tree (at stride s = FAN_IN, 2 FAN_IN,
 * ..., rank r + s sends to rank r, r a multiple of 2s). Every context a tree
 * holds is parsed and merged once per level it crosses, so the first level's
 * fan-in spares the merges of pairs of leaves (a rank's tree and its
 * neighbour's) re-sent as one tree, while the chain of merges rank 0 waits
 * for grows by one (FAN_IN - 1 merges where a binomial tree makes 2), not by
 * a factor as with a fan-in of 4 at every level (docs/mpi.md, "The reduction
 * tree"). Gives this rank's children in the order it merges them (at most
 * 3 + 29 for 2^31 ranks) and its parent (-1: rank 0). */
#define FAN_IN 4
static int reduction_plan(int rank, int size, int children[32], int *parent) {
  int n = 0;
  *parent = -1;
  for (long long s = 1, f = FAN_IN; s < size; s *= f, f = 2) {
    long long at = rank % (s * f);
    if (at != 0) {
      *parent = rank - (int)at;
      return n;
    }
    for (long long j = 1; j < f && rank + j * s < size; j++) children[n++] = rank + (int)(j * s);
  }
  return n;
}

/* The reduction into d->global; on return rank 0's is the run's tree. A
 * failed rank still sends (nothing) up, so no rank waits for ever; the
 * agreement that follows names the failure. A rank's last merge enters no
 * keys in its table (none is looked up after it: the tree is only sent on,
 * with the contexts' own keys, or it is the run's). */
static int reduce_trees(dist_run *d) {
  int n = reduction_plan(d->rank, d->size, d->children, &d->parent);
  int rc = merged_tree_adopt(&d->global, &d->tree, n > 0);
  for (int k = 0; k < n; k++) {
    link l = {d, d->children[k]};
    d->n_children = k + 1; /* its map is freed from here on */
    int mrc = tree_merge_parts(rc == 0 ? &d->global : NULL, get_part, &l, d->opt->all_stats, k == n - 1, "merged tree",
                               &d->child_maps[k]);
    if (rc == 0) rc = mrc; /* 1: failed below, passed on (the failing rank tells why) */
  }
  if (d->parent < 0) return rc;
  int src = send_tree(d, &d->global, rc == 0, d->parent);
  merged_tree_free(&d->global); /* the run's comes down later */
  return rc != 0 ? rc : src;
}

static int put_map(const tree_map *map, const tree_map *down, dist_msg *m) {
  dist_msg_u32(m, map->n_ids);
  dist_msg_u32(m, map->n_metrics);
  for (uint32_t i = 0; i < map->n_ids; i++) { /* composed: the sender's ids in this rank's, then in the run's */
    uint32_t id = map->ids[i];
    if (down && id >= down->n_ids) return hpcdb_fail(HPCDB_EIO, "context %u not in the map from above", id);
    dist_msg_u32(m, down ? down->ids[id] : id);
  }
  for (uint32_t i = 0; i < map->n_metrics; i++) {
    uint32_t k = map->metrics[i];
    if (down && k >= down->n_metrics) return hpcdb_fail(HPCDB_EIO, "metric %u not in the map from above", k);
    dist_msg_u32(m, down ? down->metrics[k] : k);
  }
  return dist_msg_status(m);
}

static int read_map(const uint8_t *data, uint64_t len, tree_map *map) {
  hpcdb_cursor c;
  cursor_init(&c, data, len, "map of the run's tree");
  HPCDB_TRY(cursor_le32(&c, &map->n_ids, "contexts"));
  HPCDB_TRY(cursor_le32(&c, &map->n_metrics, "metrics"));
  if (((uint64_t)map->n_ids + map->n_metrics) * 4 != len - c.pos)
    return hpcdb_fail(HPCDB_EIO, "a map of %u contexts and %u metrics in %llu bytes", map->n_ids, map->n_metrics,
                      (unsigned long long)len);
  map->ids = malloc(((size_t)map->n_ids + 1) * sizeof *map->ids);
  map->metrics = malloc(((size_t)map->n_metrics + 1) * sizeof *map->metrics);
  if (!map->ids || !map->metrics) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < map->n_ids; i++) HPCDB_TRY(cursor_le32(&c, &map->ids[i], "context"));
  for (uint32_t i = 0; i < map->n_metrics; i++) HPCDB_TRY(cursor_le32(&c, &map->metrics[i], "metric"));
  return 0;
}

/* The maps down the reduction: *own gets where this rank's ids are in the
 * run's (its own ids are the first of those it merged into; rank 0's are the
 * run's). Each rank that sent a tree here gets its map composed with the one
 * from above, the rank with the most below it first. */
static int spread_maps(dist_run *d, tree_map *own) {
  int rc = 0;
  if (d->rank != 0) {
    void *data = NULL;
    uint64_t n = 0;
    rc = d->comm->recv(d->comm->ctx, d->parent, &data, &n);
    if (rc == 0 && n == 0) rc = 1; /* failed above */
    if (rc == 0) rc = read_map(data, n, own);
    free(data);
  }
  for (int k = d->n_children; k-- > 0;) {
    dist_msg m = {0};
    int mrc = rc == 0 ? put_map(&d->child_maps[k], d->rank != 0 ? own : NULL, &m) : 0;
    if (mrc < 0) {
      m.len = 0;
      rc = mrc;
    }
    int crc = send_msg(d, &m, d->children[k]);
    if (rc == 0 && crc < 0) rc = crc;
    dist_msg_free(&m);
    tree_map_free(&d->child_maps[k]);
  }
  d->n_children = 0;
  return rc < 0 ? rc : 0;
}

/* The run's tree from rank 0 to all, as propagation reads it. */
static int broadcast_view(dist_run *d) {
  dist_msg m = {0};
  int rc = 0;
  if (d->rank == 0) {
    merged_tree_unindex(&d->global); /* from here on it is only read, never searched */
    rc = model_link_contexts(d->global.exp);
    d->n_contexts = d->global.exp->n_contexts;
    if (rc == 0) rc = hpctk4_cct_context_count(d->global.exp, &d->cct_ctxs);
    if (rc == 0 && d->size > 1) rc = tree_serialize_view(&d->global, d->cct_ctxs, &m);
  }
  if (d->size == 1) return rc;
  uint64_t n = m.len;
  rc = dist_agree(d, rc);
  if (rc == 0) rc = dist_bcast(d, &n, sizeof n, 0);
  if (rc == 0 && d->rank != 0 && !(m.data = malloc(n ? n : 1))) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  rc = dist_agree(d, rc); /* every rank has room before any sends */
  if (rc == 0) rc = dist_bcast(d, m.data, n, 0);
  if (rc == 0 && d->rank != 0)
    rc = tree_view_read(&d->global, d->measurements, m.data, n, d->opt->all_stats, &d->n_contexts, &d->cct_ctxs);
  dist_msg_free(&m);
  return rc;
}

/* This rank's raw cells and traces, from its tree's ids to the run's. */
static int renumber(dist_run *d, const tree_map *map) {
  for (uint64_t k = 0; k < d->n_raws; k++) {
    raw_profile *r = &d->raws[k];
    for (uint64_t i = 0; i < r->n; i++) {
      if (r->ctx[i] >= map->n_ids || r->metric[i] >= map->n_metrics)
        return hpcdb_fail(HPCDB_EIO, "context %u or metric %u not in the map", r->ctx[i], r->metric[i]);
      r->ctx[i] = map->ids[r->ctx[i]];
      r->metric[i] = (uint16_t)map->metrics[r->metric[i]];
    }
    for (uint64_t i = 0; i < r->trace.n; i++) {
      if (r->trace.ctxs[i] >= map->n_ids) return hpcdb_fail(HPCDB_EIO, "context %u not in the map", r->trace.ctxs[i]);
      r->trace.ctxs[i] = map->ids[r->trace.ctxs[i]];
    }
  }
  return 0;
}

static int the_run_tree(dist_run *d) {
  tree_map own = {0};
  int rc = dist_agree(d, spread_maps(d, &own));
  if (rc == 0) rc = dist_agree(d, broadcast_view(d));
  if (rc == 0 && d->rank != 0) rc = renumber(d, &own);
  tree_map_free(&own);
  if (rc == 0) rc = dist_checkpoint(d, "tree");
  return dist_agree(d, rc);
}

/* The second half of the pipeline over this rank's files. */
static int propagate(dist_run *d) {
  analysis_values v = {d->exp, &d->global.t, d->opt, d->raws, d->n_raws, dist_keep_profile, d, &d->res};
  int rc = analysis_run_values(&v);
  for (uint64_t k = 0; k < d->n_raws && rc < 0; k++) raw_profile_free(&d->raws[k]); /* the rest were freed as used */
  free(d->raws);
  d->raws = NULL;
  d->n_raws = d->cap_raws = 0;
  return rc;
}

int dist_unify(dist_run *d) {
  int rc = local_tree(d);
  if (rc == 0) rc = unify_files(d);
  if (rc == 0) rc = dist_checkpoint(d, "unify");
  HPCDB_TRY(dist_agree(d, rc));
  rc = reduce_trees(d);
  HPCDB_TRY(dist_agree(d, rc < 0 ? rc : 0));
  HPCDB_TRY(the_run_tree(d));
  HPCDB_TRY(dist_describe(d));
  HPCDB_TRY(dist_agree(d, dist_values_prepare(d)));
  rc = propagate(d);
  if (rc == 0) rc = dist_checkpoint(d, "propagate");
  return dist_agree(d, rc);
}
