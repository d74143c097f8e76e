/* SPDX-License-Identifier: BSD-3-Clause */
/* Checking a draft a database: experiment.xml (well-formed, references, the
 * metric tables) through expxml, then profile.db, cct.db and trace.db through
 * hpcprof1 with the tree's context ids. One diagnostic per problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "older/drafta/drafta.h"

typedef struct vstate {
  diag_sink sink;
  const char *xml;
} vstate;

static void error(vstate *v, uint64_t offset, const char *rule, const char *detail) {
  diag_emit(&v->sink, HPCDB_SEV_ERROR, v->xml, offset, rule, "%s", detail);
}

static void note(vstate *v, const char *file, const char *rule, const char *detail) {
  diag_emit(&v->sink, HPCDB_SEV_NOTE, file, 0, rule, "%s", detail);
}

static void on_problem(void *user, uint64_t offset, const char *rule, const char *detail) {
  error(user, offset, rule, detail);
}

static const char *after_path(const char *path) {
  const char *m = hpcdb_last_error();
  size_t n = strlen(path);
  return !strncmp(m, path, n) && !strncmp(m + n, ": ", 2) ? m + n + 2 : m;
}

static int compare_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int drafta_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  drafta_paths p;
  result->errors = result->notes = 0;
  HPCDB_TRY(drafta_paths_of(&p, path));
  vstate v = {{result, fn, user}, p.xml};
  expxml_options opt = {0, 1, drafta_value_id_bound(&p), on_problem, &v};
  expxml_doc doc;
  hpcdb_experiment *exp;
  int rc = expxml_read_file(&exp, p.xml, &opt, &doc);
  if (rc == HPCDB_EIO || rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) { /* not well-formed: the binary files are checked alone */
    error(&v, 0, rc == HPCDB_ENOTFORMAT ? "format" : "well-formed", after_path(p.xml));
    hpcdb_validation bin = {0, 0};
    HPCDB_TRY(hpcprof1_validate(&bin, p.dir, NULL, 0, fn, user));
    result->errors += bin.errors;
    result->notes += bin.notes;
    return 0;
  }
  if (strncmp(doc.version, "4.", 2) != 0) error(&v, 0, "version", "HPCToolkitExperiment version is not 4.x");
  FILE *f = fopen(p.profile, "rb");
  if (f) fclose(f);
  else note(&v, p.profile, "missing-file", "no profile.db: the database has no values (and its traces cannot be read)");
  drafta_metric_map map;
  if (drafta_build_metrics(exp, &doc, &map, p.xml) < 0) error(&v, 0, "metric-table", after_path(p.xml));
  else drafta_metric_map_free(&map);
  expxml_doc_free(&doc);
  uint32_t *ids = malloc(((size_t)exp->n_contexts + 1) * sizeof *ids);
  if (!ids) {
    hpcdb_experiment_free(exp);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (uint32_t i = 0; i < exp->n_contexts; i++) ids[i] = exp->contexts[i].id;
  qsort(ids, exp->n_contexts, sizeof *ids, compare_u32);
  hpcdb_validation bin = {0, 0};
  rc = hpcprof1_validate(&bin, p.dir, ids, exp->n_contexts, fn, user);
  free(ids);
  hpcdb_experiment_free(exp);
  HPCDB_TRY(rc);
  result->errors += bin.errors;
  result->notes += bin.notes;
  return 0;
}
