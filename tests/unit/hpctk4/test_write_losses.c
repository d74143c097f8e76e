/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpctk4_write_losses: exact models report nothing; each kind of
 * information v4.0 cannot hold is reported once. */
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

static void count_line(void *user, const char *line) {
  (*(int *)user)++;
  CHECK(line && line[0] >= '1' && line[0] <= '9');
}

int main(void) {
  for (uint64_t seed = 1; seed <= 50; seed++) { /* the generator makes exactly representable models */
    hpcdb_experiment *e;
    CHECK_RC(random_experiment(&e, seed));
    if (e) CHECK(hpcdb_hpctk4_write_losses(e, NULL, NULL) == 0);
    hpcdb_experiment_free(e);
  }
  hpcdb_experiment *e;
  uint32_t m, mod, entry;
  int lines = 0;
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK_RC(hpcdb_add_attr(e, "host", "n1"));
  CHECK_RC(hpcdb_add_metric(e, "time", &m));
  e->metrics[m].unit = "s";
  CHECK_RC(hpcdb_add_module(e, "/bin/x", 0, &mod));
  hpcdb_context c = {0};
  c.function = c.file = c.module = HPCDB_NONE;
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  c.module = mod; /* entry points have no location in v4.0 */
  CHECK_RC(hpcdb_add_context(e, &c, 0, &entry));
  c.id = 2;
  c.kind = HPCDB_CTX_NORMAL;
  c.module = HPCDB_NONE;
  c.name = "region"; /* a label */
  c.line = 5;        /* without a file */
  c.offset = 9;      /* without a module */
  CHECK_RC(hpcdb_add_context(e, &c, entry, NULL));
  CHECK(hpcdb_hpctk4_write_losses(e, count_line, &lines) == 6);
  CHECK(lines == 6);
  hpcdb_experiment_free(e);
  return TEST_END();
}
