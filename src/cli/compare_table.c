/* hpcdb compare, two sides: the header, the largest regressions and
 * improvements, and the rows of the chosen view (aligned text or CSV). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cli.h"

void compare_value(char *buf, size_t size, double v, double seconds) {
  double a = fabs(v);
  if (v == 0) snprintf(buf, size, "0");
  else if (isnan(v)) snprintf(buf, size, "-"); /* not known (no Max statistic) */
  else if (!isfinite(v)) snprintf(buf, size, "%g", v);
  else if (seconds) {
    v *= seconds, a *= seconds;
    if (a >= 100) snprintf(buf, size, "%.1f s", v);
    else if (a >= 1) snprintf(buf, size, "%.3f s", v);
    else if (a >= 1e-3) snprintf(buf, size, "%.3f ms", v * 1e3);
    else snprintf(buf, size, "%.3f us", v * 1e6);
  } else {
    static const char *const suffix[] = {"", "k", "M", "G", "T", "P"};
    int k = 0;
    while (a >= 1000 && k < 5) a /= 1000, v /= 1000, k++;
    if (k == 0 && v == floor(v)) snprintf(buf, size, "%.0f", v);
    else snprintf(buf, size, "%.4g%s", v, suffix[k]);
  }
}

static void signed_value(char *buf, size_t size, double v, double seconds) {
  buf[0] = v > 0 ? '+' : '\0';
  compare_value(buf + (v > 0), size - 1, v, seconds);
}

static void ratio_text(char *buf, size_t size, const hpcdb_delta *d) {
  if (isinf(d->ratio)) snprintf(buf, size, "new");
  else if (d->b == 0 && d->a != 0) snprintf(buf, size, "gone");
  else snprintf(buf, size, "x%.2f", d->ratio);
}

static int repeats(const compare_cli *c) { return c->n_a > 1 || c->n_runs - c->n_a > 1; }

static double seconds(const compare_cli *c) { return c->cmp->seconds[0]; }

double compare_total(const compare_cli *c, int side_b) {
  hpcdb_delta d;
  hpcdb_compare_delta(c->cmp, 0, c->n_a, 1, 0, &d);
  return side_b ? d.b : d.a;
}

/* Present on side A (1), side B (2), or both (3). */
static int sides(const compare_cli *c, uint32_t node) {
  int s = 0;
  for (uint32_t r = 0; r < c->n_runs; r++)
    if (c->cmp->al->ctx[(size_t)node * c->n_runs + r] != HPCDB_NONE) s |= r < c->n_a ? 1 : 2;
  return s;
}

void compare_short_path(const hpcdb_alignment *al, uint32_t node, char *buf, size_t size) {
  uint32_t frames[5];
  unsigned n = 0, more = 0;
  for (uint32_t k = node; k != HPCDB_NONE && k != 0; k = al->nodes[k].parent) {
    if (!al->nodes[k].is_frame && k != node) continue;
    if (n < 5) frames[n++] = k;
    else more = 1;
  }
  size_t len = (size_t)snprintf(buf, size, "%s", more ? "... > " : "");
  while (n-- > 0 && len < size)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", al->nodes[frames[n]].name, n ? " > " : "");
}

int compare_listed(const compare_cli *c, uint32_t node) {
  hpcdb_delta d;
  hpcdb_compare_delta(c->cmp, node, c->n_a, 1, 0, &d);
  double ta = compare_total(c, 0), tb = compare_total(c, 1);
  return fabs(d.a) >= c->min_share * fabs(ta) || fabs(d.b) >= c->min_share * fabs(tb);
}

/* ---- rows ------------------------------------------------------------------ */

typedef struct figures {
  hpcdb_delta inc, exc, mean, max;
  int only; /* 1: only in A, 2: only in B, 0: both */
  double imb_a, imb_b;
} figures;

