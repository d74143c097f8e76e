/* SPDX-License-Identifier: BSD-3-Clause */
/* A member's bytes through the member index: cube_member_view_load (a copy,
 * on 2 MiB pages when the member is that large) gives the same bytes as
 * cube_member_view_open (a mapping) and as were written, for a member of
 * 5 MiB and one of 100 bytes (which stays a mapping); bytes past the file's
 * end are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube/cube.h"
#include "testlib.h"

int main(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/members.tar", testlib_tmpdir("unit-cube-member-view"));
  size_t lens[2] = {100, (5u << 20) + 123};
  uint8_t *bytes[2] = {malloc(lens[0]), malloc(lens[1])};
  CHECK(bytes[0] && bytes[1]);
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < lens[k]; i++) bytes[k][i] = (uint8_t)(i * 2654435761u >> 13);
  testlib_member m[2] = {{"small", bytes[0], lens[0]}, {"big", bytes[1], lens[1]}};
  CHECK(testlib_write_tar(path, m, 2) == 0);
  cube_member_index x;
  CHECK(cube_member_index_build(&x, path) == 0);
  CHECK(x.n == 2);
  for (int k = 0; k < 2; k++) {
    const cube_indexed_member *im = cube_member_find(&x, m[k].name);
    CHECK(im != NULL && im->size == m[k].len);
    cube_member_view loaded, mapped;
    CHECK(cube_member_view_load(&x, im->offset, im->size, &loaded) == 1);
    CHECK(cube_member_view_open(&x, im->offset, im->size, &mapped) == 1);
    CHECK(loaded.len == m[k].len && mapped.len == m[k].len);
    CHECK(memcmp(loaded.data, m[k].data, m[k].len) == 0);
    CHECK(memcmp(mapped.data, m[k].data, m[k].len) == 0);
    cube_member_view_close(&loaded);
    cube_member_view_close(&mapped);
    cube_member_view past; /* bytes beyond the file's end: 0, nothing left to release */
    CHECK(cube_member_view_load(&x, im->offset, x.file_size, &past) == 0);
    cube_member_view_close(&past);
  }
  cube_member_index_free(&x);
  free(bytes[0]);
  free(bytes[1]);
  return TEST_END();
}
