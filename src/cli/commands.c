#include "commands.h"

#include <stddef.h>

/* Each subcommand's entry point, defined in its cmd_<name>.c:
 *   int cmd_<name>(int argc, char **argv);
 * Add the declaration and one table line per subcommand. */

const cli_command cli_commands[] = {
    {NULL, NULL, NULL},
};
