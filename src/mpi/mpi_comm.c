/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_comm over MPI. Byte counts are 64-bit in the table; MPI counts are
 * int, so large buffers go in pieces (bcast, point to point) or are refused
 * with a message (the v-collectives' displacements are int too).
 *
 * Every operation is started non-blocking and waited for by finish(): a rank
 * that waits (for the rank merging the trees, for the slowest rank of a
 * collective) tests the request for up to 100 µs, then sleeps between
 * tests, backing off to 1 ms; when the node has more ranks than processors,
 * it sleeps at once (its test loop would take the processor from a rank
 * that works). A blocking MPI call would poll at full speed for as long as
 * it waits (Open MPI does), burning a core that another rank, or another
 * job, of the same node could use. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_comm.h"

#include "hpcdb/common.h"

#define PIECE ((uint64_t)1 << 30)

static int failed(const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(code, text, &n);
  char message[MPI_MAX_ERROR_STRING + 64];
  snprintf(message, sizeof message, "MPI %s failed: %s", what, text);
  return hpcdb_comm_fail(HPCDB_EIO, message);
}

#define CHECK(what, call)                                     \
  do {                                                        \
    int mpi_rc_ = (call);                                     \
    if (mpi_rc_ != MPI_SUCCESS) return failed(what, mpi_rc_); \
  } while (0)

static MPI_Comm of(void *ctx) { return *(MPI_Comm *)ctx; }

/* Tested without sleeping for this long: the short waits of balanced ranks stay short. 1 ms was 5% of
 * the ranks' CPU samples at 256 x 10k, -np 2 (clock_gettime, MPI_Testall and its locks). */
#define SPIN_NS 100000L
static long spin_ns = SPIN_NS; /* 0 on an oversubscribed node */
#define SLEEP_MIN_NS 50000L
#define SLEEP_MAX_NS 1000000L

static long elapsed_ns(const struct timespec *since) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

/* Completes a started operation; n requests (all must complete). */
static int finish(MPI_Request *req, int n, const char *what) {
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long nap = SLEEP_MIN_NS;
  for (;;) {
    int done = 0;
    CHECK(what, MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE));
    if (done) return 0;
    if (elapsed_ns(&start) < spin_ns) continue;
    struct timespec ts = {0, nap};
    nanosleep(&ts, NULL);
    if (nap < SLEEP_MAX_NS) nap = nap * 2 < SLEEP_MAX_NS ? nap * 2 : SLEEP_MAX_NS;
  }
}

/* Starts call (an MPI_I... operation filling req) and waits for it. */
#define WAITED(what, call)             \
  do {                                 \
    MPI_Request req_;                  \
    CHECK(what, call);                 \
    int wrc_ = finish(&req_, 1, what); \
    if (wrc_ < 0) return wrc_;         \
  } while (0)

static int bcast(void *ctx, void *buf, uint64_t n, int root) {
  for (uint64_t at = 0; at < n; at += PIECE) {
    uint64_t k = n - at < PIECE ? n - at : PIECE;
    WAITED("broadcast", MPI_Ibcast((char *)buf + at, (int)k, MPI_BYTE, root, of(ctx), &req_));
  }
  return 0;
}

static int send(void *ctx, const void *buf, uint64_t n, int dest) {
  WAITED("send", MPI_Isend(&n, 1, MPI_UINT64_T, dest, 1, of(ctx), &req_));
  for (uint64_t at = 0; at < n; at += PIECE) {
    uint64_t k = n - at < PIECE ? n - at : PIECE;
    WAITED("send", MPI_Isend((const char *)buf + at, (int)k, MPI_BYTE, dest, 2, of(ctx), &req_));
  }
  return 0;
}

static int recv(void *ctx, int src, void **buf, uint64_t *n) {
  WAITED("receive", MPI_Irecv(n, 1, MPI_UINT64_T, src, 1, of(ctx), &req_));
  if (*n > SIZE_MAX || !(*buf = malloc(*n ? (size_t)*n : 1)))
    return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory for a message");
  for (uint64_t at = 0; at < *n; at += PIECE) {
    uint64_t k = *n - at < PIECE ? *n - at : PIECE;
    WAITED("receive", MPI_Irecv((char *)*buf + at, (int)k, MPI_BYTE, src, 2, of(ctx), &req_));
  }
  return 0;
}

