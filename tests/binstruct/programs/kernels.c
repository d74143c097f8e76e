/* SPDX-License-Identifier: BSD-3-Clause */
/* A test program for hpcdb struct, built with -O2 -g. The marks say what the
 * structure file must hold, by source line:
 *   FUNC name    a procedure `name` declared on this line
 *   INLINE name  a call of `name` inlined at this line
 *   LOOP         a loop whose header is on this line
 * Volatile data keeps the compiler from folding the loops away. */
#include <stdlib.h>

#include "shared.h"

volatile double sink;

__attribute__((always_inline)) static inline double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) /* LOOP */
    s += a[i] * b[i];
  return s;
}

__attribute__((noinline)) double matmul(const double *a, const double *b, double *c, int n) { /* FUNC matmul */
  for (int i = 0; i < n; i++) {     /* LOOP */
    for (int j = 0; j < n; j++) {   /* LOOP */
      double s = 0;
      for (int k = 0; k < n; k++)   /* LOOP */
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
  }
  return c[0];
}

__attribute__((noinline)) double rows(const double *a, int n) { /* FUNC rows */
  double t = 0;
  for (int i = 0; i < n; i++)       /* LOOP */
    t += dot(a + i * n, a, n);      /* INLINE dot */
  return t;
}

__attribute__((noinline)) long fib(int n) { /* FUNC fib */
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv) { /* FUNC main */
  int n = argc > 1 ? atoi(argv[1]) : 16;
  double *a = calloc((size_t)n * n, sizeof *a), *b = calloc((size_t)n * n, sizeof *b);
  double *c = calloc((size_t)n * n, sizeof *c);
  if (!a || !b || !c) return 1;
  for (int i = 0; i < n * n; i++) /* LOOP */
    a[i] = b[i] = i % 7;
  sink = matmul(a, b, c, n) + rows(a, n) + (double)fib(n) + shared_sum(a, n * n);
  free(a);
  free(b);
  free(c);
  return 0;
}
