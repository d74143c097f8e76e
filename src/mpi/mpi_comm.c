/* hpcdb_comm over MPI. Byte counts are 64-bit in the table; MPI counts are
 * int, so large buffers go in pieces (bcast, point to point) or are refused
 * with a message (the v-collectives' displacements are int too). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_comm.h"

#define PIECE ((uint64_t)1 << 30)

static int failed(const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(code, text, &n);
  char message[MPI_MAX_ERROR_STRING + 64];
  snprintf(message, sizeof message, "MPI %s failed: %s", what, text);
  return hpcdb_comm_fail(HPCDB_EIO, message);
}

#define CHECK(what, call)                                                                          \
  do {                                                                                             \
    int mpi_rc_ = (call);                                                                          \
    if (mpi_rc_ != MPI_SUCCESS) return failed(what, mpi_rc_);                                      \
  } while (0)

static MPI_Comm of(void *ctx) { return *(MPI_Comm *)ctx; }

static int bcast(void *ctx, void *buf, uint64_t n, int root) {
  for (uint64_t at = 0; at < n; at += PIECE) {
    uint64_t k = n - at < PIECE ? n - at : PIECE;
    CHECK("broadcast", MPI_Bcast((char *)buf + at, (int)k, MPI_BYTE, root, of(ctx)));
  }
  return 0;
}

static int send(void *ctx, const void *buf, uint64_t n, int dest) {
  CHECK("send", MPI_Send(&n, 1, MPI_UINT64_T, dest, 1, of(ctx)));
  for (uint64_t at = 0; at < n; at += PIECE) {
    uint64_t k = n - at < PIECE ? n - at : PIECE;
    CHECK("send", MPI_Send((const char *)buf + at, (int)k, MPI_BYTE, dest, 2, of(ctx)));
  }
  return 0;
}

static int recv(void *ctx, int src, void **buf, uint64_t *n) {
  CHECK("receive", MPI_Recv(n, 1, MPI_UINT64_T, src, 1, of(ctx), MPI_STATUS_IGNORE));
  if (*n > SIZE_MAX || !(*buf = malloc(*n ? (size_t)*n : 1)))
    return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory for a message");
  for (uint64_t at = 0; at < *n; at += PIECE) {
    uint64_t k = *n - at < PIECE ? *n - at : PIECE;
    CHECK("receive", MPI_Recv((char *)*buf + at, (int)k, MPI_BYTE, src, 2, of(ctx), MPI_STATUS_IGNORE));
  }
  return 0;
}

static int allreduce_u64(void *ctx, uint64_t *v, uint64_t n, hpcdb_reduce_op op) {
  MPI_Op mop = op == HPCDB_REDUCE_SUM ? MPI_SUM : op == HPCDB_REDUCE_MIN ? MPI_MIN : op == HPCDB_REDUCE_MAX ? MPI_MAX : MPI_BOR;
  for (uint64_t at = 0; at < n; at += PIECE / 8) {
    uint64_t k = n - at < PIECE / 8 ? n - at : PIECE / 8;
    CHECK("reduction", MPI_Allreduce(MPI_IN_PLACE, v + at, (int)k, MPI_UINT64_T, mop, of(ctx)));
  }
  return 0;
}

static int exscan_u64(void *ctx, uint64_t *v, uint64_t n) {
  uint64_t *in = malloc((n ? n : 1) * sizeof *in);
  if (!in) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  memcpy(in, v, n * sizeof *v);
  int rc = MPI_Exscan(in, v, (int)n, MPI_UINT64_T, MPI_SUM, of(ctx));
  free(in);
  if (rc != MPI_SUCCESS) return failed("prefix sum", rc);
  int rank;
  MPI_Comm_rank(of(ctx), &rank);
  if (rank == 0) memset(v, 0, n * sizeof *v); /* MPI leaves rank 0's undefined */
  return 0;
}

static int too_large(const char *what) {
  char message[128];
  snprintf(message, sizeof message, "MPI %s of more than 2 GiB per rank (use more ranks)", what);
  return hpcdb_comm_fail(HPCDB_EUNSUPPORTED, message);
}

/* int counts and displacements for a v-collective; fails when they do not fit. */
static int int_layout(const uint64_t *counts, int size, int *icounts, int *displs, const char *what) {
  uint64_t at = 0;
  for (int r = 0; r < size; r++) {
    if (counts[r] > INT_MAX || at > INT_MAX)
      return too_large(what);
    icounts[r] = (int)counts[r];
    displs[r] = (int)at;
    at += counts[r];
  }
  return at > INT_MAX ? too_large(what) : 0;
}

static int gatherv(void *ctx, const void *buf, uint64_t n, int root, void **out, uint64_t *counts) {
  int rank, size;
  MPI_Comm_rank(of(ctx), &rank);
  MPI_Comm_size(of(ctx), &size);
  CHECK("gather", MPI_Gather(&n, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, root, of(ctx)));
  int *ic = malloc(2 * (size_t)size * sizeof *ic), rc = 0;
  if (!ic) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t total = 0;
  if (rank == root) {
    for (int r = 0; r < size; r++) total += counts[r];
    rc = int_layout(counts, size, ic, ic + size, "gather");
    if (rc == 0 && !(*out = malloc(total ? (size_t)total : 1))) rc = hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  }
  /* every rank takes part, also when the root could not: its error is agreed on after */
  int mrc = MPI_Gatherv(buf, (int)n, MPI_BYTE, rank == root && rc == 0 ? *out : NULL, ic, ic + size, MPI_BYTE, root,
                        of(ctx));
  free(ic);
  if (rc == 0 && mrc != MPI_SUCCESS) rc = failed("gather", mrc);
  return rc;
}

static int alltoallv(void *ctx, const void *send_buf, const uint64_t *send_counts, void **recv_buf,
                     uint64_t *recv_counts) {
  int size;
  MPI_Comm_size(of(ctx), &size);
  CHECK("exchange", MPI_Alltoall(send_counts, 1, MPI_UINT64_T, recv_counts, 1, MPI_UINT64_T, of(ctx)));
  int *ic = malloc(4 * (size_t)size * sizeof *ic);
  if (!ic) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  int rc = int_layout(send_counts, size, ic, ic + size, "exchange");
  if (rc == 0) rc = int_layout(recv_counts, size, ic + 2 * size, ic + 3 * size, "exchange");
  uint64_t total = 0;
  for (int r = 0; r < size; r++) total += recv_counts[r];
  if (rc == 0 && !(*recv_buf = malloc(total ? (size_t)total : 1)))
    rc = hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory for the values received");
  if (rc == 0) {
    int mrc = MPI_Alltoallv(send_buf, ic, ic + size, MPI_BYTE, *recv_buf, ic + 2 * size, ic + 3 * size, MPI_BYTE,
                            of(ctx));
    if (mrc != MPI_SUCCESS) rc = failed("exchange", mrc);
  }
  free(ic);
  return rc;
}

void mpi_comm_table(hpcdb_comm *c, MPI_Comm *comm) {
  memset(c, 0, sizeof *c);
  MPI_Comm_rank(*comm, &c->rank);
  MPI_Comm_size(*comm, &c->size);
  c->ctx = comm;
  c->bcast = bcast;
  c->send = send;
  c->recv = recv;
  c->allreduce_u64 = allreduce_u64;
  c->exscan_u64 = exscan_u64;
  c->gatherv = gatherv;
  c->alltoallv = alltoallv;
}
