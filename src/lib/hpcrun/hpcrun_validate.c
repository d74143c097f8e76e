/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpcrun_validate: every structural rule is checked while parsing (the
 * first violation stops the file and is reported with its offset and rule);
 * a file that parses is then checked for the rules between its parts: node
 * ids, parents, load modules, sparse value indices, the sentinel, metric ids,
 * section alignment, and its trace's order and context ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpcrun.h"
#include "hpcrun/hpcrun_check.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_model.h"
#include "hpcrun/hpcrun_paths.h"

typedef diag_sink checker;

/* A parse failure: the message's detail without its "path: section: offset:
 * rule: " prefix, which the diagnostic carries in its own fields. */
static void report_parse(checker *k, const char *file, const hpcrun_parse_error *e) {
  const char *msg = hpcdb_last_error();
  char needle[80];
  snprintf(needle, sizeof needle, ": %s: ", e->rule);
  const char *at = strstr(msg, needle);
  diag_emit(k, HPCDB_SEV_ERROR, file, e->offset, e->rule, "%s", at ? at + strlen(needle) : msg);
}

/* Node rules; ids collects every node's key (for values and traces). */
static void check_tables(checker *k, const char *path, const hpcrun_file *f, const hpcrun_tables *t,
                         hpcdb_u64map *ids) {
  hpcdb_u64map lms = {0};
  uint64_t v;
  for (uint32_t i = 0; i < t->n_lm; i++) {
    if (u64map_get(&lms, t->lm[i].id, &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, 0, "lm-id-unique", "load module id %u appears twice", t->lm[i].id);
    u64map_put(&lms, t->lm[i].id, i);
  }
  uint8_t *has_child = calloc((size_t)t->n_nodes + 1, 1);
  uint64_t lm_at = hpcrun_node_lm_field(f, t);
  for (uint64_t i = 0; i < t->n_nodes; i++) {
    const hpcrun_cct_node *n = &t->nodes[i];
    uint64_t off = t->nodes_off + i * t->node_len;
    uint32_t key = hpcrun_stored_key(f, n->id), pkey = hpcrun_stored_key(f, n->parent);
    if (key == 0) diag_emit(k, HPCDB_SEV_ERROR, path, off, "node-id-zero", "node id 0 is reserved");
    else if (u64map_get(ids, key, &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off, "node-id-unique", "node id %u already used by node %llu", key,
                (unsigned long long)v);
    if (pkey != 0 && !u64map_get(ids, pkey, &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off + 4, "parent-exists", "node %u: parent %u is not an earlier node", key,
                pkey);
    else if (pkey != 0 && has_child) has_child[v] = 1;
    if (n->lm_id != HPCRUN_LM_PLACEHOLDER && !u64map_get(&lms, n->lm_id, &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off + lm_at, "lm-exists", "node %u: load module %u is not in the load map",
                key, n->lm_id);
    if (key != 0 && !u64map_get(ids, key, &v)) u64map_put(ids, key, i);
  }
  if (f->major != 4 && has_child)
    for (uint64_t i = 0; i < t->n_nodes; i++) {
      int negated = (int32_t)t->nodes[i].id < 0;
      if (negated == has_child[i])
        diag_emit(k, HPCDB_SEV_NOTE, path, t->nodes_off + i * t->node_len, "leaf-id-sign",
                  "node %u %s children but its id is %s", hpcrun_stored_key(f, t->nodes[i].id),
                  has_child[i] ? "has" : "has no", negated ? "negated" : "positive");
    }
  free(has_child);
  u64map_free(&lms);
}

static const char *const section_rule_names[HPCRUN_N_SECTIONS] = {
    "header", "load map", "cct", "metric table", "id-tuple dictionary", "sparse values"};

static void check_layout(checker *k, const char *path, const hpcrun_file *f) {
  for (int s = 0; s < HPCRUN_N_SECTIONS; s++) {
    const hpcrun_section_layout *sec = &f->sections[s];
    if (sec->start % HPCRUN_SECTION_ALIGN)
      diag_emit(k, HPCDB_SEV_ERROR, path, f->footer_start + 16 * (uint64_t)s, "section-align",
                "%s section starts at 0x%llx, not on a 1024-byte boundary", section_rule_names[s],
                (unsigned long long)sec->start);
    if (sec->slack_len)
      diag_emit(k, HPCDB_SEV_ERROR, path, sec->end - sec->slack_len, "section-extra-bytes",
                "%u bytes after the %s section's content, before its recorded end 0x%llx", sec->slack_len,
                section_rule_names[s], (unsigned long long)sec->end);
    if (sec->gap)
      diag_emit(k, HPCDB_SEV_NOTE, path, sec->end, "padding-nonzero",
                "the %llu bytes after the %s section are not all zero", (unsigned long long)sec->gap_len,
                section_rule_names[s]);
  }
  if (f->footer_start % HPCRUN_SECTION_ALIGN)
    diag_emit(k, HPCDB_SEV_ERROR, path, f->footer_start + 96, "section-align",
              "the footer starts at 0x%llx, not on a 1024-byte boundary", (unsigned long long)f->footer_start);
}

static void check_sparse(checker *k, const char *path, const hpcrun_file *f, hpcdb_u64map *ids) {
  const hpcrun_sparse *s = &f->sparse;
  uint64_t v, prev = 0;
  hpcdb_u64map seen = {0};
  uint8_t *known = calloc(HPCRUN_KIND_MASK + 1, 1);
  for (uint16_t j = 0; known && j < f->n_kinds; j++) known[f->kinds[j].kind & HPCRUN_KIND_MASK] = 1;
  for (uint16_t i = 0; known && i < s->n_ids; i++) {
    uint16_t kind = s->ids[i].kind & HPCRUN_KIND_MASK;
    if (!known[kind])
      diag_emit(k, HPCDB_SEV_NOTE, path, f->sections[HPCRUN_SEC_VALUES].start + 2 + 18 * (uint64_t)i, "id-kind-known",
                "id tuple kind %u is not in the dictionary", kind);
  }
  free(known);
  for (uint64_t i = 0; i <= s->n_nz_ctxs; i++) {
    uint64_t off = s->ctxs_off + 12 * i, start = s->ctx_starts[i];
    if (start < prev)
      diag_emit(k, HPCDB_SEV_ERROR, path, off + 4, "start-sorted", "start index %llu is below the previous %llu",
                (unsigned long long)start, (unsigned long long)prev);
    if (start > s->n_values)
      diag_emit(k, HPCDB_SEV_ERROR, path, off + 4, "start-bounds", "start index %llu is past the %llu values",
                (unsigned long long)start, (unsigned long long)s->n_values);
    prev = start > prev ? start : prev;
    if (i == s->n_nz_ctxs) {
      if (s->ctx_ids[i] != HPCRUN_SPARSE_SENTINEL)
        diag_emit(k, HPCDB_SEV_ERROR, path, off, "sentinel",
                  "the last context index entry has id 0x%08x, not the sentinel 0x656e6421 (\"end!\")", s->ctx_ids[i]);
      if (start != s->n_values)
        diag_emit(k, HPCDB_SEV_ERROR, path, off + 4, "sentinel-start",
                  "the sentinel's start index %llu is not the value count %llu", (unsigned long long)start,
                  (unsigned long long)s->n_values);
      break;
    }
    if (!u64map_get(ids, s->ctx_ids[i], &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off, "value-cct-exists", "values for context %u, which is not a cct node",
                s->ctx_ids[i]);
    if (u64map_get(&seen, s->ctx_ids[i], &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off, "value-cct-unique", "context %u has a second value slice",
                s->ctx_ids[i]);
    u64map_put(&seen, s->ctx_ids[i], i);
  }
  for (uint64_t j = 0; j < s->n_values; j++)
    if (s->metric_ids[j] >= f->t.n_metrics)
      diag_emit(k, HPCDB_SEV_ERROR, path, s->values_off + 10 * j + 8, "metric-id-range",
                "metric id %u, but the table has %u metrics", s->metric_ids[j], f->t.n_metrics);
  /* Within one context's slice each metric has at most one value. */
  uint32_t *stamp = calloc((size_t)f->t.n_metrics + 1, sizeof *stamp);
  for (uint32_t i = 0; stamp && i < s->n_nz_ctxs; i++)
    for (uint64_t j = s->ctx_starts[i]; j < s->ctx_starts[i + 1] && j < s->n_values; j++) {
      uint16_t m = s->metric_ids[j];
      if (m >= f->t.n_metrics) continue;
      if (stamp[m] == i + 1)
        diag_emit(k, HPCDB_SEV_ERROR, path, s->values_off + 10 * j + 8, "value-metric-unique",
                  "context %u has two values for metric %u", s->ctx_ids[i], m);
      stamp[m] = i + 1;
    }
  free(stamp);
  u64map_free(&seen);
}

static void node_keys(const hpcrun_file *f, hpcdb_u64map *ids) {
  uint32_t n_src = f->major == 4 ? 1 : f->n_epochs;
  for (uint32_t s = 0; s < n_src; s++) {
    const hpcrun_tables *t = f->major == 4 ? &f->t : &f->epochs[s].t;
    for (uint64_t i = 0; i < t->n_nodes; i++) u64map_put(ids, hpcrun_stored_key(f, t->nodes[i].id), i);
  }
}

static void check_trace(checker *k, const char *path, const hpcrun_trace_file *t, const hpcrun_file *profile) {
  uint64_t rec = (t->flags & HPCTRACE_FLAG_DATA_CENTRIC) ? 16 : 12, v;
  hpcdb_u64map ids = {0};
  if (profile) node_keys(profile, &ids);
  if (t->flags & ~(uint64_t)3)
    diag_emit(k, HPCDB_SEV_NOTE, path, 24, "trace-flags", "unknown header flag bits 0x%llx",
              (unsigned long long)(t->flags & ~(uint64_t)3));
  for (uint64_t i = 0; i < t->n; i++) {
    uint64_t off = HPCTRACE_HEADER_LEN + i * rec;
    if (i && t->times[i] < t->times[i - 1])
      diag_emit(k, HPCDB_SEV_ERROR, path, off, "trace-time-order", "record %llu: time %llu is before the previous %llu",
                (unsigned long long)i, (unsigned long long)t->times[i], (unsigned long long)t->times[i - 1]);
    if (profile && t->cct_ids[i] != 0 && !u64map_get(&ids, t->cct_ids[i], &v))
      diag_emit(k, HPCDB_SEV_ERROR, path, off + 8, "trace-cct-exists",
                "record %llu: cct id %u is not a node of the profile", (unsigned long long)i, t->cct_ids[i]);
  }
  u64map_free(&ids);
}

static void check_profile(checker *k, const char *path, const hpcrun_file *f) {
  hpcdb_u64map ids = {0};
  if (f->major == 4) {
    check_layout(k, path, f);
    check_tables(k, path, f, &f->t, &ids);
    check_sparse(k, path, f, &ids);
  } else {
    /* Each epoch is its own tree: ids repeat legitimately across epochs. */
    for (uint32_t i = 0; i < f->n_epochs; i++) {
      u64map_free(&ids);
      check_tables(k, path, f, &f->epochs[i].t, &ids);
    }
  }
  u64map_free(&ids);
}

void hpcrun_check_profile(hpcdb_validation *res, const char *path, const hpcrun_file *f, hpcdb_diagnostic_fn fn,
                          void *user) {
  checker k = {res, fn, user};
  check_profile(&k, path, f);
}

void hpcrun_check_trace(hpcdb_validation *res, const char *path, const hpcrun_trace_file *t, const hpcrun_file *profile,
                        hpcdb_diagnostic_fn fn, void *user) {
  checker k = {res, fn, user};
  check_trace(&k, path, t, profile);
}

static int validate_trace(checker *k, const char *path, const hpcrun_file *profile) {
  hpcrun_trace_file *t = NULL;
  hpcrun_parse_error e = {0, NULL};
  int rc = hpcrun_trace_load(&t, path, &e);
  if (rc == HPCDB_EIO || rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) report_parse(k, path, &e);
  else check_trace(k, path, t, profile);
  hpcrun_trace_free(t);
  return 0;
}

static int validate_profile(checker *k, const char *path) {
  hpcrun_file *f = NULL;
  hpcrun_parse_error e = {0, NULL};
  int rc = hpcrun_file_load(&f, path, &e);
  if (rc == HPCDB_EIO || rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) report_parse(k, path, &e);
  else check_profile(k, path, f);
  char *trace = hpcrun_swap_suffix(path, ".hpcrun", ".hpctrace");
  rc = 0;
  if (trace && hpcrun_is_file(trace)) rc = validate_trace(k, trace, f);
  free(trace);
  hpcrun_file_free(f);
  return rc;
}

/* A trace given by itself is checked against the profile beside it. */
static int validate_file(checker *k, const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return hpcdb_fail(HPCDB_EIO, "%s: cannot open", path);
  uint8_t head[HPCRUN_MAGIC_LEN];
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  if (hpcdb_hpcrun_sniff(head, n) != HPCDB_FORMAT_HPCTRACE) return validate_profile(k, path);
  char *profile = hpcrun_swap_suffix(path, ".hpctrace", ".hpcrun");
  int rc;
  if (profile && hpcrun_is_file(profile)) {
    rc = validate_profile(k, profile);
  } else {
    diag_emit(k, HPCDB_SEV_NOTE, path, 0, "trace-profile", "no .hpcrun beside the trace: cct ids not checked");
    rc = validate_trace(k, path, NULL);
  }
  free(profile);
  return rc;
}

int hpcdb_hpcrun_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  result->errors = result->notes = 0;
  checker k = {result, fn, user};
  if (!hpcrun_is_dir(path)) return validate_file(&k, path);
  hpcrun_path_list l;
  HPCDB_TRY(hpcrun_list_profiles(&l, path));
  if (l.n == 0) diag_emit(&k, HPCDB_SEV_ERROR, path, 0, "no-profiles", "no .hpcrun files in the directory");
  int rc = 0;
  for (size_t i = 0; i < l.n && rc == 0; i++) rc = validate_profile(&k, l.paths[i]);
  hpcrun_path_list_free(&l);
  /* Traces without a profile are checked by themselves. */
  if (rc == 0) rc = hpcrun_list_files(&l, path, ".hpctrace");
  for (size_t i = 0; i < l.n && rc == 0; i++) {
    char *profile = hpcrun_swap_suffix(l.paths[i], ".hpctrace", ".hpcrun");
    if (!profile || !hpcrun_is_file(profile)) rc = validate_file(&k, l.paths[i]);
    free(profile);
  }
  hpcrun_path_list_free(&l);
  return rc;
}
