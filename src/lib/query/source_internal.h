/* SPDX-License-Identifier: BSD-3-Clause */
/* The source handle's insides (internal to src/lib/query). */
#ifndef HPCDB_QUERY_SOURCE_INTERNAL_H
#define HPCDB_QUERY_SOURCE_INTERNAL_H

#include <stdatomic.h>

#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "hpcdb/source.h"

/* What a built-in source offers beside the public value interface. */
typedef struct source_extra {
  /* one profile's sparse values, copied into out (see hpcdb_source_profile) */
  int (*profile)(void *impl, uint32_t profile, hpcdb_profile *out, const uint64_t **ints);
  int lazy;        /* values are read on demand, not held in the experiment */
  int per_context; /* ops->profiles reads one context's block, not every profile */
} source_extra;

struct hpcdb_source {
  atomic_uint refs;
  hpcdb_qsource q;
  source_extra extra;
  hpcdb_format format; /* HPCDB_FORMAT_UNKNOWN for an experiment or a caller's source */
  char *path;
};

/* The sources (impl and ops in out->q, out->extra filled). */
int query_source_model(hpcdb_qsource *out, const hpcdb_experiment *exp, hpcdb_experiment *owned);
int query_source_db(hpcdb_source *out, const char *dir);
int query_source_cube(hpcdb_source *out, const char *path);
/* A source over a caller's value interface (closed on failure too). */
int query_source_adopt(hpcdb_source **out, const hpcdb_qsource *src);
/* extra.profile of a model source (impl: query_source_model's). */
int query_source_model_profile(void *impl, uint32_t profile, hpcdb_profile *out, const uint64_t **ints);
/* A copy of a loaded profile's value arrays (a model source's, a Cube source's once loaded). */
int query_model_profile(const hpcdb_experiment *e, uint32_t profile, hpcdb_profile *out, const uint64_t **ints);

#endif
