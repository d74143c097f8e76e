/* SPDX-License-Identifier: BSD-3-Clause */
/* An output that appears whole or not at all, whether a directory (a v4.0
 * database) or a file (a .cubex, a structure file): it is made under a
 * hidden temporary name beside its own, `.NAME.hpcdb-tmp-PID.XXXXXX`, and
 * renamed to NAME at the end. A run killed half way leaves only such a
 * temporary, which the next run writing NAME removes (once PID is dead).
 *
 * Renaming in never replaces what another command put there meanwhile,
 * unless replacing was asked for: of two commands writing one output at
 * once, one succeeds and the other fails with HPCDB_EEXIST. A replaced
 * directory is swapped with the new one in one step (RENAME_EXCHANGE) where
 * the file system can, so that NAME always holds one whole database. */
#ifndef HPCDB_COMMON_ATOMIC_DIR_H
#define HPCDB_COMMON_ATOMIC_DIR_H

#include <stddef.h>

#define ATOMIC_TEMP_MARK ".hpcdb-tmp-"

typedef struct hpcdb_atomic_dir {
  char *target;
  char *temp; /* the directory to write into */
  int replace;
} hpcdb_atomic_dir;

/* Removes dead runs' temporaries of target, then makes the temporary
 * directory. target's parent must exist. replace: commit may replace an
 * existing target (the caller has checked it may). */
int atomic_dir_open(hpcdb_atomic_dir *d, const char *target, int replace);
/* fsyncs the directories in the temporary (files are fsync'ed as they are
 * committed), renames it to target and fsyncs the parent. */
int atomic_dir_commit(hpcdb_atomic_dir *d);
void atomic_dir_abort(hpcdb_atomic_dir *d);
/* Whether dir holds any entry: 1, 0 (empty: a commit may replace it), -1
 * (cannot be read). */
int atomic_dir_holds_anything(const char *dir);

/* The pieces atomic_file shares. */
/* "DIR/.BASE.hpcdb-tmp-PID.XXXXXX" for target DIR/BASE (malloc'ed; NULL when out of memory). */
char *atomic_temp_template(const char *target);
/* Removes DIR/.BASE.hpcdb-tmp-PID.* whose PID is not a live process. */
void atomic_clean_leftovers(const char *target);
/* Renames from to to. Without replace, an existing to is never replaced
 * (RENAME_NOREPLACE, or link + unlink where the file system has no such
 * rename) and the failure is HPCDB_EEXIST. */
int atomic_rename(const char *from, const char *to, int replace);
/* fsyncs the directory that holds path (a hint where it cannot be opened). */
int atomic_sync_parent(const char *path);
void atomic_remove_tree(const char *path);

#endif
