/* SPDX-License-Identifier: BSD-3-Clause */
/* The one option parser of every `hpcdb` command.
 *
 * A command describes its options in a table and calls cli_parse once:
 *
 *   static cli_opt opts[] = {
 *       {.names = "--top", .kind = CLI_UINT, .out = &top, .min = 1, .max = 1e9},
 *       {.names = "--csv", .kind = CLI_FLAG, .out = &csv, .conflicts = "--json"},
 *       {.names = "--json", .kind = CLI_FLAG, .out = &json},
 *       {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
 *       {.names = "--metric", .kind = CLI_LIST, .out = &metrics},
 *       {.names = NULL}};
 *   cli_spec spec = {.cmd = "report", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};  // exactly one PATH
 *   int rc = cli_parse(&spec, argc, argv, &common);
 *   if (rc != CLI_GO_ON) return rc;                // --help printed (0) or a refusal (2)
 *   path = spec.pos[0];
 *
 * Every command gets --help/-h, --quiet/-q and --verbose/-v (cli_common) without listing them.
 * Values are given as "--name VALUE", "--name=VALUE" or, for a one-letter option, "-jVALUE".
 * A malformed, out-of-range, repeated (except CLI_LIST), unknown or conflicting option, or a
 * wrong number of positional arguments, is refused with ONE line on stderr and exit status 2:
 *   hpcdb CMD: --top: 'abc' is not a whole number (see 'hpcdb CMD --help')
 * After parsing, opt->seen tells whether an option was given (cli_seen finds it by name), so a
 * command can refuse what it cannot honour with cli_refuse.
 *
 * Outputs follow one rule (cli_util.h): cli_output_check(cmd, path, force) before writing, with a
 * --force option in the table.
 *
 * Moving a command from the older loop (cli_common_option + cli_usage + strtoul) to this: one
 * cli_opt line per option, the positional count in the spec, cli_parse once, then the checks
 * between options with cli_refuse; numbers arrive parsed (CLI_UINT: unsigned long long). */
#ifndef HPCDB_CLI_ARGS_H
#define HPCDB_CLI_ARGS_H

#include "cli_util.h"

typedef enum cli_kind {
  CLI_FLAG,   /* int *: set to 1 */
  CLI_STRING, /* const char **: the value */
  CLI_UINT,   /* unsigned long long *: digits only, within [min, max] */
  CLI_DOUBLE, /* double *: a finite number within [min, max]; a trailing '%' is allowed with .percent */
  CLI_CHOICE, /* int *: the index of the value in .choices ("a|b|c") */
  CLI_LIST    /* cli_list *: repeatable; every value kept in order */
} cli_kind;

#define CLI_LIST_MAX 64
#define CLI_POS_MAX 16
typedef struct cli_list {
  const char *v[CLI_LIST_MAX];
  unsigned n;
} cli_list;

typedef struct cli_opt {
  const char *names; /* "-o|--output": every spelling, '|'-separated; the last one is used in messages */
  cli_kind kind;
  void *out;
  double min, max;       /* CLI_UINT, CLI_DOUBLE: the accepted range (both 0: no bound beyond the type's) */
  const char *choices;   /* CLI_CHOICE: "top-down|bottom-up" */
  const char *conflicts; /* the name of an option this one cannot be used with */
  int percent;           /* CLI_DOUBLE: a trailing '%' is accepted */
  unsigned seen;         /* set by cli_parse: how many times it was given */
} cli_opt;

typedef struct cli_spec {
  const char *cmd;           /* "report" */
  const char *help;          /* printed by --help */
  cli_opt *opts;             /* ends with {NULL} */
  unsigned min_pos, max_pos; /* positional arguments accepted (max_pos <= CLI_POS_MAX) */
  const char *pos_names;     /* what they are, for "need PATH": "PATH", "A and B" */
  int stop_at_program;       /* record: the first positional and all after it are the program's (also after "--") */
  /* filled by cli_parse */
  char *pos[CLI_POS_MAX]; /* the positional arguments (pointers into argv) */
  unsigned n_pos;         /* how many */
  char **rest;            /* stop_at_program: the program and its arguments (NULL: none) */
  int n_rest;
} cli_spec;

enum { CLI_GO_ON = -1 };

/* Parses argv[1..argc-1] (argv[0] is the command's name). Returns CLI_GO_ON to go on, EXIT_OK
 * when --help was printed, EXIT_FAILED (a message printed) when the command line is refused. */
int cli_parse(cli_spec *spec, int argc, char **argv, cli_common *common);
/* The option spelled name in spec's table (NULL: none), and whether it was given. */
cli_opt *cli_find(const cli_spec *spec, const char *name);
int cli_seen(const cli_spec *spec, const char *name);
/* "hpcdb CMD: WHY (see 'hpcdb CMD --help')" on stderr; returns EXIT_FAILED. */
int cli_refuse(const cli_spec *spec, const char *why);

#endif
