/* SPDX-License-Identifier: BSD-3-Clause */
/* The exported page: the viewer's own page (src/lib/page) over a snapshot
 * of the data, with the flame graph and, with traces, a timeline below the
 * tree as static SVG. One file; it opens from disk with no network. */
#include <errno.h>
#include <string.h>

#include "common/error.h"
#include "report/export_registry.h"
#include "page/page_html.h"
#include "report/report_data.h"

static int sections(FILE *out, const hpcdb_experiment *exp, const char *metric) {
  fputs("<section class=\"static\" id=\"static-flame\"><h2>Flame graph</h2>\n", out);
  HPCDB_TRY(report_flamegraph_svg(out, exp, metric, 0));
  fputs("</section>\n", out);
  if (exp->n_traces) {
    fputs("<section class=\"static\" id=\"static-trace\"><h2>Timeline</h2>\n", out);
    report_timeline_svg(out, exp);
    fputs("</section>\n", out);
  }
  return 0;
}

int hpcdb_export_html(FILE *out, const hpcdb_experiment *exp, const char *metric) {
  hpcdb_query *q;
  HPCDB_TRY(hpcdb_query_from_experiment(&q, exp));
  int rc = page_html_begin(out, q, exp->origin, metric);
  if (rc == 0) rc = sections(out, exp, metric);
  if (rc == 0) rc = page_html_end(out);
  hpcdb_query_close(q);
  if (rc == 0 && ferror(out)) rc = hpcdb_fail(HPCDB_EIO, "error writing HTML: %s", strerror(errno));
  return rc;
}

static int write_html(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o) {
  (void)src;
  return hpcdb_export_html(out, exp, o->metric);
}

const export_desc export_html = {
    {"html",
     "hpcdb view's page in one self-contained file that opens from disk with no network and no server: the "
     "top-down, bottom-up and flat tables (sort by any column, expand, search by regex, hot path, zoom, name "
     "filters, %, CSV, light and dark), the distribution of a node over the profiles, then the flame graph (its "
     "widest 20,000 frames) and, with traces, a timeline. It holds a snapshot: every metric while nodes x "
     "metrics stays under 1,000,000 (else the metric and the default one), the heaviest 20,000 nodes of each "
     "view by each of them in turn, the distributions of the heaviest top-down nodes (65,536 points in all). "
     "Formulas are computed from the values it holds. Left out, and said so where asked: source files, each "
     "profile's own tree, nodes and metrics past those limits (the status line says what was cut).",
     HPCDB_EXPORT_TAKES_METRIC, HPCDB_EXPORT_READS_ALL},
    write_html};
