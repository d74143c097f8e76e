/* SPDX-License-Identifier: BSD-3-Clause */
/* Members of the Cube file a model was read from that hpcdb does not
 * interpret (remapping.spec, which CubeLib uses for derived metrics, or any
 * other file a tool put there) carried into the file being written, after the
 * metrics and byte for byte. Members hpcdb writes itself (anchor.xml and
 * <id>.index / <id>.data) are not carried: their content comes from the model. */
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "cube/cube_write.h"

/* anchor.xml, or <digits>.index / <digits>.data. */
static int written_by_hpcdb(const char *name) {
  if (!strcmp(name, "anchor.xml")) return 1;
  size_t digits = strspn(name, "0123456789");
  return digits > 0 && (!strcmp(name + digits, ".index") || !strcmp(name + digits, ".data"));
}

static int copy_member(struct archive *in, struct archive_entry *e, cube_member_writer *w) {
  const archive_lib *al = archive_lib_loaded();
  const char *name = cube_member_name(e);
  int64_t size = al->entry_size(e);
  if (size < 0) return hpcdb_fail_at(HPCDB_ECORRUPT, w->origin, name, 0, "archive", "member of bad size");
  HPCDB_TRY(w->header(w->user, name, (uint64_t)size));
  uint8_t buf[1 << 16];
  for (int64_t left = size; left > 0;) {
    la_ssize_t got = al->read_data(in, buf, sizeof buf);
    if (got <= 0 || got > left)
      return hpcdb_fail_at(HPCDB_ECORRUPT, w->origin, name, (uint64_t)(size - left), "archive", "short member: %s",
                           al->error_string(in) ? al->error_string(in) : "truncated");
    HPCDB_TRY(w->data(w->user, buf, (size_t)got));
    left -= got;
  }
  return 0;
}

int cube_carry_members(const hpcdb_experiment *exp, cube_member_writer *w) {
  if (!exp->origin || !exp->format || strcmp(exp->format, "cube") != 0) return 0;
  w->origin = exp->origin;
  struct archive *in;
  HPCDB_TRY(cube_open_archive(&in, exp->origin));
  const archive_lib *al = archive_lib_loaded();
  struct archive_entry *e;
  int rc = 0;
  for (;;) {
    int h = al->read_next_header(in, &e);
    if (h == ARCHIVE_EOF) break;
    if (h != ARCHIVE_OK && h != ARCHIVE_WARN) { /* ARCHIVE_RETRY: a damaged header */
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, exp->origin, "archive", 0, "tar", "%s", al->error_string(in));
      break;
    }
    if (al->entry_filetype(e) != AE_IFREG || written_by_hpcdb(cube_member_name(e))) continue;
    if ((rc = copy_member(in, e, w)) < 0) break;
  }
  al->read_free(in);
  return rc;
}
