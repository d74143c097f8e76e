/* SPDX-License-Identifier: BSD-3-Clause */
/* One hpcrun measurement file (.hpcrun, versions 02.00, 03.00 and 04.00) and
 * one trace file (.hpctrace 01.01), held faithfully in memory: every field as
 * stored (big-endian values decoded, raw bit patterns kept), plus the bytes the
 * format does not interpret (padding between 04.00 sections, slack at the end
 * of a section), so that writing the struct back reproduces the file byte for
 * byte. The analysis pipeline reads these structs; the model mapping is in
 * hpcrun_model.c. Layout notes: docs/hpcrun-format-notes.md. */
#ifndef HPCDB_HPCRUN_FILE_H
#define HPCDB_HPCRUN_FILE_H

#include <stdint.h>

#include "common/arena.h"

#define HPCRUN_MAGIC "HPCRUN-profile____" /* 18 bytes, then "VV.vv" and 'b' */
#define HPCRUN_MAGIC_LEN 18
#define HPCRUN_HEADER_LEN 24
#define HPCRUN_EPOCH_TAG "EPOCH___"
#define HPCRUN_FOOTER_MAGIC 0x48504352554E736DULL /* "HPCRUNsm" */
#define HPCRUN_FOOTER_LEN 112                     /* 13 offsets + magic */
#define HPCRUN_SECTION_ALIGN 1024
#define HPCRUN_SPARSE_SENTINEL 0x656E6421u /* "end!" */
#define HPCRUN_V4_NODE_LEN 19
#define HPCRUN_METRIC_TAIL_LEN 20 /* u16 is-frequency, u16 is-multiplexed, f64, u64 */
#define HPCRUN_LM_PLACEHOLDER 0   /* load module 0: ip holds 8 ASCII characters */
#define HPCRUN_EPOCH_LOGICAL_UNWIND 0x1ull

/* A length-prefixed string; s is a NUL-terminated copy (the bytes may hold
 * NULs themselves; len is authoritative). */
typedef struct hpcrun_str {
  const char *s;
  uint32_t len;
} hpcrun_str;

typedef struct hpcrun_nvpair {
  hpcrun_str name, value;
} hpcrun_nvpair;

typedef struct hpcrun_nvlist {
  uint32_t n;
  hpcrun_nvpair *items;
} hpcrun_nvlist;

typedef struct hpcrun_lm_entry {
  uint16_t id;
  hpcrun_str name;
  uint64_t flags;
} hpcrun_lm_entry;

/* Metric flag bytes (a little-endian C struct image, not byte-swapped). */
#define HPCRUN_MFLAG_TYPE 0    /* raw 1, final 2, derived 3 */
#define HPCRUN_MFLAG_VALTYPE 1 /* inclusive 1, exclusive 2 */
#define HPCRUN_MFLAG_VALFMT 2  /* int 1, real 2 */
#define HPCRUN_MFLAG_PARTNER 4 /* u16 little-endian at bytes 4-5 */
#define HPCRUN_MFLAG_SHOW 6
#define HPCRUN_MFLAG_SHOWPERCENT 7
#define HPCRUN_VALFMT_INT 1
#define HPCRUN_VALFMT_REAL 2

typedef struct hpcrun_metric_desc {
  hpcrun_str name, description;
  uint8_t flags[16];
  uint64_t period;
  hpcrun_str formula, format;
  /* The tail (present when the table's has_tail is set). */
  uint16_t is_frequency, is_multiplexed;
  uint64_t threshold_bits; /* f64 bits */
  uint64_t num_samples;
} hpcrun_metric_desc;

typedef struct hpcrun_cct_node {
  uint32_t id;     /* as stored: 02.00 negates (two's complement) leaf ids */
  uint32_t parent; /* 0 for a root */
  uint16_t lm_id;
  uint64_t ip;
  uint8_t flags;       /* 04.00 only (bit 0: unwound) */
  uint32_t lush_assoc; /* 02.00/03.00 with logical unwinding only */
  uint64_t lip[2];     /* idem */
} hpcrun_cct_node;

/* What 02.00 epochs and the 04.00 file have in common. */
typedef struct hpcrun_tables {
  int metric_tail; /* descriptors carry the 20-byte tail */
  uint32_t n_metrics;
  hpcrun_metric_desc *metrics;
  uint32_t n_lm;
  hpcrun_lm_entry *lm;
  uint64_t n_nodes;
  hpcrun_cct_node *nodes;
  uint64_t nodes_off; /* file offset of the first node (diagnostics) */
  uint64_t node_len;  /* bytes per node record */
} hpcrun_tables;

typedef struct hpcrun_epoch {
  uint64_t offset; /* of the "EPOCH___" tag */
  uint64_t flags;  /* bit 0: logical unwinding */
  uint64_t granularity;
  uint32_t ra_to_callsite;
  hpcrun_nvlist nvps;
  hpcrun_tables t;
  uint64_t *values; /* n_nodes x n_metrics value bits, node-major */
} hpcrun_epoch;

typedef struct hpcrun_id_elem {
  uint16_t kind; /* low 14 bits: kind; top 2: how to interpret the ids */
  uint64_t physical, logical;
} hpcrun_id_elem;

#define HPCRUN_KIND_MASK 0x3fffu
#define HPCRUN_KIND_INTERPRET_SHIFT 14
enum { HPCRUN_IDS_BOTH_VALID = 0, HPCRUN_IDS_LOGIC_LOCAL = 1, HPCRUN_IDS_LOGIC_GLOBAL = 2, HPCRUN_IDS_LOGIC_ONLY = 3 };

