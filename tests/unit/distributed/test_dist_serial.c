/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_analyze_dist with a table of one rank and no MPI (every collective is
 * a copy): the whole distributed path in one process, so the sanitizers see
 * all of it (the MPI runs in tests/mpi see MPI's own allocations too), and
 * its database is byte-identical to hpcdb_analyze's. Also: a failing
 * checkpoint fails the run with its message and leaves nothing behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/analysis_dist.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static int bcast(void *ctx, void *buf, uint64_t n, int root) { return 0; }
static int send(void *ctx, const void *buf, uint64_t n, int dest) { return hpcdb_comm_fail(HPCDB_EINVAL, "no peer"); }
static int recv(void *ctx, int src, void **buf, uint64_t *n) { return hpcdb_comm_fail(HPCDB_EINVAL, "no peer"); }
static int allreduce(void *ctx, uint64_t *v, uint64_t n, hpcdb_reduce_op op) { return 0; }
static int exscan(void *ctx, uint64_t *v, uint64_t n) {
  memset(v, 0, n * sizeof *v);
  return 0;
}
static int copy_out(const void *buf, uint64_t n, void **out) {
  if (!(*out = malloc(n ? n : 1))) return hpcdb_comm_fail(HPCDB_ENOMEM, "out of memory");
  if (n) memcpy(*out, buf, n);
  return 0;
}
static int gatherv(void *ctx, const void *buf, uint64_t n, int root, void **out, uint64_t *counts) {
  counts[0] = n;
  return copy_out(buf, n, out);
}
static int alltoallv(void *ctx, const void *send_buf, const uint64_t *send_counts, void **recv_buf,
                     uint64_t *recv_counts) {
  recv_counts[0] = send_counts[0];
  return copy_out(send_buf, send_counts[0], recv_buf);
}
static int fail_at_write(void *ctx, const char *phase) {
  return strcmp(phase, "write") ? 0 : hpcdb_comm_fail(HPCDB_EIO, "injected at write");
}

static const hpcdb_comm serial = {0, 1, NULL, bcast, send, recv, allreduce, exscan, gatherv, alltoallv, NULL};

static void same_database(const char *a, const char *b) {
  static const char *const files[] = {"meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml"};
  for (int i = 0; i < 5; i++) {
    int same = testlib_same_in_dirs(a, b, files[i]);
    if (!same) fprintf(stderr, "%s differs\n", files[i]);
    CHECK(same);
  }
}

static void one(const char *name, int all_stats, unsigned threads) {
  char meas[512], ref[512], dist[512];
  snprintf(meas, sizeof meas, "%s", testlib_sample(name));
  const char *dir = testlib_tmpdir("dist_serial");
  snprintf(ref, sizeof ref, "%s/ref", dir);
  snprintf(dist, sizeof dist, "%s/dist", dir);
  hpcdb_analyze_options opt = {.threads = threads, .all_stats = all_stats, .output = ref};
  hpcdb_experiment *exp = NULL;
  CHECK_RC(hpcdb_analyze(&exp, meas, &opt, NULL, NULL, NULL));
  hpcdb_experiment_free(exp);
  opt.output = dist;
  hpcdb_analyze_result res;
  uint64_t sent = 1;
  CHECK_RC(hpcdb_analyze_dist(&serial, meas, &opt, NULL, NULL, &res, &sent));
  CHECK(sent == 0);
  CHECK(res.profiles_read > 0);
  same_database(ref, dist);

  hpcdb_comm failing = serial; /* a failure: its message, no database, no temporary directory */
  failing.checkpoint = fail_at_write;
  snprintf(dist, sizeof dist, "%s/failed", dir);
  opt.output = dist;
  CHECK(hpcdb_analyze_dist(&failing, meas, &opt, NULL, NULL, NULL, NULL) == HPCDB_EIO);
  CHECK(strstr(hpcdb_last_error(), "injected at write") != NULL);
  struct stat st;
  char temp[600];
  CHECK(stat(dist, &st) != 0);
  CHECK(hpcdb_analyze_dist_temp(dist, temp, sizeof temp) == 0 && stat(temp, &st) != 0);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  one("hpcrun/small.m", 0, 1);
  one("hpcrun/loops-cputime-t.m", 1, 2);
  one("hpcrun/loops-cuda-nvidia-t.m", 0, 3);
  return TEST_END();
}
