/* SPDX-License-Identifier: BSD-3-Clause */
/* A binary's structure made in a child process. The DWARF reader (libdw,
 * elfutils) does not always fail a call when an allocation fails: it may
 * dereference the NULL (SIGSEGV), assert (SIGABRT) or end the process itself
 * ("libdw: Cannot allocate memory", exit 1). In a child, such an end is the
 * child's: the command reports it and goes on or fails cleanly. */
#ifndef HPCDB_CLI_STRUCT_CHILD_H
#define HPCDB_CLI_STRUCT_CHILD_H

#include <stddef.h>

#include "hpcdb/binstruct.h"

/* hpcdb_binstruct_write (out "-": standard output) or _write_file, run in a
 * child: 0, or a negative status with the message in why. A child that ends
 * by itself leaves no output (its temporary removed) and gives HPCDB_ENOMEM
 * with a message saying how it ended; a child killed by SIGKILL (from
 * outside, or the out-of-memory killer), SIGTERM, SIGINT, SIGHUP or SIGPIPE
 * (its reader gone) ends this process the same way. */
int struct_in_child(const char *bin, const char *out, const char *cache, const hpcdb_binstruct_options *opt,
                    int *from_cache, char *why, size_t why_len);

#endif
