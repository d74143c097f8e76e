/* SPDX-License-Identifier: BSD-3-Clause */
/* meta.db: sections placed in the order hpcprof uses (General, IdNames,
 * Metrics, Strings, Modules, Files, Functions, Context), each 8-byte aligned
 * (hpcprof leaves the string table unaligned; aligning it costs at most 7
 * bytes and satisfies the strictest reading of the rules); inside a section
 * the fixed structures come first and its strings last. Built in memory (it holds no values), then written
 * in one go. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"
#include "hpctk4/subtree_scopes.h"

enum { SEC_GENERAL, SEC_IDNAMES, SEC_METRICS, SEC_CONTEXT, SEC_STRINGS, SEC_MODULES, SEC_FILES, SEC_FUNCTIONS, N_SEC };

#define SZ_METRIC 32
#define SZ_SCOPE_INST 16
#define SZ_SUMMARY 24
#define SZ_SCOPE 16
#define SZ_MODULE 16
#define SZ_FILE 16
#define SZ_FUNCTION 40

/* Starts a section at an 8-byte boundary with a zeroed header of hdr bytes. */
static int begin_section(hpctk4_wbuf *b, uint64_t hdr, uint64_t *start) { return hpctk4_wbuf_alloc(b, hdr, 8, start); }

static void end_section(hpctk4_wbuf *b, unsigned sec, uint64_t start) {
  hpctk4_set_section(b->data, sec, b->len - start, start);
}

static int general_section(hpctk4_wbuf *b, const hpcdb_experiment *exp) {
  uint64_t s, title, desc;
  hpctk4_strtab t = {b, {0}};
  int rc = begin_section(b, 16, &s);
  if (rc == 0) rc = hpctk4_strtab_put(&t, exp->title, &title);
  if (rc == 0) rc = hpctk4_strtab_put(&t, exp->description, &desc);
  hpctk4_strtab_free(&t);
  HPCDB_TRY(rc);
  wr_le64(b->data + s, title);
  wr_le64(b->data + s + 8, desc);
  end_section(b, SEC_GENERAL, s);
  return 0;
}

static int idnames_section(hpctk4_wbuf *b, const hpcdb_experiment *exp) {
  uint64_t s, names, off;
  hpctk4_strtab t = {b, {0}};
  HPCDB_TRY(begin_section(b, 16, &s));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 8 * (uint64_t)exp->n_kind_names, 8, &names));
  wr_le64(b->data + s, names);
  b->data[s + 8] = (uint8_t)exp->n_kind_names;
  int rc = 0;
  for (uint32_t i = 0; i < exp->n_kind_names && rc == 0; i++) {
    rc = hpctk4_strtab_put(&t, exp->kind_names[i], &off);
    if (rc == 0) wr_le64(b->data + names + 8 * i, off);
  }
  hpctk4_strtab_free(&t);
  HPCDB_TRY(rc);
  end_section(b, SEC_IDNAMES, s);
  return 0;
}

/* The scopes written: the model's, then the custom scopes for execution
 * values that are not subtree sums (subtree_scopes.h) where the model has
 * none of that name. */
typedef struct scope_map {
  uint32_t n;          /* scopes written */
  uint32_t subtree[3]; /* written index of the custom scope per combine (MIN, MAX) */
} scope_map;

static void map_scopes(const hpcdb_experiment *exp, scope_map *map) {
  map->n = exp->n_scopes;
  for (uint8_t c = HPCDB_COMBINE_MIN; c <= HPCDB_COMBINE_MAX; c++) {
    int used = 0;
    for (uint32_t i = 0; i < exp->n_metrics; i++) used |= exp->metrics[i].execution_combine == c;
    map->subtree[c] = UINT32_MAX;
    for (uint32_t i = 0; used && i < exp->n_scopes; i++)
      if (hpctk4_subtree_combine(&exp->scopes[i]) == c) map->subtree[c] = i;
    if (used && map->subtree[c] == UINT32_MAX) map->subtree[c] = map->n++;
  }
}

/* Where a metric's instance or summary in model scope `scope` goes. */
static uint32_t written_scope(const hpcdb_experiment *exp, const scope_map *map, const hpcdb_metric *m,
                              uint32_t scope) {
  uint8_t c = m->execution_combine;
  int subtree = exp->scopes[scope].type == HPCDB_SCOPE_EXECUTION && (c == HPCDB_COMBINE_MIN || c == HPCDB_COMBINE_MAX);
  return subtree ? map->subtree[c] : scope;
}

/* Arrays first (scopes, metric descriptions, then each metric's scope
 * instances and summaries), strings last. */
