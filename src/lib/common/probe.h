/* SPDX-License-Identifier: BSD-3-Clause */
/* Small looks at a path that format detection takes: the first bytes of a
 * file, a string among them, a file inside a directory. */
#ifndef HPCDB_COMMON_PROBE_H
#define HPCDB_COMMON_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* The first n bytes of a file (fewer when it is shorter); 0 when unreadable. */
size_t probe_head(const char *path, uint8_t *buf, size_t n);
/* Whether needle stands anywhere in the n bytes of buf. */
int probe_contains(const uint8_t *buf, size_t n, const char *needle);
/* Whether dir/name is a regular file; its path in path[size]. */
int probe_file_in(const char *dir, const char *name, char *path, size_t size);

#endif
