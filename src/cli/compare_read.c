/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli_util.h"
#include "compare_cli.h"

/* The runs are read at once, one per core (each read is one thread's work).
 * A v4.0 database directory is read without its values: the comparison reads
 * its summary when it comes to the run, and the per-profile figures of the
 * rows shown from cct.db (memory: the trees and one summary at a time). */
typedef struct reader {
  const char *const *paths;
  uint32_t n;
  hpcdb_experiment **runs;
  hpcdb_db **dbs;
  char (*errors)[1024];
  atomic_uint next;
} reader;

static int read_one(hpcdb_experiment **exp, hpcdb_db **db, const char *path) {
  hpcdb_format f = HPCDB_FORMAT_UNKNOWN;
  if (hpcdb_detect(&f, path) < 0 || f != HPCDB_FORMAT_HPCTK4_DIR) return hpcdb_read(exp, path);
  return hpcdb_hpctk4_read_lazy(exp, db, path);
}

static void *read_some(void *user) {
  reader *rd = user;
  for (uint32_t r; (r = atomic_fetch_add(&rd->next, 1)) < rd->n;)
    if (read_one(&rd->runs[r], &rd->dbs[r], rd->paths[r]) < 0)
      snprintf(rd->errors[r], sizeof rd->errors[r], "%s", hpcdb_last_error());
  return NULL;
}

int compare_read_runs(const char *const *paths, uint32_t n, hpcdb_experiment **runs, hpcdb_db **dbs) {
  char (*errors)[1024] = calloc(n, sizeof *errors);
  if (!errors) return -1;
  reader rd = {paths, n, runs, dbs, errors, 0};
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t n_threads = cores > 1 ? (uint32_t)cores : 1;
  if (n_threads > n) n_threads = n;
  pthread_t threads[64];
  uint32_t started = 0;
  for (uint32_t t = 1; t < n_threads && t < 64; t++)
    if (pthread_create(&threads[started], NULL, read_some, &rd) == 0) started++;
  read_some(&rd);
  for (uint32_t t = 0; t < started; t++) pthread_join(threads[t], NULL);
  int rc = 0;
  for (uint32_t r = 0; r < n && rc == 0; r++) {
    if (!runs[r] && dbs[r]) hpcdb_db_close(dbs[r]), dbs[r] = NULL;
    if (!runs[r]) {
      fprintf(stderr, "hpcdb compare: %s\n", errors[r]);
      rc = -1;
    } else {
      cli_warnings(runs[r]);
    }
  }
  free(errors);
  return rc;
}

const char *compare_default_metric(hpcdb_experiment *exp, const hpcdb_db *db) {
  uint32_t metric = 0, summary = HPCDB_NONE;
  const char *why;
  for (uint32_t p = 0; p < exp->n_profiles && summary == HPCDB_NONE; p++)
    if (exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY) summary = p;
  int loaded = db && summary != HPCDB_NONE && exp->profiles[summary].n_values == 0;
  if (loaded) {
    hpcdb_profile_clear_values(&exp->profiles[summary]); /* the lazy read's empty arrays */
    if (hpcdb_db_profile_values(db, summary, &exp->profiles[summary]) < 0) return NULL;
  }
  int rc = hpcdb_default_metric(exp, &metric, &why);
  if (loaded) hpcdb_profile_clear_values(&exp->profiles[summary]); /* read again when compared */
  return rc < 0 ? NULL : exp->metrics[metric].name;
}
