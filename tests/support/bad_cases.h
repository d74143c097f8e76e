/* Test support: broken-file manifests for the draft readers. A manifest line
 * is `name | file | mutation | rule | read` (see tests/bad/hpcprof1/cases.txt);
 * each case copies a valid database directory, applies the mutation to one
 * file, and hands the copy to the caller's check. */
#ifndef HPCDB_TEST_BAD_CASES_H
#define HPCDB_TEST_BAD_CASES_H

/* Validates and reads dir; rule must be reported as an error by the
 * validator; read is "fail" (the reader must refuse), "ok" (a rule only the
 * validator checks) or "any". Returns 1 when the case holds. */
typedef int (*bad_case_fn)(const char *name, const char *dir, const char *rule, const char *read);

/* Runs every case of manifest against copies of valid_dir; returns the number of cases run, -1 on a
 * manifest or copy failure (each failing case is reported through CHECK). */
int bad_cases_run(const char *manifest, const char *valid_dir, bad_case_fn check);

#endif
