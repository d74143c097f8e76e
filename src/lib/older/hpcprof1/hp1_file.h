/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure checks the HPCPROF-* readers and the validator share: each
 * returns 0, or -1 with the broken rule in an hpcprof1_problem (offset, rule name,
 * detail), which the reader turns into its error and the validator into a
 * diagnostic. Layouts (big-endian, version 1.0) are in docs/formats-notes.md. */
#ifndef HPCDB_HPCPROF1_FILE_H
#define HPCDB_HPCPROF1_FILE_H

#include <stdint.h>

#include "common/bytes.h"
#include "hpcdb/model.h"

#define HPCPROF1_PROFILE_INFO_SIZE 52u
#define HPCPROF1_CCT_INFO_SIZE 22u
#define HPCPROF1_TRACE_HEADER_SIZE 22u
#define HPCPROF1_PROFILE_END_CTX 0x656E6421u /* "end!" */
#define HPCPROF1_CCT_END_METRIC 0x6564u      /* "ed" */

typedef struct hpcprof1_problem {
  uint64_t offset;
  const char *rule;
  char detail[256];
} hpcprof1_problem;

typedef struct hpcprof1_kind {
  const char *name;       /* "profile.db" */
  const char *magic;      /* 16 bytes */
  const char *footers[2]; /* both spellings; NULL when the file has none */
  int footer_required;
  unsigned n_sections;
  uint64_t header_size;
  uint64_t entry_size; /* of the first section's entries, counted by the header */
} hpcprof1_kind;

extern const hpcprof1_kind hpcprof1_profile_kind, hpcprof1_cct_kind, hpcprof1_trace_kind;

typedef struct hpcprof1_file {
  const char *path;
  const uint8_t *d;
  uint64_t len;  /* whole file */
  uint64_t body; /* bytes before the footer */
  uint8_t major, minor;
  uint32_t count; /* profiles, contexts or traces */
  uint16_t n_sections;
  uint64_t sec_size[2], sec_off[2];
} hpcprof1_file;

int hpcprof1_problem_set(hpcprof1_problem *pb, uint64_t offset, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Magic, version 1.0 (4.0 as the documents say is accepted too), section
 * table inside the file, footer, and the first section holding count entries. */
int hpcprof1_open(hpcprof1_file *f, const hpcprof1_kind *k, const uint8_t *data, uint64_t len, const char *path,
                  hpcprof1_problem *pb);

/* Adds n bytes of value blocks or trace lines to *used: -1 (rule
 * "block-overlap") once they add up to more than the file, which only
 * overlapping blocks can do; this bounds the work and memory of a whole file
 * by its size, whatever its counts say. */
int hpcprof1_claim(const hpcprof1_file *f, uint64_t *used, uint64_t n, uint64_t where, hpcprof1_problem *pb);

/* ---- profile.db ---- */
typedef struct hpcprof1_pinfo {
  uint64_t at; /* offset of the profile info */
  uint64_t tuple, reserved[3], n_values, block;
  uint32_t n_ctxs;
} hpcprof1_pinfo;

void hpcprof1_pinfo_read(const hpcprof1_file *f, uint32_t i, hpcprof1_pinfo *pi);
/* The identifier tuple at p: inside the tuple section; *n_ids, elements at *elems. */
int hpcprof1_tuple_check(const hpcprof1_file *f, uint64_t p, uint64_t where, uint16_t *n_ids, uint64_t *elems,
                         hpcprof1_problem *pb);
/* One tuple element decoded for the model: the top two bits of the kind say
 * which ids are valid (docs/formats-notes.md); 0 or -1 when the logical id
 * does not fit the model. */
int hpcprof1_tuple_element(const uint8_t *e, uint16_t *kind, hpcdb_id *id);
/* The value block: bounds, the context index (start 0, ascending, strictly
 * ascending ids) and the end marker. */
int hpcprof1_pblock_check(const hpcprof1_file *f, const hpcprof1_pinfo *pi, hpcprof1_problem *pb);
static inline uint64_t hpcprof1_pblock_index(const hpcprof1_pinfo *pi) { return pi->block + 10 * pi->n_values; }
/* Bytes of a checked block (0 for an empty profile, which has none). */
static inline uint64_t hpcprof1_pblock_size(const hpcprof1_pinfo *pi) {
  return pi->n_values || pi->n_ctxs ? 10 * pi->n_values + 12 * ((uint64_t)pi->n_ctxs + 1) : 0;
}

/* ---- cct.db ---- */
typedef struct hpcprof1_cinfo {
  uint64_t at;
  uint32_t ctx_id;
  uint64_t n_values;
  uint16_t n_metrics;
  uint64_t block;
} hpcprof1_cinfo;

void hpcprof1_cinfo_read(const hpcprof1_file *f, uint32_t i, hpcprof1_cinfo *ci);
int hpcprof1_cblock_check(const hpcprof1_file *f, const hpcprof1_cinfo *ci, hpcprof1_problem *pb);
static inline uint64_t hpcprof1_cblock_index(const hpcprof1_cinfo *ci) { return ci->block + 12 * ci->n_values; }

/* ---- trace.db ---- */
typedef struct hpcprof1_tline {
  uint64_t at;
  uint32_t prof_index;
  uint16_t type;
  uint64_t begin, end;
} hpcprof1_tline;

void hpcprof1_tline_read(const hpcprof1_file *f, uint32_t i, hpcprof1_tline *t);
/* Bounds and whole 12-byte samples; *n gets the sample count. */
int hpcprof1_tline_check(const hpcprof1_file *f, const hpcprof1_tline *t, uint64_t *n, hpcprof1_problem *pb);
/* The header's timestamp range (0 when hpcprof left it out). */
/* The header's timestamp range: 0 when hpcprof left it out, or when the
 * draft-a header (no range) is followed at once by its first section. */
static inline uint64_t hpcprof1_trace_min(const hpcprof1_file *f) {
  return f->sec_off[0] >= 56 ? rd_be64(f->d + 40) : 0;
}
static inline uint64_t hpcprof1_trace_max(const hpcprof1_file *f) {
  return f->sec_off[0] >= 56 ? rd_be64(f->d + 48) : 0;
}

#endif
