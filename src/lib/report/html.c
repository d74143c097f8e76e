/* One self-contained HTML page (no network): the top-down tree (native
 * expand/collapse, sortable), the flame graph, the per-profile imbalance
 * chart and, with traces, a timeline. The page's script records in <body>
 * how many tree nodes and flame frames it shows and whether a script error
 * happened, so a headless browser can check it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "report/report_data.h"

static const char style[] =
    "<style>body{font-family:sans-serif;margin:1em 2em;background:#fff;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em;border-bottom:1px solid #ccc}"
    "details{margin-left:1.2em}summary{font-family:monospace;white-space:nowrap;cursor:pointer}"
    "summary.leaf{list-style:none}.v{display:inline-block;width:9em;text-align:right;color:#555}"
    ".p{display:inline-block;width:5em;text-align:right;color:#a33}button{margin-right:.5em}"
    "#tree{max-height:40em;overflow:auto;border:1px solid #eee;padding:.3em}"
    /* the column titles: where a summary's columns are (details' margin, then the marker's width) */
    "#tree .head{font-family:monospace;white-space:nowrap;margin-left:1.2em;padding-left:1.1em;font-weight:bold}"
    "svg text{font-family:sans-serif;font-size:11px;fill:#444}</style>\n";

static const uint32_t TREE_LIMIT = 20000; /* nodes in the page; the rest is summed up */

/* The tree as nested <details>; iterative, children by inclusive cost. */
static int write_tree(FILE *out, const report_data *d) {
  const hpcdb_experiment *e = d->exp;
  typedef struct { uint32_t ctx; int close; } step;
  step *stack = malloc(((size_t)e->n_contexts + 1) * 2 * sizeof *stack);
  if (!stack) return hpcdb_fail(HPCDB_ENOMEM, "out of memory writing the HTML tree");
  size_t n = 0;
  uint32_t written = 0;
  stack[n++] = (step){0, 0};
  char name[512], inc[64], exc[64];
  while (n > 0) {
    step s = stack[--n];
    if (s.close) {
      fputs("</details>\n", out);
      continue;
    }
    uint32_t c = s.ctx;
    double v = rd_inc(d, c, 0);
    report_name(e, c, name, sizeof name);
    report_value(inc, sizeof inc, v, d->cols[0].seconds);
    report_value(exc, sizeof exc, rd_exc(d, c, 0), d->cols[0].seconds);
    int leaf = e->contexts[c].first_child == HPCDB_NONE;
    fprintf(out, "<details%s data-i=\"%.17g\" data-e=\"%.17g\" data-n=\"", c == 0 ? " open" : "", v, rd_exc(d, c, 0));
    report_markup_text(out, name);
    fprintf(out, "\"><summary%s><span class=\"v\">%s</span><span class=\"p\">%.1f%%</span><span class=\"v\">%s</span> ",
            leaf ? " class=\"leaf\"" : "", inc, d->total[0] ? 100.0 * v / d->total[0] : 0, exc);
    report_markup_text(out, name);
    fputs("</summary>\n", out);
    written++;
    stack[n++] = (step){c, 1};
    /* children by cost, pushed in reverse; the page holds at most TREE_LIMIT nodes */
    for (uint32_t k = e->contexts[c].last_child; k != HPCDB_NONE;) {
      if (written + n / 2 < TREE_LIMIT && rd_inc(d, k, 0) != 0) stack[n++] = (step){k, 0};
      uint32_t prev = HPCDB_NONE;
      for (uint32_t q = e->contexts[c].first_child; q != k; q = e->contexts[q].next_sibling) prev = q;
      k = prev;
    }
  }
  free(stack);
  return 0;
}

