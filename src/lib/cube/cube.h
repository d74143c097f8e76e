/* SPDX-License-Identifier: BSD-3-Clause */
/* Cube v4 (.cubex) in memory before it becomes a model (internal): what
 * anchor.xml says, and the decoding of one metric's .index and .data. */
#ifndef HPCDB_CUBE_INTERNAL_H
#define HPCDB_CUBE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/bytes.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "model/format.h"

enum cube_flavour { CUBE_EXCLUSIVE, CUBE_INCLUSIVE, CUBE_SIMPLE };
enum cube_aggregate { CUBE_SUM, CUBE_MIN, CUBE_MAX };

typedef struct cube_metric {
  uint32_t id;
  const char *uniq, *disp, *dtype, *uom, *descr;
  int flavour;     /* enum cube_flavour */
  int aggregate;   /* enum cube_aggregate, from the dtype */
  int derived;     /* POSTDERIVED / PREDERIVED_*: no data files */
  int stored_only; /* hpcdb wrote it from a metric with one flavour and no summary
                      (attribute hpctoolkit::stored-only::<id>): nothing is derived */
  uint32_t parent; /* index in metrics, or UINT32_MAX */
} cube_metric;

typedef struct cube_region {
  uint32_t id;
  const char *name, *mod;
  int32_t begin;
  const char *module; /* attr hpctoolkit::module (hpcdb's files), or NULL */
  uint64_t offset;    /* attr hpctoolkit::offset */
  int unnamed;        /* attr hpctoolkit::unnamed: a function without a name */
  int synthetic;      /* paradigm hpctoolkit, role other than function: no function behind it */
  int role;           /* paradigm hpctoolkit: the role as cube_role_of names it (else CUBE_ROLE_OTHER) */
} cube_region;

typedef struct cube_cnode {
  uint32_t id, callee; /* region id */
  uint32_t parent;     /* index in cnodes, UINT32_MAX for a root */
  int32_t line;
  const char *mod;
} cube_cnode;

typedef struct cube_location {
  uint32_t id, rank;   /* the thread's rank in its group */
  uint32_t group_rank; /* the process */
  const char *node;    /* the system tree node's name */
  uint32_t node_index; /* position of that node among nodes */
} cube_location;

typedef struct cube_attr {
  const char *key, *value;
} cube_attr;

/* A <parameter> of a cnode. */
typedef struct cube_param {
  uint32_t cnode; /* index in cnodes */
  const char *key, *value;
} cube_param;

typedef struct cube_anchor {
  hpcdb_arena arena;
  char version[16];
  cube_metric *metrics;
  uint32_t n_metrics;
  cube_region *regions;
  uint32_t n_regions;
  cube_cnode *cnodes; /* in document order: a parent before its children */
  uint32_t n_cnodes;
  cube_location *locations;
  uint32_t n_locations;
  cube_attr *attrs;
  uint32_t n_attrs;
  cube_param *params; /* in document order: grouped by cnode */
  uint32_t n_params;
  uint32_t n_nodes;
} cube_anchor;

/* Region roles that set an hpcdb cnode's defaults (cnode_defaults.c). */
enum cube_role { CUBE_ROLE_OTHER, CUBE_ROLE_LOOP, CUBE_ROLE_CODE };
#define CUBE_CNODE_DEFAULTS_KEY "hpctoolkit::cnode-defaults" /* its value "role": the defaults below apply */
int cube_role_of(const char *role);
/* An hpcdb cnode's relation, lexical type and propagation when it carries no parameter for them. */
void cube_cnode_defaults(int role, uint8_t *relation, uint8_t *lexical_type, uint16_t *propagation);

/* anchor.xml's text prepared (anchor_text.c): gzip inflated into a malloc'ed
 * buffer; whether some attribute value has no quotes (CubeW), and a copy
 * with them quoted. */
int cube_anchor_gunzip(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, const char *path);
int cube_anchor_has_bare_values(const uint8_t *s, size_t len);
int cube_anchor_quote_bare_values(const uint8_t *in, size_t len, char **out, size_t *out_len);

/* Parses anchor.xml (plain or gzip-compressed; a text that fails to parse
 * is parsed again with CubeW's unquoted attribute values quoted). */
int cube_anchor_parse(cube_anchor *a, const uint8_t *xml, size_t len, const char *path);
/* The same, in two halves at once when the text has split_min bytes or
 * more and its layout allows (*halved, when given, says whether it did). */
int cube_anchor_parse_halves(cube_anchor *a, const uint8_t *xml, size_t len, const char *path, size_t split_min,
                             int *halved);
void cube_anchor_free(cube_anchor *a);

