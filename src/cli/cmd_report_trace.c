/* hpcdb report --view trace: the calling path at a point of a trace, or
 * the exact shares of time in a window. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "cmd_report_trace.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_report.h"

static const char help[] =
    "NAME\n"
    "    hpcdb report --view trace - a run's traces in the terminal\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb report --view trace --at PROFILE:TIMESTAMP PATH\n"
    "    hpcdb report --view trace [--window T0:T1] [--depth D]\n"
    "                 [--profiles PATTERN] [--contexts GLOB] [--no-cache] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    --at prints the calling path in effect at TIMESTAMP (ns, as stored in the\n"
    "    trace) on the trace of profile PROFILE (its index in profile.db): the\n"
    "    context of the last trace element at or before TIMESTAMP, one context per\n"
    "    line, outermost first, named as the tree views name them.\n"
    "\n"
    "    Without --at it prints, for the window [T0, T1) (default: the whole run),\n"
    "    the exact share of profile-time each context at call depth D covers, summed\n"
    "    over every profile, largest first. An element lasts from its timestamp to\n"
    "    the next element's; the last element of a line lasts no time (the line\n"
    "    ends there). Depth 0 is the entry point; a path shorter than D counts as\n"
    "    its own context; without --depth each element counts as its own context.\n"
    "    '<not running>' is time a thread was recorded as not running.\n"
    "\n"
    "    A v4.0 database's trace.db is read in place; its index is kept in\n"
    "    $XDG_CACHE_HOME/hpcdb (else ~/.cache/hpcdb) and rebuilt when the database\n"
    "    changes. Other formats' traces are read with the experiment.\n"
    "\n"
    "OPTIONS\n"
    "    --at P:T          the calling path of profile P at time T\n"
    "    --window T0:T1    statistics of [T0, T1) only (ns)\n"
    "    --depth D         count each element as its context at call depth D\n"
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

static int open_traces(const char *path, int no_cache, hpcdb_experiment **exp, hpcdb_trace_set **t) {
  hpcdb_format fmt;
  hpcdb_trace_options to = {no_cache ? HPCDB_TRACE_NO_CACHE : 0, NULL};
  if (hpcdb_detect(&fmt, path) < 0) return -1;
  if (fmt == HPCDB_FORMAT_HPCTK4_DIR) {
    hpcdb_db *db = NULL;
    if (hpcdb_hpctk4_read_lazy(exp, &db, path) < 0) return -1;
    hpcdb_db_close(db);
    return hpcdb_trace_open(t, *exp, path, &to);
  }
  hpcdb_read_options ro = {HPCDB_READ_STRUCTURE, NULL, 0, 0};
  if (cli_read_opts(exp, path, &ro) < 0) return -1;
  return hpcdb_trace_open(t, *exp, NULL, &to);
}

int cmd_report_trace(int argc, char **argv) {
  cli_common c = {0};
  hpcdb_trace_report_options o = {.depth = HPCDB_TRACE_LEAF};
  const char *path = NULL;
  int no_cache = 0;
  for (int i = 1; i < argc; i++) {
    int done = 0, status;
    uint64_t a, b;
    const char *arg = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (cli_common_option(arg, help, &c, &done, &status)) {
      if (done) return status;
    } else if (!strcmp(arg, "--view") && v && !strcmp(v, "trace")) {
      i++;
    } else if (!strcmp(arg, "--at") && v) {
      if (pair(argv[++i], &a, &b) || a > UINT32_MAX) return cli_fail("report", "--at takes PROFILE:TIMESTAMP");
      o.at = 1, o.profile = (uint32_t)a, o.timestamp = b;
    } else if (!strcmp(arg, "--window") && v) {
      if (pair(argv[++i], &a, &b) || b < a) return cli_fail("report", "--window takes T0:T1 with T0 <= T1 (ns)");
      o.window = 1, o.t0 = a, o.t1 = b;
    } else if (!strcmp(arg, "--depth") && v) {
      char *end;
      unsigned long d = strtoul(argv[++i], &end, 10);
      if (*end || argv[i][0] < '0' || argv[i][0] > '9' || d >= UINT32_MAX)
        return cli_fail("report", "--depth takes a call depth (0: the entry point)");
      o.depth = (uint32_t)d;
    } else if (!strcmp(arg, "--profiles") && v) {
      o.profiles = argv[++i];
    } else if (!strcmp(arg, "--contexts") && v) {
      o.contexts = argv[++i];
    } else if (!strcmp(arg, "--no-cache")) {
      no_cache = 1;
    } else if (arg[0] == '-' || path) {
      return cli_usage("report", arg);
    } else {
      path = arg;
    }
  }
  if (!path) return cli_fail("report", "no PATH given (see 'hpcdb report --view trace --help')");
  if (o.at && (o.window || o.profiles || o.contexts || o.depth != HPCDB_TRACE_LEAF))
    return cli_fail("report", "--at does not combine with --window, --depth, --profiles or --contexts");
  hpcdb_experiment *exp = NULL;
  hpcdb_trace_set *t = NULL;
  int rc = open_traces(path, no_cache, &exp, &t);
  if (rc == 0) rc = hpcdb_report_trace(stdout, exp, t, &o);
  if (rc < 0) rc = cli_fail_last("report");
  hpcdb_trace_close(t);
  hpcdb_experiment_free(exp);
  return rc ? rc : EXIT_OK;
}

int cmd_report_is_trace(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--view") && !strcmp(argv[i + 1], "trace")) return 1;
  return 0;
}
