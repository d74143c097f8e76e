/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_analyze_dist: the steps in order, and the collectives they use.
 *
 * 1. Rank 0 lists the files and spreads them by size: rank r gets the r-th
 *    run of consecutive files (dist_files.c).
 * 2. Each rank decodes and unifies its files once into a tree of its own,
 *    keeping each file's raw values and trace; the trees are merged up a
 *    tree of ranks (groups of 4, binomial above), where each context went
 *    comes back down, and the run's tree is broadcast as propagation reads
 *    it (dist_tree.c): the ids are those one process gives, as merging keeps
 *    first-appearance order.
 * 3. Each rank renumbers its raw values and propagates them over the run's
 *    tree with hpcdb_analyze's own code: the values and traces are exactly the
 *    single process's.
 * 4. The value blocks go to profile.db at offsets from a prefix sum over the
 *    ranks; cct.db is split by context ranges, each rank getting every rank's
 *    values of its range (in profile order: the summary adds them as one
 *    process does) and writing its part (dist_values.c). The traces likewise.
 * 5. Rank 0 gathers the profiles' identities and writes the headers, footers,
 *    meta.db and metrics/ (dist_meta.c).
 * 6. Rank 0 places OpenMP workers' regions (hpcdb_openmp_attribute), as
 *    hpcdb_analyze does, unless --openmp raw, writing the database under the
 *    output's name; without regions to place the directory is renamed there.
 * Every step talks to the other ranks through dist_collectives.c. */
#include <stdlib.h>
#include <string.h>

#include "distributed/dist.h"
#include "common/error.h"

static void release(dist_run *d) {
  for (uint64_t i = 0; i < d->n_csr; i++) analysis_csr_free(&d->csr[i]);
  free(d->csr);
  free(d->spill_at);
  free(d->enc);
  free(d->count);
  free(d->mask);
  dist_msg_free(&d->warnings);
  hpcrun_path_list_free(&d->files);
  free(d->loops);
  free(d->loop_profile);
  for (uint64_t i = 0; i < d->n_raws; i++) raw_profile_free(&d->raws[i]);
  free(d->raws);
  for (int k = 0; k < d->n_children; k++) tree_map_free(&d->child_maps[k]);
  hpcdb_experiment *tree_exp = d->tree.exp; /* not adopted: a failure before the reduction */
  unified_tree_free(&d->tree);
  hpcdb_experiment_free(tree_exp);
  hpcdb_experiment_free(d->exp);
  merged_tree_free(&d->global);
}

int hpcdb_analyze_dist(const hpcdb_comm *comm, const char *measurements, const hpcdb_analyze_options *options,
                       hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result, uint64_t *bytes_sent) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_ANALYZE_OPTIONS_VERSION, "hpcdb_analyze_options");
  hpcdb_analyze_result ignored;
  if (!result) result = &ignored;
  memset(result, 0, sizeof *result);
  if (!options || !options->output) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_analyze_dist: no output directory");
  dist_run *d = calloc(1, sizeof *d);
  if (!d) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  d->comm = comm;
  d->rank = comm->rank;
  d->size = comm->size;
  d->opt = options;
  d->measurements = measurements;
  d->warn = warn;
  d->user = user;
  d->fd_prof = d->fd_cct = d->fd_trace = d->fd_spill = -1;
  int rc = dist_output_open(d);
  if (rc == 0) rc = dist_spread_files(d);
  if (rc == 0) rc = dist_unify(d);
  if (rc == 0) rc = dist_write_values(d);
  if (rc == 0) dist_trim();
  if (rc == 0) rc = dist_agree(d, dist_checkpoint(d, "cct"));
  if (rc == 0) rc = dist_write_traces(d);
  if (rc == 0) rc = dist_agree(d, dist_checkpoint(d, "traces"));
  if (rc == 0) rc = dist_finish(d);
  if (rc == 0) rc = dist_agree(d, dist_checkpoint(d, "meta"));
  if (rc == 0) rc = dist_output_commit(d);
  if (rc < 0) {
    dist_output_abort(d);
  } else {
    *result = d->res;
  }
  if (bytes_sent) *bytes_sent = d->bytes_sent;
  release(d);
  free(d);
  return rc;
}
