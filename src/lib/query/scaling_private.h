/* SPDX-License-Identifier: BSD-3-Clause */
/* Scaling models (internal): a term's value, and least squares over some of the points. */
#ifndef HPCDB_QUERY_SCALING_PRIVATE_H
#define HPCDB_QUERY_SCALING_PRIVATE_H

#include <stdint.h>

#define SCALING_MAX_POINTS 1024

/* p^(num/den) * log2(p)^log_exp */
double scaling_term(int num, int den, int log_exp, double p);

/* Least squares y ~ x[0] + sum x[j + 1] * cols[j] over the n points, of
 * the relative errors (f - y) / y (of the absolute one where y is 0); with
 * constant 0 through the origin (x[0] = 0). loo (or NULL): at each point the
 * value the same fit without that point gives there (leave-one-out, by the
 * hat matrix: y_i - e_i / (1 - h_ii)). 0, or -1 when the columns are
 * (numerically) dependent or a point alone fixes a coefficient (h_ii = 1). */
int scaling_lsq(const double *const *cols, uint32_t k, const double *y, uint32_t n, int constant, double *x,
                double *loo);

#endif