static void node_figures(const compare_cli *c, uint32_t n, figures *f) {
  if (hpcdb_compare_profiles(c->cmp, &n, 1) < 0) /* a damaged cct.db: the figures stay unknown */
    fprintf(stderr, "hpcdb compare: %s\n", hpcdb_last_error());
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 0, &f->inc);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 0, 0, &f->exc);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 1, &f->mean);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 2, &f->max);
  int s = sides(c, n);
  f->only = s == 3 ? 0 : s;
  f->imb_a = f->mean.a > 0 ? f->max.a / f->mean.a - 1 : 0;
  f->imb_b = f->mean.b > 0 ? f->max.b / f->mean.b - 1 : 0;
}

static int with_profiles(const compare_cli *c) {
  if (c->view == CMP_BOTTOM_UP) return 0; /* per function: no per-profile figures */
  for (uint32_t r = 0; r < c->n_runs; r++)
    if (c->cmp->n_profiles[r] > 1) return 1;
  return 0;
}


static void csv_text(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void print_header_row(FILE *out, const compare_cli *c) {
  if (c->csv) {
    fprintf(out, "name,only_in,a_incl,b_incl,delta_incl,ratio_incl,spread_a_incl,spread_b_incl,noise,"
                 "a_excl,b_excl,delta_excl,ratio_excl,a_mean,b_mean,a_max,b_max,a_imbalance,b_imbalance\n");
    return;
  }
  fprintf(out, "%10s %10s %11s %7s", "A incl", "B incl", "delta", "ratio");
  if (repeats(c)) fprintf(out, " %10s", "spread");
  fprintf(out, " %10s %10s %11s %7s", "A excl", "B excl", "delta", "ratio");
  if (with_profiles(c)) fprintf(out, " %10s %10s %6s %6s", "A max", "B max", "imb A", "imb B");
  fprintf(out, "  name\n");
}

static void print_row(FILE *out, const compare_cli *c, const figures *f, const char *name, int indent) {
  if (c->csv) {
    csv_text(out, name);
    fprintf(out, ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g,%.6g\n",
            f->only == 1 ? "A" : f->only == 2 ? "B" : "", f->inc.a, f->inc.b, f->inc.delta, f->inc.ratio,
            f->inc.spread_a, f->inc.spread_b, repeats(c) && f->inc.noise, f->exc.a, f->exc.b, f->exc.delta,
            f->exc.ratio, f->mean.a, f->mean.b, f->max.a, f->max.b, f->imb_a, f->imb_b);
    return;
  }
  char v[8][48];
  double s = seconds(c);
  compare_value(v[0], sizeof v[0], f->inc.a, s);
  compare_value(v[1], sizeof v[1], f->inc.b, s);
  signed_value(v[2], sizeof v[2], f->inc.delta, s);
  ratio_text(v[3], sizeof v[3], &f->inc);
  compare_value(v[4], sizeof v[4], f->exc.a, s);
  compare_value(v[5], sizeof v[5], f->exc.b, s);
  signed_value(v[6], sizeof v[6], f->exc.delta, s);
  ratio_text(v[7], sizeof v[7], &f->exc);
  fprintf(out, "%10s %10s %11s %7s", v[0], v[1], v[2], v[3]);
  if (repeats(c)) { /* the larger of the two sides' spreads (max - min over their runs) */
    char spread[48] = "+-";
    compare_value(spread + 2, sizeof spread - 2, fmax(f->inc.spread_a, f->inc.spread_b), s);
    fprintf(out, " %10s", spread);
  }
  fprintf(out, " %10s %10s %11s %7s", v[4], v[5], v[6], v[7]);
  if (with_profiles(c)) {
    compare_value(v[0], sizeof v[0], f->max.a, s);
    compare_value(v[1], sizeof v[1], f->max.b, s);
    char ia[16] = "-", ib[16] = "-";
    if (!isnan(f->imb_a)) snprintf(ia, sizeof ia, "%.0f%%", f->imb_a * 100);
    if (!isnan(f->imb_b)) snprintf(ib, sizeof ib, "%.0f%%", f->imb_b * 100);
    fprintf(out, " %10s %10s %6s %6s", v[0], v[1], ia, ib);
  }
  fprintf(out, "  %*s%s%s%s\n", indent * 2, "", name, f->only == 1 ? "  [only in A]" : f->only == 2 ? "  [only in B]" : "",
          repeats(c) && f->inc.noise && f->inc.delta != 0 ? "  (noise)" : "");
}

/* ---- ordering ----------------------------------------------------------------- */

static double sort_key(const compare_cli *c, const hpcdb_delta *d) {
  if (!c->sort_ratio) return fabs(d->delta);
  if (d->a == 0 || d->b == 0) return d->a == d->b ? 0 : INFINITY;
  return fabs(log(d->ratio));
}

typedef struct ranked {
  uint32_t node;
  double key;
} ranked;

static int cmp_ranked(const void *x, const void *y) {
  const ranked *a = x, *b = y;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

static void top_down(FILE *out, const compare_cli *c, uint32_t node, int depth, ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  figures f;
  char path[4096];
  node_figures(c, node, &f);
  if (c->csv) hpcdb_align_path(al, node, path, sizeof path);
  print_row(out, c, &f, c->csv ? path : al->nodes[node].name, depth);
  uint32_t n = 0;
  for (uint32_t k = al->nodes[node].first_child; k != HPCDB_NONE; k = al->nodes[k].next_sibling) {
    if (!compare_listed(c, k)) continue;
    hpcdb_delta d;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 1, 0, &d);
    scratch[n++] = (ranked){k, sort_key(c, &d)};
  }
  qsort(scratch, n, sizeof *scratch, cmp_ranked);
  if (c->top && n > c->top) n = c->top;
  ranked *mine = malloc((n + 1) * sizeof *mine);
  if (!mine) return;
  memcpy(mine, scratch, n * sizeof *mine);
  for (uint32_t i = 0; i < n; i++) top_down(out, c, mine[i].node, depth + 1, scratch);
  free(mine);
}

static void flat(FILE *out, const compare_cli *c, ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t n = 0;
  for (uint32_t k = 1; k < al->n_nodes; k++) {
    if (!compare_listed(c, k)) continue;
    hpcdb_delta d;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 0, 0, &d);
    scratch[n++] = (ranked){k, sort_key(c, &d)};
  }
  qsort(scratch, n, sizeof *scratch, cmp_ranked);
  if (c->top && n > c->top) n = c->top;
  char path[4096];
  for (uint32_t i = 0; i < n; i++) {
    figures f;
    node_figures(c, scratch[i].node, &f);
    hpcdb_align_path(al, scratch[i].node, path, sizeof path);
    print_row(out, c, &f, path, 0);
  }
}

