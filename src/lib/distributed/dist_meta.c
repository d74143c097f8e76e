/* SPDX-License-Identifier: BSD-3-Clause */
/* The traces, and what rank 0 needs of every rank to write the rest.
 *
 * Once the run's tree is built (the files are registered by then), each rank
 * sends rank 0 its profiles' identities, its kind names, title, time range and
 * warnings (dist_describe); rank 0 completes the experiment as hpcdb_analyze
 * would have it (profiles in file order, kind names and title from the first
 * file that has them) and gives the warnings. Each rank writes its trace lines
 * at offsets agreed by a prefix sum (lines follow the headers one after
 * another, each at an 8-byte boundary), then sends rank 0 its profiles' block
 * sizes and its traces' headers (dist_finish); rank 0 writes meta.db,
 * metrics/, the profile.db sections after the values, trace.db's headers and
 * the footers (last: meta.db's buffers are not held beside the values'). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distributed/dist.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/hashmap.h"

#define TRACE_ELEM 12

static uint64_t align8(uint64_t x) { return (x + 7) / 8 * 8; }

/* Where trace.db's lines start for n traces (after its header, section header and {CTH}s). */
static uint64_t trace_lines_at(uint64_t n) { return align8(HPCTK4_HEADER_SIZE(1) + 0x20 + 24 * n); }

int dist_write_traces(dist_run *d) {
  const hpcdb_experiment *exp = d->exp;
  uint64_t local[2] = {exp->n_traces, 0}, total[2];
  for (uint32_t i = 0; i < exp->n_traces; i++) {
    hpctk4_trace_desc t;
    hpctk4_trace_describe(&exp->traces[i], &t);
    local[1] += align8(TRACE_ELEM * t.kept);
  }
  memcpy(total, local, sizeof total);
  HPCDB_TRY(dist_allreduce(d, total, 2, HPCDB_REDUCE_SUM));
  HPCDB_TRY(dist_exscan(d, local, 2));
  d->trace_base = local[0];
  d->n_traces = total[0];
  uint64_t at = trace_lines_at(total[0]) + local[1], cap = 0;
  uint8_t *buf = NULL;
  int rc = 0;
  for (uint32_t i = 0; i < exp->n_traces && rc == 0; i++) {
    hpctk4_trace_desc t;
    hpctk4_trace_describe(&exp->traces[i], &t);
    if (TRACE_ELEM * t.kept > cap) {
      free(buf);
      cap = TRACE_ELEM * t.kept;
      if (!(buf = malloc((size_t)cap))) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
    }
    if (rc == 0) hpctk4_trace_encode(&exp->traces[i], buf);
    if (rc == 0) rc = dist_pwrite(d->fd_trace, "trace.db", at, buf, TRACE_ELEM * t.kept);
    at += align8(TRACE_ELEM * t.kept);
  }
  free(buf);
  return dist_agree(d, rc);
}

/* What rank 0 needs once the tree is built: the time range, title, kind
 * names, warnings and profiles' identities. */
static int describe_files(dist_run *d, dist_msg *m) {
  const hpcdb_experiment *exp = d->exp;
  dist_msg_u64(m, (uint64_t)d->have_range);
  dist_msg_u64(m, exp->trace_min);
  dist_msg_u64(m, exp->trace_max);
  dist_msg_str(m, exp->title);
  dist_msg_u32(m, exp->n_kind_names);
  for (uint32_t i = 0; i < exp->n_kind_names; i++) dist_msg_str(m, exp->kind_names[i]);
  dist_msg_u64(m, d->warnings.len);
  dist_msg_bytes(m, d->warnings.data, d->warnings.len);
  dist_msg_u32(m, exp->n_profiles - 1);
  for (uint32_t i = 1; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    dist_msg_u16(m, p->n_ids);
    for (uint16_t k = 0; k < p->n_ids; k++) {
      dist_msg_u16(m, p->ids[k].kind);
      dist_msg_u16(m, p->ids[k].flags);
      dist_msg_u32(m, p->ids[k].logical_id);
      dist_msg_u64(m, p->ids[k].physical_id);
    }
  }
  return dist_msg_status(m);
}

