/* hpcdb dump: the whole content. */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb dump - print the whole content of a file or database\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb dump [--json] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    Prints everything PATH holds: summary, attributes, identifier kinds, load\n"
    "    modules, source files, functions, the calling-context tree with raw ids, every\n"
    "    profile's values by context and metric id, and traces.\n"
    "\n"
    "    With --json the output is canonical JSON instead: no raw ids (strings and\n"
    "    references resolved), the context tree nested with children sorted by what they\n"
    "    are, each context carrying its values per profile identity and metric name and\n"
    "    scope, profiles sorted by identity. Two equal experiments give the same text, so\n"
    "    dumps can be compared with diff(1).\n"
    "\n"
    "OPTIONS\n"
    "    --json       canonical JSON\n"
    "\n"
    "EXIT STATUS\n"
    "    0 printed, 2 unreadable\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb dump hpctoolkit-app-database | less\n"
    "    diff <(hpcdb dump --json a.d) <(hpcdb dump --json b.d)\n";

int cmd_dump(int argc, char **argv) {
  cli_common c = {0};
  const char *path = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    int done = 0, status;
    if (cli_common_option(argv[i], help, &c, &done, &status)) {
      if (done) return status;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (argv[i][0] == '-' || path) {
      return cli_usage("dump", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return cli_fail("dump", "no PATH given (see 'hpcdb dump --help')");
  hpcdb_experiment *exp;
  if (cli_read(&exp, path) < 0) return cli_fail_last("dump");
  int rc = json ? hpcdb_dump_json(stdout, exp) : hpcdb_dump_text(stdout, exp);
  hpcdb_experiment_free(exp);
  return rc < 0 ? cli_fail_last("dump") : EXIT_OK;
}
