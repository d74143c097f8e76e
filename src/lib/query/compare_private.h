/* SPDX-License-Identifier: BSD-3-Clause */
/* What a comparison keeps for hpcdb_compare_profiles (internal). */
#ifndef HPCDB_QUERY_COMPARE_PRIVATE_H
#define HPCDB_QUERY_COMPARE_PRIVATE_H

#include <pthread.h>

#include "hpcdb/compare.h"
#include "hpcdb/model.h"
#include "hpcdb/source.h"
#include "query/source_internal.h"

struct hpcdb_compare_private {
  hpcdb_source **srcs;           /* per run: the comparison's reference to its source */
  const hpcdb_experiment **runs; /* per run: its source's experiment (the alignment's runs) */
  int32_t *inc_id;               /* per run: the metric's execution-scope id */
  double *scale;                 /* per run: to the first run's unit */
  uint8_t *on_demand;            /* per run: per-profile figures wait for hpcdb_compare_profiles */
  /* Several threads may ask for figures at once: a cell is computed without the lock and stored
   * under it (once: a cell is NaN until then), so a reader that saw it filled under the lock
   * reads it without one afterwards. */
  pthread_mutex_t lock;
};

#endif