/* What rank 0 needs at the end: the profiles' block sizes, the traces' headers. */
static int describe_values(dist_run *d, dist_msg *m) {
  const hpcdb_experiment *exp = d->exp;
  dist_msg_u32(m, (uint32_t)d->n_csr);
  for (uint64_t i = 0; i < d->n_csr; i++) {
    dist_msg_u64(m, d->csr[i].n_values);
    dist_msg_u32(m, d->csr[i].n_ctxs);
  }
  dist_msg_u32(m, exp->n_traces);
  for (uint32_t i = 0; i < exp->n_traces; i++) {
    hpctk4_trace_desc t;
    hpctk4_trace_describe(&exp->traces[i], &t);
    dist_msg_u32(m, (uint32_t)(t.profile + d->profile_base));
    dist_msg_u64(m, t.kept);
    dist_msg_u64(m, t.first);
    dist_msg_u64(m, t.last);
    dist_msg_u64(m, t.n);
  }
  return dist_msg_status(m);
}

/* Each rank's message, in rank order, to fn. */
static int each_rank(dist_run *d, const uint8_t *all, const uint64_t *counts, const char *what,
                     int (*fn)(dist_run *, hpcdb_cursor *, int, void *), void *user) {
  uint64_t at = 0;
  for (int r = 0; r < d->size; r++) {
    hpcdb_cursor c;
    cursor_init(&c, all + at, counts[r], what);
    HPCDB_TRY(fn(d, &c, r, user));
    if (c.pos != c.len) return hpcdb_fail(HPCDB_EIO, "rank %d: %s too long", r, what);
    at += counts[r];
  }
  return 0;
}

/* Every rank's message gathered on rank 0, which gives each to fn. */
static int gather(dist_run *d, int rc, dist_msg *m, const char *what,
                  int (*fn)(dist_run *, hpcdb_cursor *, int, void *), void *user) {
  void *all = NULL;
  uint64_t *counts = calloc((size_t)d->size, sizeof *counts);
  if (rc == 0 && !counts) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  rc = dist_agree(d, rc);
  if (rc == 0) rc = dist_gatherv(d, m->data, m->len, &all, counts);
  if (rc == 0 && d->rank == 0) rc = each_rank(d, all, counts, what, fn, user);
  free(all);
  free(counts);
  return rc;
}

typedef struct files_seen {
  int have_range;
  hpcdb_u64map warned; /* hashes of the warnings given */
} files_seen;

/* One rank's files into the experiment (rank 0's own too), in rank order:
 * kind names, the title and the time range go as hpcdb_analyze takes them,
 * from the first files that have them; each warning is given once. */
