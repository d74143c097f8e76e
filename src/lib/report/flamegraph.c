/* SPDX-License-Identifier: BSD-3-Clause */
/* A self-contained interactive SVG flame graph: one rectangle per calling
 * context, as wide as its inclusive cost of the metric, its children above
 * it; hovering shows name and value (<title>), clicking zooms into a frame
 * (embedded script), clicking the background zooms out. Frames narrower than
 * a tenth of a pixel are left out; in the exported page, all but the widest
 * FG_PAGE_FRAMES (a graph of 100k frames took 15 s to open there). Written
 * as it is laid out. Scopes without a line are no frames (query/shown.h):
 * their children stand on their parent. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/names.h"
#include "query/shown.h"
#include "report/export_registry.h"
#include "report/report_data.h"

#define FG_WIDTH 1200.0
#define FG_ROW 17
#define FG_TOP 40
#define FG_MIN_WIDTH 0.1     /* pixels */
#define FG_PAGE_FRAMES 20000 /* at most, in the HTML page */

/* A colour from the name, in the flame palette, so equal functions match. */
static void colour(const char *name, char *buf, size_t size) {
  unsigned h = 2166136261u;
  for (const char *s = name; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130, 40 + (h >> 16) % 50);
}

static uint32_t depth_of(const hpcdb_experiment *e, uint32_t i) {
  uint32_t d = 0;
  for (i = query_shown(e, i, 0); i != 0; i = query_shown(e, e->contexts[i].parent, 0)) d++;
  return d;
}

static int wider(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* The narrowest frame drawn: FG_MIN_WIDTH; in the page, also that of the FG_PAGE_FRAMES-th widest. */
static int narrowest(const report_data *d, int standalone, double *out) {
  const hpcdb_experiment *e = d->exp;
  double scale = d->total[0] > 0 ? FG_WIDTH / d->total[0] : 0;
  *out = FG_MIN_WIDTH;
  if (standalone || e->n_contexts <= FG_PAGE_FRAMES) return 0;
  double *w = malloc((size_t)e->n_contexts * sizeof *w);
  if (!w) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the flame graph's frames");
  for (uint32_t i = 0; i < e->n_contexts; i++) w[i] = rd_inc(d, i, 0) * scale;
  qsort(w, e->n_contexts, sizeof *w, wider);
  if (w[FG_PAGE_FRAMES - 1] > *out) *out = w[FG_PAGE_FRAMES - 1];
  free(w);
  return 0;
}

/* Writes the frames and returns how many; x positions come from a pass in
 * tree order: a child starts where its previous sibling ended. */
static uint32_t write_frames(FILE *out, const report_data *d, double *x, uint32_t *max_depth, double min_width) {
  const hpcdb_experiment *e = d->exp;
  double scale = d->total[0] > 0 ? FG_WIDTH / d->total[0] : 0;
  uint32_t count = 0;
  uint8_t *twins = query_twins(e, 0); /* siblings of one name get their call sites (none when out of memory) */
  char name[512], value[64], fill[32];
  x[0] = 0;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    /* children of i start at x[i] and follow each other */
    double at = x[i];
    for (uint32_t k = e->contexts[i].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) {
      x[k] = at;
      at += rd_inc(d, k, 0) * scale;
    }
    double w = rd_inc(d, i, 0) * scale;
    if (w < min_width || query_hidden(e, i, 0)) continue;
    uint32_t depth = depth_of(e, i);
    if (depth > *max_depth) *max_depth = depth;
    query_named_at_site(e, i, twins && twins[i], name, sizeof name);
    report_value(value, sizeof value, rd_inc(d, i, 0), d->cols[0].seconds);
    colour(name, fill, sizeof fill);
    fprintf(out, "<g class=\"f\" data-x=\"%.3f\" data-w=\"%.3f\" data-d=\"%u\"><title>", x[i], w, depth);
    report_markup_text(out, name);
    fprintf(out, " (%s, %.2f%%)</title><rect x=\"%.3f\" y=\"%u\" width=\"%.3f\" height=\"%u\" fill=\"%s\" rx=\"2\"/>",
            value, 100.0 * rd_inc(d, i, 0) / d->total[0], x[i], 0u, w, FG_ROW - 1, fill);
    fputs("<text x=\"0\" y=\"0\" data-n=\"", out);
    report_markup_text(out, name);
    fputs("\"></text></g>\n", out);
    count++;
  }
  free(twins);
  return count;
}

