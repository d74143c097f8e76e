/* SPDX-License-Identifier: BSD-3-Clause */
/* The derived-metric formula engine: what it accepts, what it computes,
 * and that every malformed formula is refused with the offset. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "hpcdb/query.h"
#include "testlib.h"

static double eval(const hpcdb_experiment *e, const char *text, const double *by_metric) {
  hpcdb_expr *x;
  if (hpcdb_expr_parse(&x, text, e) < 0) {
    fprintf(stderr, "%s: %s\n", text, hpcdb_last_error());
    return NAN;
  }
  const uint32_t *m;
  uint32_t n = hpcdb_expr_inputs(x, &m);
  double in[16];
  for (uint32_t k = 0; k < n; k++) in[k] = by_metric[m[k]];
  double v = hpcdb_expr_eval(x, in);
  hpcdb_expr_free(x);
  return v;
}

static int refused(const hpcdb_experiment *e, const char *text, const char *says) {
  hpcdb_expr *x = NULL;
  int rc = hpcdb_expr_parse(&x, text, e);
  hpcdb_expr_free(x);
  if (rc != HPCDB_EINVAL || !strstr(hpcdb_last_error(), says)) {
    fprintf(stderr, "\"%s\": rc %d, message \"%s\", wanted \"%s\"\n", text, rc, hpcdb_last_error(), says);
    return 0;
  }
  return 1;
}

int main(void) {
  hpcdb_experiment *e = fixture();
  CHECK(e != NULL);
  double v[2] = {4, 50}; /* time, cycles */
  CHECK(eval(e, "$0 / $1 * 100", v) == 8);
  CHECK(eval(e, "cycles - \"time (sec)\" * 2", v) == 42);
  CHECK(eval(e, "1 + 2 * 3", v) == 7);
  CHECK(eval(e, "(1 + 2) * 3", v) == 9);
  CHECK(eval(e, "-$0 + 10", v) == 6);
  CHECK(eval(e, "2 - 3 - 4", v) == -5); /* left to right */
  CHECK(eval(e, "16 / 4 / 2", v) == 2);
  CHECK(eval(e, "max($0, $1) + min(1, 2) + abs(-3) + sqrt(16)", v) == 58);
  CHECK(eval(e, "$0 / 0", v) == 0); /* a rate over nothing */
  CHECK(eval(e, "1.5e1", v) == 15);
  CHECK(eval(e, "  $1  ", v) == 50);
  hpcdb_expr *x;
  CHECK_RC(hpcdb_expr_parse(&x, "$0 * $0 + $0", e));
  const uint32_t *m;
  CHECK(hpcdb_expr_inputs(x, &m) == 1 && m[0] == 0); /* each metric read once */
  hpcdb_expr_free(x);

  CHECK(refused(e, "", "offset 0: expected a number"));
  CHECK(refused(e, "$0 +", "offset 4: expected a number"));
  CHECK(refused(e, "$0 $1", "offset 3: expected an operator"));
  CHECK(refused(e, "($0", "expected ')'"));
  CHECK(refused(e, "$9", "$9: the experiment has metrics $0 to $1"));
  CHECK(refused(e, "$", "expected a metric number"));
  CHECK(refused(e, "nosuch * 2", "no metric named \"nosuch\""));
  CHECK(refused(e, "\"time (sec)", "expected a closing"));
  CHECK(refused(e, "pow(2, 3)", "unknown function \"pow\""));
  CHECK(refused(e, "max(1)", "expected ',' between arguments"));
  CHECK(refused(e, "1 +* 2", "offset 3"));
  CHECK(refused(e, "inf", "no metric named \"inf\""));
  CHECK(refused(e, "0x10", "expected a decimal number"));
  CHECK(refused(e, "2;rm", "expected an operator"));
  char deep[300];
  memset(deep, '(', 100);
  strcpy(deep + 100, "1");
  CHECK(refused(e, deep, "nested deeper than"));
  hpcdb_experiment_free(e);
  return TEST_END();
}