static int write_profiles_chart(FILE *out, const hpcdb_experiment *e, const char *metric) {
  uint32_t n = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) n += !(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY);
  if (n == 0) return 0;
  double *v = calloc(n, sizeof *v), max = 0, sum = 0;
  if (!v) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the profiles chart");
  const char *names[1] = {metric};
  uint32_t k = 0;
  char id[256];
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    if (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) continue;
    hpcdb_profile_identity(e, &e->profiles[p], id, sizeof id);
    report_data d;
    int rc = report_data_build(&d, e, metric ? names : NULL, metric ? 1 : 0, id, 1);
    if (rc < 0) { /* a bar of 0 would be a wrong answer */
      free(v);
      return rc;
    }
    v[k] = d.total[0];
    report_data_free(&d);
    if (v[k] > max) max = v[k];
    sum += v[k++];
  }
  double mean = sum / n;
  /* bars right of a y axis (left: its labels), above an x axis with its label */
  unsigned bar = n > 200 ? 2 : n > 50 ? 6 : 18, h = 160, x0 = 80, width = x0 + n * (bar + 2) + 10;
  if (width < 360) width = 360;
  char top[64], avg[64];
  uint32_t m0;
  const char *why, *mname = metric;
  if (!mname && hpcdb_default_metric(e, &m0, &why) == 0) mname = e->metrics[m0].name;
  double seconds = mname ? report_time_unit(mname, NULL) : 0;
  report_value(top, sizeof top, max, seconds);
  report_value(avg, sizeof avg, mean, seconds);
  fprintf(out, "<p>%u profile%s; max / mean = %.2f</p>\n<svg id=\"imbalance\" width=\"%u\" height=\"%u\">\n", n,
          n == 1 ? "" : "s", mean > 0 ? max / mean : 0, width, h + 45);
  fprintf(out, "<line x1=\"%u\" x2=\"%u\" y1=\"5\" y2=\"%u\" stroke=\"#888\"/>"
               "<line x1=\"%u\" x2=\"%u\" y1=\"%u\" y2=\"%u\" stroke=\"#888\"/>\n",
          x0 - 2, x0 - 2, h + 5, x0 - 2, width - 5, h + 5, h + 5);
  fprintf(out, "<text x=\"%u\" y=\"12\" text-anchor=\"end\">%s</text><text x=\"%u\" y=\"%u\" text-anchor=\"end\">0</text>\n",
          x0 - 6, top, x0 - 6, h + 5);
  fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">profiles (%u), in file order</text>\n", x0 + (width - x0) / 2, h + 22, n);
  fprintf(out, "<text transform=\"translate(12,%u) rotate(-90)\" text-anchor=\"middle\">", h / 2 + 5);
  report_markup_text(out, mname ? mname : "value");
  fputs("</text>\n", out);
  k = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    if (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) continue;
    hpcdb_profile_identity(e, &e->profiles[p], id, sizeof id);
    double bh = max > 0 ? v[k] / max * h : 0;
    fprintf(out, "<rect x=\"%u\" y=\"%.1f\" width=\"%u\" height=\"%.1f\" fill=\"#4a7\"><title>", x0 + k * (bar + 2), h - bh + 5, bar, bh);
    report_markup_text(out, id);
    fprintf(out, ": %.6g</title></rect>\n", v[k++]);
  }
  if (max > 0)
    fprintf(out, "<line x1=\"%u\" x2=\"%u\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"4\"><title>mean</title></line>"
                 "<text x=\"%u\" y=\"%.1f\" text-anchor=\"end\" style=\"fill:#c33\">mean %s</text>\n",
            x0 - 2, width - 5, h - mean / max * h + 5, h - mean / max * h + 5, width - 5,
            h - mean / max * h + (mean / max > 0.9 ? 17 : 2), avg); /* below the line when it is near the top */
  fputs("</svg>\n", out);
  free(v);
  return 0;
}

/* One row per trace; an interval per run of samples in one context,
 * coloured by the context's name. */
