/* SPDX-License-Identifier: BSD-3-Clause */
/* The test program's shared library. */
double shared_sum(const double *v, int n);
