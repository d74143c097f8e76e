/* SPDX-License-Identifier: BSD-3-Clause */
/* Which metrics have values (internal to the library: report's columns use it too). */
#ifndef HPCDB_QUERY_DEFAULT_METRIC_H
#define HPCDB_QUERY_DEFAULT_METRIC_H

#include <stdint.h>

#include "hpcdb/query.h"

/* nz[m] = 1 when metric m has a non-zero value in the summary profile (the
 * whole program), or in any profile when there is no summary. */
int query_nonzero_metrics(const hpcdb_experiment *e, uint8_t *nz);

#endif
