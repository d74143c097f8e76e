/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view on a measurements directory: analyzed first, as `hpcdb analyze`
 * does, into a v4.0 database in a temporary directory (progress on stderr),
 * then served from it like any v4.0 database; the temporary is removed when
 * the server stops. */
#ifndef HPCDB_VIEW_MEASUREMENTS_H
#define HPCDB_VIEW_MEASUREMENTS_H

/* 1 when path is a measurements directory (hpcdb_detect), else 0. */
int view_is_measurements(const char *path);

/* Analyzes path into TMPDIR/hpcdb-view-XXXXXX/db; *temp gets the temporary
 * directory (the caller removes it with view_remove_temp, then frees it) and
 * *db the database in it (freed by the caller). Ctrl-C or SIGTERM during the
 * analysis stops it. 0, or a negative hpcdb_status with the reason printed on
 * stderr and the thread's error cleared (nothing is left behind). */
int view_analyze_temp(const char *path, char **temp, char **db);

/* Removes a temporary directory and everything in it (what cannot be removed stays). */
void view_remove_temp(const char *temp);

#endif
