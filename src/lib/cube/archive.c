/* SPDX-License-Identifier: BSD-3-Clause */
/* The members of a .cubex tar (or tar.gz) archive, through libarchive. */
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "cube/cube.h"

const char *cube_member_name(struct archive_entry *e) {
  const archive_lib *al = archive_lib_loaded();
  const char *name = al->entry_pathname(e);
  return name ? name : "";
}

/* The whole current archive member. The buffer grows as the bytes arrive
 * (from 1 MiB), so that a header claiming a huge size costs memory only for
 * the bytes that are really there. */
int cube_read_member(struct archive *ar, struct archive_entry *e, cube_member *m, const char *path) {
  const archive_lib *al = archive_lib_loaded();
  int64_t size = al->entry_size(e);
  if (size < 0 || (uint64_t)size > SIZE_MAX - 1) return hpcdb_fail(HPCDB_ECORRUPT, "%s: member of bad size", path);
  size_t want = (size_t)size, cap = want < (1u << 20) ? want : (1u << 20), got = 0;
  m->data = malloc(cap + 1);
  m->len = 0;
  while (m->data && got < want) {
    if (got == cap) { /* grow: double, at most to the declared size */
      size_t next = cap > want - cap ? want : 2 * cap;
      uint8_t *d = realloc(m->data, next + 1);
      if (!d) break;
      m->data = d, cap = next;
    }
    la_ssize_t n = al->read_data(ar, m->data + got, cap - got);
    if (n <= 0) {
      free(m->data);
      m->data = NULL;
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, cube_member_name(e), got, "archive", "short member: %s",
                           n < 0 && al->error_string(ar) ? al->error_string(ar) : "truncated");
    }
    got += (size_t)n;
  }
  if (!m->data || got < want) {
    free(m->data);
    m->data = NULL;
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for a %zu-byte member", path, want);
  }
  m->len = want;
  return 0;
}

int cube_open_archive(struct archive **out, const char *path) { return cube_open_archive_counting(out, path, NULL); }

int cube_next_member(struct archive *ar, struct archive_entry **e, const char *path) {
  const archive_lib *al = archive_lib_loaded();
  int h = al->read_next_header(ar, e);
  if (h == ARCHIVE_EOF) return 0;
  if (h == ARCHIVE_OK || h == ARCHIVE_WARN) return 1;
  /* ARCHIVE_RETRY (a damaged header) included: the entry is not usable */
  return hpcdb_fail_at(HPCDB_ECORRUPT, path, "archive", 0, "tar", "%s",
                       al->error_string(ar) ? al->error_string(ar) : "unreadable header");
}

int cube_read_anchor(cube_anchor *a, const char *path, const cube_member_index *x) {
  const cube_indexed_member *im = x ? cube_member_find(x, "anchor.xml") : NULL;
  if (im) { /* a plain tar: read where it lies */
    cube_member_view v;
    int rc = cube_member_view_open(x, im->offset, im->size, &v);
    if (rc == 0) rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "anchor.xml", 0, "archive", "short member: truncated");
    if (rc > 0) rc = cube_anchor_parse(a, v.data, v.len, path);
    cube_member_view_close(&v);
    return rc;
  }
  struct archive *ar;
  HPCDB_TRY(cube_open_archive(&ar, path));
  const archive_lib *al = archive_lib_loaded();
  struct archive_entry *e;
  int rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "archive", 0, "member-missing", "no anchor.xml in the archive"), h;
  while ((h = cube_next_member(ar, &e, path)) != 0) {
    if (h < 0) {
      rc = h;
      break;
    }
    if (strcmp(cube_member_name(e), "anchor.xml") != 0) continue;
    cube_member m;
    if ((rc = cube_read_member(ar, e, &m, path)) == 0) {
      rc = cube_anchor_parse(a, m.data, m.len, path);
      free(m.data);
    }
    break;
  }
  al->read_free(ar);
  return rc;
}
