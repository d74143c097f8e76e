/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb struct's guard-alien test (check_guard.py): lines of another file
 * inside a function with no inlined call to explain them. sum_squares'
 * loop is #included into its body (guard_body.inc); tail_generated's body
 * goes on under #line in a file of another name, as a generated parser's
 * does. hpcstruct writes such statements inside <A n="<inline>" f=FILE>,
 * which is no scope. The markers name what the checker looks for. */
#include <stdio.h>
#include <stdlib.h>

static double sum_squares(const double *a, int n) {
  double s = 0;
#include "guard_body.inc"
  return s;
}

static double tail_generated(const double *a, int n, int round);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, rounds = argc > 2 ? atoi(argv[2]) : 100;
  double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
  if (!a) return 1;
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  double t = 0;
  for (int r = 0; r < rounds; r++) {
    t += sum_squares(a, n);
    t += tail_generated(a, n, r);
  }
  printf("%g\n", t);
  free(a);
  return 0;
}

/* last in the file: what follows #line is all "generated.y" */
static double tail_generated(const double *a, int n, int round) {
  double s = round;
#line 700 "generated.y"
  for (int i = 0; i < n; i += 3)
    s -= a[i] * 0.25;
  return s;
}