static int metrics_arrays(hpctk4_wbuf *b, const hpcdb_experiment *exp, const scope_map *map, uint64_t s,
                          uint64_t *scopes, uint64_t *metrics, uint64_t *insts, uint64_t *sums) {
  HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_SCOPE * (uint64_t)map->n, 8, scopes));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_METRIC * (uint64_t)exp->n_metrics, 8, metrics));
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_SCOPE_INST * (uint64_t)m->n_instances, 8, &insts[i]));
    HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_SUMMARY * (uint64_t)m->n_summaries, 8, &sums[i]));
  }
  uint8_t *h = b->data + s;
  wr_le64(h + 0x00, *metrics);
  wr_le32(h + 0x08, exp->n_metrics);
  h[0x0c] = SZ_METRIC;
  h[0x0d] = SZ_SCOPE_INST;
  h[0x0e] = SZ_SUMMARY;
  wr_le64(h + 0x10, *scopes);
  wr_le16(h + 0x18, (uint16_t)map->n);
  h[0x1a] = SZ_SCOPE;
  return 0;
}

static int metrics_strings(hpctk4_wbuf *b, hpctk4_strtab *t, const hpcdb_experiment *exp, const scope_map *map,
                           uint64_t scopes, uint64_t metrics, const uint64_t *insts, const uint64_t *sums) {
  uint64_t off;
  for (uint32_t i = 0; i < map->n; i++) {
    hpcdb_scope added = {NULL, HPCDB_SCOPE_CUSTOM, 255};
    for (uint8_t c = HPCDB_COMBINE_MIN; c <= HPCDB_COMBINE_MAX; c++)
      if (i >= exp->n_scopes && map->subtree[c] == i) added.name = hpctk4_subtree_scope_name(c);
    const hpcdb_scope *sc = i < exp->n_scopes ? &exp->scopes[i] : &added;
    HPCDB_TRY(hpctk4_strtab_put(t, sc->name, &off));
    uint8_t *p = b->data + scopes + SZ_SCOPE * (uint64_t)i;
    wr_le64(p, off);
    p[8] = sc->type;
    p[9] = sc->propagation_index;
  }
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    HPCDB_TRY(hpctk4_strtab_put(t, m->name, &off));
    uint8_t *p = b->data + metrics + SZ_METRIC * (uint64_t)i;
    wr_le64(p + 0x00, off);
    wr_le64(p + 0x08, insts[i]);
    wr_le64(p + 0x10, sums[i]);
    wr_le16(p + 0x18, (uint16_t)m->n_instances);
    wr_le16(p + 0x1a, (uint16_t)m->n_summaries);
    for (uint32_t k = 0; k < m->n_instances; k++) {
      p = b->data + insts[i] + SZ_SCOPE_INST * (uint64_t)k;
      wr_le64(p, scopes + SZ_SCOPE * (uint64_t)written_scope(exp, map, m, m->instances[k].scope));
      wr_le16(p + 8, m->instances[k].prop_metric_id);
    }
    for (uint32_t k = 0; k < m->n_summaries; k++) {
      const hpcdb_summary *su = &m->summaries[k];
      HPCDB_TRY(hpctk4_strtab_put(t, su->formula, &off));
      p = b->data + sums[i] + SZ_SUMMARY * (uint64_t)k;
      wr_le64(p, scopes + SZ_SCOPE * (uint64_t)written_scope(exp, map, m, su->scope));
      wr_le64(p + 0x08, off);
      p[0x10] = su->combine;
      wr_le16(p + 0x12, su->stat_metric_id);
    }
  }
  return 0;
}

static int metrics_section(hpctk4_wbuf *b, const hpcdb_experiment *exp) {
  uint64_t s, scopes, metrics;
  uint64_t *insts = calloc(exp->n_metrics ? exp->n_metrics : 1, 2 * sizeof *insts);
  if (!insts) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t *sums = insts + exp->n_metrics;
  hpctk4_strtab t = {b, {0}};
  scope_map map;
  map_scopes(exp, &map);
  int rc = map.n > UINT16_MAX ? hpcdb_fail(HPCDB_EUNSUPPORTED, "%u scopes do not fit v4.0's u16", map.n) : 0;
  if (rc == 0) rc = begin_section(b, 0x1b, &s);
  if (rc == 0) rc = metrics_arrays(b, exp, &map, s, &scopes, &metrics, insts, sums);
  if (rc == 0) rc = metrics_strings(b, &t, exp, &map, scopes, metrics, insts, sums);
  hpctk4_strtab_free(&t);
  free(insts);
  HPCDB_TRY(rc);
  end_section(b, SEC_METRICS, s);
  return 0;
}

/* The Common String Table: module paths, file paths, function names, entry
 * point names, in that order, each once. */
