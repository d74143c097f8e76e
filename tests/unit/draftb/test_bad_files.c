/* SPDX-License-Identifier: BSD-3-Clause */
/* Every case of tests/bad/draftb/cases.txt: a small draft-b database
 * (written at test time by the test writer from the model below) with its
 * meta.db damaged must be rejected by hpcdb_validate with the named rule,
 * and by hpcdb_read unless the case says only the validator looks there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bad_cases.h"
#include "draftb_write.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define TRY(expr)              \
  do {                         \
    if ((expr) < 0) return -1; \
  } while (0)

/* entry 1 > call main (id 2) > line a.c:5 at /bin/a+0x20 (id 3); metric "time" in scopes point (id 1),
 * function (2), execution (3) with a sum statistic (10) of execution; a summary and a RANK 0 profile. */
static int small_model(hpcdb_experiment *e) {
  uint32_t m, scope[3], index;
  static const char *const scopes[3] = {"point", "function", "execution"};
  TRY(hpcdb_set_title(e, "bad", "small"));
  TRY(hpcdb_add_kind_name(e, "SUMMARY", NULL));
  TRY(hpcdb_add_kind_name(e, "RANK", NULL));
  TRY(hpcdb_add_module(e, "/bin/a", 0, NULL));
  TRY(hpcdb_add_file(e, "a.c", 0, NULL));
  hpcdb_function f = {"main", 0, 0x10, 0, 3, 0};
  TRY(hpcdb_add_function(e, &f, NULL));
  for (int i = 0; i < 3; i++) {
    hpcdb_scope s = {scopes[i],
                     i == 0   ? HPCDB_SCOPE_POINT
                     : i == 1 ? HPCDB_SCOPE_TRANSITIVE
                              : HPCDB_SCOPE_EXECUTION,
                     i == 1 ? 0 : 255};
    TRY(hpcdb_add_scope(e, &s, &scope[i]));
  }
  TRY(hpcdb_add_metric(e, "time", &m));
  for (int i = 0; i < 3; i++) TRY(hpcdb_metric_add_instance(e, m, scope[i], (uint16_t)(i + 1)));
  hpcdb_summary su = {scope[2], "$$", HPCDB_COMBINE_SUM, 10};
  TRY(hpcdb_metric_add_summary(e, m, &su));
  hpcdb_context c = {0};
  c.function = c.file = c.module = HPCDB_NONE;
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  TRY(hpcdb_add_context(e, &c, 0, &index));
  c.id = 2;
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = HPCDB_REL_CALL;
  c.function = 0;
  TRY(hpcdb_add_context(e, &c, index, &index));
  c.id = 3;
  c.relation = HPCDB_REL_LEXICAL;
  c.lexical_type = HPCDB_LEX_LINE;
  c.function = HPCDB_NONE;
  c.file = 0;
  c.line = 5;
  c.module = 0;
  c.offset = 0x20;
  TRY(hpcdb_add_context(e, &c, index, NULL));
  uint32_t p;
  TRY(hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &p));
  uint32_t ctx1[1] = {2};
  uint16_t met1[1] = {10};
  double val[2] = {5.0, 5.0};
  TRY(hpcdb_profile_set_values(e, p, 1, ctx1, met1, val));
  hpcdb_id rank = {1, 0, 0, 0};
  TRY(hpcdb_add_profile(e, 0, 1, &rank, 1, &p));
  uint32_t ctx2[2] = {2, 3};
  uint16_t met2[2] = {3, 1};
  TRY(hpcdb_profile_set_values(e, p, 2, ctx2, met2, val));
  uint64_t ts[2] = {100, 200};
  TRY(hpcdb_add_trace(e, p, 2, ts, ctx2, NULL));
  e->trace_min = 100;
  e->trace_max = 200;
  return 0;
}

static int read_db(const char *dir) {
  hpcdb_experiment *exp = NULL;
  int rc = hpcdb_read(&exp, dir);
  hpcdb_experiment_free(exp);
  return rc;
}

int main(void) {
  hpcdb_experiment *e;
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK(small_model(e) == 0);
  const char *base = testlib_tmpdir("draftb-bad-base");
  CHECK(draftb_write(e, base, 0) == 0);
  hpcdb_experiment_free(e);
  hpcdb_validation r;
  CHECK(hpcdb_validate(&r, base, NULL, NULL) == 0 && r.errors == 0); /* the base is valid */
  const char *src = getenv("HPCDB_SOURCE_DIR");
  char manifest[4096];
  snprintf(manifest, sizeof manifest, "%s/tests/bad/draftb/cases.txt", src ? src : ".");
  const bad_target draftb = {hpcdb_validate, read_db};
  int cases = bad_cases_run(manifest, base, &draftb);
  printf("%d cases\n", cases);
  CHECK(cases >= 15);
  return TEST_END();
}
