/* SPDX-License-Identifier: BSD-3-Clause */
/* The collectives the distributed analysis uses, over the table of
 * functions the program gives (hpcdb_comm: MPI in hpcdb-mpi, one rank in the
 * tests), each counting the bytes this rank sends; and the agreement after a
 * step that can fail. */
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "common/error.h"
#include "distributed/dist.h"

int hpcdb_comm_fail(int status, const char *message) { return hpcdb_fail(status, "%s", message); }

static uint64_t sent_by(const dist_run *d, uint64_t n) { return d->size > 1 ? n : 0; }

int dist_bcast(dist_run *d, void *buf, uint64_t n, int root) {
  if (d->rank == root) d->bytes_sent += sent_by(d, n);
  return d->comm->bcast(d->comm->ctx, buf, n, root);
}

int dist_allreduce(dist_run *d, uint64_t *v, uint64_t n, hpcdb_reduce_op op) {
  d->bytes_sent += sent_by(d, 8 * n);
  return d->comm->allreduce_u64(d->comm->ctx, v, n, op);
}

int dist_exscan(dist_run *d, uint64_t *v, uint64_t n) {
  d->bytes_sent += sent_by(d, 8 * n);
  return d->comm->exscan_u64(d->comm->ctx, v, n);
}

int dist_gatherv(dist_run *d, const void *buf, uint64_t n, void **out, uint64_t *counts) {
  if (d->rank != 0) d->bytes_sent += n;
  return d->comm->gatherv(d->comm->ctx, buf, n, 0, out, counts);
}

int dist_alltoallv(dist_run *d, const void *send, const uint64_t *send_counts, void **recv, uint64_t *recv_counts) {
  for (int r = 0; r < d->size; r++)
    if (r != d->rank) d->bytes_sent += send_counts[r];
  return d->comm->alltoallv(d->comm->ctx, send, send_counts, recv, recv_counts);
}

/* The values' memory back to the system before rank 0 writes meta.db
 * (process_tune_allocator turns glibc's own trimming off): meta.db's buffers
 * are of other sizes than the values' and would not reuse all of it.
 * Trimming at the end of every phase cost page faults instead (the next phase
 * took the pages back, zeroed: at 64 x 100k on 4 ranks 43k faults against
 * 4.5k) for a little less peak memory (rank by rank 266 / 140 / 166 / 147
 * MiB against 276 / 150 / 179 / 170). */
void dist_trim(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

int dist_checkpoint(dist_run *d, const char *phase) {
  return d->comm->checkpoint ? d->comm->checkpoint(d->comm->ctx, phase) : 0;
}

/* The lowest failing rank's failure becomes every rank's. */
int dist_agree(dist_run *d, int rc) {
  uint64_t first = rc < 0 ? (uint64_t)d->rank : UINT64_MAX;
  int crc = dist_allreduce(d, &first, 1, HPCDB_REDUCE_MIN);
  if (crc < 0) return crc;
  if (first == UINT64_MAX) return 0;
  struct {
    int32_t status;
    char text[2044];
  } m = {rc, ""};
  if ((uint64_t)d->rank == first) snprintf(m.text, sizeof m.text, "%s", hpcdb_last_error());
  if ((crc = dist_bcast(d, &m, sizeof m, (int)first)) < 0) return crc;
  m.text[sizeof m.text - 1] = '\0';
  return hpcdb_fail(m.status < 0 ? m.status : HPCDB_EIO, "%s", m.text);
}
