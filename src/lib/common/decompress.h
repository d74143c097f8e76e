/* SPDX-License-Identifier: BSD-3-Clause */
/* Files stored compressed (xz, gzip, bzip2: a kernel symbol table or a
 * binary kept as vmlinux.xz), read whole through libarchive's filters. */
#ifndef HPCDB_COMMON_DECOMPRESS_H
#define HPCDB_COMMON_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* 1 when the bytes start with xz's, gzip's or bzip2's magic. */
int decompress_magic(const uint8_t *p, size_t n);
/* 1 when the file at path starts with one of them (0 when not, or unreadable). */
int decompress_file_is_compressed(const char *path);
/* The whole content of path, decompressed when it is compressed (a plain
 * file as it is), NUL-terminated, at most max bytes; HPCDB_ECORRUPT naming
 * the file for a damaged stream, HPCDB_EUNSUPPORTED past max. */
int decompress_file(const char *path, uint64_t max, char **out, size_t *len);

#endif
