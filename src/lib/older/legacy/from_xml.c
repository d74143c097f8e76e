/* SPDX-License-Identifier: BSD-3-Clause */
/* The part of a legacy model that experiment.xml alone gives: format and
 * version, identifier kinds, metrics, and the summary profile from the
 * inline values. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "older/legacy/legacy.h"

typedef struct id_value {
  uint16_t id;
  double value;
} id_value;

static int by_id(const void *a, const void *b) {
  uint16_t x = ((const id_value *)a)->id, y = ((const id_value *)b)->id;
  return (x > y) - (x < y);
}

/* Sorts a context's slice by metric id (insertion sort for the usual few,
 * qsort for many); a repeated id is a duplicate <M>: 1. */
static int sort_slice(uint16_t *ids, double *values, uint64_t lo, uint64_t hi) {
  if (hi - lo <= 16) {
    for (uint64_t i = lo + 1; i < hi; i++)
      for (uint64_t j = i; j > lo && ids[j - 1] >= ids[j]; j--) {
        if (ids[j - 1] == ids[j]) return 1;
        uint16_t t = ids[j];
        ids[j] = ids[j - 1];
        ids[j - 1] = t;
        double y = values[j];
        values[j] = values[j - 1];
        values[j - 1] = y;
      }
    return 0;
  }
  id_value *t = malloc((size_t)(hi - lo) * sizeof *t);
  if (!t) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = lo; i < hi; i++) t[i - lo] = (id_value){ids[i], values[i]};
  qsort(t, (size_t)(hi - lo), sizeof *t, by_id);
  int duplicate = 0;
  for (uint64_t i = lo; i < hi; i++) {
    ids[i] = t[i - lo].id;
    values[i] = t[i - lo].value;
    duplicate |= i > lo && ids[i] == ids[i - 1];
  }
  free(t);
  return duplicate;
}

/* Shrinks a parser array to its final size (the parser grows them by doubling). */
static void *fit(void *items, uint64_t n, size_t size) {
  void *p = realloc(items, (size_t)(n ? n : 1) * size);
  return p ? p : items;
}

/* Inline values: in every file hpcprof wrote, the contexts' runs come in
 * ascending id order, so the parser's arrays become the summary profile's
 * CSR arrays as they are; otherwise they are sorted. */
static int summary_values(hpcdb_experiment *exp, expxml_doc *d, const legacy_metric_map *map, uint32_t profile,
                          const char *xml) {
  /* to model ids, dropping the columns the metric table leaves out (runs that empty vanish) */
  uint64_t w = 0, runs = 0;
  for (uint64_t k = 0; k < d->n_runs; k++) {
    uint64_t start = w;
    for (uint64_t i = d->run_start[k]; i < d->run_start[k + 1]; i++) {
      uint16_t id = map->inline_stat[d->value_metric[i]];
      if (id == LEGACY_DROP) continue;
      d->value_metric[w] = id;
      d->value[w++] = d->value[i];
    }
    if (w == start) continue;
    d->run_ctx[runs] = d->run_ctx[k];
    d->run_start[runs++] = start;
  }
  d->n_runs = runs;
  d->n_values = w;
  if (!d->n_values) return 0;
  d->run_start[runs] = w;
  int ascending = 1;
  for (uint64_t k = 1; k < d->n_runs && ascending; k++) ascending = d->run_ctx[k] > d->run_ctx[k - 1];
  if (!ascending) {
    uint32_t *ctx = malloc(d->n_values * sizeof *ctx);
    if (!ctx)
      return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu inline values", xml, (unsigned long long)d->n_values);
    for (uint64_t k = 0; k < d->n_runs; k++)
      for (uint64_t i = d->run_start[k]; i < d->run_start[k + 1]; i++) ctx[i] = d->run_ctx[k];
    int rc = hpcdb_profile_set_values(exp, profile, d->n_values, ctx, d->value_metric, d->value);
    free(ctx);
    return rc == HPCDB_EINVAL
               ? hpcdb_fail(HPCDB_ECORRUPT, "%s: duplicate-value: a context has two <M> of one metric", xml)
               : rc;
  }
  for (uint64_t k = 0; k < d->n_runs; k++) {
    int rc = sort_slice(d->value_metric, d->value, d->run_start[k], d->run_start[k + 1]);
    if (rc < 0) return rc;
    if (rc)
      return hpcdb_fail(HPCDB_ECORRUPT, "%s: duplicate-value: context %u has two <M> of one metric", xml,
                        d->run_ctx[k]);
  }
  int rc = hpcdb_profile_adopt_csr(exp, profile, (uint32_t)d->n_runs, fit(d->run_ctx, d->n_runs, sizeof *d->run_ctx),
                                   fit(d->run_start, d->n_runs + 1, sizeof *d->run_start), d->n_values,
                                   fit(d->value_metric, d->n_values, sizeof *d->value_metric),
                                   fit(d->value, d->n_values, sizeof *d->value));
  d->run_ctx = NULL; /* adopted (or freed) by the model */
  d->run_start = NULL;
  d->value_metric = NULL;
  d->value = NULL;
  d->n_runs = d->n_values = 0;
  return rc;
}

int legacy_from_xml(hpcdb_experiment *exp, expxml_doc *doc, legacy_metric_map *map, const char *xml) {
  unsigned major = 0, minor = 0;
  if (sscanf(doc->version, "%u.%u", &major, &minor) < 1 || major < 1 || major >= 4)
    return hpcdb_fail(HPCDB_EVERSION, "%s: HPCToolkitExperiment version \"%s\" is not a 2.x database", xml,
                      doc->version);
  HPCDB_TRY(hpcdb_set_format(exp, legacy_format.name, (uint8_t)major, (uint8_t)minor));
  if (!exp->title) HPCDB_TRY(hpcdb_set_title(exp, "experiment", NULL));
  static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD"};
  for (int k = 0; k < 4; k++) HPCDB_TRY(hpcdb_add_kind_name(exp, kinds[k], NULL));
  HPCDB_TRY(legacy_build_metrics(exp, doc, map, xml));
  uint32_t summary;
  HPCDB_TRY(hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &summary));
  return summary_values(exp, doc, map, summary, xml);
}
