/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_file: a file opened direct (O_DIRECT blocks, the last one cut back
 * to size) holds the same bytes as the buffered one, for sizes around the
 * block and alignment edges and writes of odd lengths, and after patches
 * in the staged block, on the disk, and across both, alone and one after
 * the other. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef int (*open_fn)(hpcdb_atomic_file *f, const char *target);

/* data[0 .. n) written in pieces of growing odd lengths, with a pad to 512 in
 * the middle (as tar members are), then committed. */
static int write_pieces(open_fn open, const char *path, const uint8_t *data, size_t n) {
  hpcdb_atomic_file f;
  int rc = open(&f, path);
  if (rc < 0) return rc;
  size_t at = 0, piece = 1;
  while (rc == 0 && at < n) {
    size_t k = n - at < piece ? n - at : piece;
    rc = atomic_file_write(&f, data + at, k);
    at += k;
    piece = piece * 3 + 7;
    if (rc == 0 && at < n && piece > 4096 && piece < 20000) atomic_file_start_writeback(&f);
  }
  if (rc == 0) rc = atomic_file_pad(&f, 512);
  if (rc < 0) {
    atomic_file_abort(&f);
    return rc;
  }
  return atomic_file_commit(&f);
}

/* data[0 .. max) written, then patched at patches[i] = (offset, length) in
 * turn, patch i with the bytes that end i bytes before the data's end (so
 * that each patch differs from what it covers), then committed. */
static int write_patched(open_fn open, const char *path, const uint8_t *data, size_t max, const size_t (*patches)[2],
                         size_t n) {
  hpcdb_atomic_file f;
  int rc = open(&f, path);
  if (rc < 0) return rc;
  rc = atomic_file_write(&f, data, max);
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = atomic_file_pwrite(&f, patches[i][0], data + max - patches[i][1] - i, patches[i][1]);
  if (rc < 0) {
    atomic_file_abort(&f);
    return rc;
  }
  return atomic_file_commit(&f);
}

int main(void) {
  const char *dir = testlib_tmpdir("atomic_file");
  size_t max = (9u << 20) + 4097;
  uint8_t *data = malloc(max);
  CHECK(data != NULL);
  if (!data) return TEST_END();
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < max; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    data[i] = (uint8_t)x;
  }
  const size_t sizes[] = {0, 1, 511, 4096, 4097, (4u << 20) - 1, 4u << 20, (4u << 20) + 1, (8u << 20) + 513, max};
  char direct[1024], buffered[1024];
  snprintf(direct, sizeof direct, "%s/direct.bin", dir);
  snprintf(buffered, sizeof buffered, "%s/buffered.bin", dir);
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    CHECK_RC(write_pieces(atomic_file_open_direct, direct, data, sizes[i]));
    CHECK_RC(write_pieces(atomic_file_open, buffered, data, sizes[i]));
    uint8_t *back = NULL;
    size_t len = 0;
    CHECK_RC(testlib_read_file(direct, &back, &len));
    CHECK(len == (sizes[i] + 511) / 512 * 512 && (sizes[i] == 0 || memcmp(back, data, sizes[i]) == 0));
    free(back);
    CHECK(testlib_same_file(direct, buffered));
  }

  /* patches: (offset, length) in a file of max bytes, whose last block
   * (from 8 MiB) is still staged when they are made */
  const size_t patches[][2] = {{0, 10},
                               {4095, 2},
                               {4096, 4096},
                               {100, 9000},
                               {5000, 3 << 20},
                               {(4u << 20) - 7, 20},
                               {(8u << 20) - 100, 300},
                               {(8u << 20) + 5, 1000},
                               {max - 1, 1},
                               {1, (1u << 20) * 3 + 4097}};
  for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
    CHECK_RC(write_patched(atomic_file_open_direct, direct, data, max, &patches[i], 1));
    CHECK_RC(write_patched(atomic_file_open, buffered, data, max, &patches[i], 1));
    CHECK(testlib_same_file(direct, buffered));
  }
  /* patches one after the other in one file, as cct.db's {CI}: each starting
   * in the page the one before ended in (kept in memory, not read back), the
   * file's first page, a page patched again, one across the staged block */
  const size_t runs[][2] = {{16, 100},  {116, 5000}, {5116, 4000}, {9116, 1},  {9117, 3 << 20},     {0, 8},
                            {4090, 10}, {4100, 4},   {8, 20},      {9100, 30}, {(8u << 20) - 9, 30}};
  size_t n_runs = sizeof runs / sizeof *runs;
  CHECK_RC(write_patched(atomic_file_open_direct, direct, data, max, runs, n_runs));
  CHECK_RC(write_patched(atomic_file_open, buffered, data, max, runs, n_runs));
  CHECK(testlib_same_file(direct, buffered));

  hpcdb_atomic_file f;
  CHECK_RC(atomic_file_open_direct(&f, direct));
  CHECK_RC(atomic_file_write(&f, data, 100));
  CHECK(atomic_file_pwrite(&f, 95, data, 10) == HPCDB_EINVAL); /* past the bytes written */
  atomic_file_abort(&f);
  free(data);
  return TEST_END();
}
