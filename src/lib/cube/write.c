/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_cube_write: a model as a tar archive of anchor.xml and, per metric,
 * <id>.index and <id>.data, made one metric at a time (memory: two metrics'
 * cnodes x locations, one filled while the other is written), then the members of the Cube file it was read from
 * that hpcdb does not interpret (write_carry.c). Members carry mtime 0 so that equal models give
 * byte-identical files. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common/archive_lib.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/worker.h"
#include "cube/cube_write.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"

static la_ssize_t to_file(struct archive *ar, void *user, const void *data, size_t n) {
  (void)ar;
  return atomic_file_write(user, data, n) < 0 ? -1 : (la_ssize_t)n;
}

/* libarchive's reason; it has none when it could not even allocate its message */
static const char *archive_why(const archive_lib *al, struct archive *ar) {
  const char *why = ar ? al->error_string(ar) : NULL;
  return why ? why : "out of memory (libarchive gave no reason)";
}

static int add_header(struct archive *ar, const char *name, uint64_t size, const char *path) {
  const archive_lib *al = archive_lib_loaded();
  struct archive_entry *e = al->entry_new();
  if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  al->entry_set_pathname(e, name);
  al->entry_set_size(e, (la_int64_t)size);
  al->entry_set_filetype(e, AE_IFREG);
  al->entry_set_perm(e, 0644);
  al->entry_set_mtime(e, 0, 0);
  int rc = al->write_header(ar, e) == ARCHIVE_OK
               ? 0
               : hpcdb_fail_at(HPCDB_EIO, path, name, 0, "write", "%s", archive_why(al, ar));
  al->entry_free(e);
  return rc;
}

typedef struct member_sink {
  struct archive *ar;
  const char *name, *path;
} member_sink;

static int to_member(void *user, const void *data, size_t n) {
  const archive_lib *al = archive_lib_loaded();
  member_sink *m = user;
  if (n == 0 || al->write_data(m->ar, data, n) == (la_ssize_t)n) return 0;
  return hpcdb_fail_at(HPCDB_EIO, m->path, m->name, 0, "write", "%s", archive_why(al, m->ar));
}

static int add_member(struct archive *ar, const char *name, const cube_buf *b, const char *path) {
  member_sink m = {ar, name, path};
  HPCDB_TRY(add_header(ar, name, b->len, path));
  return to_member(&m, b->data, b->len);
}

/* Metric k's .index and .data from its filled rows; plain data goes from the
 * rows to the archive without another copy of the metric's values. */
static int put_metric(struct archive *ar, uint32_t k, const cube_metric_rows *rows, const char *path, int compress) {
  char name[32];
  cube_buf index = {0}, data = {0};
  int rc = cube_write_index(&index, rows);
  snprintf(name, sizeof name, "%u.index", k);
  if (rc == 0) rc = add_member(ar, name, &index, path);
  snprintf(name, sizeof name, "%u.data", k);
  if (rc == 0 && compress) {
    rc = cube_write_data_compressed(&data, rows);
    if (rc == 0) rc = add_member(ar, name, &data, path);
  } else if (rc == 0) {
    member_sink m = {ar, name, path};
    rc = add_header(ar, name, cube_data_size(rows), path);
    if (rc == 0) rc = cube_write_data(rows, to_member, &m);
  }
  cube_buf_free(&index);
  cube_buf_free(&data);
  return rc;
}

/* A metric written on the writer thread while the next one is filled. */
typedef struct metric_job {
  struct archive *ar;
  hpcdb_atomic_file *f;
  const char *path;
  int compress;
  uint32_t k;
  const cube_metric_rows *rows;
  int rc;
  char error[1024]; /* the thread's message (messages are per thread) */
} metric_job;

static void *write_job(void *arg) {
  metric_job *j = arg;
  j->rc = put_metric(j->ar, j->k, j->rows, j->path, j->compress);
  if (j->rc == 0)
    atomic_file_start_writeback(j->f); /* the disk (and its cache's flush) works while the next metric is filled */
  if (j->rc < 0) snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
  return NULL;
}

/* Waits for the metric being written; its failure becomes this thread's. */
static int finish_job(worker_thread *writer, metric_job *j) {
  if (!writer->started) return 0;
  worker_join(writer);
  return j->rc < 0 ? hpcdb_fail(j->rc, "%s", j->error) : 0;
}

/* Every metric's members, in order: metric k + 1 is filled into the other
 * rows buffer while metric k goes out (memory: two metrics' cnodes x
 * locations). A metric without a non-zero value gets neither member (as
 * Score-P and CubeW write it; an index listing no cnode is refused by
 * pycubexr, and readers take a metric without members as zero everywhere). */
