/* Measurements directories for hpcdb view: see measurements.h. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "measurements.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hpcdb/analysis.h"
#include "hpcdb/hpcdb.h"

int view_is_measurements(const char *path) {
  hpcdb_format f;
  return hpcdb_detect(&f, path) == 0 && f == HPCDB_FORMAT_HPCRUN_DIR;
}

static void warn(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "hpcdb view: warning: %s\n", message);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

void view_remove_temp(const char *temp) { nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int view_analyze_temp(const char *path, char **temp, char **db) {
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
  size_t n = strlen(tmpdir) + sizeof "/hpcdb-view-XXXXXX/db";
  *temp = malloc(n);
  *db = malloc(n);
  if (!*temp || !*db) {
    free(*temp), free(*db);
    fprintf(stderr, "hpcdb view: out of memory\n");
    return HPCDB_ENOMEM;
  }
  snprintf(*temp, n, "%s/hpcdb-view-XXXXXX", tmpdir);
  if (!mkdtemp(*temp)) {
    fprintf(stderr, "hpcdb view: %s: cannot make a temporary directory for the analysis\n", *temp);
    free(*temp), free(*db);
    return HPCDB_EIO;
  }
  snprintf(*db, n, "%s/db", *temp);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  hpcdb_analyze_options opt = {.threads = cores > 1 ? (unsigned)(cores < 8 ? cores : 8) : 1, .output = *db};
  hpcdb_analyze_result res = {0};
  hpcdb_experiment *exp = NULL;
  fprintf(stderr, "hpcdb view: analyzing the measurements %s into %s ...\n", path, *db);
  double t0 = now();
  int rc = hpcdb_analyze(&exp, path, &opt, warn, NULL, &res);
  hpcdb_experiment_free(exp);
  if (rc < 0) {
    view_remove_temp(*temp);
    free(*temp), free(*db);
    return rc;
  }
  fprintf(stderr, "hpcdb view: analyzed %u profiles (%u skipped), %u traces, %u contexts in %.1f s\n",
          res.profiles_read, res.profiles_skipped, res.traces_read, res.contexts, now() - t0);
  return 0;
}
