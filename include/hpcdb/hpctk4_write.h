/* hpcdb — what the HPCToolkit v4.0 writer cannot carry. */
#ifndef HPCDB_HPCTK4_WRITE_PUBLIC_H
#define HPCDB_HPCTK4_WRITE_PUBLIC_H

#include <stdint.h>

#include "hpcdb/hpcdb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lists, one line per kind, the parts of exp that hpcdb_hpctk4_write would
 * leave out because v4.0 has no place for them (attributes, metric
 * descriptions and units, labels of non-entry contexts, locations of entry
 * points, lines without a file, offsets without a module). fn may be NULL.
 * Returns the number of kinds of loss: 0 means the write is exact. */
uint64_t hpcdb_hpctk4_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
