#include "commands.h"

#include <stddef.h>

/* Each subcommand's entry point, defined in its cmd_<name>.c. */
#define CLI_COMMAND(name) int cmd_##name(int argc, char **argv);
CLI_COMMAND(info)
#undef CLI_COMMAND

/* One line per subcommand, in the order `hpcdb --help` lists them. */
const cli_command cli_commands[] = {
    {"info", "format, version and a summary of what a file or database holds", cmd_info},
    {NULL, NULL, NULL},
};
