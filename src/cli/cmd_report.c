/* hpcdb report: tables a person reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "cmd_report_trace.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb report - the hot spots of an experiment, as tables in the terminal\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb report [--view top-down|bottom-up|flat|profiles|trace] [--metric NAME]...\n"
    "                 [--top N] [--threshold P%] [--depth N] [--hot-path]\n"
    "                 [--profile 'RANK 3 THREAD 0'] [--csv|--json] [--width N] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads PATH (any format hpcdb reads) and prints, per metric, inclusive and\n"
    "    exclusive values and the percentage of the whole program. Values come from the\n"
    "    summary profile (the sum over threads) unless --profile selects one.\n"
    "\n"
    "    top-down   the calling-context tree, children by cost of the first metric;\n"
    "               children below --threshold (default 1%) or past --top are folded\n"
    "               into one line; --depth limits the levels; --hot-path follows only\n"
    "               the child holding at least half of its parent's cost\n"
    "    bottom-up  functions by exclusive cost, each with the callers it was reached\n"
    "               from and the part of the cost each caller accounts for\n"
    "    flat       load modules by exclusive cost, each with its functions\n"
    "    profiles   one row per profile (rank, thread, GPU stream) with each metric's\n"
    "               total, then min, mean, max, standard deviation and the imbalance\n"
    "               (max / mean)\n"
    "    trace      the calling path at a point of a trace, or each context's exact\n"
    "               share of time in a window ('hpcdb report --view trace --help')\n"
    "\n"
    "    Names read as a person would: the function, else file:line, else\n"
    "    module+0xoffset; loops as 'loop at file:line'; inlined calls are marked.\n"
    "\n"
    "OPTIONS\n"
    "    --view V       the view (default top-down)\n"
    "    --metric NAME  a metric to show (repeatable; default the first three)\n"
    "    --top N        at most N rows per level (top-down) or in all\n"
    "    --threshold P  top-down: fold children below P percent of the total\n"
    "    --depth N      top-down: at most N levels\n"
    "    --hot-path     top-down: only the hot path\n"
    "    --profile ID   values of one profile, by its identity as 'hpcdb info' prints it\n"
    "    --csv          comma-separated values\n"
    "    --json         a JSON document: the view, the totals, one object per row\n"
    "    --width N      columns of the table (default 100)\n"
    "\n"
    "EXIT STATUS\n"
    "    0 printed, 2 unreadable or bad options\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb report app.d\n"
    "    hpcdb report --view profiles --metric 'CPUTIME (sec)' app.d\n"
    "    hpcdb report --view bottom-up --top 10 --csv app.d > hot.csv\n";

int cmd_report(int argc, char **argv) {
  if (cmd_report_is_trace(argc, argv)) return cmd_report_trace(argc, argv);
  cli_common c = {0};
  hpcdb_report_options o = {0};
  const char *metrics[8];
  const char *path = NULL;
  o.width = 100;
  o.threshold = 0.01;
  for (int i = 1; i < argc; i++) {
    int done = 0, status;
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (cli_common_option(a, help, &c, &done, &status)) {
      if (done) return status;
    } else if (!strcmp(a, "--view") && v) {
      i++;
      if (!strcmp(v, "top-down")) o.view = HPCDB_VIEW_TOP_DOWN;
      else if (!strcmp(v, "bottom-up")) o.view = HPCDB_VIEW_BOTTOM_UP;
      else if (!strcmp(v, "flat")) o.view = HPCDB_VIEW_FLAT;
      else if (!strcmp(v, "profiles")) o.view = HPCDB_VIEW_PROFILES;
      else return cli_fail("report", "--view takes top-down, bottom-up, flat or profiles");
    } else if (!strcmp(a, "--metric") && v) {
      if (o.n_metrics == 8) return cli_fail("report", "at most 8 --metric options");
      metrics[o.n_metrics++] = argv[++i];
      o.metrics = metrics;
    } else if (!strcmp(a, "--top") && v) {
      o.top = (uint32_t)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--depth") && v) {
      o.depth = (uint32_t)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--width") && v) {
      o.width = (uint32_t)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--threshold") && v) {
      o.threshold = strtod(argv[++i], NULL) / 100.0;
    } else if (!strcmp(a, "--hot-path")) {
      o.hot_path = 1;
    } else if (!strcmp(a, "--profile") && v) {
      o.profile = argv[++i];
    } else if (!strcmp(a, "--csv")) {
      o.csv = 1;
    } else if (!strcmp(a, "--json")) {
      o.json = 1;
    } else if (a[0] == '-' || path) {
      return cli_usage("report", a);
    } else {
      path = a;
    }
  }
  if (!path) return cli_fail("report", "no PATH given (see 'hpcdb report --help')");
  o.color = !o.csv && !o.json && isatty(STDOUT_FILENO);
  hpcdb_experiment *exp;
  /* named metrics: only their values are needed (the default choice needs every metric's total);
   * the views of the program read the summary profile only, the profiles view the profiles' totals */
  unsigned flags = o.view == HPCDB_VIEW_PROFILES ? HPCDB_READ_PROFILE_TOTALS : !o.profile ? HPCDB_READ_SUMMARY_ONLY : 0;
  hpcdb_read_options ro = {o.n_metrics ? HPCDB_READ_METRICS : HPCDB_READ_ALL, o.metrics, o.n_metrics, flags};
  if (cli_read_opts(&exp, path, &ro) < 0) return cli_fail_last("report");
  int rc = hpcdb_report(stdout, exp, &o);
  hpcdb_experiment_free(exp);
  return rc < 0 ? cli_fail_last("report") : EXIT_OK;
}