static int take_files(dist_run *d, hpcdb_cursor *c, int r, void *user) {
  hpcdb_experiment *exp = d->global.exp;
  files_seen *seen = user;
  uint64_t have, lo, hi, n_warn;
  const char *title;
  uint32_t n_kinds, n;
  HPCDB_TRY(cursor_le64(c, &have, "range"));
  HPCDB_TRY(cursor_le64(c, &lo, "range"));
  HPCDB_TRY(cursor_le64(c, &hi, "range"));
  if (have) {
    hpcdb_set_trace_range(exp, !seen->have_range || lo < exp->trace_min ? lo : exp->trace_min,
                          !seen->have_range || hi > exp->trace_max ? hi : exp->trace_max);
  }
  seen->have_range |= have != 0;
  HPCDB_TRY(dist_msg_read_str(c, &title));
  if (!exp->title && title) HPCDB_TRY(hpcdb_set_title(exp, title, NULL));
  HPCDB_TRY(cursor_le32(c, &n_kinds, "kinds"));
  for (uint32_t i = 0; i < n_kinds; i++) {
    const char *name;
    HPCDB_TRY(dist_msg_read_str(c, &name));
    if (i >= exp->n_kind_names) HPCDB_TRY(hpcdb_add_kind_name(exp, name, NULL));
  }
  HPCDB_TRY(cursor_le64(c, &n_warn, "warnings"));
  uint64_t end = c->pos + n_warn;
  if (n_warn > c->len - c->pos) return hpcdb_fail(HPCDB_EIO, "rank %d: warnings cut short", r);
  while (c->pos < end) {
    const char *text;
    HPCDB_TRY(dist_msg_read_str(c, &text));
    uint64_t h = text ? hash_bytes(text, strlen(text)) : 0, given; /* a structure file's, once from each rank */
    if (d->warn && text && !u64map_get(&seen->warned, h, &given)) {
      d->warn(d->user, text);
      if (u64map_put(&seen->warned, h, 1) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
  }
  HPCDB_TRY(cursor_le32(c, &n, "profiles"));
  for (uint32_t i = 0; i < n; i++) {
    uint16_t n_ids;
    HPCDB_TRY(cursor_le16(c, &n_ids, "id count"));
    hpcdb_id *ids = calloc(n_ids ? n_ids : 1, sizeof *ids);
    if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    int rc = 0;
    for (uint16_t k = 0; k < n_ids && rc == 0; k++) {
      if ((rc = cursor_le16(c, &ids[k].kind, "kind")) == 0 && (rc = cursor_le16(c, &ids[k].flags, "flags")) == 0 &&
          (rc = cursor_le32(c, &ids[k].logical_id, "logical id")) == 0)
        rc = cursor_le64(c, &ids[k].physical_id, "physical id");
    }
    uint32_t index = 0;
    if (rc == 0) rc = hpcdb_add_profile(exp, 0, 1, ids, n_ids, &index);
    free(ids);
    HPCDB_TRY(rc);
  }
  return 0;
}

/* meta.db and metrics/default.yaml, from the completed experiment. */
static int tables(dist_run *d) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/meta.db", d->temp);
  HPCDB_TRY(hpctk4_check_writable(d->global.exp));
  HPCDB_TRY(hpctk4_write_meta(d->global.exp, path));
  snprintf(path, sizeof path, "%s/metrics", d->temp);
  if (mkdir(path, 0777) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", path, strerror(errno));
  snprintf(path, sizeof path, "%s/metrics/default.yaml", d->temp);
  return hpctk4_write_metrics_yaml(d->global.exp, path);
}

/* Rank 0 completes the experiment's title. */
static int complete_files(dist_run *d) {
  hpcdb_experiment *exp = d->global.exp;
  if (exp->n_profiles == 1) /* as one process says it */
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: none of the %zu measurement files could be read", d->measurements,
                      d->n_files_total);
  char description[512];
  snprintf(description, sizeof description, "Analyzed by hpcdb %s from %u measurement files (%u skipped) in %s.",
           hpcdb_version(), d->res.profiles_read, d->res.profiles_skipped, d->measurements);
  return hpcdb_set_title(exp, exp->title ? exp->title : "hpcdb analysis", description);
}

int dist_describe(dist_run *d) {
  uint64_t counts[2] = {d->res.profiles_read, d->res.profiles_skipped};
  HPCDB_TRY(dist_allreduce(d, counts, 2, HPCDB_REDUCE_SUM));
  d->res.profiles_read = (uint32_t)counts[0];
  d->res.profiles_skipped = (uint32_t)counts[1];
  dist_msg m = {0};
  files_seen seen = {0};
  int rc = gather(d, describe_files(d, &m), &m, "rank description", take_files, &seen);
  if (rc == 0 && d->rank == 0) rc = complete_files(d);
  u64map_free(&seen.warned);
  dist_msg_free(&m);
  return dist_agree(d, rc);
}

/* Rank 0's view of the values, filled from every rank's description. */
typedef struct whole {
  hpctk4_block_place *places; /* per profile */
  uint32_t next_profile;
  uint64_t next_block; /* where the next thread block goes */
  hpctk4_trace_desc *traces;
  uint32_t n_traces;
} whole;

static int take_values(dist_run *d, hpcdb_cursor *c, int r, void *user) {
  whole *w = user;
  uint32_t n;
  HPCDB_TRY(cursor_le32(c, &n, "profiles"));
  for (uint32_t i = 0; i < n; i++) {
    if (w->next_profile > d->n_profiles) return hpcdb_fail(HPCDB_EIO, "rank %d: more profiles than counted", r);
    hpctk4_block_place *p = &w->places[w->next_profile++];
    HPCDB_TRY(cursor_le64(c, &p->n_values, "values"));
    HPCDB_TRY(cursor_le32(c, &p->n_ctxs, "contexts"));
    p->p_values = w->next_block;
    p->p_idx = p->p_values + (10 * p->n_values + 3) / 4 * 4;
    w->next_block = p->p_idx + 12 * (uint64_t)p->n_ctxs;
  }
  HPCDB_TRY(cursor_le32(c, &n, "traces"));
  for (uint32_t i = 0; i < n; i++) {
    if (w->n_traces >= d->n_traces) return hpcdb_fail(HPCDB_EIO, "more traces than counted");
    hpctk4_trace_desc *t = &w->traces[w->n_traces++];
    HPCDB_TRY(cursor_le32(c, &t->profile, "profile"));
    HPCDB_TRY(cursor_le64(c, &t->kept, "kept"));
    HPCDB_TRY(cursor_le64(c, &t->first, "first"));
    HPCDB_TRY(cursor_le64(c, &t->last, "last"));
    HPCDB_TRY(cursor_le64(c, &t->n, "samples"));
  }
  return 0;
}

/* profile.db's sections after the values, and its header. */
static int profile_tail(dist_run *d, whole *w) {
  w->places[0] = d->summary;
  uint64_t base = align8(d->summary.p_idx + 12 * (uint64_t)d->summary.n_ctxs);
  hpctk4_wbuf b = {0};
  uint8_t head[48];
  int rc = hpctk4_profile_tail(d->global.exp, w->places, base, &b, head);
  if (rc == 0) rc = dist_pwrite(d->fd_prof, "profile.db", base, b.data, b.len);
  if (rc == 0) rc = dist_pwrite(d->fd_prof, "profile.db", 0, head, sizeof head);
  hpctk4_wbuf_free(&b);
  return rc;
}

/* trace.db's headers and footer (the lines are in place), or no trace.db. */
static int trace_head(dist_run *d, whole *w) {
  if (d->n_traces == 0) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/trace.db", d->temp);
    close(d->fd_trace);
    d->fd_trace = -1;
    return remove(path) == 0 ? 0 : hpcdb_fail(HPCDB_EIO, "%s: cannot remove: %s", path, strerror(errno));
  }
  hpcdb_set_has_traces(d->global.exp);
  hpctk4_wbuf b = {0};
  uint64_t lines, end = 0;
  int rc = hpctk4_trace_head(&b, w->traces, w->n_traces, d->global.exp->trace_min, d->global.exp->trace_max, &lines);
  if (rc == 0 && lines != trace_lines_at(w->n_traces)) rc = hpcdb_fail(HPCDB_EIO, "trace.db: lines placed apart");
  for (uint32_t i = 0; i < w->n_traces; i++) { /* where the last line ends */
    end = align8(lines) + TRACE_ELEM * w->traces[i].kept;
    lines = end;
  }
  if (rc == 0) rc = dist_pwrite(d->fd_trace, "trace.db", 0, b.data, b.len);
  if (rc == 0) rc = dist_pwrite(d->fd_trace, "trace.db", align8(end), "trace.db", 8);
  hpctk4_wbuf_free(&b);
  return rc;
}

