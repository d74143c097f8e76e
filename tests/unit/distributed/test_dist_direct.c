/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_direct: three ranks' runs of one file, written as cct.db's are (front
 * to back, with gaps of padding, each run's ends sharing a page with the
 * next run's), give the bytes plain pwrites give: whole pages direct, the
 * shared ones buffered, gaps zero. Also a run smaller than a page, a run
 * written not at all, and a write behind the run's last refused; and runs
 * copied from another file (dist_direct_copy), as profile.db's blocks are
 * from the ranks' spills. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distributed/dist.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define SIZE (3u * 4096u * 1024u + 777u) /* 12 MiB and a part page: runs of about 4 MiB, over the block size */

static uint8_t expected[SIZE];

/* Run [begin, end) written in pieces of 1..5000 bytes with a gap of 0..3 zero bytes before each, as
 * blocks at 4-byte boundaries are; the pieces hold pattern bytes. */
static void write_run(int fd, const char *path, uint64_t begin, uint64_t end, unsigned seed) {
  dist_direct w;
  dist_direct_open(&w, fd, path, "test file", begin, end);
  srand(seed);
  for (uint64_t at = begin; at < end;) {
    uint64_t gap = (uint64_t)(rand() % 4), n = 1 + (uint64_t)(rand() % 5000);
    if (at + gap >= end) break;
    at += gap;
    if (n > end - at) n = end - at;
    uint8_t piece[5000];
    for (uint64_t i = 0; i < n; i++) piece[i] = (uint8_t)(1 + (at + i) % 251);
    memcpy(expected + at, piece, n);
    CHECK_RC(dist_direct_write(&w, at, piece, n));
    at += n;
  }
  CHECK_RC(dist_direct_finish(&w));
}

int main(void) {
  char path[] = "test_dist_direct_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  memset(expected, 0, sizeof expected);
  /* runs that start and end inside pages, one of them at a page boundary */
  uint64_t cut[] = {100, 4096u * 1000u + 13u, 4096u * 2000u, SIZE - 10};
  for (int r = 0; r < 3; r++) write_run(fd, path, cut[r], cut[r + 1], (unsigned)r + 1);
  write_run(fd, path, 10, 90, 9); /* smaller than a page: all buffered */
  dist_direct empty;              /* opened and finished with nothing written: its pages stay zeros */
  dist_direct_open(&empty, fd, path, "test file", SIZE - 10, SIZE);
  CHECK_RC(dist_direct_finish(&empty));
  CHECK(ftruncate(fd, SIZE) == 0);

  static uint8_t got[SIZE];
  CHECK(pread(fd, got, SIZE, 0) == (ssize_t)SIZE);
  CHECK(memcmp(got, expected, SIZE) == 0);

  /* the same bytes copied from that file into a second one, in runs cut elsewhere */
  char copy_path[] = "test_dist_direct_copy_XXXXXX";
  int copy_fd = mkstemp(copy_path);
  CHECK(copy_fd >= 0);
  uint64_t copy_cut[] = {0, 50, 4096u * 777u, 4096u * 1500u + 5u, SIZE}; /* the first smaller than a page */
  for (int r = 0; r < 4; r++) {
    dist_direct run;
    dist_direct_open(&run, copy_fd, copy_path, "copy", copy_cut[r], copy_cut[r + 1]);
    CHECK_RC(dist_direct_copy(&run, fd, "test file", copy_cut[r], copy_cut[r], copy_cut[r + 1] - copy_cut[r]));
    CHECK_RC(dist_direct_finish(&run));
  }
  memset(got, 0xee, SIZE);
  CHECK(pread(copy_fd, got, SIZE, 0) == (ssize_t)SIZE);
  CHECK(memcmp(got, expected, SIZE) == 0);
  close(copy_fd);
  unlink(copy_path);

  dist_direct w;
  dist_direct_open(&w, fd, path, "test file", 0, 3 * 4096);
  uint8_t b[8] = {0};
  CHECK_RC(dist_direct_write(&w, 5000, b, sizeof b));
  CHECK(dist_direct_write(&w, 4000, b, sizeof b) == HPCDB_EINVAL); /* behind the last */
  CHECK(strstr(hpcdb_last_error(), "behind") != NULL);
  dist_direct_close(&w);

  close(fd);
  unlink(path);
  return TEST_END();
}
