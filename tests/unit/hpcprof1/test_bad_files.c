/* Every case of tests/bad/hpcprof1/cases.txt: a copy of the real 2022
 * sample with one HPCPROF-* file damaged must be rejected by
 * hpcprof1_validate with the named rule, and by the readers unless the case
 * says only the validator looks there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bad_cases.h"
#include "hpcdb/hpcdb.h"
#include "hpcprof1/hpcprof1.h"
#include "testlib.h"

typedef struct found {
  const char *rule;
  int hit;
} found;

static void collect(void *user, const hpcdb_diagnostic *d) {
  found *f = user;
  if (d->severity == HPCDB_SEV_ERROR && !strcmp(d->rule, f->rule)) f->hit = 1;
}

static int read_dir(const char *dir) {
  char path[4200];
  hpcdb_experiment *exp;
  uint32_t first;
  if (hpcdb_experiment_new(&exp) != 0) return -1;
  snprintf(path, sizeof path, "%s/profile.db", dir);
  int rc = hpcprof1_read_profiles(exp, path, NULL, &first);
  snprintf(path, sizeof path, "%s/trace.db", dir);
  if (rc == 0) rc = hpcprof1_read_traces(exp, path, first);
  hpcdb_experiment_free(exp);
  return rc;
}

static int check(const char *name, const char *dir, const char *rule, const char *read) {
  hpcdb_validation result = {0, 0};
  found hit = {rule, 0};
  int ok = 1;
  if (hpcprof1_validate(&result, dir, NULL, 0, collect, &hit) < 0 || !hit.hit) {
    fprintf(stderr, "%s: the validator did not report %s (%llu errors)\n", name, rule, (unsigned long long)result.errors);
    ok = 0;
  }
  int rc = read_dir(dir);
  if (!strcmp(read, "fail") && (rc >= 0 || !strstr(hpcdb_last_error(), dir))) {
    fprintf(stderr, "%s: the reader accepted it (or did not name the file)\n", name);
    ok = 0;
  } else if (!strcmp(read, "ok") && rc < 0) {
    fprintf(stderr, "%s: the reader refused it: %s\n", name, hpcdb_last_error());
    ok = 0;
  }
  return ok;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  const char *src = getenv("HPCDB_SOURCE_DIR");
  char manifest[4096];
  snprintf(manifest, sizeof manifest, "%s/tests/bad/hpcprof1/cases.txt", src ? src : ".");
  int cases = bad_cases_run(manifest, testlib_sample("hpctoolkit-2022/ping-pong-mpi"), check);
  printf("%d cases\n", cases);
  CHECK(cases >= 15);
  return TEST_END();
}
