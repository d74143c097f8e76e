/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb: the command-line tool. Dispatches to the subcommands. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bus_guard.h"
#include "commands.h"
#include "hpcdb/hpcdb.h"
#include "process.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: hpcdb <command> [options] PATH...\n"
          "\n"
          "Read, check, convert and present HPC performance data: HPCToolkit databases\n"
          "(v4.0 and older), hpcrun measurements and Cube files.\n"
          "\n"
          "commands:\n");
  for (const cli_command *c = cli_commands; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
  fprintf(out,
          "\n'hpcdb <command> --help' describes a command. 'hpcdb --version' prints the version.\n"
          "Every command takes --quiet and --verbose; a malformed or conflicting option is refused\n"
          "(exit 2); an existing output is replaced only with --force, and no folder is created.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("hpcdb %s\n", hpcdb_version());
    return 0;
  }
  /* Past a file-size limit (ulimit -f) a write fails (EFBIG) and is reported. Not for record: an
   * ignored signal stays ignored across exec, and the recorded program must get its own SIGXFSZ. */
  if (strcmp(argv[1], "record") != 0) signal(SIGXFSZ, SIG_IGN);
  if (strcmp(argv[1], "analyze") == 0) process_restart_with_huge_pages(argv); /* its heap in huge pages */
  for (const cli_command *c = cli_commands; c->name; c++)
    if (strcmp(argv[1], c->name) == 0) {
      bus_guard_install(c->name); /* an input cut short while read: an error, not a crash */
      return c->run(argc - 1, argv + 1);
    }
  fprintf(stderr, "hpcdb: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
