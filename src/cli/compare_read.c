#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli_util.h"
#include "compare_cli.h"

/* The runs are read at once, one per core (each read is one thread's work).
 * A v4.0 database directory is read without its values but the summary's;
 * the comparison reads its profiles one at a time (memory: the tree and one
 * profile, whatever the number of profiles). */
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
  int rc = hpcdb_hpctk4_read_lazy(exp, db, path);
  for (uint32_t p = 0; rc == 0 && p < (*exp)->n_profiles; p++)
    if ((*exp)->profiles[p].flags & HPCDB_PROFILE_SUMMARY) {
      hpcdb_profile_clear_values(&(*exp)->profiles[p]); /* the lazy read's empty arrays */
      rc = hpcdb_db_profile_values(*db, p, &(*exp)->profiles[p]);
    }
  if (rc < 0) {
    hpcdb_experiment_free(*exp);
    hpcdb_db_close(*db);
    *exp = NULL, *db = NULL;
  }
  return rc;
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
