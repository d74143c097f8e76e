/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb dump: the whole content. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb dump - print the whole content of a file or database\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb dump [--json] [-o FILE [--force]] PATH\n"
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
    "    From a v4.0 database with cct.db, --json reads the thread profiles' values from\n"
    "    cct.db (stored by context, as the text is ordered), one context at a time, and\n"
    "    the summary profiles' values from profile.db; profile.db's thread values are not\n"
    "    read. The text is the one the values of profile.db give when the two files agree,\n"
    "    which 'hpcdb validate' checks (rule transpose); where they disagree it follows\n"
    "    cct.db. A damaged cct.db is an error (exit 2).\n"
    "\n"
    "OPTIONS\n"
    "    --json       canonical JSON\n"
    "    -o FILE      write to FILE instead of standard output (under a temporary name\n"
    "                 renamed to FILE once whole: on an error FILE is left as it was)\n"
    "    --force      replace an existing FILE\n"
    "\n"
    "OUTPUT\n"
    "    An existing FILE is refused unless --force is given; a missing parent folder\n"
    "    is never created (both: exit 2, nothing written).\n"
    "\n"

    "EXIT STATUS\n"
    "    0 printed, 2 unreadable (or FILE not written)\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb dump hpctoolkit-app-database | less\n"
    "    diff <(hpcdb dump --json a.d) <(hpcdb dump --json b.d)\n";

int cmd_dump(int argc, char **argv) {
  cli_common c = {0};
  const char *out = NULL;
  int json = 0, force = 0;
  cli_opt opts[] = {{.names = "--json", .kind = CLI_FLAG, .out = &json},
                    {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "dump", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  if (force && !out) return cli_refuse(&spec, "--force is for -o FILE");
  const char *path = spec.pos[0];
  if (out && cli_output_check("dump", out, force) != 0) return EXIT_FAILED;
  hpcdb_experiment *exp;
  hpcdb_db *db = NULL;
  /* the canonical JSON of a v4.0 database with cct.db streams its thread
   * values from cct.db: the model holds the summary profiles' values only.
   * What hpcdb_db_open does not open (or a cct.db of no contexts) goes
   * through the model, whose reader then says why. */
  hpcdb_format detected;
  if (json && hpcdb_detect(&detected, path) == 0 && detected == HPCDB_FORMAT_HPCTK4_DIR &&
      hpcdb_db_open(&db, path) == 0 && hpcdb_db_context_count(db) == 0) {
    hpcdb_db_close(db);
    db = NULL;
  }
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY};
  if (cli_read_opts(&exp, path, db ? &ro : NULL) < 0) {
    hpcdb_db_close(db);
    return cli_fail_last("dump");
  }
  cli_output o;
  if (cli_output_open(&o, "dump", out ? out : "-") != 0) {
    hpcdb_experiment_free(exp);
    hpcdb_db_close(db);
    return EXIT_FAILED;
  }
  FILE *f = o.f;
  int rc = !json ? hpcdb_dump_text(f, exp) : db ? hpcdb_dump_json_db(f, exp, db) : hpcdb_dump_json(f, exp);
  hpcdb_experiment_free(exp);
  hpcdb_db_close(db);
  if (rc < 0) {
    cli_fail_last("dump");
    return cli_output_finish(&o, "dump", 0);
  }
  return cli_output_finish(&o, "dump", 1);
}