static int add_metrics(struct archive *ar, hpcdb_atomic_file *f, const hpcdb_experiment *exp, const cube_tree *t,
                       const cube_metric_plan *plans, uint32_t n_plans, const char *path, int compress) {
  cube_metric_rows rows[2] = {{0}};
  metric_job job;
  worker_thread writer = {.started = 0};
  int rc = 0;
  for (uint32_t k = 0; k < n_plans && rc == 0; k++) {
    cube_metric_rows *r = &rows[k & 1];
    rc = cube_metric_rows_fill(r, exp, t, &plans[k]);
    int done = finish_job(&writer, &job);
    if (rc == 0) rc = done;
    if (rc < 0 || r->n_listed == 0) continue;
    job = (metric_job){ar, f, path, compress, k, r, 0, ""};
    if (!worker_start(&writer, 1, write_job, &job)) { /* no thread: written here */
      write_job(&job);
      rc = job.rc;
    }
  }
  int done = finish_job(&writer, &job);
  if (rc == 0) rc = done;
  cube_metric_rows_free(&rows[0]);
  cube_metric_rows_free(&rows[1]);
  return rc;
}

typedef struct carry_sink {
  struct archive *ar;
  const char *path;
  char name[1024];
  member_sink m;
} carry_sink;

static int carry_header(void *user, const char *name, uint64_t size) {
  carry_sink *c = user;
  snprintf(c->name, sizeof c->name, "%s", name);
  c->m = (member_sink){c->ar, c->name, c->path};
  return add_header(c->ar, name, size, c->path);
}

static int carry_data(void *user, const void *data, size_t n) {
  carry_sink *c = user;
  return to_member(&c->m, data, n);
}

static int write_members(struct archive *ar, hpcdb_atomic_file *f, const hpcdb_experiment *exp, const char *path,
                         int compress) {
  cube_tree t;
  cube_metric_plan *plans = NULL;
  uint32_t n_plans = 0;
  cube_buf anchor = {0};
  int rc = cube_tree_build(&t, exp);
  if (rc == 0) rc = cube_plan_metrics(exp, &plans, &n_plans);
  if (rc == 0) rc = cube_write_anchor(&anchor, exp, &t, plans, n_plans);
  if (rc == 0) rc = add_member(ar, "anchor.xml", &anchor, path);
  cube_buf_free(&anchor);
  if (rc == 0) rc = add_metrics(ar, f, exp, &t, plans, n_plans, path, compress);
  carry_sink carry = {.ar = ar, .path = path};
  cube_member_writer w = {carry_header, carry_data, &carry, NULL};
  if (rc == 0) rc = cube_carry_members(exp, &w);
  free(plans);
  cube_tree_free(&t);
  return rc;
}

int hpcdb_cube_write(const hpcdb_experiment *exp, const char *path, const hpcdb_cube_write_options *options) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_CUBE_WRITE_OPTIONS_VERSION, "hpcdb_cube_write_options");
  hpcdb_cube_write_options none = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, 0};
  if (!options) options = &none;
  struct stat st;
  if (!(options->flags & HPCDB_WRITE_FORCE) && stat(path, &st) == 0)
    return hpcdb_fail(HPCDB_EINVAL, "%s: exists (use --force to replace it)", path);
  const archive_lib *al = archive_lib_open(path);
  if (!al) return HPCDB_EIO;
  hpcdb_atomic_file f;
  /* direct: the rows go to the disk without a copy of the file in the page cache (fresh memory, expensive to touch in a VM) */
  HPCDB_TRY(atomic_file_open_output(&f, path, options->flags & HPCDB_WRITE_FORCE));
  atomic_file_make_direct(&f);
  struct archive *ar = al->write_new();
  int rc = ar ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  /* large blocks: fewer writes; the last one padded as tar's default 10240 */
  if (rc == 0 && (al->write_set_format_pax_restricted(ar) != ARCHIVE_OK ||
                  al->write_set_bytes_per_block(ar, 1 << 20) != ARCHIVE_OK ||
                  al->write_set_bytes_in_last_block(ar, 10240) != ARCHIVE_OK ||
                  al->write_open2(ar, &f, NULL, to_file, NULL, NULL) != ARCHIVE_OK))
    rc = hpcdb_fail(HPCDB_EIO, "%s: cannot start a tar archive: %s", path, archive_why(al, ar));
  if (rc == 0) rc = write_members(ar, &f, exp, path, options->compress);
  if (rc == 0 && al->write_close(ar) != ARCHIVE_OK) rc = hpcdb_fail(HPCDB_EIO, "%s: %s", path, archive_why(al, ar));
  if (ar) al->write_free(ar);
  if (rc == 0) return atomic_file_commit(&f);
  atomic_file_abort(&f);
  return rc;
}
