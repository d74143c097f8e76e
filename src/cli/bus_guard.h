/* SPDX-License-Identifier: BSD-3-Clause */
/* An input cut short while a command reads it: the command's inputs are
 * memory-mapped, and reading a mapped page past a file's new end raises
 * SIGBUS. The guard turns that into an error naming the file and the offset,
 * exit 2, instead of a crash. */
#ifndef HPCDB_CLI_BUS_GUARD_H
#define HPCDB_CLI_BUS_GUARD_H

/* Installs the guard for command cmd (a name kept, not copied). */
void bus_guard_install(const char *cmd);
/* The CLI's own output temporary, removed when the guard fires (NULL: none). */
void bus_guard_temporary(const char *path);

#endif
