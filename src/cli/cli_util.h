/* Helpers the subcommands share: help and usage errors, common options. */
#ifndef HPCDB_CLI_UTIL_H
#define HPCDB_CLI_UTIL_H

#include <stdio.h>

/* Exit statuses of the command-line contract. */
enum { EXIT_OK = 0, EXIT_DIFFERENT = 1, EXIT_INVALID = 1, EXIT_FAILED = 2 };

typedef struct cli_common {
  int quiet, verbose;
} cli_common;

/* Handles --help/-h (prints help, returns 1 with *status 0), --quiet,
 * --verbose; returns 1 when argv[*i] was consumed this way. */
int cli_common_option(const char *arg, const char *help, cli_common *c, int *done, int *status);
/* "hpcdb <cmd>: <message>" on stderr; returns EXIT_FAILED. */
int cli_fail(const char *cmd, const char *message);
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
/* An unexpected argument: a one-line hint; returns EXIT_FAILED. */
int cli_usage(const char *cmd, const char *arg);

/* An output file (cli_output.c): PATH "-" is stdout; any other is written
 * as PATH.tmp-XXXXXX and renamed to PATH by cli_output_finish. */
typedef struct cli_output {
  FILE *f;
  const char *path;
  char *temp; /* NULL: stdout */
} cli_output;
/* 0, or a message on stderr and EXIT_FAILED. */
int cli_output_open(cli_output *o, const char *cmd, const char *path);
/* Closes o: with ok, renames the file into place (0, or a message and
 * EXIT_FAILED); without, removes it (EXIT_FAILED). */
int cli_output_finish(cli_output *o, const char *cmd, int ok);

#endif