int dist_finish(dist_run *d) {
  uint64_t counts[2] = {d->res.traces_read, d->res.values};
  HPCDB_TRY(dist_allreduce(d, counts, 2, HPCDB_REDUCE_SUM));
  d->res.traces_read = (uint32_t)counts[0];
  d->res.values = counts[1] + d->summary.n_values;
  d->res.contexts = d->n_contexts - 1;
  dist_msg m = {0};
  whole w = {0};
  w.next_profile = 1;
  w.next_block = 48;
  int rc = describe_values(d, &m);
  if (rc == 0 && d->rank == 0) {
    w.places = calloc(d->n_profiles + 1, sizeof *w.places);
    w.traces = calloc(d->n_traces ? d->n_traces : 1, sizeof *w.traces);
    if (!w.places || !w.traces) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  rc = gather(d, rc, &m, "rank description", take_values, &w);
  if (rc == 0 && d->rank == 0 && (w.next_profile != d->n_profiles + 1 || w.n_traces != d->n_traces))
    rc = hpcdb_fail(HPCDB_EIO, "the ranks described %u profiles and %u traces, not %llu and %llu", w.next_profile - 1,
                    w.n_traces, (unsigned long long)d->n_profiles, (unsigned long long)d->n_traces);
  if (rc == 0 && d->rank == 0) rc = profile_tail(d, &w);
  if (rc == 0 && d->rank == 0) rc = trace_head(d, &w);
  if (rc == 0 && d->rank == 0) rc = tables(d);
  free(w.places);
  free(w.traces);
  dist_msg_free(&m);
  return dist_agree(d, rc);
}
