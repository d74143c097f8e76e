/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — hpcdb_analyze over many processes (e.g. MPI ranks): the same
 * database, byte for byte, written by all of them into one directory. The
 * library knows nothing of MPI: the caller hands it a table of the few
 * collective operations it needs (src/mpi/ has the MPI one). */
#ifndef HPCDB_ANALYSIS_DIST_H
#define HPCDB_ANALYSIS_DIST_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hpcdb_reduce_op { HPCDB_REDUCE_SUM, HPCDB_REDUCE_MIN, HPCDB_REDUCE_MAX, HPCDB_REDUCE_BOR } hpcdb_reduce_op;

/* The operations, collective over all ranks unless said otherwise; each
 * returns 0 or a negative hpcdb_status. Buffers the table allocates are
 * malloc'ed and freed by the library. */
typedef struct hpcdb_comm {
  int rank, size;
  void *ctx;
  int (*bcast)(void *ctx, void *buf, uint64_t n, int root);
  /* point to point (not collective): one message to dest, one from src */
  int (*send)(void *ctx, const void *buf, uint64_t n, int dest);
  int (*recv)(void *ctx, int src, void **buf, uint64_t *n);
  /* element-wise over the ranks' arrays, result on every rank */
  int (*allreduce_u64)(void *ctx, uint64_t *v, uint64_t n, hpcdb_reduce_op op);
  /* the sum over the lower ranks, element-wise (zeros on rank 0) */
  int (*exscan_u64)(void *ctx, uint64_t *v, uint64_t n);
  /* root gets every rank's bytes concatenated in rank order, counts[r] from rank r */
  int (*gatherv)(void *ctx, const void *buf, uint64_t n, int root, void **out, uint64_t *counts);
  /* send_counts[r] bytes to rank r (concatenated in rank order in send);
   * recv gets what every rank sent here, in rank order, recv_counts[r] from r */
  int (*alltoallv)(void *ctx, const void *send, const uint64_t *send_counts, void **recv, uint64_t *recv_counts);
  /* Optional: called on every rank as each phase ends ("unify", "tree",
   * "propagate", "write"); a negative return fails the run there (used to
   * inject failures in tests). */
  int (*checkpoint)(void *ctx, const char *phase);
} hpcdb_comm;

/* For comm tables: makes message the error a failed operation reports;
 * returns status (negative). */
HPCDB_API int hpcdb_comm_fail(int status, const char *message);

/* hpcdb_analyze(..., options with output set) run by every rank of comm at
 * once; options->output is required. The files are spread over the ranks by
 * size, each rank running options->threads threads. The database appears at
 * output when every rank has succeeded; a failure anywhere fails every rank
 * with the same message (hpcdb_last_error) and leaves no database behind.
 * Warnings (skipped files) are given, in file order, to warn on rank 0. The
 * result's counts are the whole run's on every rank; bytes_sent (may be
 * NULL) gets the bytes this rank handed to comm's operations. */
HPCDB_API int hpcdb_analyze_dist(const hpcdb_comm *comm, const char *measurements, const hpcdb_analyze_options *options,
                                 hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result, uint64_t *bytes_sent);

/* The temporary directory the database is made in before it is renamed to
 * output (beside it). Returns 0, or HPCDB_EINVAL when it does not fit. */
HPCDB_API int hpcdb_analyze_dist_temp(const char *output, char *buf, size_t size);
/* Removes a temporary database directory and everything in it (no error: what
 * cannot be removed stays). */
HPCDB_API void hpcdb_analyze_dist_discard(const char *temp);

#ifdef __cplusplus
}
#endif
#endif
