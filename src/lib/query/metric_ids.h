/* SPDX-License-Identifier: BSD-3-Clause */
/* Which of a metric's value ids hold what: its execution (inclusive), point
 * and function-scope values, as propagated values (stat 0) or as summary
 * statistics (stat 1: only "$$" combined by `combine`, the one statistic that
 * is the whole program's value). Shared by the query layer and hpcdb report. */
#ifndef HPCDB_QUERY_METRIC_IDS_H
#define HPCDB_QUERY_METRIC_IDS_H

#include <stdint.h>

#include "hpcdb/model.h"

typedef struct query_scope_ids {
  int32_t execution, point, function; /* -1: the metric has none */
} query_scope_ids;

query_scope_ids query_scope_ids_of(const hpcdb_experiment *e, uint32_t m, int stat, uint8_t combine);

#endif
