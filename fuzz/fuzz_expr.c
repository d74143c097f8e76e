/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: derived-metric formulas (hpcdb_expr_parse, _eval). The input
 * is the formula text over an experiment of four metrics (names with spaces,
 * parentheses and a prefix of another); a formula that parses is evaluated
 * on input values from extreme to ordinary, and must read only the metrics
 * that exist and give a finite number. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"

static hpcdb_experiment *metrics_experiment(void) {
  static hpcdb_experiment *exp;
  if (exp) return exp;
  const char *names[] = {"CPUTIME (sec)", "PAPI_TOT_CYC", "PAPI_TOT_CYC:Sum", "time"};
  if (hpcdb_experiment_new(&exp) != 0) abort();
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    if (hpcdb_add_metric(exp, names[k], NULL) != 0) abort();
  return exp;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const hpcdb_experiment *exp = metrics_experiment();
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0'; /* the formula ends at the first NUL, as a C string does */
  hpcdb_expr *e = NULL;
  if (hpcdb_expr_parse(&e, text, exp) == 0) {
    const uint32_t *metrics;
    uint32_t n = hpcdb_expr_inputs(e, &metrics);
    double *in = calloc(n ? n : 1, sizeof *in);
    if (!in) abort();
    for (uint32_t k = 0; k < n; k++)
      if (metrics[k] >= exp->n_metrics) abort(); /* a metric that does not exist */
    const double samples[] = {0, 1, -1, 0.5, 1e308, -1e308, 5e-324, NAN, INFINITY};
    for (size_t s = 0; s < sizeof samples / sizeof *samples; s++) {
      for (uint32_t k = 0; k < n; k++) in[k] = samples[(s + k) % (sizeof samples / sizeof *samples)];
      if (!isfinite(hpcdb_expr_eval(e, in))) abort();
    }
    free(in);
  }
  hpcdb_expr_free(e);
  free(text);
  return 0;
}
