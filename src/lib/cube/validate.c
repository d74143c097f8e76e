/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_cube_validate: the archive, anchor.xml (well-formed; unique metric,
 * region, cnode and location ids; calleeIds that name a region; no cnode
 * that repeats an ancestor's id), and for every metric its .index and .data:
 * both or neither present, magic, endian word, index format, entries within
 * the call tree and in ascending order without repeats, data of exactly N x
 * locations values (or N zlib rows that inflate to a row each; trailing
 * bytes, which CubeLib ignores, are a note), SCALE_FUNC values whose term and
 * measurement counts fit their 848 bytes. Diagnostics
 * name the member: "file.cubex[3.index]". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/diag.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "cube/cube.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"

typedef struct checker {
  diag_sink sink;
  const char *path;
} checker;

/* Problems are named by archive member: "path[member]". */
static void report(checker *k, hpcdb_severity sev, const char *member, uint64_t off, const char *rule, const char *fmt,
                   ...) HPCDB_PRINTF(6, 7);
static void report(checker *k, hpcdb_severity sev, const char *member, uint64_t off, const char *rule, const char *fmt,
                   ...) {
  char file[1024];
  snprintf(file, sizeof file, "%s[%s]", k->path, member);
  va_list ap;
  va_start(ap, fmt);
  diag_vemit(&k->sink, sev, file, off, rule, fmt, ap);
  va_end(ap);
}

/* The reader's last error as a diagnostic: its "path: section: offset 0x…:
 * rule: detail" split into fields. */
static void report_last(checker *k, const char *member) {
  const char *msg = hpcdb_last_error(), *at = strstr(msg, ": offset 0x");
  if (!at) {
    report(k, HPCDB_SEV_ERROR, member, 0, "read", "%s", msg);
    return;
  }
  char *end;
  unsigned long long off = strtoull(at + 11, &end, 16);
  const char *rule = *end == ':' ? end + 2 : end, *colon = strstr(rule, ": ");
  char name[64];
  snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - rule) : 0, rule);
  report(k, HPCDB_SEV_ERROR, member, off, colon ? name : "read", "%s", colon ? colon + 2 : msg);
}

static void unique(checker *k, const char *what, const char *rule, uint32_t n, const void *items, size_t stride,
                   size_t id_offset) {
  hpcdb_u64map seen = {0};
  uint64_t v;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t id;
    memcpy(&id, (const uint8_t *)items + (size_t)i * stride + id_offset, sizeof id);
    if (u64map_get(&seen, id, &v))
      report(k, HPCDB_SEV_ERROR, "anchor.xml", 0, rule, "%s id %u is used twice", what, id);
    else if (u64map_put(&seen, id, i) < 0) break;
  }
  u64map_free(&seen);
}

static void check_anchor(checker *k, const cube_anchor *a) {
  unique(k, "metric", "duplicate-id", a->n_metrics, a->metrics, sizeof *a->metrics, offsetof(cube_metric, id));
  unique(k, "region", "duplicate-id", a->n_regions, a->regions, sizeof *a->regions, offsetof(cube_region, id));
  unique(k, "cnode", "duplicate-id", a->n_cnodes, a->cnodes, sizeof *a->cnodes, offsetof(cube_cnode, id));
  unique(k, "location", "duplicate-id", a->n_locations, a->locations, sizeof *a->locations,
         offsetof(cube_location, id));
  hpcdb_u64map regions = {0};
  for (uint32_t i = 0; i < a->n_regions; i++) u64map_put(&regions, a->regions[i].id, i);
  uint64_t v;
  for (uint32_t c = 0; c < a->n_cnodes; c++) {
    const cube_cnode *n = &a->cnodes[c];
    if (!u64map_get(&regions, n->callee, &v))
      report(k, HPCDB_SEV_ERROR, "anchor.xml", 0, "cnode-callee", "cnode %u calls region %u, which does not exist",
             n->id, n->callee);
    unsigned depth = 0;
    for (uint32_t p = n->parent; p != UINT32_MAX && depth < a->n_cnodes; p = a->cnodes[p].parent, depth++)
      if (a->cnodes[p].id == n->id) {
        report(k, HPCDB_SEV_ERROR, "anchor.xml", 0, "cnode-cycle", "cnode %u is its own ancestor", n->id);
        break;
      }
  }
  u64map_free(&regions);
  for (uint32_t i = 0; i < a->n_metrics; i++) {
    const cube_metric *m = &a->metrics[i];
    if (!m->derived && !cube_dtype_size(m->dtype))
      report(k, HPCDB_SEV_NOTE, "anchor.xml", 0, "dtype", "metric %s: data type \"%s\" is not decoded", m->uniq,
             m->dtype);
  }
  if (!a->n_locations) report(k, HPCDB_SEV_NOTE, "anchor.xml", 0, "locations", "no locations: no values can be stored");
}

