/* SPDX-License-Identifier: BSD-3-Clause */
/* The draft-b validator: the parser's rules for meta.db (reported as
 * diagnostics), the rules only a validator checks (16-byte section
 * alignment, no overlapping sections, unique metric ids; values outside the
 * enumerations are notes, as for v4.0), then profile.db, cct.db and trace.db through hpcprof1_validate with
 * the tree's context ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "older/draftb/draftb.h"
#include "older/hpcprof1/hpcprof1.h"

typedef struct reporter {
  diag_sink sink;
  const char *path;
} reporter;

#define DIAG(r, sev, off, rule, ...) diag_emit(&(r)->sink, sev, (r)->path, off, rule, __VA_ARGS__)

static void check_sections(reporter *r, const draftb_meta *m) {
  if (m->n_sections == 7) DIAG(r, HPCDB_SEV_NOTE, 18, "section-count", "the document's 7-section header");
  if (m->major != 4 || m->minor != 0)
    DIAG(r, HPCDB_SEV_NOTE, 16, "version", "version %u.%u (the document says 4.0)", m->major, m->minor);
  for (unsigned s = 0; s < DB_N_SECTIONS; s++) {
    if (m->n_sections == 7 && s == DB_IDTABLE) continue;
    if (m->sec_off[s] % 16)
      DIAG(r, HPCDB_SEV_ERROR, m->sec_off[s], "alignment", "section %u starts at 0x%llx, not on a 16-byte boundary", s,
           (unsigned long long)m->sec_off[s]);
    for (unsigned t = s + 1; t < DB_N_SECTIONS; t++) {
      if (m->n_sections == 7 && t == DB_IDTABLE) continue;
      if (m->sec_size[s] && m->sec_size[t] && m->sec_off[s] < m->sec_off[t] + m->sec_size[t] &&
          m->sec_off[t] < m->sec_off[s] + m->sec_size[s])
        DIAG(r, HPCDB_SEV_ERROR, m->sec_off[t], "section-overlap", "sections %u and %u overlap", s, t);
    }
  }
}

/* Rules on what the parser accepted: enumerations, unique metric ids. */
static void check_model(reporter *r, const draftb_meta *m, const hpcdb_experiment *exp) {
  uint8_t *seen = calloc(2, 65536); /* raw_mid and summary_mid are separate id spaces */
  if (!seen) return;
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *x = &exp->metrics[i];
    for (uint32_t k = 0; k < x->n_instances; k++)
      if (seen[x->instances[k].prop_metric_id]++)
        DIAG(r, HPCDB_SEV_ERROR, m->sec_off[DB_METRICS], "duplicate-metric-id",
             "metric \"%s\": raw_mid %u is used twice", x->name, x->instances[k].prop_metric_id);
    for (uint32_t k = 0; k < x->n_summaries; k++) {
      if (seen[65536 + x->summaries[k].stat_metric_id]++)
        DIAG(r, HPCDB_SEV_ERROR, m->sec_off[DB_METRICS], "duplicate-metric-id",
             "metric \"%s\": summary_mid %u is used twice", x->name, x->summaries[k].stat_metric_id);
      if (x->summaries[k].combine > HPCDB_COMBINE_MAX)
        DIAG(r, HPCDB_SEV_NOTE, m->sec_off[DB_METRICS], "unknown-enum", "metric \"%s\": combine %u is not 0, 1 or 2",
             x->name, x->summaries[k].combine);
    }
  }
  free(seen);
  uint32_t reserved = 0;
  for (uint32_t i = 0; i < exp->n_modules; i++) reserved += exp->modules[i].flags != 0;
  for (uint32_t i = 0; i < exp->n_files; i++) reserved += (exp->files[i].flags & ~HPCDB_FILE_COPIED) != 0;
  for (uint32_t i = 0; i < exp->n_functions; i++) reserved += exp->functions[i].flags != 0;
  if (reserved)
    DIAG(r, HPCDB_SEV_NOTE, m->sec_off[DB_BINARIES], "reserved",
         "%u binary, file or function entries use reserved flag bits", reserved);
  /* per tree, not per context: one note for each kind of oddity, with a count and the first id */
  uint32_t count[3] = {0, 0, 0}, first[3] = {0, 0, 0};
  for (uint32_t i = 1; i < exp->n_contexts; i++) {
    const hpcdb_context *c = &exp->contexts[i];
    int odd[3] = {c->relation > HPCDB_REL_INLINED_CALL, c->lexical_type > HPCDB_LEX_INSTRUCTION,
                  ((c->lexical_type == HPCDB_LEX_LOOP || c->lexical_type == HPCDB_LEX_LINE) && c->file == HPCDB_NONE) ||
                      (c->lexical_type == HPCDB_LEX_INSTRUCTION && c->module == HPCDB_NONE)};
    for (int k = 0; k < 3; k++)
      if (odd[k] && count[k]++ == 0) first[k] = c->id;
  }
  if (count[0])
    DIAG(r, HPCDB_SEV_NOTE, m->sec_off[DB_TREE], "unknown-enum",
         "%u contexts have a call_type other than 0 or 1 (first: %u)", count[0], first[0]);
  if (count[1])
    DIAG(r, HPCDB_SEV_NOTE, m->sec_off[DB_TREE], "unknown-enum",
         "%u contexts have a lex_type other than 0-3 (first: %u)", count[1], first[1]);
  if (count[2])
    DIAG(r, HPCDB_SEV_NOTE, m->sec_off[DB_TREE], "lexical-fields",
         "%u loop, line or point contexts lack the source line or instruction that defines them (first: %u)", count[2],
         first[2]);
}