static void write_timeline(FILE *out, const hpcdb_experiment *e) {
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
  fprintf(out, "<p>%.6f s from the first sample to the last</p>\n<svg id=\"timeline\" width=\"1200\" height=\"%u\">\n",
          span, bottom + 36);
  fprintf(out, "<line x1=\"%u\" x2=\"%u\" y1=\"%u\" y2=\"%u\" stroke=\"#888\"/>\n", x0, x0 + w, bottom, bottom);
  for (int q = 0; q <= 4; q++) {
    unsigned x = x0 + (unsigned)(w * q / 4);
    fprintf(out, "<line x1=\"%u\" x2=\"%u\" y1=\"%u\" y2=\"%u\" stroke=\"#888\"/><text x=\"%u\" y=\"%u\" text-anchor=\"%s\">%.4g s</text>\n",
            x, x, bottom, bottom + 4, x, bottom + 15, q == 0 ? "start" : q == 4 ? "end" : "middle", span * q / 4);
  }
  fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">time from the first sample</text>\n", x0 + w / 2, bottom + 30);
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
      uint32_t c = hpcdb_find_context(e, tr->ctx_ids[k]);
      if (c != HPCDB_NONE && c != 0) {
        report_name(e, c, name, sizeof name);
        unsigned hsh = 2166136261u;
        for (const char *s = name; *s; s++) hsh = (hsh ^ (unsigned char)*s) * 16777619u;
        fprintf(out, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"12\" fill=\"hsl(%u,60%%,55%%)\"><title>",
                x0 + (double)(tr->timestamps[k] - t0) * scale, 5 + t * 14, (double)(end - tr->timestamps[k]) * scale + 0.3, hsh % 360);
        report_markup_text(out, name);
        fputs("</title></rect>", out);
      }
      k = j;
    }
    fputs("</g>\n", out);
  }
  fputs("</svg>\n", out);
}

static const char page_script[] =
    "<script>\n"
    "var errors=0; window.addEventListener('error',function(){errors++;document.body.setAttribute('data-errors',errors);});\n"
    "function sortTree(key){document.querySelectorAll('#tree details').forEach(function(d){\n"
    "  var kids=Array.prototype.filter.call(d.children,function(c){return c.tagName==='DETAILS';});\n"
    "  kids.sort(function(a,b){return key==='n'?a.dataset.n.localeCompare(b.dataset.n):(+b.dataset[key])-(+a.dataset[key]);});\n"
    "  kids.forEach(function(c){d.appendChild(c);});});}\n"
    "document.body.setAttribute('data-tree-nodes',document.querySelectorAll('#tree details').length);\n"
    "var fl=document.getElementById('hpcdb-flame');\n"
    "document.body.setAttribute('data-flame-frames',fl?fl.getAttribute('data-rendered'):0);\n"
    "document.body.setAttribute('data-errors',errors);\n"
    "</script>\n";

int hpcdb_export_html(FILE *out, const hpcdb_experiment *exp, const char *metric) {
  report_data d;
  const char *names[1] = {metric};
  HPCDB_TRY(report_data_build(&d, exp, metric ? names : NULL, metric ? 1 : 0, NULL, 1));
  char total[64];
  report_value(total, sizeof total, d.total[0], d.cols[0].seconds);
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", out);
  report_markup_text(out, exp->title ? exp->title : "hpcdb report");
  fputs("</title>\n", out);
  fputs(style, out);
  fputs("</head>\n<body>\n<h1>", out);
  report_markup_text(out, exp->title ? exp->title : "hpcdb report");
  fputs("</h1>\n<p>", out);
  report_markup_text(out, d.cols[0].name);
  fprintf(out, ": total %s (values: ", total);
  report_markup_text(out, d.source);
  fputs(")</p>\n<h2>Top-down</h2>\n<p><button onclick=\"sortTree('i')\">sort by inclusive</button>"
        "<button onclick=\"sortTree('e')\">sort by exclusive</button><button onclick=\"sortTree('n')\">sort by name</button></p>\n"
        "<div id=\"tree\">\n<div class=\"head\"><span class=\"v\">inclusive</span><span class=\"p\">%</span>"
        "<span class=\"v\">exclusive</span> calling context</div>\n", out);
  int rc = write_tree(out, &d);
  fputs("</div>\n<h2>Flame graph</h2>\n", out);
  report_data_free(&d);
  HPCDB_TRY(rc);
  HPCDB_TRY(report_flamegraph_svg(out, exp, metric, 0));
  fputs("<h2>Profiles</h2>\n", out);
  HPCDB_TRY(write_profiles_chart(out, exp, metric));
  if (exp->n_traces) {
    fputs("<h2>Timeline</h2>\n", out);
    write_timeline(out, exp);
  }
  fputs(page_script, out);
  fputs("</body></html>\n", out);
  return ferror(out) ? hpcdb_fail(HPCDB_EIO, "error writing HTML: %s", strerror(errno)) : 0;
}
