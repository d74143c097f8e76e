/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb formats: the formats hpcdb knows and what it can do with each. */
#include <stdio.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb formats - list the formats hpcdb reads and writes, and what it can do\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb formats\n"
    "\n"
    "DESCRIPTION\n"
    "    One paragraph per format, from the library's list of formats: its name, what\n"
    "    hpcdb does with it (reads it, or reads only what a command needs of it; writes\n"
    "    it, with the name 'hpcdb convert --to' takes, and says what the format cannot\n"
    "    carry; checks every rule of its specification; holds traces), then the kinds\n"
    "    of file or directory it answers for, as 'hpcdb info' names them. A path's\n"
    "    format is found from its bytes: every format bids how sure it is the path is\n"
    "    its own, and the highest bid wins.\n"
    "\n"
    "EXIT STATUS\n"
    "    0\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb formats\n";

static void can(int *first, const char *what) {
  printf("%s%s", *first ? "" : ", ", what);
  *first = 0;
}

int cmd_formats(int argc, char **argv) {
  cli_common c = {0};
  cli_opt opts[] = {{.names = NULL}};
  cli_spec spec = {.cmd = "formats", .help = help, .opts = opts};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  hpcdb_format_info f;
  for (uint32_t i = 0; hpcdb_format_get(i, &f) == 0; i++) {
    int first = 1;
    printf("%s%s: ", i ? "\n" : "", f.name);
    if (f.caps & HPCDB_FORMAT_CAN_READ)
      can(&first, f.caps & HPCDB_FORMAT_CAN_READ_PART ? "reads (in part when asked)" : "reads");
    if (f.caps & HPCDB_FORMAT_CAN_WRITE) {
      printf("%swrites (--to %s%s; says what it drops)", first ? "" : ", ", f.writer,
             f.caps & HPCDB_FORMAT_COMPRESSES ? ", --compress" : "");
      first = 0;
    }
    if (f.caps & HPCDB_FORMAT_CAN_VALIDATE) can(&first, "validates");
    if (f.caps & HPCDB_FORMAT_CARRIES_TRACES) can(&first, "holds traces");
    printf("\n");
    for (uint32_t k = 0; k < f.n_kinds; k++) printf("    %s\n", hpcdb_format_kind_name(i, k));
  }
  return EXIT_OK;
}
