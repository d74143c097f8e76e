/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare, two sides: the header, the largest regressions and
 * improvements, the rows of the chosen view in their order, and the CI gate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cli.h"

/* ---- ordering ----------------------------------------------------------------- */

static double sort_key(const compare_cli *c, const hpcdb_delta *d) { return hpcdb_delta_rank(d, c->sort_ratio); }

/* The rows below node are its shown children (a scope without a line is no row: hpcdb_align_hidden);
 * kids: scratch, like scratch, for every node. */
static void top_down(FILE *out, const compare_cli *c, uint32_t node, int depth, hpcdb_ranked *scratch, uint32_t *kids) {
  const hpcdb_alignment *al = c->cmp->al;
  figures f;
  char path[4096];
  compare_figures(c, node, &f);
  if (c->csv) hpcdb_align_path(al, node, path, sizeof path);
  compare_print_row(out, c, &f, c->csv ? path : al->nodes[node].name, depth);
  uint32_t n = 0, n_kids = hpcdb_align_shown_children(al, node, kids, al->n_nodes);
  for (uint32_t i = 0; i < n_kids; i++) {
    uint32_t k = kids[i];
    if (!compare_listed(c, k)) continue;
    hpcdb_delta d;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 1, 0, &d);
    scratch[n++] = (hpcdb_ranked){k, sort_key(c, &d)};
  }
  hpcdb_rank_sort(scratch, n);
  if (c->top && n > c->top) n = c->top;
  hpcdb_ranked *mine = malloc((n + 1) * sizeof *mine);
  if (!mine) return;
  memcpy(mine, scratch, n * sizeof *mine);
  for (uint32_t i = 0; i < n; i++) top_down(out, c, mine[i].node, depth + 1, scratch, kids);
  free(mine);
}

static void flat(FILE *out, const compare_cli *c, hpcdb_ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t n = 0;
  for (uint32_t k = 1; k < al->n_nodes; k++) {
    if (hpcdb_align_hidden(al, k) || !compare_listed(c, k)) continue; /* no row: its cost is its parent's */
    hpcdb_delta d;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 0, 0, &d);
    scratch[n++] = (hpcdb_ranked){k, sort_key(c, &d)};
  }
  hpcdb_rank_sort(scratch, n);
  if (c->top && n > c->top) n = c->top;
  char path[4096];
  for (uint32_t i = 0; i < n; i++) {
    figures f;
    compare_figures(c, scratch[i].node, &f);
    hpcdb_align_path(al, scratch[i].node, path, sizeof path);
    compare_print_row(out, c, &f, path, 0);
  }
}

/* Per function name (hpcdb_compare_by_function). */
static void bottom_up(FILE *out, const compare_cli *c, hpcdb_ranked *scratch) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t R = c->n_runs, n = 0;
  hpcdb_compare_functions fn;
  if (hpcdb_compare_by_function(c->cmp, &fn) < 0) {
    fprintf(stderr, "hpcdb compare: %s\n", hpcdb_last_error());
    return;
  }
  double ta = compare_total(c, 0), tb = compare_total(c, 1);
  for (uint32_t s = 0; s < fn.n; s++) {
    hpcdb_delta d, di;
    hpcdb_delta_of(fn.exc + (size_t)s * R, R, c->n_a, &d);
    hpcdb_delta_of(fn.inc + (size_t)s * R, R, c->n_a, &di);
    if (fabs(di.a) < c->min_share * fabs(ta) && fabs(di.b) < c->min_share * fabs(tb)) continue;
    scratch[n++] = (hpcdb_ranked){s, sort_key(c, &d)};
  }
  hpcdb_rank_sort(scratch, n);
  if (c->top && n > c->top) n = c->top;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t s = scratch[i].node;
    figures f = {0};
    hpcdb_delta_of(fn.inc + (size_t)s * R, R, c->n_a, &f.inc);
    hpcdb_delta_of(fn.exc + (size_t)s * R, R, c->n_a, &f.exc);
    f.only = f.inc.a == 0 && f.exc.a == 0 ? 2 : f.inc.b == 0 && f.exc.b == 0 ? 1 : 0;
    compare_print_row(out, c, &f, al->nodes[fn.node[s]].name, 0);
  }
  hpcdb_compare_functions_free(&fn);
}

/* ---- the whole output ------------------------------------------------------------ */

