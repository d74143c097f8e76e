/* Context names, frames and time units as every view prints them: the query
 * layer's, also taken by hpcdb report (src/lib/report/names.c). */
#ifndef HPCDB_QUERY_NAMES_H
#define HPCDB_QUERY_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"

size_t query_context_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);
uint32_t query_frame(const hpcdb_experiment *exp, uint32_t ctx);
double query_time_unit(const char *name, const char *unit);

#endif
