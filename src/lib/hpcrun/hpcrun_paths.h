/* SPDX-License-Identifier: BSD-3-Clause */
/* Finding measurement files: the .hpcrun files of a directory, and the
 * .hpctrace / .hpcrun that share a basename. */
#ifndef HPCDB_HPCRUN_PATHS_H
#define HPCDB_HPCRUN_PATHS_H

#include <stddef.h>

typedef struct hpcrun_path_list {
  char **paths; /* sorted by name */
  size_t n;
} hpcrun_path_list;

/* The regular files directly inside dir whose names end in suffix, sorted. */
int hpcrun_list_files(hpcrun_path_list *out, const char *dir, const char *suffix);
/* The .hpcrun files directly inside dir, sorted. */
int hpcrun_list_profiles(hpcrun_path_list *out, const char *dir);
void hpcrun_path_list_free(hpcrun_path_list *l);

/* path with its suffix `from` replaced by `to` (malloc'ed), or NULL when path
 * does not end in `from`. */
char *hpcrun_swap_suffix(const char *path, const char *from, const char *to);
int hpcrun_is_dir(const char *path);
int hpcrun_is_file(const char *path);

#endif
