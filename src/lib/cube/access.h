/* SPDX-License-Identifier: BSD-3-Clause */
/* The opened Cube file behind hpcdb_cube (internal): shared by the whole
 * metric's matrix (access.c) and one cnode's row or one location's column
 * read where they lie (access_row.c). */
#ifndef HPCDB_CUBE_ACCESS_H
#define HPCDB_CUBE_ACCESS_H

#include <string.h>

#include "cube/cube.h"
#include "hpcdb/cube.h"

/* One metric's data rows found in a plain tar, for reading a few of them
 * (access_row.c): which row holds each cnode, and where rows start. */
typedef struct cube_row_map {
  uint32_t metric; /* index in anchor.metrics; UINT32_MAX: none mapped yet */
  cube_dtype t;
  int big_endian;
  uint64_t rows_at; /* file offset of row 0 (past CUBEX.DATA) */
  uint64_t row_bytes;
  uint32_t n_rows;
  uint32_t *row_of;   /* per cnode document position: its row, UINT32_MAX when the data has none */
  uint32_t *cnode_of; /* per row: its cnode's document position */
  uint8_t *row;       /* room for one row's bytes */
} cube_row_map;

struct hpcdb_cube {
  char *path;
  cube_anchor a;
  cube_member_index members;                 /* where each member lies, for a plain tar (else empty) */
  uint32_t *parent, *kids_at, *kids, *order; /* the tree by document position */
  uint8_t *filled;                           /* the cnodes whose row the current request has written */
  cube_row_map rows;                         /* the last metric read a row or column at a time */
};

/* An integer metric's values travel through the caller's matrix as the bits
 * of 64-bit integers until they are combined, then become doubles once. */
static inline uint64_t ld_u64(const double *p) {
  uint64_t u;
  memcpy(&u, p, sizeof u);
  return u;
}
static inline void st_u64(double *p, uint64_t u) { memcpy(p, &u, sizeof u); }

/* One stored row of nl values in file byte order `be` as doubles (an integer
 * type: the bits of its 64-bit integers, as above). */
void cube_decode_row(const cube_dtype *t, const uint8_t *row, uint32_t nl, int be, double *dst);
/* The whole matrix, as hpcdb_cube_metric_values (convert 0: an integer
 * metric's values left as the bits of 64-bit integers). */
int cube_metric_matrix(hpcdb_cube *c, uint32_t m, int inclusive, int convert, double *out);
void cube_row_map_free(cube_row_map *r);

#endif
