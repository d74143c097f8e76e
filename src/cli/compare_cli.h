/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare: what the command's parts share (cmd_compare.c reads the
 * options; compare_read.c reads the runs; compare_table.c and compare_rows.c print two sides; compare_flame.c
 * writes the differential folded stacks and flame graph; compare_scaling.c
 * prints a scaling study). */
#ifndef HPCDB_CLI_COMPARE_CLI_H
#define HPCDB_CLI_COMPARE_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"

enum compare_view { CMP_TOP_DOWN, CMP_BOTTOM_UP, CMP_FLAT };

typedef struct compare_cli {
  const hpcdb_experiment *const *runs;
  const char *const *paths;
  uint32_t n_runs, n_a;  /* side A: runs [0, n_a) */
  hpcdb_comparison *cmp; /* per-profile figures are read as rows need them */
  int view, sort_ratio, csv, quiet;
  uint32_t top;          /* rows in the summary, and per level (top-down) or in all */
  double min_share;      /* nodes below this fraction of both sides' totals are not listed */
  double fail_if_slower; /* fraction; < 0: no gate */
  const double *params;  /* scaling: each run's parameter value */
  const char *param_name;
} compare_cli;

/* Opens the runs as sources (compare_read.c; close them); -1 with a message on stderr when one
 * cannot be read. */
int compare_read_runs(const char *const *paths, uint32_t n, hpcdb_source **srcs);
/* Two sides: header, summary of regressions and improvements, the table (or CSV). */
void compare_print(FILE *out, const compare_cli *c);
/* The CI gate: lines naming the nodes slower than the limit; returns how many. */
uint32_t compare_gate(FILE *out, const compare_cli *c);
/* Differential folded stacks ("frame;frame A B" per node, exclusive values) or an SVG flame graph. */
int compare_write_folded(FILE *out, const compare_cli *c);
int compare_write_flamegraph(FILE *out, const compare_cli *c);
/* A scaling study over the runs (params set). */
int compare_print_scaling(FILE *out, const compare_cli *c);

/* Rows (compare_rows.c): a node's figures, written as text or CSV. */
typedef struct figures {
  hpcdb_delta inc, exc, mean, max;
  int only; /* 1: only in A, 2: only in B, 0: both */
  double imb_a, imb_b;
} figures;
void compare_figures(const compare_cli *c, uint32_t node, figures *f);
void compare_print_header_row(FILE *out, const compare_cli *c);
void compare_print_row(FILE *out, const compare_cli *c, const figures *f, const char *name, int indent);
/* v for a person: a time when seconds (per unit of v) is not 0, else with an SI prefix; "-" for NaN. */
void compare_value(char *buf, size_t size, double v, double seconds);
void compare_signed_value(char *buf, size_t size, double v, double seconds);
/* "x1.86", "new" (only B has a value), "gone" (only A) */
void compare_ratio_text(char *buf, size_t size, const hpcdb_delta *d);
/* A CSV field: quoted, inner quotes doubled. */
void compare_csv_text(FILE *out, const char *s);
/* Where the node is: on side A (1), side B (2), or both (3). */
int compare_sides(const compare_cli *c, uint32_t node);
/* Several runs on a side. */
int compare_repeats(const compare_cli *c);
/* Seconds per unit of the values (0: not a time). */
double compare_seconds(const compare_cli *c);
/* The node's total on each side (the root's inclusive value). */
double compare_total(const compare_cli *c, int side_b);
int compare_listed(const compare_cli *c, uint32_t node);
/* The node's last frames ("... > main > work > spin"), for one-line summaries. */
void compare_short_path(const hpcdb_alignment *al, uint32_t node, char *buf, size_t size);

#endif
