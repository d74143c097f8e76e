/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare: runs aligned by calling path, side by side; a CI gate; a
 * scaling study (docs/compare.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_args.h"
#include "compare_cli.h"

static const char help[] =
    "NAME\n"
    "    hpcdb compare - what changed between runs, by calling path\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb compare [OPTIONS] A B\n"
    "    hpcdb compare [OPTIONS] A1 A2 ... -- B1 B2 ...\n"
    "    hpcdb compare [OPTIONS] --param NAME RUN... | --param NAME=VALUE RUN...\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads the runs (any formats: v4.0 and older databases, measurements, Cube\n"
    "    files) and aligns their calling paths by meaning, not address: frames by\n"
    "    function name, loops and lines by file and line (allowing lines that moved),\n"
    "    module offsets only where a side has no name or line. Paths one side lacks\n"
    "    are listed as [only in A] / [only in B]. Prints the values of each side, the\n"
    "    delta (B - A) and ratio (B / A), inclusive and exclusive, per-profile mean, max\n"
    "    and imbalance when the runs have several profiles, and at the top the\n"
    "    largest regressions and improvements (frames by the change of their own\n"
    "    cost). With several runs per side (A1 A2 -- B1 B2) each side is their mean\n"
    "    and a change within the larger spread (max - min) of a side is marked noise.\n"
    "    With --param the runs are a scaling study: per calling path, the value at\n"
    "    each parameter value, speedup, efficiency and a fitted model in Extra-P's\n"
    "    normal form (up to three terms: 5 + 3 * p + 0.1 * p^2), the fastest-growing\n"
    "    first. docs/compare.md has the rules.\n"
    "\n"
    "OPTIONS\n"
    "    --metric M       the metric to compare (default: A's first time metric); the\n"
    "                     other side takes the metric of the same name, or one\n"
    "                     documented as the same (Cube \"time\" = \"REALTIME (sec)\")\n"
    "    --metric MA=MB   metric MA of side A against MB of side B\n"
    "    --view V         top-down (default), bottom-up (per function) or flat (per path)\n"
    "    --sort S         delta (default: largest change first) or ratio\n"
    "    --top N          rows per level (top-down) or in all (0: all), and in the summary\n"
    "                     (default 10; 0: 10)\n"
    "    --min-share P%   list only paths with at least P% of a side's total (default 1%)\n"
    "    --csv            comma-separated rows instead of aligned text\n"
    "    --fail-if-slower P%  exit 1 when the inclusive value of a listed frame grew by\n"
    "                     more than P% (and beyond the spread of the repeats)\n"
    "    --explain NODE   how each run's context was matched to the node NODE (a name,\n"
    "                     or a path ending \"main > work\"), then nothing else\n"
    "    --folded OUT     differential folded stacks (\"a;b;c A B\", exclusive values)\n"
    "    --flamegraph OUT an SVG flame graph of the differences\n"
    "    --param NAME     scaling study over NAME: ranks, threads or profiles (from each\n"
    "                     run's identity), or a Cube file set laid out as Extra-P reads it\n"
    "                     (a folder of subfolders named like mm.NAME8.r1)\n"
    "    --param NAME=V   the value of the next run (give one per run, in order)\n"
    "    --line-tolerance N  lines a loop or line may move and still match (default 8)\n"
    "    --exact-lines    match lines exactly\n"
    "    --force          replace existing output files\n"
    "    Options come before \"--\"; at most 16 runs are named on the command line (a\n"
    "    scaling study's Cube file set is one folder, of any number of runs).\n"
    "    --quiet          print nothing; the exit status tells\n"
    "\n"
    "EXIT STATUS\n"
    "    0 compared (and within --fail-if-slower), 1 slower than --fail-if-slower allows,\n"
    "    2 a run could not be read or an option is wrong\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb compare before.d after.d\n"
    "    hpcdb compare --fail-if-slower 5% main.d branch.d\n"
    "    hpcdb compare a1.d a2.d a3.d -- b1.d b2.d b3.d\n"
    "    hpcdb compare --metric time=\"CPUTIME (sec)\" run.cubex run.d\n"
    "    hpcdb compare --param ranks r16.d r32.d r64.d r128.d r256.d\n"
    "    hpcdb compare --param p extrap-cubes/\n";

#define MAX_RUNS 1024

typedef struct args {
  compare_cli c;
  const char *paths[MAX_RUNS];
  double params[MAX_RUNS];
  uint32_t n_paths, n_values, split; /* split: runs before "--" (0: none) */
  const char *metric_a, *metric_b, *explain, *folded, *flamegraph;
  hpcdb_align_options align;
  int force, have_split;
  char *owned[MAX_RUNS]; /* paths found in Extra-P folders */
  uint32_t n_owned;
} args;

/* The command line through cli_parse. "--" (repeats: A1 A2 -- B1 B2) ends the
 * options for cli_parse; the runs before it are side A. */
static int parse(args *a, int argc, char **argv, int *status) {
  compare_cli *c = &a->c;
  cli_common common = {0};
  const char *metric = NULL;
  int view = 0, sort = 0, csv = 0, exact = 0;
  unsigned long long top = 10, tolerance = 0;
  double min_share = 1, slower = -1;
  cli_list params = {0};
  cli_opt opts[] = {{.names = "--metric", .kind = CLI_STRING, .out = &metric},
                    {.names = "--view", .kind = CLI_CHOICE, .out = &view, .choices = "top-down|bottom-up|flat"},
                    {.names = "--sort", .kind = CLI_CHOICE, .out = &sort, .choices = "delta|ratio"},
                    {.names = "--top", .kind = CLI_UINT, .out = &top, .min = 0, .max = 1e9},
                    {.names = "--min-share", .kind = CLI_DOUBLE, .out = &min_share, .min = 0, .max = 100, .percent = 1},
                    {.names = "--fail-if-slower",
                     .kind = CLI_DOUBLE,
                     .out = &slower,
                     .min = 0,
                     .max = 1e9,
                     .percent = 1,
                     .conflicts = "--param"},
                    {.names = "--csv", .kind = CLI_FLAG, .out = &csv},
                    {.names = "--explain", .kind = CLI_STRING, .out = &a->explain},
                    {.names = "--folded", .kind = CLI_STRING, .out = &a->folded, .conflicts = "--param"},
                    {.names = "--flamegraph", .kind = CLI_STRING, .out = &a->flamegraph, .conflicts = "--param"},
                    {.names = "--param", .kind = CLI_LIST, .out = &params},
                    {.names = "--line-tolerance", .kind = CLI_UINT, .out = &tolerance, .min = 1, .max = 100000},
                    {.names = "--exact-lines", .kind = CLI_FLAG, .out = &exact, .conflicts = "--line-tolerance"},
                    {.names = "--force", .kind = CLI_FLAG, .out = &a->force},
                    {.names = NULL}};
  cli_spec spec = {
      .cmd = "compare", .help = help, .opts = opts, .min_pos = 1, .max_pos = CLI_POS_MAX, .pos_names = "A and B"};
  int rc = cli_parse(&spec, argc, argv, &common);
  if (rc != CLI_GO_ON) return *status = rc, 1;
  for (int i = 1; i < argc && !a->have_split; i++)
    if (!strcmp(argv[i], "--")) {
      a->have_split = 1;
      for (unsigned k = 0; k < spec.n_pos; k++)
        for (int j = 1; j < i; j++) a->split += spec.pos[k] == argv[j];
    }
  for (unsigned k = 0; k < spec.n_pos; k++) a->paths[a->n_paths++] = spec.pos[k];
  if (metric) {
    const char *eq = strchr(metric, '=');
    static char left[512];
    a->metric_a = metric;
    if (eq) {
      snprintf(left, sizeof left, "%.*s", (int)(eq - metric), metric);
      a->metric_a = left, a->metric_b = eq + 1;
    }
  }
  for (unsigned k = 0; k < params.n; k++) {
    const char *v = params.v[k], *eq = strchr(v, '=');
    static char name[128];
    char *end;
    size_t len = eq ? (size_t)(eq - v) : strlen(v);
    if (c->param_name && (strlen(c->param_name) != len || strncmp(c->param_name, v, len) != 0))
      return *status = cli_refuse(&spec, "one --param name per study"), 1;
    snprintf(name, sizeof name, "%.*s", (int)len, v);
    c->param_name = name;
    if (eq) {
      double x = strtod(eq + 1, &end);
      if (*end || end == eq + 1 || !(x > 0))
        return *status = cli_refuse(&spec, "--param NAME=VALUE takes a positive number"), 1;
      a->params[a->n_values++] = x;
    }
  }
  c->view = view == 0 ? CMP_TOP_DOWN : view == 1 ? CMP_BOTTOM_UP : CMP_FLAT;
  c->sort_ratio = sort == 1;
  c->csv = csv;
  c->top = (uint32_t)top;
  c->min_share = min_share / 100;
  c->fail_if_slower = slower < 0 ? -1 : slower / 100;
  a->align.line_tolerance = (uint32_t)tolerance;
  a->align.no_shifted_lines = exact;
  c->quiet = common.quiet;
  return 0;
}

/* A folder hpcdb cannot read as a run, with --param NAME: a Cube file set. */
static int expand_folders(args *a) {
  const char *in[MAX_RUNS];
  uint32_t n_in = a->n_paths;
  memcpy(in, a->paths, n_in * sizeof *in);
  a->n_paths = 0;
  for (uint32_t i = 0; i < n_in; i++) {
    struct stat st;
    hpcdb_format f = HPCDB_FORMAT_UNKNOWN;
    int folder = a->c.param_name && a->n_values == 0 && stat(in[i], &st) == 0 && S_ISDIR(st.st_mode) &&
                 (hpcdb_detect(&f, in[i]) < 0 || f == HPCDB_FORMAT_UNKNOWN);
    if (!folder) {
      a->paths[a->n_paths++] = in[i];
      continue;
    }
    char **paths;
    double *values;
    uint32_t n;
    if (hpcdb_extrap_folder(&paths, &values, &n, in[i], a->c.param_name) < 0) return cli_fail_last("compare");
    for (uint32_t k = 0; k < n; k++) {
      if (a->n_paths == MAX_RUNS || a->n_owned == MAX_RUNS) {
        free(paths[k]);
        continue;
      }
      a->owned[a->n_owned++] = paths[k];
      a->params[a->n_paths] = values[k];
      a->paths[a->n_paths++] = paths[k];
    }
    a->n_values = a->n_paths;
    free(paths);
    free(values);
  }
  return 0;
}

static int export_to(const char *path, int force, int (*write)(FILE *, const compare_cli *), const compare_cli *c) {
  cli_output o;
  int rc = cli_output_check("compare", path, force);
  if (rc == 0) rc = cli_output_open(&o, "compare", path);
  if (rc) return rc;
  return cli_output_finish(&o, "compare", write(o.f, c) == 0);
}

static void print_line(void *user, const char *line) { printf("  %s\n", line); }

static int explain(const args *a, const hpcdb_comparison *cmp) {
  uint32_t found[16];
  uint32_t n = hpcdb_align_find(cmp->al, a->explain, found, 16);
  if (n == 0) {
    fprintf(stderr, "hpcdb compare: no aligned node named \"%s\"\n", a->explain);
    return EXIT_FAILED;
  }
  const char *names[MAX_RUNS];
  char buf[MAX_RUNS][16];
  for (uint32_t r = 0; r < a->c.n_runs; r++) {
    if (a->c.params) snprintf(buf[r], sizeof buf[r], "run %u", r + 1);
    else if (a->c.n_runs == 2) snprintf(buf[r], sizeof buf[r], "%c", r ? 'B' : 'A');
    else snprintf(buf[r], sizeof buf[r], "%c%u", r < a->c.n_a ? 'A' : 'B', r < a->c.n_a ? r + 1 : r - a->c.n_a + 1);
    names[r] = buf[r];
  }
  char path[4096];
  for (uint32_t k = 0; k < n && k < 16; k++) {
    hpcdb_align_path(cmp->al, found[k], path, sizeof path);
    printf("%s\n", path);
    hpcdb_align_explain(cmp->al, found[k], names, print_line, NULL);
  }
  if (n > 16) printf("... and %u more nodes of that name\n", n - 16);
  return EXIT_OK;
}

/* A scaling study: the per-profile figures of the frames that can be listed
 * (at least --min-share of a run's total), read from the databases now (the
 * tables of two sides read them row by row). */
static int load_profiles(const compare_cli *c) {
  hpcdb_comparison *cmp = c->cmp;
  uint32_t *nodes = malloc(((size_t)cmp->al->n_nodes + 1) * sizeof *nodes), n = 0;
  if (!nodes) return -1;
  for (uint32_t k = 0; k < cmp->al->n_nodes; k++)
    for (uint32_t r = 0; r < c->n_runs; r++) {
      double v = cmp->inc[(size_t)k * c->n_runs + r], total = cmp->inc[r];
      if (cmp->al->nodes[k].is_frame && fabs(v) >= c->min_share * fabs(total)) {
        nodes[n++] = k;
        break;
      }
    }
  int rc = hpcdb_compare_profiles(cmp, nodes, n);
  free(nodes);
  return rc;
}

static int run(args *a) {
  compare_cli *c = &a->c;
  hpcdb_source *srcs[MAX_RUNS] = {0};
  const hpcdb_experiment *runs[MAX_RUNS] = {0};
  const char *metrics[MAX_RUNS];
  hpcdb_comparison *cmp = NULL;
  int rc = EXIT_FAILED;
  uint32_t n = a->n_paths;
  if (compare_read_runs(a->paths, a->n_paths, srcs) < 0) goto done;
  for (uint32_t r = 0; r < n; r++) runs[r] = hpcdb_source_experiment(srcs[r]);
  for (uint32_t r = 0; r < n; r++) {
    if (c->param_name && a->n_values == 0 && hpcdb_run_parameter(&a->params[r], runs[r], c->param_name) < 0) {
      fprintf(stderr, "hpcdb compare: %s (or give --param %s=VALUE per run)\n", hpcdb_last_error(), c->param_name);
      goto done;
    }
    metrics[r] = r < c->n_a || c->param_name || !a->metric_b ? a->metric_a : a->metric_b;
  }
  hpcdb_compare_options opt = {
      .version = HPCDB_COMPARE_OPTIONS_VERSION, .metrics = metrics, .align = a->align, .profiles_on_demand = 1};
  if (hpcdb_compare_sources(&cmp, srcs, n, &opt) < 0) {
    fprintf(stderr, "hpcdb compare: %s\n", hpcdb_last_error());
    goto done;
  }
  c->runs = runs;
  c->paths = a->paths;
  c->n_runs = n;
  c->cmp = cmp;
  if (c->param_name) c->params = a->params;
  if (c->params && load_profiles(c) < 0) {
    fprintf(stderr, "hpcdb compare: %s\n", hpcdb_last_error());
    goto done;
  }
  if (a->explain) {
    rc = explain(a, cmp);
    goto done;
  }
  if (c->params) {
    rc = c->quiet ? EXIT_OK : compare_print_scaling(stdout, c) < 0 ? EXIT_FAILED : EXIT_OK;
    goto done;
  }
  if (a->folded && (rc = export_to(a->folded, a->force, compare_write_folded, c)) != 0) goto done;
  if (a->flamegraph && (rc = export_to(a->flamegraph, a->force, compare_write_flamegraph, c)) != 0) goto done;
  if (!c->quiet) compare_print(stdout, c);
  rc = EXIT_OK;
  if (c->fail_if_slower >= 0) {
    if (!c->quiet && !c->csv) printf("\n");
    uint32_t slower = compare_gate(c->quiet || c->csv ? stderr : stdout, c);
    if (!c->quiet)
      fprintf(c->csv ? stderr : stdout, "fail-if-slower %g%%: %u frame%s slower\n", c->fail_if_slower * 100, slower,
              slower == 1 ? "" : "s");
    if (slower) rc = EXIT_DIFFERENT;
  }
done:
  if (fflush(stdout) != 0 && rc == EXIT_OK) rc = EXIT_FAILED;
  hpcdb_comparison_free(cmp);
  for (uint32_t r = 0; r < n; r++) hpcdb_source_close(srcs[r]);
  return rc;
}

int cmd_compare(int argc, char **argv) {
  static args a;
  memset(&a, 0, sizeof a);
  int status = EXIT_OK, rc;
  if (parse(&a, argc, argv, &status)) return status;
  compare_cli *c = &a.c;
  if ((rc = expand_folders(&a)) != 0) goto done;
  rc = EXIT_FAILED;
  if (c->param_name) {
    if (a.have_split) fprintf(stderr, "hpcdb compare: a scaling study has no sides (\"--\")\n");
    else if (a.n_paths < 2) fprintf(stderr, "hpcdb compare: a scaling study needs two or more runs\n");
    else if (a.n_values && a.n_values != a.n_paths)
      fprintf(stderr, "hpcdb compare: %u --param values for %u runs\n", a.n_values, a.n_paths);
    else if (c->fail_if_slower >= 0 || a.folded || a.flamegraph)
      fprintf(stderr, "hpcdb compare: --fail-if-slower, --folded and --flamegraph compare two sides, not a study\n");
    else rc = 0;
  } else if (a.have_split) {
    if (a.split == 0 || a.split == a.n_paths)
      fprintf(stderr, "hpcdb compare: runs are needed on both sides of \"--\"\n");
    else rc = 0;
    c->n_a = a.split;
  } else if (a.n_paths != 2) {
    fprintf(
        stderr,
        "hpcdb compare: need A and B (repeats: A1 A2 -- B1 B2; a study: --param NAME) (see 'hpcdb compare --help')\n");
  } else {
    c->n_a = 1, rc = 0;
  }
  if (rc == 0) rc = run(&a);
done:
  for (uint32_t i = 0; i < a.n_owned; i++) free(a.owned[i]);
  return rc;
}
