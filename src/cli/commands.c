#include "commands.h"

#include <stddef.h>

/* Each subcommand's entry point, defined in its cmd_<name>.c:
 *   int cmd_<name>(int argc, char **argv);
 * Add the declaration and one table line per subcommand. */
int cmd_analyze(int argc, char **argv);

const cli_command cli_commands[] = {
    {"analyze", "hpcrun measurements to a v4.0 database, as hpcprof does", cmd_analyze},
    {NULL, NULL, NULL},
};
