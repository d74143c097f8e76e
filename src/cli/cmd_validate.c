/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb validate: every rule of the format's specification. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb validate - check a file or database against its format's specification\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb validate [--quiet] [--errors-only] PATH\n"
    "\n"
    "DESCRIPTION\n"
    "    Checks every rule of the specification of PATH's format: for HPCToolkit v4.0\n"
    "    databases the headers, format ids, versions and footers, section bounds and\n"
    "    overlap, alignment, strides, that strings and arrays lie in their sections and\n"
    "    pointers point at the right structures, the context tree (ids unique and > 0, no\n"
    "    cycles), sorted value indices and start indices, summary profile first, metric\n"
    "    ids of the right kind, references between the files, cct.db being the transpose\n"
    "    of profile.db, and trace order and range. A single .db file is checked alone.\n"
    "\n"
    "    Each problem is one line on stdout: FILE: offset 0x...: RULE: DETAIL. Notes\n"
    "    (unknown enumeration values, known quirks of hpcprof's output) start with 'note: '\n"
    "    and do not make the file invalid. A summary line goes to stderr. The rules are\n"
    "    listed in docs/validate-rules.md.\n"
    "\n"
    "OPTIONS\n"
    "    --errors-only  do not print notes\n"
    "    --quiet        print nothing; the exit status tells\n"
    "\n"
    "EXIT STATUS\n"
    "    0 valid, 1 violations found, 2 unreadable\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb validate hpctoolkit-app-database\n"
    "    hpcdb validate --errors-only hpctoolkit-app-database/profile.db\n";

typedef struct printer {
  int quiet, errors_only;
} printer;

static void print_diagnostic(void *user, const hpcdb_diagnostic *d) {
  const printer *p = user;
  if (p->quiet || (p->errors_only && d->severity == HPCDB_SEV_NOTE)) return;
  printf("%s%s: offset 0x%llx: %s: %s\n", d->severity == HPCDB_SEV_NOTE ? "note: " : "", d->file,
         (unsigned long long)d->offset, d->rule, d->detail);
}

int cmd_validate(int argc, char **argv) {
  cli_common c = {0};
  printer p = {0, 0};
  cli_opt opts[] = {{.names = "--errors-only", .kind = CLI_FLAG, .out = &p.errors_only}, {.names = NULL}};
  cli_spec spec = {.cmd = "validate", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  const char *path = spec.pos[0];
  p.quiet = c.quiet;
  hpcdb_validation result;
  if (hpcdb_validate(&result, path, print_diagnostic, &p) < 0) return cli_fail_last("validate");
  fflush(stdout);
  if (!c.quiet)
    fprintf(stderr, "%s: %llu errors, %llu notes\n", path, (unsigned long long)result.errors,
            (unsigned long long)result.notes);
  return result.errors ? EXIT_INVALID : EXIT_OK;
}
