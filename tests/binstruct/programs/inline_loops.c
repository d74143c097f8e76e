/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb struct's optimized-code test (check_optimized.py): main's loop calls
 * two static functions that optimizing compilers inline, each with a loop of
 * its own. The structure must keep main's loop in main with both inlined
 * calls inside it, and each callee's loop inside its own inlined copy. The
 * markers name the lines the checker looks for. The callees depend on the
 * round so that no compiler hoists them out of main's loop. */
#include <stdio.h>
#include <stdlib.h>

static double compute_heavy(const double *a, int n, int round) {
  double s = 0;
  for (int i = 0; i < n; i++) /* LOOP heavy */
    s += a[i] * a[i] + round;
  return s;
}

static double compute_medium(const double *a, int n, int round) {
  double s = 0;
  for (int i = 0; i < n; i += 2) /* LOOP medium */
    s += a[i] - round;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, rounds = argc > 2 ? atoi(argv[2]) : 100;
  double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
  if (!a) return 1;
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  double t = 0;
  for (int r = 0; r < rounds; r++) { /* LOOP main */
    t += compute_heavy(a, n, r);
    t += compute_medium(a, n, r);
  }
  printf("%g\n", t);
  free(a);
  return 0;
}