typedef struct hpcrun_kind_entry {
  uint16_t kind;
  hpcrun_str name;
} hpcrun_kind_entry;

typedef struct hpcrun_sparse {
  uint16_t n_ids;
  hpcrun_id_elem *ids;
  uint64_t n_values;
  uint64_t *value_bits;
  uint16_t *metric_ids;
  uint32_t n_nz_ctxs;
  uint32_t *ctx_ids;    /* n_nz_ctxs + 1 entries; the last should be the sentinel */
  uint64_t *ctx_starts; /* n_nz_ctxs + 1 entries; the last should be n_values */
  uint64_t values_off;  /* file offsets (diagnostics) */
  uint64_t ctxs_off;
} hpcrun_sparse;

enum hpcrun_section {
  HPCRUN_SEC_HEADER,
  HPCRUN_SEC_LOADMAP,
  HPCRUN_SEC_CCT,
  HPCRUN_SEC_METRICS,
  HPCRUN_SEC_IDTUPLES,
  HPCRUN_SEC_VALUES,
  HPCRUN_N_SECTIONS
};

/* Where a 04.00 section was, and the bytes around it nobody interprets. */
typedef struct hpcrun_section_layout {
  uint64_t start, end; /* from the footer */
  uint32_t slack_len;  /* bytes between the parsed end and `end` */
  const uint8_t *slack;
  uint64_t gap_len;   /* bytes from `end` to the next section (or the footer) */
  const uint8_t *gap; /* NULL: the gap is all zero */
} hpcrun_section_layout;

typedef struct hpcrun_file {
  hpcdb_arena arena; /* owns every array and string below */
  char version[6];   /* "02.00", "03.00", "04.00" */
  uint8_t major, minor;
  hpcrun_nvlist header;
  /* 02.00 / 03.00 */
  uint32_t n_epochs;
  hpcrun_epoch *epochs;
  /* 04.00 */
  hpcrun_tables t;
  uint16_t n_kinds; /* the dictionary's count is a u16 */
  hpcrun_kind_entry *kinds;
  hpcrun_sparse sparse;
  int has_layout; /* 0: the writer lays sections out canonically */
  hpcrun_section_layout sections[HPCRUN_N_SECTIONS];
  uint64_t footer_start;
} hpcrun_file;

/* ---- .hpctrace ---- */
#define HPCTRACE_MAGIC "HPCRUN-trace______"
#define HPCTRACE_HEADER_LEN 32
#define HPCTRACE_FLAG_DATA_CENTRIC 0x1ull

typedef struct hpcrun_trace_file {
  hpcdb_arena arena;
  char version[6]; /* "01.01" */
  uint64_t flags;  /* bit 0: each record carries a metric id */
  uint64_t n;
  uint64_t *times;
  uint32_t *cct_ids;
  uint32_t *metric_ids; /* NULL unless data-centric */
} hpcrun_trace_file;

/* Where a parse failed (for diagnostics); the message is hpcdb_last_error(). */
typedef struct hpcrun_parse_error {
  uint64_t offset;
  const char *rule;
} hpcrun_parse_error;

/* Parsing from bytes (data may be freed afterwards: everything is copied).
 * err may be NULL. */
int hpcrun_file_parse(hpcrun_file **out, const uint8_t *data, uint64_t len, const char *path, hpcrun_parse_error *err);
int hpcrun_file_load(hpcrun_file **out, const char *path, hpcrun_parse_error *err);
void hpcrun_file_free(hpcrun_file *f);
/* For a 04.00 file: fails (with the rule and offset) unless the sparse values'
 * slices, metric ids and uniqueness hold, which readers index with. */
int hpcrun_sparse_check(const hpcrun_file *f, const char *path);

int hpcrun_trace_parse(hpcrun_trace_file **out, const uint8_t *data, uint64_t len, const char *path,
                       hpcrun_parse_error *err);
int hpcrun_trace_load(hpcrun_trace_file **out, const char *path, hpcrun_parse_error *err);
void hpcrun_trace_free(hpcrun_trace_file *t);

/* Serialising: the bytes of the file (malloc'ed, the caller frees), and the
 * same through a temporary file renamed over path. 04.00 when major == 4,
 * else the epoch layout with the version string of f->version. */
int hpcrun_file_serialize(const hpcrun_file *f, uint8_t **out, uint64_t *len);
int hpcrun_file_write(const hpcrun_file *f, const char *path);
int hpcrun_trace_serialize(const hpcrun_trace_file *t, uint8_t **out, uint64_t *len);
int hpcrun_trace_write(const hpcrun_trace_file *t, const char *path);

/* Offset of the load-module id within one parsed node record of t (02.00
 * nodes with logical unwinding carry a lush association before it). */
uint64_t hpcrun_node_lm_field(const hpcrun_file *f, const hpcrun_tables *t);

/* Value of a stored metric as a double: integer metrics (value format int)
 * convert their u64, the others are IEEE bits. */
double hpcrun_metric_value(const hpcrun_metric_desc *m, uint64_t bits);

/* The value a sample stands for, as hpcprof computes it: the stored value
 * times the metric's sampling period (hpcrun stores one count per sample of a
 * period-mode event and puts the period in the descriptor; hpcprof's
 * sources/hpcrun4.cpp multiplies every value by it, in double). */
double hpcrun_metric_sampled_value(const hpcrun_metric_desc *m, uint64_t bits);

#endif
