/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb report --view trace: the calling path at a point of a trace, or
 * the exact shares of time in a window. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_report_trace.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_report.h"

static const char help[] =
    "NAME\n"
    "    hpcdb report --view trace - a run's traces in the terminal\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb report --view trace --at PROFILE:TIMESTAMP [--scopes frames|all] PATH\n"
    "    hpcdb report --view trace [--window T0:T1] [--depth D] [--scopes frames|all]\n"
    "                 [--profiles PATTERN] [--contexts GLOB] [--no-cache] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    --at prints the calling path in effect at TIMESTAMP (ns, as stored in the\n"
    "    trace) on the trace of profile PROFILE (its index in profile.db): the\n"
    "    context of the last trace element at or before TIMESTAMP, one context per\n"
    "    line, outermost first, named as the tree views name them: its procedure\n"
    "    frames, each with the line it was called at; --scopes all prints every\n"
    "    context of the path (loops and lines too).\n"
    "\n"
    "    Without --at it prints, for the window [T0, T1) (default: the whole run),\n"
    "    the exact share of profile-time each context at call depth D covers, summed\n"
    "    over every profile, largest first. An element lasts from its timestamp to\n"
    "    the next element's; the last element of a line lasts no time (the line\n"
    "    ends there). Depth counts procedure frames, as hpcviewer's trace view\n"
    "    does: depth 0 is the entry point, each procedure called or inlined one\n"
    "    deeper; loops and lines count as the procedure they are in, and a path\n"
    "    with fewer frames than D counts as its innermost one. --scopes all counts\n"
    "    every scope of the path as a level, and a shorter path as its own context.\n"
    "    Without --depth each element counts as its own context.\n"
    "    '<not running>' is time a thread was recorded as not running.\n"
    "\n"
    "    A v4.0 database's trace.db is read in place; its index is kept in\n"
    "    $XDG_CACHE_HOME/hpcdb (else ~/.cache/hpcdb) and rebuilt when the database\n"
    "    changes. Other formats' traces are read with the experiment.\n"
    "\n"
    "OPTIONS\n"
    "    --at P:T          the calling path of profile P at time T\n"
    "    --window T0:T1    statistics of [T0, T1) only (ns)\n"
    "    --depth D         count each element as its procedure frame at depth D\n"
    "    --scopes frames|all\n"
    "                      what a level of depth is: a procedure frame (default)\n"
    "                      or any scope (loops, lines)\n"
    "    --profiles PAT    only profiles whose identity matches every term of PAT:\n"
    "                      KIND, KIND=N or KIND=N-M ('RANK=0-127', 'GPUSTREAM')\n"
    "    --contexts GLOB   count contexts whose name does not match as '<filtered out>'\n"
    "    --no-cache        build the index in memory, leave the cache alone\n"
    "\n"
    "EXIT STATUS\n"
    "    0 printed, 2 unreadable, no traces, or bad options\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb report --view trace --at 1:1640995200000000000 app.d\n"
    "    hpcdb report --view trace --window 1000:2000000 --depth 3 app.d\n";

/* "A:B" as two unsigned decimal numbers. */
static int pair(const char *s, uint64_t *a, uint64_t *b) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9') return -1;
  *a = strtoull(s, &end, 10);
  if (*end != ':' || end[1] < '0' || end[1] > '9') return -1;
  *b = strtoull(end + 1, &end, 10);
  return *end || errno ? -1 : 0;
}

/* The traces through the path's source: a v4.0 database's trace.db in place,
 * else the traces of the experiment read without its values. */
static int open_traces(const char *path, int no_cache, hpcdb_trace_set **t) {
  hpcdb_trace_options to = {.flags = no_cache ? HPCDB_TRACE_NO_CACHE : 0u};
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_STRUCTURE, NULL, 0, 0};
  hpcdb_source *src;
  if (hpcdb_source_open(&src, path, &ro) < 0) return -1;
  cli_warnings(hpcdb_source_experiment(src));
  int rc = hpcdb_trace_open_source(t, src, &to);
  hpcdb_source_close(src); /* the set's reference keeps it */
  return rc;
}

int cmd_report_trace(int argc, char **argv) {
  cli_common c = {0};
  hpcdb_trace_report_options o = {.depth = HPCDB_TRACE_LEAF};
  const char *at = NULL, *window = NULL;
  unsigned long long depth = 0;
  int view = 0, no_cache = 0, scopes = 0;
  cli_opt opts[] = {{.names = "--view", .kind = CLI_CHOICE, .out = &view, .choices = "trace"},
                    {.names = "--at", .kind = CLI_STRING, .out = &at, .conflicts = "--window"},
                    {.names = "--window", .kind = CLI_STRING, .out = &window},
                    {.names = "--depth", .kind = CLI_UINT, .out = &depth, .min = 0, .max = 1e6},
                    {.names = "--profiles", .kind = CLI_STRING, .out = &o.profiles},
                    {.names = "--contexts", .kind = CLI_STRING, .out = &o.contexts},
                    {.names = "--scopes", .kind = CLI_CHOICE, .out = &scopes, .choices = "frames|all"},
                    {.names = "--no-cache", .kind = CLI_FLAG, .out = &no_cache},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "report", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  uint64_t a, b;
  if (at) {
    if (pair(at, &a, &b) || a > UINT32_MAX) return cli_refuse(&spec, "--at takes PROFILE:TIMESTAMP");
    if (cli_seen(&spec, "--depth") || o.profiles || o.contexts)
      return cli_refuse(&spec, "--at does not combine with --depth, --profiles or --contexts");
    o.at = 1, o.profile = (uint32_t)a, o.timestamp = b;
    o.depth = scopes ? HPCDB_TRACE_ALL_SCOPES : 0;
  }
  if (window) {
    if (pair(window, &a, &b) || b < a) return cli_refuse(&spec, "--window takes T0:T1 with T0 <= T1 (ns)");
    o.window = 1, o.t0 = a, o.t1 = b;
  }
  if (cli_seen(&spec, "--depth")) o.depth = (uint32_t)depth | (scopes ? HPCDB_TRACE_ALL_SCOPES : 0);
  hpcdb_trace_set *t = NULL;
  int rc = open_traces(spec.pos[0], no_cache, &t);
  if (rc == 0) rc = hpcdb_report_trace(stdout, hpcdb_trace_experiment(t), t, &o);
  if (rc < 0) rc = cli_fail_last("report");
  hpcdb_trace_close(t);
  return rc ? rc : EXIT_OK;
}

int cmd_report_is_trace(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if ((!strcmp(argv[i], "--view") && i + 1 < argc && !strcmp(argv[i + 1], "trace")) ||
        !strcmp(argv[i], "--view=trace"))
      return 1;
  return 0;
}
