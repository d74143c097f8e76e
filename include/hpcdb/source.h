/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — one source handle per opened path.
 *
 * hpcdb_source_open decides, in one place, how a path is held: a v4.0
 * database directory memory-mapped (the tree and identities in memory,
 * values read on demand), a Cube file through its member reader (the tree;
 * a metric's values when asked for), anything else loaded whole. The query
 * layer (hpcdb_query_on), the trace queries (hpcdb_trace_open_source) and
 * the comparison (hpcdb_compare_sources) are made from a source and share
 * it: each takes a reference, so the caller may close its own at any time.
 *
 * A source may be read from several threads at once (what it reads lazily
 * is read once, under its own lock); a query made from it may be used by
 * several threads at once (hpcdb/query.h), and so may a comparison
 * (hpcdb/compare.h). */
#ifndef HPCDB_SOURCE_H
#define HPCDB_SOURCE_H

#include "hpcdb/export.h"

#include <stdint.h>

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hpcdb_source hpcdb_source;
struct hpcdb_read_options;

/* Opens path. load: how a file that is loaded whole is read (NULL: all of
 * it); a v4.0 directory and a Cube file are never loaded whole. */
HPCDB_API int hpcdb_source_open(hpcdb_source **out, const char *path, const struct hpcdb_read_options *load);
/* A source over an experiment the caller keeps (and frees after every
 * object made from the source is closed). */
HPCDB_API int hpcdb_source_from_experiment(hpcdb_source **out, const hpcdb_experiment *exp);
/* Another reference to s (closed by hpcdb_source_close); returns s. */
HPCDB_API hpcdb_source *hpcdb_source_ref(hpcdb_source *s);
/* Drops the caller's reference; the last one frees the source. NULL-safe. */
HPCDB_API void hpcdb_source_close(hpcdb_source *s);

/* The tree, metrics and profile identities (values may be absent: lazy). */
HPCDB_API const hpcdb_experiment *hpcdb_source_experiment(const hpcdb_source *s);
/* "model", "v4.0 mapped", "cube", or the name of a caller's hpcdb_qsource. */
HPCDB_API const char *hpcdb_source_kind(const hpcdb_source *s);
/* The path opened (NULL for an experiment or a caller's source). */
HPCDB_API const char *hpcdb_source_path(const hpcdb_source *s);
/* 1 when values are read on demand rather than held in the experiment. */
HPCDB_API int hpcdb_source_is_lazy(const hpcdb_source *s);
/* The experiment with its values, as ro asks (NULL: all of them): a source
 * that loaded its file gives its own, as it was opened (*owned NULL); a lazy
 * one reads its path now (*owned: the same experiment, the caller frees it). */
HPCDB_API int hpcdb_source_load(hpcdb_source *s, const struct hpcdb_read_options *ro, const hpcdb_experiment **exp,
                                hpcdb_experiment **owned);
/* One profile's values (index into the experiment's profiles) as the source
 * stores them, copied into out (free with hpcdb_profile_clear_values);
 * *ints gets the exact integers beside them (indexed as out's values, valid
 * while s is open) or NULL. A Cube source loads its file whole the first
 * time it is asked (every value of a location is in every metric's member);
 * HPCDB_EUNSUPPORTED for a caller's source. */
HPCDB_API int hpcdb_source_profile(hpcdb_source *s, uint32_t profile, hpcdb_profile *out, const uint64_t **ints);

#ifdef __cplusplus
}
#endif

#endif