static int allreduce_u64(void *ctx, uint64_t *v, uint64_t n, hpcdb_reduce_op op) {
  MPI_Op mop = op == HPCDB_REDUCE_SUM   ? MPI_SUM
               : op == HPCDB_REDUCE_MIN ? MPI_MIN
               : op == HPCDB_REDUCE_MAX ? MPI_MAX
                                        : MPI_BOR;
  for (uint64_t at = 0; at < n; at += PIECE / 8) {
    uint64_t k = n - at < PIECE / 8 ? n - at : PIECE / 8;
    WAITED("reduction", MPI_Iallreduce(MPI_IN_PLACE, v + at, (int)k, MPI_UINT64_T, mop, of(ctx), &req_));
  }
  return 0;
}

static int exscan_u64(void *ctx, uint64_t *v, uint64_t n) {
  uint64_t *in = malloc((n ? n : 1) * sizeof *in);
  if (!in) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  memcpy(in, v, n * sizeof *v);
  MPI_Request req;
  int rc = MPI_Iexscan(in, v, (int)n, MPI_UINT64_T, MPI_SUM, of(ctx), &req);
  rc = rc == MPI_SUCCESS ? finish(&req, 1, "prefix sum") : failed("prefix sum", rc);
  free(in);
  if (rc < 0) return rc;
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
    if (counts[r] > INT_MAX || at > INT_MAX) return too_large(what);
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
  WAITED("gather", MPI_Igather(&n, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, root, of(ctx), &req_));
  int *ic = malloc(2 * (size_t)size * sizeof *ic), rc = 0;
  if (!ic) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t total = 0;
  if (rank == root) {
    for (int r = 0; r < size; r++) total += counts[r];
    rc = int_layout(counts, size, ic, ic + size, "gather");
    if (rc == 0 && !(*out = malloc(total ? (size_t)total : 1))) rc = hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  }
  /* every rank takes part, also when the root could not: its error is agreed on after */
  MPI_Request req;
  int mrc = MPI_Igatherv(buf, (int)n, MPI_BYTE, rank == root && rc == 0 ? *out : NULL, ic, ic + size, MPI_BYTE, root,
                         of(ctx), &req);
  int wrc = mrc == MPI_SUCCESS ? finish(&req, 1, "gather") : failed("gather", mrc);
  free(ic);
  return rc < 0 ? rc : wrc;
}

static int alltoallv(void *ctx, const void *send_buf, const uint64_t *send_counts, void **recv_buf,
                     uint64_t *recv_counts) {
  int size;
  MPI_Comm_size(of(ctx), &size);
  WAITED("exchange", MPI_Ialltoall(send_counts, 1, MPI_UINT64_T, recv_counts, 1, MPI_UINT64_T, of(ctx), &req_));
  int *ic = malloc(4 * (size_t)size * sizeof *ic);
  if (!ic) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  int rc = int_layout(send_counts, size, ic, ic + size, "exchange");
  if (rc == 0) rc = int_layout(recv_counts, size, ic + 2 * size, ic + 3 * size, "exchange");
  uint64_t total = 0;
  for (int r = 0; r < size; r++) total += recv_counts[r];
  if (rc == 0 && !(*recv_buf = malloc(total ? (size_t)total : 1)))
    rc = hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory for the values received");
  if (rc == 0) {
    MPI_Request req;
    int mrc = MPI_Ialltoallv(send_buf, ic, ic + size, MPI_BYTE, *recv_buf, ic + 2 * size, ic + 3 * size, MPI_BYTE,
                             of(ctx), &req);
    rc = mrc == MPI_SUCCESS ? finish(&req, 1, "exchange") : failed("exchange", mrc);
  }
  free(ic);
  return rc;
}

/* More ranks on this node than processors: waiting ranks sleep at once. */
static void note_oversubscription(MPI_Comm comm) {
  MPI_Comm node;
  int here = 1;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return;
  MPI_Comm_size(node, &here);
  MPI_Comm_free(&node);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  spin_ns = cpus > 0 && here > cpus ? 0 : SPIN_NS;
}

void mpi_comm_table(hpcdb_comm *c, MPI_Comm *comm) {
  memset(c, 0, sizeof *c);
  note_oversubscription(*comm);
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
