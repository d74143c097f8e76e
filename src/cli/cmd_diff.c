/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb diff: semantic comparison of two experiments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb diff - compare two experiments by meaning, not by bytes\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb diff [--tolerance X] [--max N] [--scope S] [--quiet] A B\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads A and B (any formats) and compares them: contexts by calling path (not by\n"
    "    raw ids, which differ from run to run), profiles by identity (e.g. RANK 1\n"
    "    THREAD 0), metrics by name and propagation scope (summary statistics also by\n"
    "    formula and combination), values within a relative tolerance (an absent value\n"
    "    is 0), and traces sample by sample. Values at context ids that neither tree\n"
    "    lists are compared as totals per profile and metric. Each difference is one\n"
    "    line on stdout.\n"
    "\n"
    "OPTIONS\n"
    "    --tolerance X  relative tolerance for values (default 1e-9)\n"
    "    --max N        list at most N differences (default 100; 0: all)\n"
    "    --scope S      compare only the values of scope S (e.g. execution, the inclusive\n"
    "                   values); what one side does not carry (other scopes, statistics,\n"
    "                   traces, values at contexts outside the tree) is then not a\n"
    "                   difference. For comparisons across formats, e.g. a database and\n"
    "                   its Cube conversion\n"
    "    --quiet        list nothing; the exit status tells\n"
    "\n"
    "EXIT STATUS\n"
    "    0 the same, 1 different, 2 a file could not be read\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb diff hpcprof-output.d hpcdb-output.d\n"
    "    hpcdb diff --tolerance 1e-6 run1.d run2.d\n";

/* 1 when exp has a scope named name. */
static int has_scope(const hpcdb_experiment *exp, const char *name) {
  for (uint32_t s = 0; s < exp->n_scopes; s++)
    if (exp->scopes[s].name && !strcmp(exp->scopes[s].name, name)) return 1;
  return 0;
}

static void print_line(void *user, const char *line) {
  if (!*(const int *)user) printf("%s\n", line);
}

int cmd_diff(int argc, char **argv) {
  cli_common c = {0};
  hpcdb_diff_options opt = {HPCDB_DIFF_OPTIONS_VERSION, 1e-9, 100, NULL};
  unsigned long long max = opt.max_reported;
  cli_opt opts[] = {{.names = "--tolerance", .kind = CLI_DOUBLE, .out = &opt.rel_tolerance, .min = 0, .max = 1e300},
                    {.names = "--max", .kind = CLI_UINT, .out = &max, .min = 0, .max = 1e19},
                    {.names = "--scope", .kind = CLI_STRING, .out = &opt.scope},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "diff", .help = help, .opts = opts, .min_pos = 2, .max_pos = 2, .pos_names = "A and B"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  opt.max_reported = max;
  const char *a = spec.pos[0], *b = spec.pos[1];
  hpcdb_experiment *ea, *eb;
  if (cli_read(&ea, a) < 0) return cli_fail_last("diff");
  if (cli_read(&eb, b) < 0) {
    hpcdb_experiment_free(ea);
    return cli_fail_last("diff");
  }
  if (opt.scope && !has_scope(ea, opt.scope) && !has_scope(eb, opt.scope)) { /* it would compare no value */
    hpcdb_experiment_free(ea);
    hpcdb_experiment_free(eb);
    char why[300];
    snprintf(why, sizeof why, "--scope: neither A nor B has a scope named '%s' (e.g. execution, point)", opt.scope);
    return cli_refuse(&spec, why);
  }
  uint64_t n;
  int rc = hpcdb_diff(&n, ea, eb, &opt, print_line, &c.quiet);
  hpcdb_experiment_free(ea);
  hpcdb_experiment_free(eb);
  if (rc < 0) return cli_fail_last("diff");
  if (opt.max_reported && n > opt.max_reported && !c.quiet)
    printf("... and %llu more differences\n", (unsigned long long)(n - opt.max_reported));
  if (!c.quiet) fprintf(stderr, "%llu differences\n", (unsigned long long)n);
  return n ? EXIT_DIFFERENT : EXIT_OK;
}
