/* hpcdb_cube_write: a model as a tar archive of anchor.xml and, per metric,
 * <id>.index and <id>.data, made one metric at a time (memory: one metric's
 * cnodes x locations). Members carry mtime 0 so that equal models give
 * byte-identical files. */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "cube/cube_write.h"

static la_ssize_t to_file(struct archive *ar, void *user, const void *data, size_t n) {
  (void)ar;
  return atomic_file_write(user, data, n) < 0 ? -1 : (la_ssize_t)n;
}

static int add_member(struct archive *ar, const char *name, const cube_buf *b, const char *path) {
  struct archive_entry *e = archive_entry_new();
  if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  archive_entry_set_pathname(e, name);
  archive_entry_set_size(e, (la_int64_t)b->len);
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_entry_set_mtime(e, 0, 0);
  int rc = 0;
  if (archive_write_header(ar, e) != ARCHIVE_OK ||
      (b->len && archive_write_data(ar, b->data, b->len) != (la_ssize_t)b->len))
    rc = hpcdb_fail_at(HPCDB_EIO, path, name, 0, "write", "%s", archive_error_string(ar));
  archive_entry_free(e);
  return rc;
}

static int write_members(struct archive *ar, const hpcdb_experiment *exp, const char *path, int compress) {
  cube_tree t;
  cube_metric_plan *plans = NULL;
  uint32_t n_plans = 0;
  cube_buf anchor = {0};
  int rc = cube_tree_build(&t, exp);
  if (rc == 0) rc = cube_plan_metrics(exp, &plans, &n_plans);
  if (rc == 0) rc = cube_write_anchor(&anchor, exp, &t, plans, n_plans);
  if (rc == 0) rc = add_member(ar, "anchor.xml", &anchor, path);
  cube_buf_free(&anchor);
  for (uint32_t k = 0; k < n_plans && rc == 0; k++) {
    cube_buf index = {0}, data = {0};
    char name[32];
    rc = cube_write_values(&index, &data, exp, &t, &plans[k], compress);
    snprintf(name, sizeof name, "%u.index", k);
    if (rc == 0) rc = add_member(ar, name, &index, path);
    snprintf(name, sizeof name, "%u.data", k);
    if (rc == 0) rc = add_member(ar, name, &data, path);
    cube_buf_free(&index);
    cube_buf_free(&data);
  }
  free(plans);
  cube_tree_free(&t);
  return rc;
}

int hpcdb_cube_write(const hpcdb_experiment *exp, const char *path, const hpcdb_cube_write_options *options) {
  hpcdb_cube_write_options none = {0, 0};
  if (!options) options = &none;
  struct stat st;
  if (!(options->flags & HPCDB_WRITE_FORCE) && stat(path, &st) == 0)
    return hpcdb_fail(HPCDB_EINVAL, "%s: exists (use --force to replace it)", path);
  hpcdb_atomic_file f;
  HPCDB_TRY(atomic_file_open(&f, path));
  struct archive *ar = archive_write_new();
  int rc = ar ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0 && (archive_write_set_format_pax_restricted(ar) != ARCHIVE_OK ||
                  archive_write_open2(ar, &f, NULL, to_file, NULL, NULL) != ARCHIVE_OK))
    rc = hpcdb_fail(HPCDB_EIO, "%s: cannot start a tar archive: %s", path, archive_error_string(ar));
  if (rc == 0) rc = write_members(ar, exp, path, options->compress);
  if (rc == 0 && archive_write_close(ar) != ARCHIVE_OK)
    rc = hpcdb_fail(HPCDB_EIO, "%s: %s", path, archive_error_string(ar));
  if (ar) archive_write_free(ar);
  if (rc == 0) return atomic_file_commit(&f);
  atomic_file_abort(&f);
  return rc;
}
