/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb report: tables a person reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "cmd_report_trace.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb report - the hot spots of an experiment, as tables in the terminal\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb report [--view top-down|bottom-up|flat|profiles|trace] [--metric NAME]...\n"
    "                 [--top N] [--threshold P] [--depth N] [--hot-path]\n"
    "                 [--scopes all|functions] [--collapse libs,chains|libs|chains|none]\n"
    "                 [--by rank|thread|node|gpu] [--profile ID|PATTERN]\n"
    "                 [--csv|--json] [--width N] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads PATH (any format hpcdb reads) and prints, per metric, inclusive and\n"
    "    exclusive values and the percentage of the whole program. Values come from the\n"
    "    summary profile (the sum over threads) unless --profile selects profiles.\n"
    "\n"
    "    top-down   the calling-context tree, children by cost of the first metric;\n"
    "               children below --threshold (default 1%) or past --top are folded\n"
    "               into one line; --depth limits the levels; --hot-path follows only\n"
    "               the child holding at least half of its parent's cost\n"
    "    bottom-up  functions by exclusive cost, each with the callers it was reached\n"
    "               from and the part of the cost each caller accounts for\n"
    "    flat       load modules by exclusive cost, each with its files, their\n"
    "               functions, loops and lines (hpcviewer's flat view); a row's\n"
    "               inclusive cost counts each calling path once\n"
    "    profiles   one row per profile (or per rank, thread, node or GPU with --by),\n"
    "               largest first, then min, median, mean, max and the imbalance\n"
    "               (max / mean); CPU threads and GPU streams apart; rows without a\n"
    "               value are left out and counted\n"
    "    trace      the calling path at a point of a trace, or each context's exact\n"
    "               share of time in a window ('hpcdb report --view trace --help')\n"
    "\n"
    "    Names read as a person would: the function, else file:line, else\n"
    "    module+0xoffset; loops as 'loop at file:line'; inlined calls are marked.\n"
    "    Rows whose values are all zero are not printed. Beyond a third of the name\n"
    "    column, rows stop indenting and show their depth ('13> name'). A name too long\n"
    "    for its column is cut ('~') and the last line says which --width shows it whole.\n"
    "\n"
    "    On a terminal (HPCDB_TERMINAL=1 forces it, 0 forbids it) the defaults are for a\n"
    "    person: --scopes functions for top-down and bottom-up, --collapse libs,chains\n"
    "    for top-down, and the terminal's width (COLUMNS, else the window's). In a pipe,\n"
    "    and with --csv or --json, every context is shown at width 100.\n"
    "\n"
    "OPTIONS\n"
    "    --view V       the view (default top-down)\n"
    "    --metric NAME  a metric to show (repeatable, up to 8); default: the first time\n"
    "                   metric with a non-zero total, then the next metrics with one,\n"
    "                   as many as leave the name column 2/5 of the width (at most 3);\n"
    "                   a minimum or maximum (Cube's min_time) is never a default;\n"
    "                   or a formula over metrics: '$0 / $1 * 100', names allowed\n"
    "                   (docs/query.md)\n"
    "    --top N        at most N rows per level (top-down) or in all (N >= 1)\n"
    "    --threshold P  top-down: fold children below P percent of the total (0 to 100,\n"
    "                   '5' or '5%'; default 1)\n"
    "    --depth N      top-down: at most N levels (N >= 1)\n"
    "    --hot-path     top-down: only the hot path (not with --top)\n"
    "    --scopes S     top-down, bottom-up: 'functions' folds lines, loops and inlined\n"
    "                   calls into their function; 'all' shows every context, loops\n"
    "                   without a line too ('loop at hpcc+0x1c1d0', or, without an\n"
    "                   address, 'loop in [libmpi.so.40]'). A line scope without a line\n"
    "                   is never a row, nor by default a loop without one: their cost\n"
    "                   is their parent's (the database keeps them)\n"
    "    --collapse C   top-down: 'libs' folds a system or runtime library's calls\n"
    "                   within itself (libc, libm, MPI, OpenMP, CUDA, ROCm, BLAS...; never\n"
    "                   the program's own libraries) into the frame that entered it\n"
    "                   ('[+4 library frames]', '[+4 frames in libmpi.so.40]' when the\n"
    "                   name does not say which); 'chains' leaves\n"
    "                   out frames that are an only child with one child and no cost of\n"
    "                   their own ('(after 3 single calls)'); 'libs,chains'; 'none'\n"
    "    --by LEVEL     profiles: one row per rank, thread, node or gpu (the sum of its\n"
    "                   profiles)\n"
    "    --profile SEL  the profiles whose values to show (summed): a whole identity as\n"
    "                   'hpcdb info' prints it, or a pattern of identity levels such as\n"
    "                   rank=3 or rank=0-7,thread=0 (any level, any case; N or N-M)\n"
    "    --csv          comma-separated values (not with --json or --width)\n"
    "    --json         a JSON document: the view, the totals, one object per row\n"
    "    --width N      columns of the table (40 to 10000; default: the terminal's, else\n"
    "                   100)\n"
    "    An option the view does not use is refused (exit 2).\n"
    "\n"
    "EXIT STATUS\n"
    "    0 printed, 2 unreadable or bad options\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb report app.d\n"
    "    hpcdb report --scopes all --collapse none app.d | less\n"
    "    hpcdb report --view profiles --by rank app.d\n"
    "    hpcdb report --profile rank=0-7,thread=0 --view bottom-up app.d\n"
    "    hpcdb report --view bottom-up --top 10 --csv app.d > hot.csv\n";

/* --profile ID or PATTERN: a pattern ("rank=3", "rank=0-7,thread=0") is checked here, so that a
 * typo is refused before the file is read; the library matches it. */
