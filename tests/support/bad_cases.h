/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: broken-file manifests. A manifest line is
 * `name | file | mutation | rule | read` (see tests/bad/hpctk4/cases.txt);
 * each case copies a valid database directory, applies the mutation to one
 * file, and checks the copy: the validator must report `rule` as an error, and
 * the reader must refuse it ("fail", with a message naming the directory),
 * accept it ("ok": a rule only the validator checks) or either ("any"). */
#ifndef HPCDB_TEST_BAD_CASES_H
#define HPCDB_TEST_BAD_CASES_H

#include "hpcdb/hpcdb.h"

/* What a manifest's cases are checked with. */
typedef struct bad_target {
  int (*validate)(hpcdb_validation *result, const char *dir, hpcdb_diagnostic_fn fn, void *user);
  int (*read)(const char *dir); /* negative when the reader refuses dir */
} bad_target;

/* Runs every case of manifest against copies of valid_dir; returns the number of cases run, -1 on a
 * manifest failure (each failing case is reported through CHECK). Mutations: `truncate N`,
 * `u8|le16|le32|le64|be16|be32|be64 OFFSET VALUE`, `bytes OFFSET HEX`. */
int bad_cases_run(const char *manifest, const char *valid_dir, const bad_target *target);

#endif