static int strings_section(hpctk4_wbuf *b, const hpcdb_experiment *exp, uint64_t *str) {
  HPCDB_TRY(hpctk4_wbuf_align(b, 8));
  uint64_t s = b->len;
  uint64_t *mod = str, *file = mod + exp->n_modules, *fn = file + exp->n_files, *entry = fn + exp->n_functions;
  hpctk4_strtab t = {b, {0}};
  int rc = 0;
  for (uint32_t i = 0; i < exp->n_modules && rc == 0; i++) rc = hpctk4_strtab_put(&t, exp->modules[i].path, &mod[i]);
  for (uint32_t i = 0; i < exp->n_files && rc == 0; i++) rc = hpctk4_strtab_put(&t, exp->files[i].path, &file[i]);
  for (uint32_t i = 0; i < exp->n_functions && rc == 0; i++)
    if (exp->functions[i].name) rc = hpctk4_strtab_put(&t, exp->functions[i].name, &fn[i]);
  uint32_t k = 0;
  for (uint32_t c = exp->contexts[0].first_child; c != HPCDB_NONE && rc == 0; c = exp->contexts[c].next_sibling, k++)
    rc = hpctk4_strtab_put(&t, hpctk4_entry_name(&exp->contexts[c]), &entry[k]);
  hpctk4_strtab_free(&t);
  HPCDB_TRY(rc);
  end_section(b, SEC_STRINGS, s);
  return 0;
}

/* Load Modules and Source Files share one shape: {flags u32, pPath}. */
static int path_section(hpctk4_wbuf *b, const hpcdb_experiment *exp, int files, const uint64_t *paths,
                        uint64_t *array) {
  uint32_t n = files ? exp->n_files : exp->n_modules;
  uint64_t s;
  HPCDB_TRY(begin_section(b, 16, &s));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 16 * (uint64_t)n, 8, array));
  wr_le64(b->data + s, *array);
  wr_le32(b->data + s + 8, n);
  wr_le16(b->data + s + 12, 16);
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *p = b->data + *array + 16 * (uint64_t)i;
    wr_le32(p, files ? exp->files[i].flags : exp->modules[i].flags);
    wr_le64(p + 8, paths[i]);
  }
  end_section(b, files ? SEC_FILES : SEC_MODULES, s);
  return 0;
}

static int functions_section(hpctk4_wbuf *b, const hpcdb_experiment *exp, const uint64_t *names,
                             hpctk4_meta_refs *refs) {
  uint64_t s;
  HPCDB_TRY(begin_section(b, 16, &s));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_FUNCTION * (uint64_t)exp->n_functions, 8, &refs->functions));
  wr_le64(b->data + s, refs->functions);
  wr_le32(b->data + s + 8, exp->n_functions);
  wr_le16(b->data + s + 12, SZ_FUNCTION);
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    uint8_t *p = b->data + refs->functions + SZ_FUNCTION * (uint64_t)i;
    wr_le64(p + 0x00, f->name ? names[i] : 0);
    wr_le64(p + 0x08, f->module != HPCDB_NONE ? refs->modules + SZ_MODULE * (uint64_t)f->module : 0);
    wr_le64(p + 0x10, f->offset);
    wr_le64(p + 0x18, f->file != HPCDB_NONE ? refs->files + SZ_FILE * (uint64_t)f->file : 0);
    wr_le32(p + 0x20, f->line);
    wr_le32(p + 0x24, f->flags);
  }
  end_section(b, SEC_FUNCTIONS, s);
  return 0;
}

static int build(hpctk4_wbuf *b, const hpcdb_experiment *exp, uint64_t *str) {
  hpctk4_meta_refs refs = {0, 0, 0, str + exp->n_modules + exp->n_files + exp->n_functions};
  HPCDB_TRY(hpctk4_wbuf_alloc(b, HPCTK4_HEADER_SIZE(N_SEC), 8, NULL));
  hpctk4_write_header(b->data, "meta");
  HPCDB_TRY(general_section(b, exp));
  HPCDB_TRY(idnames_section(b, exp));
  HPCDB_TRY(metrics_section(b, exp));
  HPCDB_TRY(strings_section(b, exp, str));
  HPCDB_TRY(path_section(b, exp, 0, str, &refs.modules));
  HPCDB_TRY(path_section(b, exp, 1, str + exp->n_modules, &refs.files));
  HPCDB_TRY(functions_section(b, exp, str + exp->n_modules + exp->n_files, &refs));
  uint64_t s, sz;
  HPCDB_TRY(hpctk4_meta_context_tree(b, exp, &refs, &s, &sz));
  hpctk4_set_section(b->data, SEC_CONTEXT, sz, s);
  uint64_t foot;
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 8, 8, &foot));
  memcpy(b->data + foot, "_meta.db", 8);
  return 0;
}

int hpctk4_write_meta(const hpcdb_experiment *exp, const char *path) {
  uint64_t n_str = (uint64_t)exp->n_modules + exp->n_files + exp->n_functions + UINT16_MAX + 1;
  uint64_t *str = calloc(n_str, sizeof *str);
  if (!str) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  hpctk4_wbuf b = {0};
  int rc = build(&b, exp, str);
  free(str);
  /* made whole in memory: direct, no second copy in the page cache */
  if (rc == 0) rc = atomic_file_write_whole(path, b.data, (size_t)b.len, 1);
  hpctk4_wbuf_free(&b);
  return rc;
}
