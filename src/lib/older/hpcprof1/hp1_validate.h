/* SPDX-License-Identifier: BSD-3-Clause */
/* The HPCPROF-* validator (internal): one pass per file over the mapped
 * bytes; what it keeps across files is an order-free hash and a count of
 * profile.db's non-summary values (cct.db must be their transpose). */
#ifndef HPCDB_HPCPROF1_VALIDATE_H
#define HPCDB_HPCPROF1_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "older/hpcprof1/hp1_file.h"

typedef struct hpcprof1_validator {
  diag_sink sink;
  const uint32_t *known; /* sorted context ids of the tree, or NULL */
  size_t n_known;
  const uint8_t *declared[2]; /* metric ids meta data declares: [0] thread profiles, [1] the summary; or NULL */
  int have_profiles;
  uint32_t n_profiles;
  uint32_t max_ctx_id;    /* largest context id with a value in profile.db */
  uint64_t thread_values; /* values of the non-summary profiles */
  uint64_t thread_hash;   /* order-free hash of those (ctx, metric, profile, value bits) */
} hpcprof1_validator;

#define HPCPROF1_ERR(v, path, off, rule, ...) diag_emit(&(v)->sink, HPCDB_SEV_ERROR, path, off, rule, __VA_ARGS__)
#define HPCPROF1_NOTE(v, path, off, rule, ...) diag_emit(&(v)->sink, HPCDB_SEV_NOTE, path, off, rule, __VA_ARGS__)
void hpcprof1_report(hpcprof1_validator *v, const char *path, const hpcprof1_problem *pb);

/* 1 when no tree was given or id is in it. */
int hpcprof1_known_ctx(const hpcprof1_validator *v, uint32_t id);
uint64_t hpcprof1_value_hash(uint32_t ctx, uint16_t metric, uint32_t profile, uint64_t bits);
/* [off, off + n) overlaps the header or a section of f. */
int hpcprof1_overlaps_tables(const hpcprof1_file *f, uint64_t off, uint64_t n);

void hpcprof1_validate_profile(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len);
void hpcprof1_validate_cct(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len);
void hpcprof1_validate_trace(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len);

#endif
