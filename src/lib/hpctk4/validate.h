/* SPDX-License-Identifier: BSD-3-Clause */
/* The v4.0 validator, internal. It works on the file bytes (mapped; the
 * large value and index arrays read in order with pread), not through the
 * model, and streams: what it keeps across files is compact (the set of
 * context ids meta.db lists, which metric ids are propagated or statistic
 * values, one byte per profile), so memory does not grow with the values.
 * profile.db and cct.db are checked on two threads (validate_pair.c).
 * Rule names and the specification sentences they check: docs/validate-rules.md. */
#ifndef HPCDB_HPCTK4_VALIDATE_H
#define HPCDB_HPCTK4_VALIDATE_H

#include <stdint.h>

#include "common/hashmap.h"
#include "common/mapped_file.h"
#include "hpcdb/formats.h"
#include "hpctk4/hpctk4_read.h"

typedef struct vfile {
  const char *path;
  const uint8_t *d;
  uint64_t len;
  int fd; /* the same file open for pread (hpctk4_chunks), or -1 */
  unsigned n_sections;
  uint64_t sec_off[8], sec_size[8];
  int usable; /* the header and sections are sound enough to read on */
} vfile;

typedef struct validator {
  hpcdb_diagnostic_fn fn;
  void *user;
  hpcdb_validation *result;
  /* from meta.db */
  int have_meta;
  hpcdb_u64map ctx_ids; /* ids the tree lists */
  uint8_t *ctx_bits;    /* the same as a bit set, for the per-value lookups */
  uint32_t max_ctx_id;
  uint8_t prop_id[65536], stat_id[65536];
  uint32_t n_kinds;
  /* from profile.db */
  int have_profiles;
  vfile prof; /* kept mapped for the transpose check */
  hpcdb_mapped_file prof_map;
  uint64_t prof_infos, prof_stride;
  uint32_t n_profiles;
  uint8_t *is_summary; /* one byte per profile */
  uint32_t max_value_ctx_id;
  uint64_t thread_values; /* values in non-summary profiles */
  uint64_t thread_hash;   /* order-free hash of those (context, metric, profile, value) */
  int quiet;              /* a second pass that only locates: no repeated diagnostics */
} validator;

/* One (context, metric, profile, value bits) quadruple's share of an
 * order-independent multiset hash (summed mod 2^64): equal sets of values,
 * in whatever order, give equal sums. Inline, as it runs once per value of
 * profile.db and of cct.db: the value bits and the position are multiplied
 * to 128 bits and folded (the xor constants keep a zero factor rare). */
static inline uint64_t value_hash(uint32_t ctx, uint16_t metric, uint32_t profile, uint64_t bits) {
  uint64_t where = ((uint64_t)ctx << 32 | profile) ^ ((uint64_t)metric + 1) * 0xc2b2ae3d27d4eb4fULL;
  unsigned __int128 product = (unsigned __int128)(bits ^ 0x9e3779b97f4a7c15ULL) * (where ^ 0xd6e8feb86659fd93ULL);
  return (uint64_t)product ^ (uint64_t)(product >> 64);
}

/* For the reporting half of a hot loop: kept out of the loop's code. */
#if defined(__GNUC__)
#define VCOLD __attribute__((cold, noinline))
#else
#define VCOLD
#endif

/* 0 for the bits of an infinity or a NaN (all exponent bits set). */
static inline int finite_bits(uint64_t bits) { return (bits & 0x7ff0000000000000ULL) != 0x7ff0000000000000ULL; }

/* Counts one formatted diagnostic and hands it to the callback. */
void vreport(validator *v, hpcdb_severity sev, const char *path, uint64_t off, const char *rule, const char *detail);
void vdiag(validator *v, const vfile *f, hpcdb_severity sev, uint64_t off, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
#define VERR(v, f, off, rule, ...) vdiag(v, f, HPCDB_SEV_ERROR, off, rule, __VA_ARGS__)
#define VNOTE(v, f, off, rule, ...) vdiag(v, f, HPCDB_SEV_NOTE, off, rule, __VA_ARGS__)

/* Checks the common header, footer and section table; sets f->usable.
 * Sections start 8-aligned (their header structures are), except those in
 * the unaligned bit mask (meta.db's string table has no structure). */
void vcheck_header(validator *v, vfile *f, const char format[4], const char footer[8], unsigned n_sections,
                   unsigned unaligned);
/* [off, off + size) inside section s of f (reporting rule when not). */
int vin_section(validator *v, const vfile *f, unsigned s, uint64_t off, uint64_t size, const char *rule,
                const char *what);
/* count × stride bytes at off, 8-aligned, inside section s. */
int varray(validator *v, const vfile *f, unsigned s, uint64_t off, uint64_t count, uint64_t stride, const char *what);
/* A NUL-terminated string inside section s. */
int vstring(validator *v, const vfile *f, unsigned s, uint64_t off, const char *what);
/* [off, off + size) overlaps no section of f. */
int voutside_sections(validator *v, const vfile *f, uint64_t off, uint64_t size, const char *what);

/* 1 when meta.db's tree lists ctx id. */
int vknown_ctx(const validator *v, uint32_t id);

void validate_meta(validator *v, vfile *f);
void validate_trace(validator *v, vfile *f);

/* profile.db: the header and profile infos (after which n_profiles,
 * is_summary and have_profiles are known; 1 when the values can be checked),
 * then every profile's identifier tuple and values. */
int validate_profile_infos(validator *v, vfile *f);
void validate_profile_values(validator *v, vfile *f);
void validate_profile(validator *v, vfile *f);

/* cct.db in the order of its diagnostics: the header (1 when the values can
 * be checked), nCtxs against the context ids of meta.db and profile.db
 * (needs profile.db checked), the value blocks (need only profile.db's
 * infos), and the transpose (needs both). */
typedef struct cct_pass {
  uint64_t sec, p, stride; /* Context Info section, pCtxs, szCtx */
  uint32_t n;              /* nCtxs */
  uint64_t count, hash;    /* values seen and their multiset hash */
} cct_pass;
int validate_cct_header(validator *v, vfile *f, cct_pass *c);
void validate_cct_count(validator *v, const vfile *f, const cct_pass *c);
void validate_cct_values(validator *v, const vfile *f, cct_pass *c);
void validate_cct_transpose(validator *v, const vfile *f, cct_pass *c);
void validate_cct(validator *v, vfile *f);

/* profile.db and cct.db of one database (v holds meta.db's facts): the same
 * diagnostics in the same order as validate_profile then validate_cct, with
 * cct.db's value blocks checked on a second thread meanwhile. */
void validate_profile_and_cct(validator *v, vfile *prof, vfile *cct);

/* Every rule for a v4.0 database directory or a single *.db file
 * (validate_db.c); the descriptor's validate. */
int hpctk4_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#endif
