/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb struct's conventions test (check_hpcstruct_rules.py): the kinds of
 * code of HPCToolkit's hpcstruct test binaries. fib is recursive: gcc -O2
 * inlines it into itself; scale is always inlined, in a loop and twice on
 * one line; sum_loop's declaration line is not its first statement's; main
 * calls both. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) double scale(double x, int k) {
  double y = x * k;
  return y + 1.0;
}

unsigned long fib(unsigned n)
{
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

static double
sum_loop(const double *a, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += scale(a[i], i) + scale(a[i], -i);
  return s;
}

int
main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 30;
  double *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
  if (!a) return 1;
  for (int i = 0; i < n; i++) a[i] = i;
  printf("%lu %f\n", fib((unsigned)n % 32), sum_loop(a, n));
  free(a);
  return 0;
}
