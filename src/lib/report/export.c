/* SPDX-License-Identifier: BSD-3-Clause */
/* Export: folded stacks, written as they go. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/textout.h"
#include "query/names.h"
#include "query/shown.h"
#include "report/export_registry.h"
#include "report/report_data.h"

/* Names in the folded format may not hold ';' (the separator) or newlines. */
static void folded_name(textout *o, const char *s) {
  for (; *s; s++) textout_char(o, *s == ';' || *s == '\n' ? ':' : *s);
}

/* Exclusive values are inclusive minus the children's inclusive: below this
 * fraction of the total they are the rounding of those sums, not cost. */
#define FOLDED_PRECISION 1e-12

int hpcdb_export_folded(FILE *out, const hpcdb_experiment *exp, const char *metric, const char *profile) {
  report_data d;
  const char *names[1] = {metric};
  HPCDB_TRY(report_data_build(&d, exp, metric ? names : NULL, metric ? 1 : 0, profile, 1));
  uint32_t *chain = malloc(((size_t)exp->n_contexts + 1) * sizeof *chain);
  uint8_t *twins = query_twins(exp, 0);
  textout o = {0};
  int rc = chain && twins ? textout_open(&o, out) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  double quantum = fabs(d.total[0]) * FOLDED_PRECISION;
  uint64_t lines = 0;
  char name[512], value[DTOA_BUF];
  for (uint32_t i = 1; rc == 0 && i < exp->n_contexts; i++) {
    double v = rd_self(&d, i, 0);
    if (!(v >= quantum / 2) || quantum == 0) continue; /* zero at the metric's precision, negative, or NaN */
    uint32_t n = 0;
    for (uint32_t k = query_shown(exp, i, 0); k != 0 && k != HPCDB_NONE;
         k = query_shown(exp, exp->contexts[k].parent, 0))
      chain[n++] = k;
    while (n-- > 0) {
      query_named_at_site(exp, chain[n], twins[chain[n]], name, sizeof name);
      folded_name(&o, name);
      if (n) textout_char(&o, ';');
    }
    textout_char(&o, ' ');
    textout_put(&o, value, fmt_double_quantum(value, v, quantum));
    textout_char(&o, '\n');
    lines++;
  }
  if (o.buf) {
    int closed = textout_close(&o);
    if (rc == 0) rc = closed;
  }
  if (rc == 0 && lines == 0)
    rc = hpcdb_fail(HPCDB_EINVAL, "nothing to export: metric \"%s\" has no positive exclusive value%s%s",
                    d.cols[0].name, profile ? " in " : "", profile ? profile : "");
  free(chain);
  free(twins);
  report_data_free(&d);
  return rc;
}

static int write_folded(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o) {
  (void)src;
  return hpcdb_export_folded(out, exp, o->metric, o->profile);
}

const export_desc export_folded = {
    {"folded",
     "Brendan Gregg's folded stacks, 'frame;frame;frame value', one line per context with exclusive cost of "
     "the metric, for flamegraph.pl, speedscope and others. Values from the summary profile unless --profile "
     "selects one. Values are kept to 12 significant digits of the total (what is below is the noise of sums "
     "and differences); lines whose value is zero at that precision, or negative, are left out.",
     HPCDB_EXPORT_TAKES_METRIC | HPCDB_EXPORT_TAKES_PROFILE, HPCDB_EXPORT_READS_SUMMARY},
    write_folded};
