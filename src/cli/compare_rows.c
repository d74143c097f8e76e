/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare, two sides: the figures of a row and how a row is written
 * (aligned text or CSV), numbers with their units. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cli.h"

void compare_value(char *buf, size_t size, double v, double seconds) {
  double a = fabs(v);
  if (v == 0) snprintf(buf, size, "0");
  else if (isnan(v)) snprintf(buf, size, "-"); /* not known (no Max statistic) */
  else if (!isfinite(v)) snprintf(buf, size, "%g", v);
  else if (seconds != 0) {
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

void compare_signed_value(char *buf, size_t size, double v, double seconds) {
  buf[0] = v > 0 ? '+' : '\0';
  compare_value(buf + (v > 0), size - 1, v, seconds);
}

void compare_ratio_text(char *buf, size_t size, const hpcdb_delta *d) {
  if (isinf(d->ratio)) snprintf(buf, size, "new");
  else if (d->b == 0 && d->a != 0) snprintf(buf, size, "gone");
  else snprintf(buf, size, "x%.2f", d->ratio);
}

int compare_repeats(const compare_cli *c) { return c->n_a > 1 || c->n_runs - c->n_a > 1; }

double compare_seconds(const compare_cli *c) { return c->cmp->seconds[0]; }

double compare_total(const compare_cli *c, int side_b) {
  hpcdb_delta d;
  hpcdb_compare_delta(c->cmp, 0, c->n_a, 1, 0, &d);
  return side_b ? d.b : d.a;
}

/* Present on side A (1), side B (2), or both (3). */
int compare_sides(const compare_cli *c, uint32_t node) {
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

void compare_figures(const compare_cli *c, uint32_t n, figures *f) {
  if (hpcdb_compare_profiles(c->cmp, &n, 1) < 0) /* a damaged cct.db: the figures stay unknown */
    fprintf(stderr, "hpcdb compare: %s\n", hpcdb_last_error());
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 0, &f->inc);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 0, 0, &f->exc);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 1, &f->mean);
  hpcdb_compare_delta(c->cmp, n, c->n_a, 1, 2, &f->max);
  int s = compare_sides(c, n);
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

void compare_csv_text(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

void compare_print_header_row(FILE *out, const compare_cli *c) {
  if (c->csv) {
    fprintf(out,
            "name,only_in,a_incl,b_incl,delta_incl,ratio_incl,spread_a_incl,spread_b_incl,noise,"
            "a_excl,b_excl,delta_excl,ratio_excl,a_mean,b_mean,a_max,b_max,a_imbalance,b_imbalance\n");
    return;
  }
  fprintf(out, "%10s %10s %11s %7s", "A incl", "B incl", "delta", "ratio");
  if (compare_repeats(c)) fprintf(out, " %10s", "spread");
  fprintf(out, " %10s %10s %11s %7s", "A excl", "B excl", "delta", "ratio");
  if (with_profiles(c))
    fprintf(out, " %10s %10s %10s %10s %6s %6s", "A mean", "B mean", "A max", "B max", "imb A", "imb B");
  fprintf(out, "  name\n");
}

void compare_print_row(FILE *out, const compare_cli *c, const figures *f, const char *name, int indent) {
  if (c->csv) {
    compare_csv_text(out, name);
    fprintf(out,
            ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g,%.6g\n",
            f->only == 1   ? "A"
            : f->only == 2 ? "B"
                           : "",
            f->inc.a, f->inc.b, f->inc.delta, f->inc.ratio, f->inc.spread_a, f->inc.spread_b,
            compare_repeats(c) && f->inc.noise, f->exc.a, f->exc.b, f->exc.delta, f->exc.ratio, f->mean.a, f->mean.b,
            f->max.a, f->max.b, f->imb_a, f->imb_b);
    return;
  }
  char v[8][48];
  double s = compare_seconds(c);
  compare_value(v[0], sizeof v[0], f->inc.a, s);
  compare_value(v[1], sizeof v[1], f->inc.b, s);
  compare_signed_value(v[2], sizeof v[2], f->inc.delta, s);
  compare_ratio_text(v[3], sizeof v[3], &f->inc);
  compare_value(v[4], sizeof v[4], f->exc.a, s);
  compare_value(v[5], sizeof v[5], f->exc.b, s);
  compare_signed_value(v[6], sizeof v[6], f->exc.delta, s);
  compare_ratio_text(v[7], sizeof v[7], &f->exc);
  fprintf(out, "%10s %10s %11s %7s", v[0], v[1], v[2], v[3]);
  if (compare_repeats(c)) { /* the larger of the two sides' spreads (max - min over their runs) */
    char spread[48] = "+-";
    compare_value(spread + 2, sizeof spread - 2, fmax(f->inc.spread_a, f->inc.spread_b), s);
    fprintf(out, " %10s", spread);
  }
  fprintf(out, " %10s %10s %11s %7s", v[4], v[5], v[6], v[7]);
  if (with_profiles(c)) {
    compare_value(v[0], sizeof v[0], f->mean.a, s);
    compare_value(v[1], sizeof v[1], f->mean.b, s);
    compare_value(v[2], sizeof v[2], f->max.a, s);
    compare_value(v[3], sizeof v[3], f->max.b, s);
    char ia[16] = "-", ib[16] = "-";
    if (!isnan(f->imb_a)) snprintf(ia, sizeof ia, "%.0f%%", f->imb_a * 100);
    if (!isnan(f->imb_b)) snprintf(ib, sizeof ib, "%.0f%%", f->imb_b * 100);
    fprintf(out, " %10s %10s %10s %10s %6s %6s", v[0], v[1], v[2], v[3], ia, ib);
  }
  fprintf(out, "  %*s%s%s%s\n", indent * 2, "", name,
          f->only == 1   ? "  [only in A]"
          : f->only == 2 ? "  [only in B]"
                         : "",
          compare_repeats(c) && f->inc.noise && f->inc.delta != 0 ? "  (noise)" : "");
}