/* The script: lays frames out by depth (bottom-up), fits labels, zooms. */
static const char script[] =
    "<script><![CDATA[\n"
    "(function(){\n"
    "var svg=document.getElementById('hpcdb-flame'), W=1200, ROW=17, frames=svg.querySelectorAll('g.f');\n"
    "var maxd=+svg.getAttribute('data-depth');\n"
    "function place(zx,zw){\n"
    "  for(var i=0;i<frames.length;i++){var "
    "g=frames[i],x=+g.getAttribute('data-x'),w=+g.getAttribute('data-w'),d=+g.getAttribute('data-d');\n"
    "    var nx=(x-zx)*W/zw, nw=w*W/zw, y=40+(maxd-d)*ROW, r=g.querySelector('rect'), t=g.querySelector('text');\n"
    "    var show=x+w>zx+1e-9 && x<zx+zw-1e-9 && nw>=0.1; g.style.display=show?'':'none'; if(!show)continue;\n"
    "    r.setAttribute('x',Math.max(0,nx)); r.setAttribute('width',Math.min(W,nx+nw)-Math.max(0,nx)); "
    "r.setAttribute('y',y);\n"
    "    t.setAttribute('x',Math.max(0,nx)+3); t.setAttribute('y',y+12);\n"
    "    var label=g.querySelector('text').getAttribute('data-n'), "
    "fit=Math.floor((Math.min(W,nx+nw)-Math.max(0,nx)-6)/7);\n"
    "    t.textContent=fit<3?'':(label.length>fit?label.slice(0,fit-2)+'..':label);}\n"
    "}\n"
    "for(var i=0;i<frames.length;i++)frames[i].addEventListener('click',function(ev){ev.stopPropagation();\n"
    "  place(+this.getAttribute('data-x'),+this.getAttribute('data-w'));});\n"
    "svg.addEventListener('click',function(){place(0,W);});\n"
    "place(0,W);\n"
    "svg.setAttribute('data-rendered',frames.length);\n"
    "})();\n"
    "]]></script>\n";

/* The <svg> element alone (for embedding in HTML too). */
int report_flamegraph_svg(FILE *out, const hpcdb_experiment *exp, const char *metric, int standalone) {
  report_data d;
  const char *names[1] = {metric};
  HPCDB_TRY(report_data_build(&d, exp, metric ? names : NULL, metric ? 1 : 0, NULL, 1));
  double *x = calloc((size_t)exp->n_contexts + 1, sizeof *x), min_width = FG_MIN_WIDTH;
  if (!x || narrowest(&d, standalone, &min_width) < 0) {
    free(x);
    report_data_free(&d);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  /* the frames go to a temporary file first: the height depends on the depth */
  FILE *tmp = tmpfile();
  uint32_t max_depth = 0, count = tmp ? write_frames(tmp, &d, x, &max_depth, min_width) : 0;
  if (!tmp) {
    free(x);
    report_data_free(&d);
    return hpcdb_fail(HPCDB_EIO, "the flame graph's frames: cannot create a temporary file: %s", strerror(errno));
  }
  if (fflush(tmp) != 0 || ferror(tmp)) { /* e.g. past a file-size limit: the frames would be cut short */
    int e = errno;
    fclose(tmp);
    free(x);
    report_data_free(&d);
    return hpcdb_fail(HPCDB_EIO, "the flame graph's frames: cannot write a temporary file: %s", strerror(e));
  }
  unsigned height = FG_TOP + (max_depth + 1) * FG_ROW + 10;
  if (standalone) fputs("<?xml version=\"1.0\" standalone=\"yes\"?>\n", out);
  fprintf(out,
          "<svg id=\"hpcdb-flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%u\" "
          "viewBox=\"0 0 %.0f %u\" data-frames=\"%u\" data-depth=\"%u\" font-family=\"monospace\" font-size=\"11\">\n",
          FG_WIDTH, height, FG_WIDTH, height, count, max_depth);
  fputs(
      "<rect width=\"100%\" height=\"100%\" fill=\"#fdfdf6\"/>\n<text x=\"600\" y=\"22\" text-anchor=\"middle\" "
      "font-size=\"15\">",
      out);
  report_markup_text(out, exp->title ? exp->title : "flame graph");
  fputs(" — ", out);
  report_markup_text(out, d.cols[0].name);
  fputs(" (click a frame to zoom, the background to reset)</text>\n", out);
  rewind(tmp);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, tmp)) > 0) fwrite(buf, 1, n, out);
  int read_failed = ferror(tmp);
  fclose(tmp);
  fputs(script, out);
  fputs("</svg>\n", out);
  free(x);
  report_data_free(&d);
  if (read_failed) return hpcdb_fail(HPCDB_EIO, "the flame graph's frames: cannot read the temporary file back");
  return ferror(out) ? hpcdb_fail(HPCDB_EIO, "error writing the flame graph: %s", strerror(errno)) : 0;
}

int hpcdb_export_flamegraph(FILE *out, const hpcdb_experiment *exp, const char *metric) {
  return report_flamegraph_svg(out, exp, metric, 1);
}

static int write_flamegraph(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o) {
  (void)src;
  return hpcdb_export_flamegraph(out, exp, o->metric);
}

const export_desc export_flamegraph = {
    {"flamegraph",
     "a self-contained interactive SVG flame graph: hover for name and value, click a frame to zoom, the "
     "background to zoom out.",
     HPCDB_EXPORT_TAKES_METRIC, HPCDB_EXPORT_READS_SUMMARY},
    write_flamegraph};
