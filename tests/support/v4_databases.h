/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a comparison over v4.0 databases: every one of the sample data, and
 * random ones written from random_experiment (tests of a second path that
 * must give the first one's bytes). */
#ifndef HPCDB_TEST_V4_DATABASES_H
#define HPCDB_TEST_V4_DATABASES_H

#include <stdint.h>

/* compare(dir): 1 when the database at dir was compared, else 0. */
typedef int (*v4_compare_fn)(const char *dir);

/* compare on each v4.0 database directory under the sample data (none
 * without samples); how many were compared. */
int v4_each_sample(v4_compare_fn compare);
/* compare on the databases of random_experiment's seeds 1..n, each written
 * into dir; how many were compared. */
int v4_each_random(const char *dir, uint64_t n, v4_compare_fn compare);

#endif