/* Per function name: exclusive values summed over its frames, inclusive over
 * the outermost ones (a recursive call is not counted twice). Names are
 * interned by the alignment: the same text is the same pointer, so frames
 * are grouped by sorting on it. */
static const hpcdb_alignment *sorting;
static int cmp_by_name(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  const char *na = sorting->nodes[a].name, *nb = sorting->nodes[b].name;
  if (na != nb) return na < nb ? -1 : 1;
  return a < b ? -1 : a > b;
}

static void bottom_up(FILE *out, const compare_cli *c, ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t R = c->n_runs, n_frames = 0, n_names = 0;
  uint32_t *frames = malloc(al->n_nodes * sizeof *frames), *first = malloc(al->n_nodes * sizeof *first);
  double *inc = calloc((size_t)al->n_nodes * R, sizeof *inc), *exc = calloc((size_t)al->n_nodes * R, sizeof *exc);
  if (!frames || !first || !inc || !exc) goto done;
  for (uint32_t k = 1; k < al->n_nodes; k++)
    if (al->nodes[k].is_frame) frames[n_frames++] = k;
  sorting = al;
  qsort(frames, n_frames, sizeof *frames, cmp_by_name);
  for (uint32_t i = 0; i < n_frames; i++) {
    uint32_t k = frames[i];
    if (i == 0 || al->nodes[frames[i - 1]].name != al->nodes[k].name) first[n_names++] = k;
    uint32_t s = n_names - 1;
    int outer = 1;
    for (uint32_t a = al->nodes[k].parent; a != HPCDB_NONE && outer; a = al->nodes[a].parent) outer = al->nodes[a].name != al->nodes[k].name;
    for (uint32_t r = 0; r < R; r++) {
      exc[(size_t)s * R + r] += c->cmp->exc[(size_t)k * R + r];
      if (outer) inc[(size_t)s * R + r] += c->cmp->inc[(size_t)k * R + r];
    }
  }
  uint32_t n = 0;
  double ta = compare_total(c, 0), tb = compare_total(c, 1);
  for (uint32_t s = 0; s < n_names; s++) {
    hpcdb_delta d, di;
    hpcdb_delta_of(exc + (size_t)s * R, R, c->n_a, &d);
    hpcdb_delta_of(inc + (size_t)s * R, R, c->n_a, &di);
    if (fabs(di.a) < c->min_share * fabs(ta) && fabs(di.b) < c->min_share * fabs(tb)) continue;
    scratch[n++] = (ranked){s, sort_key(c, &d)};
  }
  qsort(scratch, n, sizeof *scratch, cmp_ranked);
  if (c->top && n > c->top) n = c->top;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t s = scratch[i].node;
    figures f = {0};
    hpcdb_delta_of(inc + (size_t)s * R, R, c->n_a, &f.inc);
    hpcdb_delta_of(exc + (size_t)s * R, R, c->n_a, &f.exc);
    f.only = f.inc.a == 0 && f.exc.a == 0 ? 2 : f.inc.b == 0 && f.exc.b == 0 ? 1 : 0;
    print_row(out, c, &f, al->nodes[first[s]].name, 0);
  }