static int by_id(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int draftb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  char dir[4096], meta[4200];
  result->errors = result->notes = 0;
  HPCDB_TRY(draftb_locate(path, dir, sizeof dir, meta, sizeof meta));
  hpcdb_mapped_file mf;
  HPCDB_TRY(mapped_file_open(&mf, meta));
  hpcdb_experiment *exp;
  int rc = hpcdb_experiment_new(&exp);
  if (rc < 0) {
    mapped_file_close(&mf);
    return rc;
  }
  reporter r = {{result, fn, user}, meta};
  draftb_meta m;
  uint32_t *ids = NULL;
  uint32_t n_ids = 0;
  uint8_t *declared = NULL; /* [0, 65536): raw_mid, [65536, 131072): summary_mid */
  if (draftb_parse_meta(&m, exp, mf.data, mf.len, meta) < 0) {
    DIAG(&r, HPCDB_SEV_ERROR, m.offset, m.rule ? m.rule : "bounds", "%s", hpcdb_last_error());
  } else {
    check_sections(&r, &m);
    check_model(&r, &m, exp);
    ids = malloc((exp->n_contexts ? exp->n_contexts : 1) * sizeof *ids);
    for (uint32_t i = 0; ids && i < exp->n_contexts; i++) ids[n_ids++] = exp->contexts[i].id;
    if (ids) qsort(ids, n_ids, sizeof *ids, by_id);
    declared = calloc(2, 65536);
    for (uint32_t i = 0; declared && i < exp->n_metrics; i++) {
      const hpcdb_metric *x = &exp->metrics[i];
      for (uint32_t k = 0; k < x->n_instances; k++) declared[x->instances[k].prop_metric_id] = 1;
      for (uint32_t k = 0; k < x->n_summaries; k++) declared[65536 + x->summaries[k].stat_metric_id] = 1;
    }
  }
  mapped_file_close(&mf);
  hpcdb_experiment_free(exp);
  rc = hpcprof1_validate_declared(result, dir, ids, n_ids, declared, declared ? declared + 65536 : NULL, fn, user);
  free(ids);
  free(declared);
  return rc;
}
