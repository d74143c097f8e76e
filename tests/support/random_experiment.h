/* SPDX-License-Identifier: BSD-3-Clause */
/* Random valid experiments for round-trip tests, and a field-by-field
 * comparison of two experiments. */
#ifndef HPCDB_TEST_RANDOM_EXPERIMENT_H
#define HPCDB_TEST_RANDOM_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"

/* A random experiment that a v4.0 database can hold exactly: random tables,
 * scopes (unknown types too), metrics with propagated and statistic ids, a
 * random context tree under 1-3 entry points, the canonical summary profile
 * then 0-5 thread profiles with random id tuples and sparse values (also for
 * context ids not in the tree), and sometimes traces. Same seed, same model. */
int random_experiment(hpcdb_experiment **out, uint64_t seed);

/* Options of random_experiment_with (0: exactly what random_experiment makes).
 * RANDOM_DRAFT_B: what a draft-b database can declare: summaries only of
 * scopes the metric has an instance of, no two alike (same scope, formula and
 * combination: a v4.0 conversion could not tell them apart), no summary
 * profile but the canonical one. Summaries drawn otherwise are skipped. */
#define RANDOM_DRAFT_B 0x1u
int random_experiment_with(hpcdb_experiment **out, uint64_t seed, unsigned options);

/* 1 when a and b hold the same content (the provenance fields format,
 * version and origin, and the v4.0 reader's trailing "hpctk4.*" attributes,
 * are not compared; contexts are compared by tree position; values bit for
 * bit). Otherwise 0, with the first difference described in why. */
int experiments_equal(const hpcdb_experiment *a, const hpcdb_experiment *b, char *why, size_t whylen);

#endif
