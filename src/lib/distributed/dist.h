/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed analysis (hpcdb_analyze_dist), internal: one rank's state
 * and the steps the files dist_*.c share. Every step is collective: each
 * rank calls it in the same order, and dist_agree after a step that can fail
 * on some ranks only makes all of them fail with one message. */
#ifndef HPCDB_ANALYSIS_DIST_INTERNAL_H
#define HPCDB_ANALYSIS_DIST_INTERNAL_H

#include <limits.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "distributed/dist_msg.h"
#include "distributed/tree_merge.h"
#include "hpcdb/analysis_dist.h"
#include "hpctk4/hpctk4_write.h"

typedef struct dist_run {
  const hpcdb_comm *comm;
  int rank, size;
  const hpcdb_analyze_options *opt;
  const char *measurements;
  hpcdb_warning_fn warn; /* rank 0's */
  void *user;
  char temp[PATH_MAX]; /* the database being made */
  uint64_t bytes_sent;
  size_t n_files_total;   /* rank 0 */
  hpcrun_path_list files; /* this rank's, a run of consecutive files in name order */
  hpcdb_experiment *exp;  /* this rank's profiles, their traces, kind names, title, time range */
  unified_tree tree;      /* this rank's files unified (over an experiment of its own), until adopted by global */
  raw_profile *raws;      /* this rank's files unified, not yet propagated: their raw cells and traces */
  uint64_t n_raws, cap_raws;
  /* the reduction: the rank this one sent its tree to, the ranks that sent theirs here and where their
   * contexts and metrics went in global */
  int parent, n_children;
  int children[32];
  tree_map child_maps[32];
  /* the run's tree: on rank 0 every rank's trees merged (the run's ids), on the others its view
   * (tree_view_read: parents and bits, metrics); read only */
  merged_tree global;
  uint32_t n_contexts; /* the run's experiment's contexts */
  uint32_t cct_ctxs;   /* cct.db's context count, from the run's tree */
  /* this rank's profiles, by local profile index - 1: their value blocks go
   * to a spill file as they are made (offsets in profile.db are not known
   * yet), their context index stays to find values by context */
  hpcdb_profile *csr; /* ctx_ids and ctx_starts only */
  uint64_t *spill_at; /* where each block starts in the spill */
  uint64_t n_csr, cap_csr, cap_spill_at;
  int fd_spill;
  uint64_t spill_len;
  uint64_t summary_from; /* the spill's first byte of summary values: its thread blocks are before it */
  uint8_t *enc;
  uint64_t enc_cap;
  loop_lex_value *loops;  /* this rank's loops' lex_aware values, in profile order */
  uint32_t *loop_profile; /* the local profile of each */
  uint64_t n_loops, cap_loops, cap_loop_profile;
  uint32_t n_ids;  /* contexts of the run's tree */
  uint64_t *count; /* per context: values (this rank's, then the run's) */
  uint64_t *mask;  /* per context: the metric ids with values, mask_words bits */
  uint32_t mask_words;
  dist_msg warnings;        /* skipped files: strings */
  hpcdb_analyze_result res; /* this rank's counts, then the run's */
  int have_range;
  /* the run's, agreed */
  uint64_t profile_base; /* profiles of lower ranks: local profile i is global base + i */
  uint64_t trace_base;
  uint64_t n_traces;
  uint64_t n_profiles;           /* read, over all ranks */
  uint64_t thread_end;           /* profile.db: where the thread blocks end */
  uint64_t blocks_at;            /* profile.db: where this rank's thread blocks start */
  hpctk4_block_place summary;    /* profile.db's summary block */
  uint64_t cct_end;              /* cct.db: where the last block ends */
  int fd_prof, fd_cct, fd_trace; /* profile.db is also read back */
} dist_run;

/* dist_collectives.c: collectives, counting the bytes sent */
int dist_agree(dist_run *d, int rc);
int dist_bcast(dist_run *d, void *buf, uint64_t n, int root);
int dist_allreduce(dist_run *d, uint64_t *v, uint64_t n, hpcdb_reduce_op op);
int dist_exscan(dist_run *d, uint64_t *v, uint64_t n);
int dist_gatherv(dist_run *d, const void *buf, uint64_t n, void **out, uint64_t *counts);
int dist_alltoallv(dist_run *d, const void *send, const uint64_t *send_counts, void **recv, uint64_t *recv_counts);
int dist_checkpoint(dist_run *d, const char *phase);
void dist_trim(void);

/* dist_files.c: rank 0 lists the measurement files and hands each rank its share. */
int dist_spread_files(dist_run *d);
/* dist_tree.c: each file decoded and unified once, the run's tree on every rank, this rank's profiles. */
int dist_unify(dist_run *d);
/* The warning function that keeps warnings for rank 0. */
hpcdb_warning_fn keep_warning_fn(void);
/* dist_values.c: the spill and per-context counts before the profiles are
 * made; the pass's sink for each profile's values */
int dist_values_prepare(dist_run *d);
int dist_keep_profile(void *user, uint32_t profile, hpcdb_profile *csr, loop_lex_list *loops);
/* dist_values.c: profile.db's thread and summary blocks and cct.db, each rank its part. */
int dist_write_values(dist_run *d);
/* dist_meta.c: what rank 0 needs of every rank: the files' once the tree is
 * built (identities, warnings), the values' at the end (the headers, footers
 * and meta.db). */
int dist_describe(dist_run *d);
int dist_write_traces(dist_run *d);
int dist_finish(dist_run *d);
/* dist_output.c: the temporary directory and writes at offsets. */
int dist_output_open(dist_run *d);
int dist_spill_open(dist_run *d);
int dist_spill_close(dist_run *d); /* and removes it */
int dist_pread(int fd, const char *name, uint64_t off, void *data, uint64_t n);
/* n bytes of from at off_from to to at off_to (in the kernel when it can). */
int dist_copy(int from, uint64_t off_from, int to, uint64_t off_to, uint64_t n);
/* dist_direct.c: a rank's run [begin, end) of a shared file that it writes front to back and no rank
 * reads back (cct.db, a rank's thread blocks of profile.db): its whole pages around the page cache
 * (O_DIRECT, from one aligned block), the partial pages at its ends through fd. Gaps between writes
 * are zeros. */
typedef struct dist_direct {
  int fd, fd_direct; /* the file buffered; direct (-1: all buffered) */
  const char *name;
  uint64_t next;   /* writes come at or after this */
  uint64_t lo, hi; /* the run's whole pages */
  uint8_t *block;  /* staged: the file's [block_at, block_at + len) */
  uint64_t block_at, len;
} dist_direct;
void dist_direct_open(dist_direct *w, int fd, const char *path, const char *name, uint64_t begin, uint64_t end);
int dist_direct_write(dist_direct *w, uint64_t off, const void *data, uint64_t n);
/* n bytes of from (named from_name) at from_off to [off, off + n) of the run, read straight into the block. */
int dist_direct_copy(dist_direct *w, int from, const char *from_name, uint64_t from_off, uint64_t off, uint64_t n);
/* The rest of the run's whole pages (zeros past the last write) to the disk; closes. */
int dist_direct_finish(dist_direct *w);
void dist_direct_close(dist_direct *w); /* without writing what is staged (on failure) */
int dist_value_path(const dist_run *d, const char *name, char *path);
int dist_output_commit(dist_run *d);
void dist_output_abort(dist_run *d);
int dist_pwrite(int fd, const char *name, uint64_t off, const void *data, uint64_t n);

#endif