/* Index order: positions strictly ascending (what Score-P and CubeW write,
 * and what a reader may binary-search). */
static void check_index_order(checker *k, const char *member, const cube_values *v) {
  for (uint32_t i = 1; i < v->n_rows; i++)
    if (v->row_pos[i] <= v->row_pos[i - 1]) {
      report(k, HPCDB_SEV_ERROR, member, 22 + 4 * (uint64_t)i, "index-order", "entry %u (%u) does not follow %u", i,
             v->row_pos[i], v->row_pos[i - 1]);
      return;
    }
}

static void check_metric(checker *k, const cube_anchor *a, uint32_t m, const cube_member_view *ix,
                         const cube_member_view *dt) {
  const cube_metric *mt = &a->metrics[m];
  char ixname[48], dtname[48];
  snprintf(ixname, sizeof ixname, "%u.index", mt->id);
  snprintf(dtname, sizeof dtname, "%u.data", mt->id);
  if (!ix->data || !dt->data) {
    if (ix->data || dt->data)
      report(k, HPCDB_SEV_ERROR, ix->data ? dtname : ixname, 0, "member-missing", "metric %s has %s but not %s",
             mt->uniq, ix->data ? ixname : dtname, ix->data ? dtname : ixname);
    return;
  }
  size_t size = cube_dtype_size(mt->dtype);
  if (!size) return; /* noted with the anchor */
  cube_values v;
  if (cube_values_decode(&v, ix->data, ix->len, dt->data, dt->len, size, a->n_locations, a->n_cnodes, k->path,
                         mt->uniq) < 0) {
    report_last(k, strstr(hpcdb_last_error(), ": index: ") ? ixname : dtname);
    return;
  }
  check_index_order(k, ixname, &v);
  if (v.n_rows == 0) /* valid Cube, but pycubexr asserts an index lists a cnode; writers leave the members out */
    report(k, HPCDB_SEV_NOTE, ixname, 18, "index-empty",
           "metric %s: the index lists no cnode (pycubexr refuses it; Score-P and CubeW write no members for such a "
           "metric)",
           mt->uniq);
  cube_dtype t;
  if (cube_dtype_parse(&t, mt->dtype) && t.kind == CUBE_DT_SCALE_FUNC)
    for (size_t i = 0; i < (size_t)v.n_rows * a->n_locations; i++)
      if (cube_scale_func_terms(v.data + i * size, v.big_endian) < 0) {
        report(k, HPCDB_SEV_ERROR, dtname, 10 + i * size, "scale-func-count",
               "row %zu, location %zu: more than %u terms or %u measurements", i / a->n_locations, i % a->n_locations,
               CUBE_SCALE_FUNC_TERMS, CUBE_SCALE_FUNC_MEASUREMENTS);
        break;
      }
  uint64_t want = 10 + (uint64_t)v.n_rows * a->n_locations * size;
  if (dt->len >= 10 && !memcmp(dt->data, "CUBEX.DATA", 10) &&
      dt->len > want) /* CubeLib reads N rows, ignores the rest */
    report(k, HPCDB_SEV_NOTE, dtname, want, "data-size", "%zu bytes; %u rows x %u locations x %zu bytes need only %llu",
           dt->len, v.n_rows, a->n_locations, size, (unsigned long long)want);
  cube_values_free(&v);
}

static int metric_of(const cube_anchor *a, const char *name, const char *suffix, uint32_t *out) {
  size_t n = strlen(name), s = strlen(suffix);
  if (n <= s || strcmp(name + n - s, suffix)) return 0;
  char *end;
  unsigned long id = strtoul(name, &end, 10);
  if (end != name + n - s) return 0;
  for (uint32_t i = 0; i < a->n_metrics; i++)
    if (a->metrics[i].id == id) return (*out = i), 1;
  return 0;
}

/* The metric members seen so far: a metric's file is kept until its partner
 * arrives, then both are checked and released. */
typedef struct pairing {
  cube_member_view *ix, *dt;
  uint8_t *seen_ix, *seen_dt;
} pairing;

/* One member, by name: its bytes are taken (libarchive's current entry e of
 * ar, or where the member index x places im) only if it is a metric's file. */
