/* SPDX-License-Identifier: BSD-3-Clause */
#include "commands.h"

#include <stddef.h>

/* Each subcommand's entry point, defined in its cmd_<name>.c:
 *   int cmd_<name>(int argc, char **argv);
 * Add the declaration and one table line per subcommand. */
int cmd_info(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_struct(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_formats(int argc, char **argv);

const cli_command cli_commands[] = {
    {"info", "format, version and a summary of a file or database", cmd_info},
    {"validate", "check every rule of the format's specification", cmd_validate},
    {"dump", "the whole content, as text or canonical JSON", cmd_dump},
    {"convert", "write a file or database as a v4.0 database or a Cube file", cmd_convert},
    {"diff", "compare two experiments by calling path, identity and value", cmd_diff},
    {"analyze", "hpcrun measurements to a v4.0 database, as hpcprof does", cmd_analyze},
    {"report", "tables of the hot spots: top-down, bottom-up, flat, per profile", cmd_report},
    {"export", "folded, CSV, speedscope, Chrome trace, flame graph or HTML for other tools", cmd_export},
    {"record", "run a program and sample it into hpcrun measurement files", cmd_record},
    {"struct", "program structure of binaries (.hpcstruct), as hpcstruct writes it", cmd_struct},
    {"view", "explore an experiment in the browser (top-down, bottom-up, flat, spread, source)", cmd_view},
    {"compare", "runs aligned by calling path: deltas, a CI gate, scaling studies", cmd_compare},
    {"formats", "the formats hpcdb reads and writes, and what it can do with each", cmd_formats},
    {NULL, NULL, NULL},
};