static int check_profile(const cli_spec *spec, const char *p) {
  char why[300];
  if (!strchr(p, '=')) return 0; /* a whole identity, 'RANK 3 THREAD 0' */
  if (hpcdb_profile_pattern_check(p, why, sizeof why) == 0) return 0;
  return cli_refuse(spec, why);
}

int cmd_report(int argc, char **argv) {
  if (cmd_report_is_trace(argc, argv)) return cmd_report_trace(argc, argv);
  cli_common c = {0};
  hpcdb_report_options o = HPCDB_REPORT_OPTIONS_INIT;
  cli_list metrics = {0};
  unsigned long long top = 0, depth = 0, width = 0;
  double threshold = 1;
  int view = 0, by = 0, scopes = -1, csv = 0, json = 0;
  const char *collapse = NULL;
  cli_opt opts[] = {
      {.names = "--view", .kind = CLI_CHOICE, .out = &view, .choices = "top-down|bottom-up|flat|profiles"},
      {.names = "--metric", .kind = CLI_LIST, .out = &metrics},
      {.names = "--top", .kind = CLI_UINT, .out = &top, .min = 1, .max = 1e9},
      {.names = "--depth", .kind = CLI_UINT, .out = &depth, .min = 1, .max = 1e9},
      {.names = "--width", .kind = CLI_UINT, .out = &width, .min = 40, .max = 10000},
      {.names = "--threshold", .kind = CLI_DOUBLE, .out = &threshold, .min = 0, .max = 100, .percent = 1},
      {.names = "--hot-path", .kind = CLI_FLAG, .out = &o.hot_path, .conflicts = "--top"},
      {.names = "--profile", .kind = CLI_STRING, .out = &o.profile},
      {.names = "--by", .kind = CLI_CHOICE, .out = &by, .choices = "kind|rank|thread|node|gpu"},
      {.names = "--scopes", .kind = CLI_CHOICE, .out = &scopes, .choices = "all|functions"},
      {.names = "--collapse", .kind = CLI_STRING, .out = &collapse},
      {.names = "--csv", .kind = CLI_FLAG, .out = &csv, .conflicts = "--json"},
      {.names = "--json", .kind = CLI_FLAG, .out = &json},
      {.names = NULL}};
  cli_spec spec = {.cmd = "report", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  if (metrics.n > 8) return cli_refuse(&spec, "--metric: at most 8 metrics");
  o.view = (hpcdb_view)view;
  int tree = o.view == HPCDB_VIEW_TOP_DOWN;
  if (!tree && (cli_seen(&spec, "--depth") || cli_seen(&spec, "--threshold") || o.hot_path))
    return cli_refuse(&spec, "--depth, --threshold and --hot-path are for --view top-down");
  if (o.view != HPCDB_VIEW_PROFILES && cli_seen(&spec, "--by")) return cli_refuse(&spec, "--by is for --view profiles");
  if ((o.view == HPCDB_VIEW_PROFILES || o.view == HPCDB_VIEW_FLAT) && scopes >= 0)
    return cli_refuse(&spec, "--scopes is for --view top-down and bottom-up");
  if (!tree && collapse) return cli_refuse(&spec, "--collapse is for --view top-down");
  if (collapse && hpcdb_report_parse_collapse(collapse, &o.collapse) < 0)
    return cli_refuse(&spec, "--collapse takes libs, chains, libs,chains or none");
  if ((csv || json) && cli_seen(&spec, "--width")) return cli_refuse(&spec, "--width is for text, not --csv or --json");
  if (o.profile && check_profile(&spec, o.profile)) return EXIT_FAILED;
  /* a person at a terminal gets the readable defaults; pipes (and --csv, --json) get everything */
  int person = !csv && !json && cli_terminal();
  o.metrics = metrics.n ? metrics.v : NULL;
  o.n_metrics = metrics.n;
  o.top = (uint32_t)top;
  o.depth = (uint32_t)depth;
  o.threshold = threshold / 100.0;
  o.csv = csv;
  o.json = json;
  o.group_by = (hpcdb_group_by)by;
  o.functions_only = scopes >= 0 ? scopes == 1 : person;
  o.all_scopes = scopes == 0;
  if (!collapse) o.collapse = person && tree ? HPCDB_COLLAPSE_LIBS | HPCDB_COLLAPSE_CHAINS : 0;
  o.width = width ? (uint32_t)width : person ? cli_terminal_width() : 100;
  o.color = person && isatty(STDOUT_FILENO);
  const char *path = spec.pos[0];
  hpcdb_experiment *exp;
  /* named metrics: only their values are needed (the default choice needs every metric's total);
   * the views of the program read the summary profile only, the profiles view the profiles' totals */
  unsigned flags = o.view == HPCDB_VIEW_PROFILES ? HPCDB_READ_PROFILE_TOTALS : !o.profile ? HPCDB_READ_SUMMARY_ONLY : 0;
  int formulas = 0; /* a derived metric ('$0 / $1 * 100') reads every metric */
  for (uint32_t m = 0; m < o.n_metrics; m++) formulas |= strpbrk(o.metrics[m], "$*/+") != NULL;
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, o.n_metrics && !formulas ? HPCDB_READ_METRICS : HPCDB_READ_ALL,
                           o.metrics, o.n_metrics, flags};
  if (cli_read_opts(&exp, path, &ro) < 0) return cli_fail_last("report");
  o.all_values = ro.values == HPCDB_READ_ALL && !(ro.flags & HPCDB_READ_SUMMARY_ONLY);
  int rc = hpcdb_report(stdout, exp, &o);
  hpcdb_experiment_free(exp);
  return rc < 0 ? cli_fail_last("report") : EXIT_OK;
}
