#include "commands.h"

#include <stddef.h>

const cli_command cli_commands[] = {
    {NULL, NULL, NULL},
};
