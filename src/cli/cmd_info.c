/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb info: what a file or database is and holds. */
#include <stdio.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/hpcstruct.h"

static const char help[] =
    "NAME\n"
    "    hpcdb info - the format, version and a summary of a performance data file\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb info [--quiet] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    Detects the format of PATH from its bytes (an HPCToolkit database directory or\n"
    "    single .db file, a measurements directory, an .hpcrun or .hpctrace file, ...) and\n"
    "    prints: format and version, title, contexts in the calling-context tree (and how\n"
    "    many context ids appear only in values), load modules, files and functions,\n"
    "    metrics with their propagation scopes and summary statistics, profiles with their\n"
    "    identities (e.g. RANK 3 THREAD 1), stored and non-zero values, trace lines,\n"
    "    samples and time range. For an hpcstruct structure file: its load modules with\n"
    "    their procedures, inlined procedures, loops, statements and address ranges.\n"
    "\n"
    "OPTIONS\n"
    "    --quiet      print only the format line\n"
    "\n"
    "EXIT STATUS\n"
    "    0 read, 2 unreadable\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb info hpctoolkit-app-database\n"
    "    hpcdb info measurements/app-000000-000-a8c00270-160443-0.hpcrun\n";

/* A structure file is not an experiment: its own summary. */
static int struct_info(const char *path, hpcdb_format format, int quiet) {
  hpcdb_struct *s;
  if (hpcdb_hpcstruct_read(&s, path) < 0) return cli_fail_last("info");
  printf("path:        %s\n", path);
  printf("detected:    %s\n", hpcdb_format_name(format));
  if (!quiet) hpcdb_hpcstruct_write_info(stdout, s);
  hpcdb_hpcstruct_free(s);
  return EXIT_OK;
}

int cmd_info(int argc, char **argv) {
  cli_common c = {0};
  cli_spec spec = {.cmd = "info", .help = help, .opts = NULL, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  const char *path = spec.pos[0];
  hpcdb_format format;
  hpcdb_experiment *exp;
  if (hpcdb_detect(&format, path) < 0) return cli_fail_last("info");
  if (format == HPCDB_FORMAT_HPCSTRUCT) return struct_info(path, format, c.quiet);
  /* the summary counts values (a format may count them without keeping them); the format line needs none */
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, c.quiet ? HPCDB_READ_STRUCTURE : HPCDB_READ_COUNTS, NULL, 0, 0};
  if (cli_read_opts(&exp, path, &ro) < 0) return cli_fail_last("info");
  printf("path:        %s\n", path);
  printf("detected:    %s\n", hpcdb_format_name(format));
  if (!c.quiet) hpcdb_write_info(stdout, exp);
  hpcdb_experiment_free(exp);
  return EXIT_OK;
}
