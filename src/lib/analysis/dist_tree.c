/* The run's unified tree on every rank, then each rank's profiles through
 * the single-process pipeline.
 *
 * Each rank first unifies its own files into a tree of its own, with the
 * same code and in the same order as one process (a file that fails midway
 * leaves in the tree what it left in one process's). The trees go up a
 * binary tree of ranks: at step s, rank r + s sends its merged tree to rank r
 * (r a multiple of 2s), which merges it after its own (lower ranks' files
 * come first: tree_merge.h); rank 0 ends with the run's tree and broadcasts
 * it. Each rank merges its own tree into it once more, which finds every
 * context and gives the map from its ids to the run's. Then each rank runs its
 * files through hpcdb_analyze's pipeline again: unified with its own tree
 * (every context is found, by the same lookups that made it), renumbered with
 * the map, then propagated and traced over the run's tree: the values,
 * traces and warnings are one process's. */
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "analysis/structure_map.h"
#include "common/error.h"

/* This rank's experiment and tree, as hpcdb_analyze starts them. */
static int local_tree(dist_run *d) {
  HPCDB_TRY(hpcdb_experiment_new(&d->exp));
  HPCDB_TRY(unified_tree_init(&d->tree, d->exp, d->measurements));
  d->exp->format = "hpctoolkit-v4";
  d->exp->version_major = 4;
  if (!d->opt->ignore_structs)
    HPCDB_TRY(structure_map_open(&d->tree.structure, d->exp, d->measurements, d->opt, keep_warning_fn(), d));
  HPCDB_TRY(analysis_add_scopes(d->exp));
  return hpcdb_add_profile(d->exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL);
}

static int send_tree(dist_run *d, const merged_tree *m, int ok, int dest) {
  dist_msg msg = {0};
  int rc = ok ? tree_serialize_merged(m, &msg) : 0; /* an empty message: this branch failed */
  d->bytes_sent += msg.len;
  int crc = d->comm->send(d->comm->ctx, msg.data, msg.len, dest);
  msg_free(&msg);
  return rc < 0 ? rc : crc;
}

/* The reduction into d->global; on return rank 0's is the run's tree. A
 * failed rank still sends (nothing) up, so no rank waits for ever; the
 * agreement that follows names the failure. */
static int reduce_trees(dist_run *d) {
  dist_msg own = {0};
  int rc = merged_tree_init(&d->global, d->measurements);
  if (rc == 0) rc = tree_serialize_unified(&d->tree, &own);
  if (rc == 0) rc = tree_merge(&d->global, own.data, own.len, d->opt->all_stats, "own tree", NULL);
  msg_free(&own);
  for (int step = 1; step < d->size; step *= 2) {
    if (d->rank % (2 * step) == step) {
      int src = send_tree(d, &d->global, rc == 0, d->rank - step);
      return rc != 0 ? rc : src;
    }
    if (d->rank % (2 * step) != 0 || d->rank + step >= d->size) continue;
    void *data = NULL;
    uint64_t n = 0;
    int crc = d->comm->recv(d->comm->ctx, d->rank + step, &data, &n);
    if (rc == 0 && crc < 0) rc = crc;
    if (rc == 0 && n > 0) rc = tree_merge(&d->global, data, n, d->opt->all_stats, "merged tree", NULL);
    if (rc == 0 && n == 0) rc = 1; /* failed below: pass it on, the failing rank tells why */
    free(data);
  }
  return rc;
}

/* The run's tree from rank 0 to all, and this rank's map into it. */
static int broadcast_tree(dist_run *d) {
  dist_msg m = {0};
  int rc = d->rank == 0 ? tree_serialize_merged(&d->global, &m) : 0;
  uint64_t n = m.len;
  if (rc == 0) rc = dist_bcast(d, &n, sizeof n, 0);
  if (rc == 0 && d->rank != 0 && !(m.data = malloc(n ? n : 1))) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = dist_bcast(d, m.data, n, 0);
  if (rc == 0 && d->rank != 0) {
    merged_tree_free(&d->global);
    if ((rc = merged_tree_init(&d->global, d->measurements)) == 0)
      rc = tree_merge(&d->global, m.data, n, d->opt->all_stats, "broadcast tree", NULL);
  }
  msg_free(&m);
  uint32_t before = d->global.t.n_ids, functions = d->global.exp->n_functions;
  if (rc == 0) rc = tree_serialize_unified(&d->tree, &m);
  if (rc == 0) rc = tree_merge(&d->global, m.data, m.len, d->opt->all_stats, "own tree", &d->map);
  if (rc == 0 && (d->global.t.n_ids != before || d->global.exp->n_functions != functions))
    rc = hpcdb_fail(HPCDB_EIO, "the run's tree lacks some of this rank's contexts");
  msg_free(&m);
  free(d->global.t.slots); /* merged for good: from here on it is only read, never searched */
  d->global.t.slots = NULL;
  d->global.t.cap = d->global.t.count = 0;
  return rc;
}

/* A file's contexts and metrics, from this rank's tree to the run's. */
static int remap(void *user, mapped_profile *maps, uint32_t *const *metric_maps, const measured_tree *trees,
                 uint32_t n_trees) {
  const dist_run *d = user;
  for (uint32_t k = 0; k < n_trees; k++) {
    uint32_t *ctxs[2] = {maps[k].node_ctx, maps[k].node_rel}; /* a node's context, and its caller's relation */
    for (int a = 0; a < 2; a++)
      for (uint32_t i = 0; ctxs[a] && i < maps[k].n_nodes; i++) {
        if (ctxs[a][i] >= d->map.n_ids) return hpcdb_fail(HPCDB_EIO, "context %u not in the map", ctxs[a][i]);
        ctxs[a][i] = d->map.ids[ctxs[a][i]];
      }
    for (uint32_t i = 0; i < trees[k].tab->n_metrics; i++) {
      uint32_t m = metric_maps[k][i];
      if (m == HPCDB_NONE) continue;
      if (m >= d->map.n_metrics) return hpcdb_fail(HPCDB_EIO, "metric %u not in the map", m);
      metric_maps[k][i] = d->map.metrics[m];
    }
  }
  return 0;
}

static void keep_warning(void *user, const char *message) { msg_str(&((dist_run *)user)->warnings, message); }

hpcdb_warning_fn keep_warning_fn(void) { return keep_warning; }

static int pass(dist_run *d, int tree_only) {
  analysis_pass p = {d->exp, &d->tree, d->opt, tree_only, dist_keep_profile, d, remap, &d->global.t,
                     keep_warning, d, &d->res, 0};
  int rc = analysis_run_pass(&p, &d->files);
  d->have_range = p.have_range;
  return rc < 0 ? rc : msg_status(&d->warnings);
}

int dist_unify(dist_run *d) {
  int rc = local_tree(d);
  if (rc == 0) rc = pass(d, 1);
  if (rc == 0) rc = dist_checkpoint(d, "unify");
  HPCDB_TRY(dist_agree(d, rc));
  rc = reduce_trees(d);
  if (rc == 0) rc = dist_checkpoint(d, "tree");
  HPCDB_TRY(dist_agree(d, rc < 0 ? rc : 0));
  HPCDB_TRY(dist_agree(d, broadcast_tree(d)));
  HPCDB_TRY(dist_agree(d, dist_values_prepare(d)));
  rc = pass(d, 0);
  if (rc == 0) rc = dist_checkpoint(d, "propagate");
  return dist_agree(d, rc);
}