/* Bytes of one value of a dtype (0: not decoded). */
size_t cube_dtype_size(const char *dtype);

/* An unsigned n-byte integer in the given byte order (1: big-endian); inline
 * with the common widths as single loads, since every value goes through it. */
static inline uint64_t cube_rd(const uint8_t *p, size_t n, int big_endian) {
  switch (n) {
  case 8: return big_endian ? rd_be64(p) : rd_le64(p);
  case 4: return big_endian ? rd_be32(p) : rd_le32(p);
  case 2: return big_endian ? rd_be16(p) : rd_le16(p);
  default: {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
    return v;
  }
  }
}

/* A dtype resolved once per metric, so that decoding a value is a switch. */
enum cube_dtype_kind {
  CUBE_DT_INTEGER,
  CUBE_DT_DOUBLE,
  CUBE_DT_COMPLEX,
  CUBE_DT_RATE,
  CUBE_DT_TAU,
  CUBE_DT_NDOUBLES,
  CUBE_DT_HISTOGRAM,
  CUBE_DT_SCALE_FUNC
};
typedef struct cube_dtype {
  int kind; /* enum cube_dtype_kind */
  size_t size, first, count;
  int is_signed;
} cube_dtype;
/* 1 when the dtype is decoded, 0 otherwise. */
int cube_dtype_parse(cube_dtype *t, const char *dtype);
/* One value as a double: integers exactly, COMPLEX its real part, RATE the
 * quotient, TAU_ATOMIC its sum, NDOUBLES / HISTOGRAM the sum of the values /
 * bins; SCALE_FUNC has no single number (0): its components carry it. */
double cube_decode(const cube_dtype *t, const uint8_t *p, int big_endian);
/* An integer kind's value as CubeLib adds it: 64 bits, signed types sign-
 * extended, so that sums along the tree and over locations wrap modulo 2^64
 * (a UINT64 near 2^64 is a small negative delta); converted to a double
 * once, at the end, as a two's complement number (so that the doubles add
 * up along the tree: -13, not 1.8e19). The model keeps the exact integer
 * where the double rounds it, and outputs print a UINT64 unsigned. */
uint64_t cube_decode_integer(const cube_dtype *t, const uint8_t *p, int big_endian);
double cube_integer_to_double(const cube_dtype *t, uint64_t v);
/* 1 when cube_integer_to_double gives v's value exactly (no bits below a
 * double's 53); else the model keeps the integer beside it. */
int cube_integer_exact(const cube_dtype *t, uint64_t v);
/* 2^53: doubles of this magnitude or more may round an integer. */
#define CUBE_EXACT_LIMIT 9007199254740992.0

/* SCALE_FUNC (CubeLib 4.8): u32 terms, u32 measurements, the terms packed
 * (f64 a, i32 b, u32 c, i32 d: a * x^(b/c) * log2(x)^d), then the
 * measurements packed (u32 processes, f64 mean, f64 width); each value takes
 * room for 30 terms and 10 measurements of 24 bytes. */
#define CUBE_SCALE_FUNC_SIZE 848u
#define CUBE_SCALE_FUNC_TERMS 30u
#define CUBE_SCALE_FUNC_MEASUREMENTS 10u
/* The term count of one value; -1 when its counts do not fit the value. */
int64_t cube_scale_func_terms(const uint8_t *p, int big_endian);

/* The parts of a composite value, each its own model metric named
 * "<uniq_name>:<name>" (components.c). */
typedef struct cube_component {
  char name[24]; /* "count", "bin3", "term0.a", ... */
  int aggregate; /* enum cube_aggregate, along the tree and over locations */
  int derivable; /* 0: only the stored flavour is meaningful, and no combination over locations */
} cube_component;
/* How many components a dtype has (0: a plain number); SCALE_FUNC: for the
 * largest term count of the metric's values, `terms`. */
uint32_t cube_n_components(const cube_dtype *t, uint32_t terms);
/* Component k of a dtype whose stored flavour is `flavour` (enum cube_flavour). */
void cube_component_of(const cube_dtype *t, uint32_t k, int flavour, cube_component *out);
/* Component k of one value (0 where a SCALE_FUNC value has fewer terms). */
double cube_decode_component(const cube_dtype *t, uint32_t k, const uint8_t *p, int big_endian);

/* One metric's values: rows[k] (k < n_rows) holds one value per location
 * (n_locations × value size bytes, file byte order), for the cnode at
 * position row_pos[k] in the metric's cnode order. */
typedef struct cube_values {
  uint32_t n_rows;
  uint32_t *row_pos;
  const uint8_t *data; /* n_rows × n_locations × size: inside the CUBEX.DATA member (which must
                          outlive these values), or `inflated` for ZCUBEX.DATA */
  uint8_t *inflated;
  int big_endian;
} cube_values;

