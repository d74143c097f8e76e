/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_report: picks the values and hands over to the view. */
#include <string.h>

#include "common/error.h"
#include "report/table.h"

int hpcdb_report(FILE *out, const hpcdb_experiment *exp, const hpcdb_report_options *o) {
  HPCDB_CHECK_OPTIONS(o, HPCDB_REPORT_OPTIONS_VERSION, "hpcdb_report_options");
  report_data d;
  /* the profiles view lists profiles itself; --profile only filters its rows */
  HPCDB_TRY(report_data_build(&d, exp, o->metrics, o->n_metrics, o->view == HPCDB_VIEW_PROFILES ? NULL : o->profile,
                              o->csv || o->json ? 3 : table_default_columns(o)));
  int rc;
  for (uint32_t c = 0; c < d.n_cols && o->view == HPCDB_VIEW_PROFILES; c++)
    if (d.cols[c].formula) { /* per-profile totals are taken by metric id */
      report_data_free(&d);
      return hpcdb_fail(HPCDB_EINVAL, "the profiles view takes metric names, not formulas (\"%s\")", d.cols[c].formula);
    }
  switch (o->view) {
  case HPCDB_VIEW_BOTTOM_UP: rc = report_bottom_up(out, &d, o, 0); break;
  case HPCDB_VIEW_FLAT: rc = report_bottom_up(out, &d, o, 1); break;
  case HPCDB_VIEW_PROFILES: rc = report_profiles(out, &d, o); break;
  case HPCDB_VIEW_TOP_DOWN: rc = report_top_down(out, &d, o); break;
  default: rc = hpcdb_fail(HPCDB_EINVAL, "hpcdb_report: unknown view %d", (int)o->view); break;
  }
  report_data_free(&d);
  return rc;
}

int hpcdb_report_parse_collapse(const char *text, unsigned *bits) {
  if (!strcmp(text, "none")) return *bits = 0, 0;
  if (!strcmp(text, "libs")) return *bits = HPCDB_COLLAPSE_LIBS, 0;
  if (!strcmp(text, "chains")) return *bits = HPCDB_COLLAPSE_CHAINS, 0;
  if (!strcmp(text, "libs,chains") || !strcmp(text, "chains,libs"))
    return *bits = HPCDB_COLLAPSE_LIBS | HPCDB_COLLAPSE_CHAINS, 0;
  return -1;
}
