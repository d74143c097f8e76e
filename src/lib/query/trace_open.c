/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening a trace set: trace.db in place (mapped, its index from the cache
 * or built and cached), or the model's traces (index built in memory). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "query/source_internal.h"
#include "query/trace_internal.h"

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static int open_in_place(hpcdb_trace_set *t, const char *dir, const hpcdb_trace_options *o) {
  t->trace_path = join(dir, "trace.db");
  t->meta_path = join(dir, "meta.db");
  if (!t->trace_path || !t->meta_path) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  t->fd = open(t->trace_path, O_RDONLY | O_CLOEXEC);
  if (t->fd < 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot open", t->trace_path);
  HPCDB_TRY(trace_file_key_of(&t->trace_key, t->fd, t->trace_path));
  if (trace_file_key_of(&t->meta_key, -1, t->meta_path) != 0) memset(&t->meta_key, 0, sizeof t->meta_key);
  HPCDB_TRY(mapped_file_open(&t->map, t->trace_path));
  if (t->map.len != t->trace_key.size)
    return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path, "file", 0, "changed-after-open",
                         "the file changed size while it was being opened; open it again");
  HPCDB_TRY(trace_v4_lines(t, t->trace_path));
  int cached = (o && (o->flags & HPCDB_TRACE_NO_CACHE)) ? 0 : trace_cache_load(t, o);
  if (cached > 0) {
    t->from_cache = 1;
    return 0;
  }
  return trace_index_build(t, o, !(o && (o->flags & HPCDB_TRACE_NO_CACHE)));
}

static int open_model(hpcdb_trace_set *t, const hpcdb_trace_options *o) {
  const hpcdb_experiment *e = t->exp;
  t->lines = calloc(e->n_traces ? e->n_traces : 1, sizeof *t->lines);
  if (!t->lines) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  t->n_lines = e->n_traces;
  for (uint32_t i = 0; i < e->n_traces; i++) {
    const hpcdb_trace *tr = &e->traces[i];
    t->lines[i] =
        (trace_line){.profile = tr->profile, .n = tr->n, .raw_off = i, .ts = tr->timestamps, .ctx = tr->ctx_ids};
  }
  return trace_index_build(t, o, 0);
}

int hpcdb_trace_open(hpcdb_trace_set **out, const hpcdb_experiment *exp, const char *db_dir,
                     const hpcdb_trace_options *options) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_TRACE_OPTIONS_VERSION, "hpcdb_trace_options");
  *out = NULL;
  hpcdb_trace_set *t = calloc(1, sizeof *t);
  if (!t) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  t->exp = exp;
  t->fd = -1;
  int rc = trace_ctxmap_build(t);
  char *probe = db_dir ? join(db_dir, "trace.db") : NULL;
  int in_place = probe && access(probe, F_OK) == 0;
  free(probe);
  if (rc == 0 && in_place) rc = open_in_place(t, db_dir, options);
  else if (rc == 0 && exp->n_traces) rc = open_model(t, options);
  else if (rc == 0) rc = hpcdb_fail(HPCDB_EINVAL, "%s has no traces", db_dir ? db_dir : "the experiment");
  for (uint32_t i = 0; rc == 0 && i < t->n_lines; i++) {
    const trace_line *l = &t->lines[i];
    t->n_events += l->n;
    if (!l->n) continue;
    if (t->t_max == 0 || l->lo < t->t_min) t->t_min = l->lo;
    if (l->hi > t->t_max) t->t_max = l->hi;
  }
  if (rc != 0) {
    hpcdb_trace_close(t);
    return rc;
  }
  *out = t;
  return 0;
}

int hpcdb_trace_open_source(hpcdb_trace_set **out, hpcdb_source *src, const hpcdb_trace_options *options) {
  const char *dir = src->format == HPCDB_FORMAT_HPCTK4_DIR ? src->path : NULL;
  HPCDB_TRY(hpcdb_trace_open(out, src->q.exp, dir, options));
  (*out)->owner = hpcdb_source_ref(src);
  return 0;
}

void hpcdb_trace_close(hpcdb_trace_set *t) {
  if (!t) return;
  mapped_file_close(&t->map);
  if (t->fd >= 0) close(t->fd);
  free(t->trace_path);
  free(t->meta_path);
  free(t->lines);
  free(t->dir);
  trace_pyr_release(t);
  mapped_file_close(&t->cache_map);
  free(t->idx_of_id);
  free(t->depth);
  free(t->frame_of);
  free(t->frame_depth);
  free(t->cache_path);
  hpcdb_source_close(t->owner); /* last: the experiment is the source's */
  free(t);
}

const hpcdb_experiment *hpcdb_trace_experiment(const hpcdb_trace_set *t) { return t->exp; }

void hpcdb_trace_get_info(const hpcdb_trace_set *t, hpcdb_trace_info *out) {
  *out = (hpcdb_trace_info){t->n_lines,    t->n_events,  t->t_min, t->t_max, t->map.data != NULL || t->fd >= 0,
                            t->from_cache, t->cache_path};
}

int hpcdb_trace_row(const hpcdb_trace_set *t, uint32_t row, uint32_t *profile, uint64_t *n_events) {
  if (row >= t->n_lines) return hpcdb_fail(HPCDB_EINVAL, "row %u does not exist (%u rows)", row, t->n_lines);
  *profile = t->lines[row].profile;
  *n_events = t->lines[row].n;
  return 0;
}

uint32_t hpcdb_trace_row_of_profile(const hpcdb_trace_set *t, uint32_t profile) {
  uint32_t lo = 0, hi = t->n_lines;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->lines[mid].profile < profile) lo = mid + 1;
    else hi = mid;
  }
  return lo < t->n_lines && t->lines[lo].profile == profile ? lo : HPCDB_NONE;
}