done:
  free(frames), free(first), free(inc), free(exc);
}

/* ---- the whole output ------------------------------------------------------------ */

static void header(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  for (uint32_t r = 0; r < c->n_runs; r++) {
    const hpcdb_experiment *e = c->runs[r];
    char label[16];
    if (!repeats(c)) snprintf(label, sizeof label, "%c", r < c->n_a ? 'A' : 'B');
    else snprintf(label, sizeof label, "%c%u", r < c->n_a ? 'A' : 'B', r < c->n_a ? r + 1 : r - c->n_a + 1);
    fprintf(out, "%s: %s (%s %u.%u), metric \"%s\"", label, c->paths[r], e->format ? e->format : "?", e->version_major,
            e->version_minor, e->metrics[c->cmp->metric[r]].name);
    if (c->cmp->n_profiles[r] > 1) fprintf(out, ", %u profiles", c->cmp->n_profiles[r]);
    fputc('\n', out);
  }
  uint32_t both = 0, only_a = 0, only_b = 0, rule[8] = {0};
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    int s = sides(c, n);
    if (s == 3) {
      both++;
      uint8_t how = al->how[(size_t)n * c->n_runs + c->n_a];
      if (how < 8) rule[how]++;
    } else if (s == 1) only_a++;
    else only_b++;
  }
  fprintf(out, "aligned: %u nodes, %u in both (by function name %u, file and line %u, shifted line %u, module offset %u",
          al->n_nodes, both, rule[HPCDB_MATCH_NAME], rule[HPCDB_MATCH_LINE], rule[HPCDB_MATCH_LINE_SHIFTED],
          rule[HPCDB_MATCH_OFFSET]);
  if (rule[HPCDB_MATCH_NAME_ACROSS]) fprintf(out, ", function name across a one-sided frame %u", rule[HPCDB_MATCH_NAME_ACROSS]);
  fprintf(out, "), %u only in A, %u only in B\n", only_a, only_b);
  figures f;
  char a[48], b[48], d[48], q[48];
  node_figures(c, 0, &f);
  compare_value(a, sizeof a, f.inc.a, seconds(c));
  compare_value(b, sizeof b, f.inc.b, seconds(c));
  signed_value(d, sizeof d, f.inc.delta, seconds(c));
  ratio_text(q, sizeof q, &f.inc);
  fprintf(out, "total: A %s, B %s, delta %s (%s)%s\n", a, b, d, q, repeats(c) && f.inc.noise ? ", within the spread of the repeats (noise)" : "");
}