/* Only the index: positions (row_pos, n_rows) and the byte order; data stays NULL. */
int cube_index_parse(cube_values *v, const uint8_t *index, size_t len, uint32_t n_cnodes, const char *path);

int cube_values_decode(cube_values *out, const uint8_t *index, size_t index_len, const uint8_t *data, size_t data_len,
                       size_t value_size, uint32_t n_locations, uint32_t n_cnodes, const char *path,
                       const char *metric);
void cube_values_free(cube_values *v);

/* The order in which a metric's .index positions and .data rows list cnodes:
 * pre-order for exclusive metrics; for inclusive ones a node, then all its
 * children, then the same for each child, roots one after another. The tree
 * is given by parent (UINT32_MAX for roots; nodes numbered in pre-order) and
 * the children lists. */
/* Locations per tile for walking a cnode × location matrix by location. */
uint32_t cube_tile_width(uint32_t n_cnodes, uint32_t n_locations);

/* The tree as cube_sum_pass walks it: children lists in document order
 * (kids[kids_at[c] .. kids_at[c + 1])), and which cnodes are entry points. */
typedef struct cube_sum_tree {
  uint32_t n_cnodes, n_locations;
  const uint32_t *kids_at, *kids;
  const uint8_t *is_entry;
  int serial; /* 1: on the calling thread only (it runs beside other work) */
  /* when not NULL: grows by each cnode's exclusive row, cnode after cnode
   * (each location's exclusive values summed in document order), the cnodes
   * flagged in left_out (when not NULL) left out; the pass then runs on the
   * calling thread only */
  double *exc_totals;
  const uint8_t *left_out;
} cube_sum_tree;
/* A summed floating-point metric stored inclusive (sum_pass.c): rows[c] holds
 * cnode c's inclusive values (n_locations f64, in the given byte order: a
 * data member's bytes where they lie, or native doubles with
 * cube_native_big_endian()); exc[c] and inc[c] get each flavour summed over
 * locations, exactly as the full read derives and sums them; counts[l] (when
 * not NULL) grows by the non-zero values of both flavours at location l.
 * scratch: CUBE_SUM_PASS_ROWS rows. A large pass runs on two threads
 * (the calling one and a helper), with the same results. */
#define CUBE_SUM_BATCH 4                                  /* cnodes whose rows are summed side by side */
#define CUBE_SUM_PASS_ROWS (2 * (2 * CUBE_SUM_BATCH + 1)) /* per half: the batch's two rows each, a tally */
void cube_sum_pass(const cube_sum_tree *t, const uint8_t *const *rows, int big_endian, double *scratch, double *exc,
                   double *inc, uint64_t *counts);
/* Cnode c's rows as cube_sum_pass derives them (c taken as no entry point):
 * its inclusive row and its exclusive row, n_locations native doubles each. */
void cube_sum_rows_of(const cube_sum_tree *t, const uint8_t *const *rows, int big_endian, uint32_t c, double *inc,
                      double *exc);
/* The same sums streamed from the file (sum_stream.c): for a metric whose
 * stored rows are in storage order (row_pos increasing), read through one
 * small buffer; no cnode an entry point and no per-location totals. */
typedef struct cube_stream_tree {
  uint32_t n_cnodes, n_locations;
  const uint32_t *parent, *kids_at; /* as cube_children makes them */
  const uint32_t *order, *pos;      /* cube_inclusive_order, and each cnode's place in it */
  const uint32_t *roots;            /* the cnodes without a parent */
  uint32_t n_roots;
} cube_stream_tree;
typedef struct cube_stream_rows {
  const struct cube_member_index *x;
  uint64_t rows_at; /* the file offset of the first row */
  uint32_t n_rows;
  const uint32_t *row_pos; /* each row's place in the inclusive order */
  int swap;                /* the rows are in the other byte order */
} cube_stream_rows;
typedef struct cube_stream_sums {
  double *exc, *inc;           /* by cnode */
  uint64_t *counts;            /* by location, set (not added to) */
  double *root_inc, *root_exc; /* each root's rows, n_roots x n_locations */
} cube_stream_sums;
/* 1 when summed; 0 when the rows are not in storage order or cannot be
 * read, or memory runs out (the caller then reads them otherwise). */
int cube_sum_stream(const cube_stream_tree *t, const cube_stream_rows *s, cube_stream_sums *out);
/* 1 on a big-endian host: the byte order of a double in memory. */
static inline int cube_native_big_endian(void) {
  const uint16_t one = 1;
  uint8_t low;
  memcpy(&low, &one, 1);
  return low == 0;
}

