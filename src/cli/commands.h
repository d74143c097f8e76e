/* SPDX-License-Identifier: BSD-3-Clause */
/* The subcommands of `hpcdb`; each lives in its own cmd_<name>.c. */
#ifndef HPCDB_CLI_COMMANDS_H
#define HPCDB_CLI_COMMANDS_H

typedef struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} cli_command;

/* The table, in the order `hpcdb --help` lists them (commands.c). */
extern const cli_command cli_commands[];

#endif
