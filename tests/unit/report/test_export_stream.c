/* SPDX-License-Identifier: BSD-3-Clause */
/* Exports streamed from a v4.0 database, one profile at a time, give the
 * bytes the model's exports give: on every v4.0 database of the sample data
 * and on random generated ones (summary profiles, values at ids outside the
 * tree, profiles without values). */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "v4_databases.h"
#include "testlib.h"

static int csv_model(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)arg;
  return hpcdb_export_csv(out, exp);
}

typedef struct streamed {
  hpcdb_source *src; /* the printing callback's argument is const: the source is held in it */
} streamed;

static int csv_streamed(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)exp;
  return hpcdb_export_csv_source(out, ((const streamed *)arg)->src);
}

/* 1 when the database was compared (the source mapped it). */
static int compare(const char *dir) {
  hpcdb_experiment *model = NULL;
  hpcdb_source *src = NULL;
  if (hpcdb_source_open(&src, dir, NULL) < 0) return 0;
  CHECK(hpcdb_source_is_lazy(src));
  CHECK_RC(hpcdb_hpctk4_read(&model, dir));
  if (model) {
    int rc_a, rc_b;
    char *a = testlib_printed(csv_model, model, NULL, &rc_a);
    streamed arg = {src};
    char *b = testlib_printed(csv_streamed, hpcdb_source_experiment(src), &arg, &rc_b);
    int same = a && b && rc_a == rc_b && !strcmp(a, b);
    CHECK(same);
    if (!same) fprintf(stderr, "%s: CSV differs (rc %d, %d)\n", dir, rc_a, rc_b);
    free(a);
    free(b);
  }
  hpcdb_experiment_free(model);
  hpcdb_source_close(src);
  return 1;
}

int main(void) {
  if (testlib_have_samples()) {
    int compared = v4_each_sample(compare);
    printf("%d v4.0 sample databases compared\n", compared);
    CHECK(compared >= 5);
  }
  const char *dir = testlib_tmpdir("export_stream_random");
  int generated = v4_each_random(dir, 200, compare);
  CHECK(generated == 200);

  /* a metric name with a comma and quotes is one quoted field, quotes doubled, in both paths */
  hpcdb_experiment *e = NULL;
  CHECK_RC(random_experiment(&e, 7));
  if (e) {
    e->metrics[0].name = hpcdb_intern(e, "cycles, \"L1\" miss");
    CHECK_RC(hpcdb_hpctk4_write(e, dir, HPCDB_WRITE_FORCE));
    CHECK(compare(dir));
    int rc;
    char *text = testlib_printed(csv_model, e, NULL, &rc);
    CHECK(rc == 0 && text && strstr(text, ",\"cycles, \"\"L1\"\" miss\","));
    free(text);
  }
  hpcdb_experiment_free(e);
  return TEST_END();
}
