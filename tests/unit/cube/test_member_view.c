/* A member's bytes through the member index: cube_member_view_load (a copy,
 * on 2 MiB pages when the member is that large) gives the same bytes as
 * cube_member_view_open (a mapping) and as were written, for a member of
 * 3 MiB and one of 100 bytes (which stays a mapping); bytes past the file's
 * end are refused. */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube/cube.h"
#include "testlib.h"

typedef struct named_bytes {
  const char *name;
  uint8_t *data;
  size_t len;
} named_bytes;

static void write_tar(const char *path, const named_bytes *m, int n) {
  struct archive *a = archive_write_new();
  int ok = a && archive_write_set_format_ustar(a) == ARCHIVE_OK && archive_write_open_filename(a, path) == ARCHIVE_OK;
  for (int i = 0; ok && i < n; i++) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, m[i].name);
    archive_entry_set_size(e, (la_int64_t)m[i].len);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    ok = archive_write_header(a, e) == ARCHIVE_OK && archive_write_data(a, m[i].data, m[i].len) == (la_ssize_t)m[i].len;
    archive_entry_free(e);
  }
  if (a) ok = archive_write_close(a) == ARCHIVE_OK && ok, archive_write_free(a);
  CHECK(ok);
}

int main(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/members.tar", testlib_tmpdir("unit-cube-member-view"));
  named_bytes m[2] = {{"small", malloc(100), 100}, {"big", malloc((3u << 20) + 123), (3u << 20) + 123}};
  CHECK(m[0].data && m[1].data);
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < m[k].len; i++) m[k].data[i] = (uint8_t)(i * 2654435761u >> 13);
  write_tar(path, m, 2);
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
  free(m[0].data);
  free(m[1].data);
  return TEST_END();
}
