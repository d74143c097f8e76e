/* SPDX-License-Identifier: BSD-3-Clause */
/* Execution-scope values that are not sums over the subtree
 * (hpcdb_metric.execution_combine MIN / MAX, from Cube's MINDOUBLE /
 * MAXDOUBLE): v4.0's `execution` scope means the sum, so the writer puts them
 * under a custom scope named for what they are, and the reader turns that
 * scope back into `execution` with the metric's execution_combine. */
#ifndef HPCDB_HPCTK4_SUBTREE_SCOPES_H
#define HPCDB_HPCTK4_SUBTREE_SCOPES_H

#include <string.h>

#include "hpcdb/model.h"

/* The custom scope's name for a combine (NULL for a sum). */
static inline const char *hpctk4_subtree_scope_name(uint8_t combine) {
  return combine == HPCDB_COMBINE_MIN ? "inclusive_min" : combine == HPCDB_COMBINE_MAX ? "inclusive_max" : NULL;
}

/* HPCDB_COMBINE_MIN / MAX for a custom scope so named, else HPCDB_COMBINE_SUM. */
static inline uint8_t hpctk4_subtree_combine(const hpcdb_scope *s) {
  if (s->type != HPCDB_SCOPE_CUSTOM || !s->name) return HPCDB_COMBINE_SUM;
  for (uint8_t c = HPCDB_COMBINE_MIN; c <= HPCDB_COMBINE_MAX; c++)
    if (!strcmp(s->name, hpctk4_subtree_scope_name(c))) return c;
  return HPCDB_COMBINE_SUM;
}

#endif