static void header(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  for (uint32_t r = 0; r < c->n_runs; r++) {
    const hpcdb_experiment *e = c->runs[r];
    char label[16];
    if (!compare_repeats(c)) snprintf(label, sizeof label, "%c", r < c->n_a ? 'A' : 'B');
    else snprintf(label, sizeof label, "%c%u", r < c->n_a ? 'A' : 'B', r < c->n_a ? r + 1 : r - c->n_a + 1);
    fprintf(out, "%s: %s (%s %u.%u), metric \"%s\"", label, c->paths[r], e->format ? e->format : "?", e->version_major,
            e->version_minor, e->metrics[c->cmp->metric[r]].name);
    if (c->cmp->n_profiles[r] > 1) fprintf(out, ", %u profiles", c->cmp->n_profiles[r]);
    fputc('\n', out);
  }
  uint32_t both = 0, only_a = 0, only_b = 0, rule[8] = {0};
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    int s = compare_sides(c, n);
    if (s == 3) {
      both++;
      uint8_t how = al->how[(size_t)n * c->n_runs + c->n_a];
      if (how < 8) rule[how]++;
    } else if (s == 1) only_a++;
    else only_b++;
  }
  fprintf(out,
          "aligned: %u nodes, %u in both (by function name %u, file and line %u, shifted line %u, module offset %u",
          al->n_nodes, both, rule[HPCDB_MATCH_NAME], rule[HPCDB_MATCH_LINE], rule[HPCDB_MATCH_LINE_SHIFTED],
          rule[HPCDB_MATCH_OFFSET]);
  if (rule[HPCDB_MATCH_NAME_ACROSS])
    fprintf(out, ", function name across a one-sided frame %u", rule[HPCDB_MATCH_NAME_ACROSS]);
  fprintf(out, "), %u only in A, %u only in B\n", only_a, only_b);
  figures f;
  char a[48], b[48], d[48], q[48];
  compare_figures(c, 0, &f);
  compare_value(a, sizeof a, f.inc.a, compare_seconds(c));
  compare_value(b, sizeof b, f.inc.b, compare_seconds(c));
  compare_signed_value(d, sizeof d, f.inc.delta, compare_seconds(c));
  compare_ratio_text(q, sizeof q, &f.inc);
  fprintf(out, "total: A %s, B %s, delta %s (%s)%s\n", a, b, d, q,
          compare_repeats(c) && f.inc.noise ? ", within the spread of the repeats (noise)" : "");
}

/* Frames ranked by the change of their exclusive cost (where the time moved). */
static void summary(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t top = c->top ? c->top : 10;
  if (top > al->n_nodes) top = al->n_nodes;
  uint32_t *nodes = malloc(((size_t)top + 1) * sizeof *nodes);
  if (!nodes) return;
  for (int worse = 1; worse >= 0; worse--) {
    uint32_t n = hpcdb_compare_changes(c->cmp, c->n_a, c->min_share, worse, nodes, top);
    fprintf(out, "\n%s (exclusive cost of a frame; its inclusive change):\n",
            worse ? "Largest regressions" : "Largest improvements");
    if (n == 0) fprintf(out, "  none\n");
    char path[4096], dx[48], rx[48], di[48], ri[48];
    for (uint32_t i = 0; i < n && i < top; i++) {
      figures f;
      compare_figures(c, nodes[i], &f);
      compare_signed_value(dx, sizeof dx, f.exc.delta, compare_seconds(c));
      compare_ratio_text(rx, sizeof rx, &f.exc);
      compare_signed_value(di, sizeof di, f.inc.delta, compare_seconds(c));
      compare_ratio_text(ri, sizeof ri, &f.inc);
      compare_short_path(al, nodes[i], path, sizeof path);
      fprintf(out, "  %11s %6s  %s  (inclusive %s %s)%s\n", dx, rx, path, di, ri,
              f.only == 1   ? "  [only in A]"
              : f.only == 2 ? "  [only in B]"
                            : "");
    }
  }
  free(nodes);
}

void compare_print(FILE *out, const compare_cli *c) {
  hpcdb_ranked *scratch = malloc(((size_t)c->cmp->al->n_nodes + 1) * sizeof *scratch);
  uint32_t *kids = malloc(((size_t)c->cmp->al->n_nodes + 1) * sizeof *kids);
  if (!scratch || !kids) {
    free(scratch), free(kids);
    return;
  }
  if (!c->csv) {
    header(out, c);
    summary(out, c);
    fprintf(out, "\n%s (nodes of at least %g%% of a side's total):\n",
            c->view == CMP_TOP_DOWN ? "Top-down"
            : c->view == CMP_FLAT   ? "Flat"
                                    : "Bottom-up",
            c->min_share * 100);
  }
  compare_print_header_row(out, c);
  if (c->view == CMP_TOP_DOWN) top_down(out, c, 0, 0, scratch, kids);
  else if (c->view == CMP_FLAT) flat(out, c, scratch);
  else bottom_up(out, c, scratch);
  free(scratch);
  free(kids);
}

uint32_t compare_gate(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  uint32_t slower = 0;
  char path[4096];
  for (uint32_t k = 0; k < al->n_nodes; k++) {
    hpcdb_delta d;
    if (!al->nodes[k].is_frame || !compare_listed(c, k)) continue;
    hpcdb_compare_delta(c->cmp, k, c->n_a, 1, 0, &d);
    if (!(d.ratio > 1 + c->fail_if_slower) || (compare_repeats(c) && d.noise)) continue;
    compare_short_path(al, k, path, sizeof path);
    if (isinf(d.ratio)) fprintf(out, "slower: %s: new, %g%% of B's total\n", path, d.b / compare_total(c, 1) * 100);
    else fprintf(out, "slower: %s: +%.1f%% (limit %g%%)\n", path, (d.ratio - 1) * 100, c->fail_if_slower * 100);
    slower++;
  }
  return slower;
}
