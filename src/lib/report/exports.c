/* SPDX-License-Identifier: BSD-3-Clause */
/* The exports, one line each (the order `hpcdb export --help` lists them),
 * and hpcdb_export, which opens what an export reads and writes it. */
#include <string.h>

#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "hpcdb/report.h"
#include "hpcdb/source.h"
#include "report/export_registry.h"

static const export_desc *const exports[] = {
    &export_folded, &export_csv, &export_speedscope, &export_chrome_trace, &export_flamegraph, &export_html,
};
#define N_EXPORTS (sizeof exports / sizeof *exports)

const hpcdb_export_info *hpcdb_export_get(uint32_t i) { return i < N_EXPORTS ? &exports[i]->info : NULL; }

static const export_desc *find(const char *name) {
  for (size_t i = 0; name && i < N_EXPORTS; i++)
    if (!strcmp(exports[i]->info.name, name)) return exports[i];
  return NULL;
}

const hpcdb_export_info *hpcdb_export_find(const char *name) {
  const export_desc *d = find(name);
  return d ? &d->info : NULL;
}

void hpcdb_export_read_options(const hpcdb_export_info *e, const hpcdb_export_options *o, hpcdb_read_options *out) {
  int summary = e->reads == HPCDB_EXPORT_READS_SUMMARY && !(o && o->profile);
  *out =
      (hpcdb_read_options){HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, summary ? HPCDB_READ_SUMMARY_ONLY : 0};
}

int hpcdb_export(FILE *out, hpcdb_source *src, const char *name, const hpcdb_export_options *options) {
  const export_desc *d = find(name);
  if (!d) return hpcdb_fail(HPCDB_EINVAL, "no export is named \"%s\"", name ? name : "");
  HPCDB_CHECK_OPTIONS(options, HPCDB_EXPORT_OPTIONS_VERSION, "hpcdb_export_options");
  hpcdb_export_options o = options ? *options : (hpcdb_export_options)HPCDB_EXPORT_OPTIONS_INIT;
  if (o.metric && !(d->info.takes & HPCDB_EXPORT_TAKES_METRIC))
    return hpcdb_fail(HPCDB_EINVAL, "the %s export takes no metric", name);
  if (o.profile && !(d->info.takes & HPCDB_EXPORT_TAKES_PROFILE))
    return hpcdb_fail(HPCDB_EINVAL, "the %s export takes no profile", name);
  const hpcdb_experiment *exp = NULL;
  hpcdb_experiment *owned = NULL;
  if (d->info.reads != HPCDB_EXPORT_READS_PROFILES) {
    hpcdb_read_options ro;
    hpcdb_export_read_options(&d->info, &o, &ro);
    HPCDB_TRY(hpcdb_source_load(src, &ro, &exp, &owned));
  }
  uint32_t m;
  const char *why;
  if (exp && (d->info.takes & HPCDB_EXPORT_TAKES_METRIC) && !o.metric && hpcdb_default_metric(exp, &m, &why) == 0) {
    o.metric = exp->metrics[m].name;
    if (o.chose) o.chose(o.user, o.metric, why);
  }
  int rc = d->write(out, exp, src, &o);
  hpcdb_experiment_free(owned);
  return rc;
}