static void check_member(checker *k, const cube_anchor *a, pairing *pr, const char *name, struct archive *ar,
                         struct archive_entry *e, const cube_member_index *x, const cube_indexed_member *im) {
  uint32_t m;
  int is_index = metric_of(a, name, ".index", &m), is_data = !is_index && metric_of(a, name, ".data", &m);
  if (!is_index && !is_data) {
    if (strcmp(name, "anchor.xml") && (strstr(name, ".index") || strstr(name, ".data")))
      report(k, HPCDB_SEV_ERROR, name, 0, "member-metric", "no metric in anchor.xml has the id of this member");
    return;
  }
  uint8_t *seen = is_index ? &pr->seen_ix[m] : &pr->seen_dt[m];
  if (*seen) {
    report(k, HPCDB_SEV_ERROR, name, 0, "member-duplicate", "a second member of this name");
    return;
  }
  *seen = 1;
  cube_member_view *slot = is_index ? &pr->ix[m] : &pr->dt[m];
  if (im) {
    int rc = cube_member_view_open(x, im->offset, im->size, slot);
    if (rc == 0) rc = hpcdb_fail_at(HPCDB_ECORRUPT, k->path, name, 0, "archive", "short member: truncated");
    if (rc < 0) {
      cube_member_view_close(slot);
      report_last(k, name);
      return;
    }
  } else {
    cube_member copy;
    if (cube_read_member(ar, e, &copy, k->path) < 0) {
      report_last(k, name);
      return;
    }
    *slot = (cube_member_view){copy.data, copy.len, copy.data, copy.len, 0}; /* released by view_close's free */
  }
  if (pr->ix[m].data && pr->dt[m].data) {
    check_metric(k, a, m, &pr->ix[m], &pr->dt[m]);
    cube_member_view_close(&pr->ix[m]);
    cube_member_view_close(&pr->dt[m]);
  }
}

/* One pass over the members after the anchor is known: in a plain tar that
 * the member index x placed, by their offsets (the metrics' members mapped,
 * not copied), else streamed through libarchive. */
static int check_members(checker *k, const cube_anchor *a, const cube_member_index *x) {
  struct archive *ar = NULL;
  uint32_t mended = x->mended;
  if (!x->n) HPCDB_TRY(cube_open_archive_counting(&ar, k->path, &mended));
  const archive_lib *al = archive_lib_loaded(); /* NULL without ar, and then not used */
  pairing pr = {calloc(a->n_metrics + 1, sizeof *pr.ix), calloc(a->n_metrics + 1, sizeof *pr.dt),
                calloc(a->n_metrics + 1, 1), calloc(a->n_metrics + 1, 1)};
  int rc = pr.ix && pr.dt && pr.seen_ix && pr.seen_dt ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; rc == 0 && !ar && i < x->n; i++)
    check_member(k, a, &pr, x->members[i].name, NULL, NULL, x, &x->members[i]);
  struct archive_entry *e;
  while (rc == 0 && ar) {
    int h = al->read_next_header(ar, &e);
    if (h == ARCHIVE_EOF) break;
    if (h != ARCHIVE_OK && h != ARCHIVE_WARN) { /* ARCHIVE_RETRY: a damaged header */
      report(k, HPCDB_SEV_ERROR, "archive", 0, "tar", "%s", al->error_string(ar));
      break;
    }
    check_member(k, a, &pr, cube_member_name(e), ar, e, NULL, NULL);
  }
  for (uint32_t m = 0; rc == 0 && m < a->n_metrics; m++) /* one of the two, or a member that failed to read */
    if (pr.seen_ix[m] != pr.seen_dt[m]) check_metric(k, a, m, &pr.ix[m], &pr.dt[m]);
  for (uint32_t m = 0; pr.ix && pr.dt && m < a->n_metrics; m++) {
    cube_member_view_close(&pr.ix[m]);
    cube_member_view_close(&pr.dt[m]);
  }
  free(pr.ix);
  free(pr.dt);
  free(pr.seen_ix);
  free(pr.seen_dt);
  if (ar) al->read_free(ar);
  if (mended) /* read as CubeLib and pycubexr read it */
    report(k, HPCDB_SEV_NOTE, "archive", 0, "tar-checksum",
           "%u member header(s) with a checksum 32 below the right one (CubeW 4.8's bug): read as if right", mended);
  return rc;
}

int hpcdb_cube_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  memset(result, 0, sizeof *result);
  checker k = {{result, fn, user}, path};
  cube_anchor a;
  cube_member_index x;
  HPCDB_TRY(cube_member_index_build(&x, path));
  int rc = cube_read_anchor(&a, path, &x);
  if (rc == HPCDB_ENOTFORMAT || rc == HPCDB_EIO || rc == HPCDB_ENOMEM) {
    cube_member_index_free(&x);
    return rc;
  }
  if (rc < 0) {
    cube_member_index_free(&x);
    report_last(&k, "anchor.xml");
    return 0;
  }
  check_anchor(&k, &a);
  rc = check_members(&k, &a, &x);
  cube_anchor_free(&a);
  cube_member_index_free(&x);
  return rc;
}
