/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — what the HPCToolkit v4.0 writer cannot carry. */
#ifndef HPCDB_HPCTK4_WRITE_PUBLIC_H
#define HPCDB_HPCTK4_WRITE_PUBLIC_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdint.h>

#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lists, one line per kind, the parts of exp that hpcdb_hpctk4_write would
 * leave out because v4.0 has no place for them (attributes, metric
 * descriptions and units, labels of non-entry contexts, locations of entry
 * points, lines without a file, offsets without a module). fn may be NULL.
 * Returns the number of kinds of loss: 0 means the write is exact. */
HPCDB_API uint64_t hpcdb_hpctk4_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);

/* Lets hpcdb_hpctk4_stream_finish use up to threads threads (chunks of
 * cct.db are made side by side, meta.db and trace.db are written meanwhile);
 * the files are the same whatever the number. */
HPCDB_API void hpcdb_hpctk4_stream_set_threads(hpcdb_hpctk4_stream *s, unsigned threads);

/* One value of a thread profile, as cct.db gathers them. */
typedef struct hpcdb_value_ref {
  uint32_t profile;
  uint16_t metric;
  double value;
} hpcdb_value_ref;

/* Makes a stream's summary profile from the thread profiles' values while
 * cct.db is written, instead of taking its values from the experiment (which
 * then need not hold them): fn gets each context that has values (contexts
 * ascending; a context's values in profile order), writes the summary's
 * (metric id, value) pairs, metric ids ascending, to metrics/values (room
 * for 65,536) and returns how many, or a negative hpcdb_status. */
typedef int64_t (*hpcdb_summary_fn)(void *user, uint32_t ctx, const hpcdb_value_ref *v, uint64_t n, uint16_t *metrics,
                                    double *values);
HPCDB_API void hpcdb_hpctk4_stream_set_summary(hpcdb_hpctk4_stream *s, uint32_t profile, hpcdb_summary_fn fn,
                                               void *user);

#ifdef __cplusplus
}
#endif
#endif
