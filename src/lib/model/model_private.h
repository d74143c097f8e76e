/* SPDX-License-Identifier: BSD-3-Clause */
/* Bookkeeping the public experiment struct does not show. */
#ifndef HPCDB_MODEL_PRIVATE_H
#define HPCDB_MODEL_PRIVATE_H

#include "common/hashmap.h"
#include "model/ctx_index.h"
#include "hpcdb/model.h"

struct hpcdb_model_private {
  hpcdb_strpool strings;
  ctx_index ctx_by_id;      /* native context id -> index */
  uint32_t n_linked;        /* contexts[n_linked..] were added unlinked (model_build.h) */
  uint32_t native_offset;   /* model context id - the source's own id (0: the same) */
  uint32_t synthetic_entry; /* the id of a context the source does not have, or HPCDB_NONE */
  uint64_t cap_attrs, cap_warnings, cap_kinds, cap_modules, cap_files, cap_functions, cap_scopes, cap_metrics,
      cap_contexts, cap_profiles, cap_traces;
  uint64_t *cap_instances; /* per metric */
  uint64_t *cap_summaries; /* per metric */
  /* Integer metrics' exact values (integers.c): per profile NULL or an
   * array beside its values, n_integers[p] long (a stale one, whose length
   * is no longer the profile's n_values, is not used) */
  uint64_t **integers;
  uint64_t *n_integers;
  uint32_t n_integer_profiles;
};

#endif
