/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers the subcommands share: help and usage errors, common options. */
#ifndef HPCDB_CLI_UTIL_H
#define HPCDB_CLI_UTIL_H

#include <stdio.h>

/* Exit statuses of the command-line contract. */
enum { EXIT_OK = 0, EXIT_DIFFERENT = 1, EXIT_INVALID = 1, EXIT_FAILED = 2 };

/* --quiet, --verbose and --help, which every command takes (cli_args.h parses them). */
typedef struct cli_common {
  int quiet, verbose, help;
} cli_common;

/* "hpcdb <cmd>: <message>" on stderr; returns EXIT_FAILED. */
int cli_fail(const char *cmd, const char *message);
/* The interface before cli_parse (cli_args.h), kept while commands written against it are merged;
 * a new command uses cli_parse. cli_common_option handles --help/-h (prints help, *done = 1,
 * *status 0), --quiet/-q, --verbose/-v and returns 1 when it took arg; cli_usage refuses an
 * unexpected argument in one line (EXIT_FAILED). */
int cli_common_option(const char *arg, const char *help, cli_common *c, int *done, int *status);
int cli_usage(const char *cmd, const char *arg);
/* The library's last error, reported for cmd. */
int cli_fail_last(const char *cmd);
struct hpcdb_experiment;
struct hpcdb_read_options;
/* hpcdb_read, then the reader's warnings (e.g. a missing
 * metric-db file of a legacy database) on stderr. */
int cli_read(struct hpcdb_experiment **out, const char *path);
/* cli_read loading only what options ask for (NULL: everything). */
int cli_read_opts(struct hpcdb_experiment **out, const char *path, const struct hpcdb_read_options *options);
/* The reader's warnings on stderr (cli_read prints them itself). */
void cli_warnings(const struct hpcdb_experiment *exp);
/* 1 when standard output is a person's terminal: HPCDB_TERMINAL=1 or 0 decides (tests run in
 * pipes and force it), else isatty. The report's readable defaults follow it. */
int cli_terminal(void);
/* The terminal's columns: $COLUMNS, else the window's (TIOCGWINSZ), else 100; at least 40. */
unsigned cli_terminal_width(void);

/* An output file (cli_output.c): PATH "-" is stdout, a device or pipe (/dev/null) is written in
 * place; any other is written as PATH.tmp-XXXXXX and renamed to PATH by cli_output_finish. */
typedef struct cli_output {
  FILE *f;
  const char *path;
  char *temp; /* NULL: stdout */
} cli_output;
/* The one output rule of every command: an existing PATH is refused unless force, a missing
 * parent folder is never created. 0, or one line on stderr and EXIT_FAILED:
 *   hpcdb CMD: PATH: exists (--force to replace it)
 *   hpcdb CMD: PATH: the folder DIR does not exist (folders are not created)
 * PATH "-" (stdout) and an existing device or pipe (/dev/null) always pass. */
int cli_output_check(const char *cmd, const char *path, int force);
/* The temporary beside path (call cli_output_check first: this one replaces path when finished):
 * 0, or a message on stderr and EXIT_FAILED. */
int cli_output_open(cli_output *o, const char *cmd, const char *path);
/* Closes o: with ok, renames the file into place (0, or a message and
 * EXIT_FAILED); without, removes it (EXIT_FAILED). */
int cli_output_finish(cli_output *o, const char *cmd, int ok);

#endif
