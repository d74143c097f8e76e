/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare's differential exports: folded stacks with the two sides'
 * own costs ("frame;frame A B", as Brendan Gregg's difffolded.pl writes them for
 * flamegraph.pl), and a self-contained SVG flame graph of the differences:
 * widths from the larger side, red where B grew, blue where it shrank. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cli.h"

/* The stack of the node's rows (a scope without a line is none: hpcdb_align_hidden). */
static void folded_path(FILE *out, const hpcdb_alignment *al, uint32_t node) {
  uint32_t chain[512];
  unsigned depth = 0;
  for (uint32_t n = node; n != 0 && n != HPCDB_NONE && depth < 512; n = al->nodes[n].parent)
    if (!hpcdb_align_hidden(al, n)) chain[depth++] = n;
  while (depth-- > 0) {
    for (const char *s = al->nodes[chain[depth]].name; *s; s++) fputc(*s == ';' || *s == ' ' ? '_' : *s, out);
    if (depth) fputc(';', out);
  }
}

/* A stack's own cost on each side: its inclusive value less its rows' (a hidden scope's cost is its parent's). */
int compare_write_folded(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t *kids = malloc(((size_t)al->n_nodes + 1) * sizeof *kids);
  if (!kids) return -1;
  for (uint32_t k = 1; k < al->n_nodes; k++) {
    if (hpcdb_align_hidden(al, k)) continue;
    hpcdb_delta d, child;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 1, 0, &d);
    double a = d.a, b = d.b;
    uint32_t n = hpcdb_align_shown_children(al, k, kids, al->n_nodes);
    for (uint32_t i = 0; i < n; i++) {
      hpcdb_compare_delta(c->cmp, kids[i], c->n_a, 1, 0, &child);
      a -= child.a, b -= child.b;
    }
    if (fabs(a) <= 1e-12 * fabs(d.a)) a = 0;
    if (fabs(b) <= 1e-12 * fabs(d.b)) b = 0;
    if (a == 0 && b == 0) continue;
    folded_path(out, al, k);
    fprintf(out, " %.9g %.9g\n", a, b);
  }
  free(kids);
  return ferror(out) ? -1 : 0;
}

/* ---- SVG ------------------------------------------------------------------------- */

#define WIDTH 1200.0
#define ROW 17.0

typedef struct flame {
  FILE *out;
  const compare_cli *c;
  double height;
} flame;

static double weight(const compare_cli *c, uint32_t n) {
  hpcdb_delta d;
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 0, &d);
  return fmax(fabs(d.a), fabs(d.b));
}

static void xml_text(FILE *out, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", out);
    else if (*s == '>') fputs("&gt;", out);
    else if (*s == '&') fputs("&amp;", out);
    else if (*s == '"') fputs("&quot;", out);
    else fputc(*s, out);
  }
}

static void colour(const hpcdb_delta *d, char *buf, size_t size) {
  double x = d->a > 0 && d->b > 0 ? log2(d->b / d->a) : d->b > d->a ? 1 : d->b < d->a ? -1 : 0;
  int k = (int)(fmin(1, fabs(x)) * 190);
  if (x > 0) snprintf(buf, size, "rgb(255,%d,%d)", 235 - k, 235 - k);
  else if (x < 0) snprintf(buf, size, "rgb(%d,%d,255)", 235 - k, 235 - k);
  else snprintf(buf, size, "rgb(235,235,235)");
}

static void draw(flame *f, uint32_t node, double x, double w, int depth) {
  const compare_cli *c = f->c;
  const hpcdb_alignment *al = c->cmp->al;
  if (w < 0.1) return;
  hpcdb_delta d;
  char fill[48], a[48], b[48], delta[48];
  hpcdb_compare_delta(c->cmp, node, c->n_a, 1, 0, &d);
  colour(&d, fill, sizeof fill);
  double seconds = c->cmp->seconds[0], y = f->height - (depth + 1) * ROW;
  compare_value(a, sizeof a, d.a, seconds);
  compare_value(b, sizeof b, d.b, seconds);
  compare_value(delta, sizeof delta, d.delta, seconds);
  fprintf(f->out, "<g><title>");
  xml_text(f->out, al->nodes[node].name);
  fprintf(f->out,
          ": A %s, B %s, delta %s%s</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>", a,
          b, d.delta > 0 ? "+" : "", delta, x, y, w, ROW - 1, fill);
  if (w > 40) {
    size_t chars = (size_t)(w / 7);
    char label[256];
    snprintf(label, sizeof label, "%s", al->nodes[node].name);
    if (strlen(label) > chars) {
      if (chars < 3) label[0] = '\0';
      else strcpy(label + chars - 2, "..");
    }
    fprintf(f->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + ROW - 5);
    xml_text(f->out, label);
    fputs("</text>", f->out);
  }
  fputs("</g>\n", f->out);
  uint32_t n = hpcdb_align_shown_children(al, node, NULL, 0); /* the node's rows: hidden scopes are none */
  uint32_t *kids = malloc(((size_t)n + 1) * sizeof *kids);
  if (!kids) return;
  hpcdb_align_shown_children(al, node, kids, n);
  double sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += weight(c, kids[i]);
  double total = fmax(weight(c, node), sum);
  for (uint32_t i = 0; i < n && total > 0; i++) {
    double cw = w * weight(c, kids[i]) / total;
    draw(f, kids[i], x, cw, depth + 1);
    x += cw;
  }
  free(kids);
}

static int depth_of(const hpcdb_alignment *al) {
  int most = 0;
  int *depth = calloc(al->n_nodes, sizeof *depth);
  if (!depth) return 64;
  for (uint32_t n = 1; n < al->n_nodes; n++) {
    depth[n] = depth[al->nodes[n].parent] + !hpcdb_align_hidden(al, n);
    if (depth[n] > most) most = depth[n];
  }
  free(depth);
  return most + 1;
}

int compare_write_flamegraph(FILE *out, const compare_cli *c) {
  flame f = {out, c, (depth_of(c->cmp->al) + 2) * ROW};
  fprintf(out,
          "<?xml version=\"1.0\" standalone=\"no\"?>\n"
          "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" xmlns=\"http://www.w3.org/2000/svg\" "
          "font-family=\"Verdana, sans-serif\" font-size=\"12\">\n"
          "<text x=\"4\" y=\"14\">hpcdb compare: ",
          WIDTH, f.height + ROW);
  xml_text(out, c->paths[0]);
  fputs(" -&gt; ", out);
  xml_text(out, c->paths[c->n_a < c->n_runs ? c->n_a : 0]);
  fputs(" (widths: the larger side; red: B grew, blue: B shrank)</text>\n", out);
  f.height += ROW;
  draw(&f, 0, 0, WIDTH, 0);
  fputs("</svg>\n", out);
  return ferror(out) ? -1 : 0;
}