/* Frames ranked by the change of their exclusive cost (where the time moved). */
static void summary(FILE *out, const compare_cli *c, ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t top = c->top ? c->top : 10;
  for (int worse = 1; worse >= 0; worse--) {
    uint32_t n = 0;
    for (uint32_t k = 1; k < al->n_nodes; k++) {
      hpcdb_delta d;
      if (!al->nodes[k].is_frame || !compare_listed(c, k)) continue;
      hpcdb_compare_delta(c->cmp, k, c->n_a, 0, 0, &d);
      if ((worse ? d.delta <= 0 : d.delta >= 0) || (repeats(c) && d.noise)) continue;
      scratch[n++] = (ranked){k, fabs(d.delta)};
    }
    qsort(scratch, n, sizeof *scratch, cmp_ranked);
    fprintf(out, "\n%s (exclusive cost of a frame; its inclusive change):\n", worse ? "Largest regressions" : "Largest improvements");
    if (n == 0) fprintf(out, "  none\n");
    char path[4096], dx[48], rx[48], di[48], ri[48];
    for (uint32_t i = 0; i < n && i < top; i++) {
      figures f;
      node_figures(c, scratch[i].node, &f);
      signed_value(dx, sizeof dx, f.exc.delta, seconds(c));
      ratio_text(rx, sizeof rx, &f.exc);
      signed_value(di, sizeof di, f.inc.delta, seconds(c));
      ratio_text(ri, sizeof ri, &f.inc);
      compare_short_path(al, scratch[i].node, path, sizeof path);
      fprintf(out, "  %11s %6s  %s  (inclusive %s %s)%s\n", dx, rx, path, di, ri,
              f.only == 1 ? "  [only in A]" : f.only == 2 ? "  [only in B]" : "");
    }
  }
}

void compare_print(FILE *out, const compare_cli *c) {
  ranked *scratch = malloc(((size_t)c->cmp->al->n_nodes + 1) * sizeof *scratch);
  if (!scratch) return;
  if (!c->csv) {
    header(out, c);
    summary(out, c, scratch);
    fprintf(out, "\n%s (nodes of at least %g%% of a side's total):\n",
            c->view == CMP_TOP_DOWN ? "Top-down" : c->view == CMP_FLAT ? "Flat" : "Bottom-up", c->min_share * 100);
  }
  print_header_row(out, c);
  if (c->view == CMP_TOP_DOWN) top_down(out, c, 0, 0, scratch);
  else if (c->view == CMP_FLAT) flat(out, c, scratch);
  else bottom_up(out, c, scratch);
  free(scratch);
}

uint32_t compare_gate(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t slower = 0;
  char path[4096];
  for (uint32_t k = 0; k < al->n_nodes; k++) {
    hpcdb_delta d;
    if (!al->nodes[k].is_frame || !compare_listed(c, k)) continue;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 1, 0, &d);
    if (!(d.ratio > 1 + c->fail_if_slower) || (repeats(c) && d.noise)) continue;
    compare_short_path(al, k, path, sizeof path);
    if (isinf(d.ratio)) fprintf(out, "slower: %s: new, %g%% of B's total\n", path, d.b / compare_total(c, 1) * 100);
    else fprintf(out, "slower: %s: +%.1f%% (limit %g%%)\n", path, (d.ratio - 1) * 100, c->fail_if_slower * 100);
    slower++;
  }
  return slower;
}
