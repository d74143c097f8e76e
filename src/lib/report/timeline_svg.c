/* SPDX-License-Identifier: BSD-3-Clause */
/* The traces as a static SVG timeline (in the exported page). */
#include <string.h>

#include "query/shown.h"
#include "report/report_data.h"

/* One row per trace; an interval per run of samples in one context,
 * coloured by the context's name. */
void report_timeline_svg(FILE *out, const hpcdb_experiment *e) {
  uint64_t t0 = UINT64_MAX, t1 = 0;
  for (uint32_t t = 0; t < e->n_traces; t++)
    if (e->traces[t].n) {
      if (e->traces[t].timestamps[0] < t0) t0 = e->traces[t].timestamps[0];
      if (e->traces[t].timestamps[e->traces[t].n - 1] > t1) t1 = e->traces[t].timestamps[e->traces[t].n - 1];
    }
  if (t1 <= t0) return;
  /* rows start right of a gutter of row labels (x0); a time axis below them */
  const unsigned x0 = 150, w = 1040;
  double scale = w / (double)(t1 - t0), span = (double)(t1 - t0) * 1e-9;
  unsigned bottom = e->n_traces * 14 + 8;
  fprintf(out,
          "<p>%.6f s from the first sample to the last</p>\n<svg id=\"trace-svg\" width=\"1200\" height=\"%u\" "
          "viewBox=\"0 0 1200 %u\">\n",
          span, bottom + 36, bottom + 36);
  fprintf(out, "<line x1=\"%u\" x2=\"%u\" y1=\"%u\" y2=\"%u\" stroke=\"#888\"/>\n", x0, x0 + w, bottom, bottom);
  for (unsigned q = 0; q <= 4; q++) {
    unsigned x = x0 + (unsigned)(w * q / 4);
    fprintf(out,
            "<line x1=\"%u\" x2=\"%u\" y1=\"%u\" y2=\"%u\" stroke=\"#888\"/><text x=\"%u\" y=\"%u\" "
            "text-anchor=\"%s\">%.4g s</text>\n",
            x, x, bottom, bottom + 4, x, bottom + 15,
            q == 0   ? "start"
            : q == 4 ? "end"
                     : "middle",
            span * q / 4);
  }
  fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">time from the first sample</text>\n", x0 + w / 2,
          bottom + 30);
  char name[512], id[256];
  for (uint32_t t = 0; t < e->n_traces; t++) {
    const hpcdb_trace *tr = &e->traces[t];
    hpcdb_profile_identity(e, &e->profiles[tr->profile], id, sizeof id);
    /* the row's label: the end of its identity (what tells the rows apart), whole in the title */
    size_t len = strlen(id);
    fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%s", x0 - 4, 15 + t * 14, len > 20 ? "..." : "");
    report_markup_text(out, len > 20 ? id + len - 20 : id);
    fputs("<title>", out);
    report_markup_text(out, id);
    fputs("</title></text><g><title>", out);
    report_markup_text(out, id);
    fputs("</title>", out);
    for (uint64_t k = 0; k < tr->n;) {
      uint64_t j = k + 1;
      while (j < tr->n && tr->ctx_ids[j] == tr->ctx_ids[k]) j++;
      uint64_t end = j < tr->n ? tr->timestamps[j] : tr->timestamps[tr->n - 1];
      uint32_t c = query_shown(e, hpcdb_find_context(e, tr->ctx_ids[k]), 0);
      if (c != HPCDB_NONE && c != 0) {
        report_name(e, c, name, sizeof name);
        unsigned hsh = 2166136261u;
        for (const char *s = name; *s; s++) hsh = (hsh ^ (unsigned char)*s) * 16777619u;
        fprintf(out, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"12\" fill=\"hsl(%u,60%%,55%%)\"><title>",
                x0 + (double)(tr->timestamps[k] - t0) * scale, 5 + t * 14,
                (double)(end - tr->timestamps[k]) * scale + 0.3, hsh % 360);
        report_markup_text(out, name);
        fputs("</title></rect>", out);
      }
      k = j;
    }
    fputs("</g>\n", out);
  }
  fputs("</svg>\n", out);
}