int cube_inclusive_order(uint32_t n, const uint32_t *parent, const uint32_t *kids_at, const uint32_t *kids,
                         uint32_t *order);
/* The children lists of a tree given by parent (each parent before its
 * children): kids[kids_at[c] .. kids_at[c + 1]) in document order; kids_at
 * has n + 2 entries, kids n. */
int cube_children(uint32_t n, const uint32_t *parent, uint32_t *kids_at, uint32_t *kids);

/* A member's bytes where they lie in the file (member_index.c): a read-only
 * mapping, or a copy where the file cannot be mapped. */
typedef struct cube_member_view {
  const uint8_t *data;
  size_t len;
  void *base; /* what to unmap (mapped) or free */
  size_t base_len;
  int mapped;
} cube_member_view;

/* A whole archive member in memory. */
typedef struct cube_member {
  uint8_t *data;
  size_t len;
} cube_member;

struct archive;
struct archive_entry;
/* Opens path as a tar archive (any compression libarchive reads), mending
 * CubeW 4.8's header checksums (tar_repair.c); *repaired (when not NULL)
 * counts the mended headers as the archive is read. */
int cube_open_archive_counting(struct archive **out, const char *path, uint32_t *repaired);
int cube_open_archive(struct archive **out, const char *path);
/* The next member's header: 1, 0 at the end, or a negative status (a header
 * libarchive finds damaged included). */
int cube_next_member(struct archive *ar, struct archive_entry **e, const char *path);
/* The current member's bytes (malloc'ed, with one spare byte). */
int cube_read_member(struct archive *ar, struct archive_entry *e, cube_member *m, const char *path);
/* The member's name; "" where a damaged header has none (libarchive gives NULL). */
const char *cube_member_name(struct archive_entry *e);

/* Where the members of a plain tar lie (member_index.c): empty (n = 0) for
 * a compressed file or a layout other than Cube writers', whose readers then
 * stream through libarchive. */
typedef struct cube_indexed_member {
  char name[101];
  uint64_t offset, size; /* of the member's bytes in the file */
} cube_indexed_member;
typedef struct cube_member_index {
  int fd;
  uint64_t file_size;
  cube_indexed_member *members;
  uint32_t n;
  uint32_t mended; /* headers with CubeW 4.8's checksum (32 below the right one) */
} cube_member_index;
int cube_member_index_build(cube_member_index *x, const char *path);
const cube_indexed_member *cube_member_find(const cube_member_index *x, const char *name);
/* The metric id of a member named "<id><suffix>" ("3.data"): 1, or 0 for another name. */
int cube_member_metric_id(const char *name, const char *suffix, unsigned long *id);
/* n bytes at file offset `at`: 1, or 0 when the file ends first. */
int cube_member_read(const cube_member_index *x, uint64_t at, void *buf, size_t n);
/* The same into n buffers in turn (preadv; iov is used up). */
struct iovec;
int cube_member_readv(const cube_member_index *x, uint64_t at, struct iovec *iov, int n);
void cube_member_index_free(cube_member_index *x);
/* The file's bytes [offset, offset + size) (a member or part of one): 1, 0
 * when the file no longer holds them, or a negative status. */
int cube_member_view_open(const cube_member_index *x, uint64_t offset, uint64_t size, cube_member_view *v);
/* The same bytes copied into memory on 2 MiB pages where the system gives
 * them, for a member of 4 MiB or more (else as cube_member_view_open): for a
 * member walked whole, out of order, where a mapping's 4 KiB pages cost a TLB
 * miss each (the sum pass reads each row of a data member twice, a node's
 * children at a time). */
int cube_member_view_load(const cube_member_index *x, uint64_t offset, uint64_t size, cube_member_view *v);
void cube_member_view_close(cube_member_view *v);

/* Finds and parses the archive's anchor.xml (HPCDB_ENOTFORMAT when the file
 * is not an archive, HPCDB_ECORRUPT when it has no anchor.xml): where the
 * member index x (when not NULL) places it, else through libarchive. */
int cube_read_anchor(cube_anchor *a, const char *path, const cube_member_index *x);

/* The model's static part from the anchor: attributes, functions, contexts,
 * metrics and the (still empty) profiles, the summary first. Roots that are
 * not hpcdb-written entry points hang below a synthetic entry point, whose
 * context id goes to *entry_id (0 when there is none). */
int cube_build_model(hpcdb_experiment *exp, const cube_anchor *a, const char *path, uint32_t *entry_id);

/* hpcdb_cube_read loading only the values options ask for (the formats
 * table's read_opts): the members of other metrics are skipped unread. */
/* The module's face to the library (format.c). */
extern const format_desc cube_format;
int cube_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);

#endif
