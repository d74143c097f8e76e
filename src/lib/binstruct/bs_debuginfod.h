/* SPDX-License-Identifier: BSD-3-Clause */
/* Split debug files from debuginfod servers (internal). */
#ifndef HPCDB_BINSTRUCT_DEBUGINFOD_H
#define HPCDB_BINSTRUCT_DEBUGINFOD_H

#include <stddef.h>

/* When DEBUGINFOD_URLS names servers: the debug file of the binary with this
 * build id (hex) fetched through libdebuginfod (into its cache, where path
 * points), 1; else 0 (no servers, no library, not found, a server error). */
int bs_debuginfod_find(const char *build_id, char *path, size_t size);

#endif
