/* The unified tree on every rank, then each rank's profiles through the
 * single-process pipeline against it.
 *
 * Each rank first unifies its own files into a tree of its own (the same
 * code, files in the same order: a file that fails midway leaves in the
 * tree what it left in one process's). The trees go up a binary tree of
 * ranks: at step s, rank r + s sends to rank r (r a multiple of 2s), which
 * merges it after its own (tree_merge.h: lower ranks' files come first, so
 * first appearance in the merge is first appearance in file order); rank 0
 * ends with the whole tree and broadcasts it. Then each rank runs its files
 * through hpcdb_analyze's pipeline with that tree: every context is found,
 * none made, and the values, traces and warnings are one process's. */
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "analysis/tree_merge.h"
#include "common/error.h"

/* An experiment as hpcdb_analyze starts it, with its (empty) tree. */
static int fresh_tree(dist_run *d) {
  unified_tree_free(&d->tree);
  hpcdb_experiment_free(d->exp);
  d->exp = NULL;
  HPCDB_TRY(hpcdb_experiment_new(&d->exp));
  HPCDB_TRY(unified_tree_init(&d->tree, d->exp, d->measurements));
  d->exp->format = "hpctoolkit-v4";
  d->exp->version_major = 4;
  HPCDB_TRY(analysis_add_scopes(d->exp));
  return hpcdb_add_profile(d->exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL);
}

static int send_tree(dist_run *d, int ok, int dest) {
  dist_msg m = {0};
  int rc = ok ? tree_serialize(&d->tree, &m) : 0; /* an empty message: this branch failed */
  d->bytes_sent += m.len;
  int crc = d->comm->send(d->comm->ctx, m.data, m.len, dest);
  msg_free(&m);
  return rc < 0 ? rc : crc;
}

/* The reduction; on return rank 0 holds the whole tree. A failed rank still
 * sends (nothing) up, so no rank waits for ever; the agreement that follows
 * names the failure. */
static int reduce_trees(dist_run *d, int rc) {
  for (int step = 1; step < d->size; step *= 2) {
    if (d->rank % (2 * step) == step) {
      int src = send_tree(d, rc == 0, d->rank - step);
      return rc != 0 ? rc : src;
    }
    if (d->rank % (2 * step) != 0 || d->rank + step >= d->size) continue;
    void *data = NULL;
    uint64_t n = 0;
    int crc = d->comm->recv(d->comm->ctx, d->rank + step, &data, &n);
    if (rc == 0 && crc < 0) rc = crc;
    if (rc == 0 && n > 0) rc = tree_merge(&d->tree, data, n, d->opt->all_stats, "merged tree");
    if (rc == 0 && n == 0) rc = 1; /* failed below: pass it on, the failing rank tells why */
    free(data);
  }
  return rc;
}

static int broadcast_tree(dist_run *d) {
  dist_msg m = {0};
  int rc = d->rank == 0 ? tree_serialize(&d->tree, &m) : 0;
  uint64_t n = m.len;
  if (rc == 0) rc = dist_bcast(d, &n, sizeof n, 0);
  if (rc == 0 && d->rank != 0 && !(m.data = malloc(n ? n : 1))) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = dist_bcast(d, m.data, n, 0);
  if (rc == 0 && d->rank != 0 && (rc = fresh_tree(d)) == 0)
    rc = tree_merge(&d->tree, m.data, n, d->opt->all_stats, "broadcast tree");
  msg_free(&m);
  return rc;
}

static void keep_warning(void *user, const char *message) { msg_str(&((dist_run *)user)->warnings, message); }

static int pass(dist_run *d, int tree_only) {
  analysis_pass p = {d->exp, &d->tree, d->opt, tree_only, dist_keep_profile, d,
                     keep_warning, d, &d->res, 0};
  int rc = analysis_run_pass(&p, &d->files);
  d->have_range = p.have_range;
  return rc < 0 ? rc : msg_status(&d->warnings);
}

int dist_unify(dist_run *d) {
  int rc = fresh_tree(d);
  if (rc == 0) rc = pass(d, 1);
  if (rc == 0) rc = dist_checkpoint(d, "unify");
  HPCDB_TRY(dist_agree(d, rc));
  rc = reduce_trees(d, 0);
  if (rc == 0) rc = dist_checkpoint(d, "tree");
  HPCDB_TRY(dist_agree(d, rc < 0 ? rc : 0));
  HPCDB_TRY(dist_agree(d, broadcast_tree(d)));
  HPCDB_TRY(dist_agree(d, dist_values_prepare(d)));
  rc = pass(d, 0);
  if (rc == 0) rc = dist_checkpoint(d, "propagate");
  return dist_agree(d, rc);
}
