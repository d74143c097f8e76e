/* SPDX-License-Identifier: BSD-3-Clause */
/* Copying a directory tree byte for byte (regular files through atomic_file,
 * directories, symbolic links as links; other kinds are skipped), keeping a
 * log of what it created so that a caller can undo it. */
#ifndef HPCDB_COMMON_COPY_TREE_H
#define HPCDB_COMMON_COPY_TREE_H

#include <stdint.h>

typedef struct copy_log {
  char **paths; /* in creation order */
  uint64_t n, cap;
} copy_log;

/* Copies src (a file or directory) to dst; existing files are replaced,
 * existing directories merged into. */
int copy_tree(const char *src, const char *dst, copy_log *log);
/* Records a path the caller created. */
int copy_log_add(copy_log *log, const char *path);
/* Removes every logged path, newest first (directories only when empty). */
void copy_log_undo(copy_log *log);
void copy_log_free(copy_log *log);

#endif
