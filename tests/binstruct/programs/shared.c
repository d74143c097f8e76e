/* SPDX-License-Identifier: BSD-3-Clause */
/* A shared library for hpcdb struct's tests (marks as in kernels.c). */
#include "shared.h"

__attribute__((always_inline)) static inline double clamp(double x) {
  return x < 0 ? 0 : x > 100 ? 100 : x;
}

double shared_sum(const double *v, int n) { /* FUNC shared_sum */
  double s = 0;
  for (int i = 0; i < n; i++) /* LOOP */
    s += clamp(v[i]);         /* INLINE clamp */
  return s;
}
