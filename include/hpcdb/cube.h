/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — Cube v4 (.cubex) files from Score-P and Scalasca: read, write,
 * validate. The mapping to and from the model is in docs/mapping.md. */
#ifndef HPCDB_CUBE_H
#define HPCDB_CUBE_H

#include "hpcdb/export.h"

#include "hpcdb/formats.h"
#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a .cubex archive (tar or tar.gz): regions become functions, cnodes
 * contexts (native id = cnode id + 1, recorded in the attribute
 * cube.ctx_id_offset), locations profiles after a summary profile, each
 * metric a metric with exclusive ("point") and inclusive ("execution")
 * values. Files hpcdb wrote carry HPCToolkit's details in hpctoolkit::
 * parameters and attributes, which come back into the model. */
HPCDB_API int hpcdb_cube_read(hpcdb_experiment **out, const char *path);

/* Direct access to a Cube file's values without building the model, one
 * metric at a time (memory: the caller's matrix and one row): for tools that
 * want a few metrics of a large file. In a plain (uncompressed) file each
 * metric's members are found by their offsets, so a metric costs the reading
 * of its own members only; a compressed file is streamed up to them. */
typedef struct hpcdb_cube hpcdb_cube;
HPCDB_API int hpcdb_cube_open(hpcdb_cube **out, const char *path);
HPCDB_API void hpcdb_cube_close(hpcdb_cube *c); /* NULL-safe */
HPCDB_API uint32_t hpcdb_cube_n_metrics(const hpcdb_cube *c);
HPCDB_API uint32_t hpcdb_cube_n_cnodes(const hpcdb_cube *c);
HPCDB_API uint32_t hpcdb_cube_n_locations(const hpcdb_cube *c);
/* The model of an opened file, as hpcdb_read_opts reads it (options may be
 * NULL: everything), without parsing anchor.xml or placing the members
 * again. c must outlive the call only. */
HPCDB_API int hpcdb_cube_read_opened(hpcdb_experiment **out, const hpcdb_cube *c, const hpcdb_read_options *options);
/* The metric's unique name (metrics in anchor.xml order), or NULL. */
HPCDB_API const char *hpcdb_cube_metric_name(const hpcdb_cube *c, uint32_t metric);
/* The cnode id at document position k (pre-order), or UINT32_MAX. */
HPCDB_API uint32_t hpcdb_cube_cnode_id(const hpcdb_cube *c, uint32_t k);
/* Metric values, inclusive (1) or exclusive (0), into out[k * n_locations + l]
 * for the cnode at document position k and location l (anchor.xml order);
 * out holds n_cnodes x n_locations doubles. A derived or undecoded metric,
 * a SCALE_FUNC one (no single number) and the flavour that a metric hpcdb
 * wrote as stored-only lacks are 0 everywhere. */
HPCDB_API int hpcdb_cube_metric_values(hpcdb_cube *c, uint32_t metric, int inclusive, double *out);
/* HPCDB_INTEGER_UNSIGNED or HPCDB_INTEGER_SIGNED when the metric stores one of
 * Cube's integer types, else 0. */
HPCDB_API int hpcdb_cube_metric_integer(const hpcdb_cube *c, uint32_t metric);
/* An integer metric's values as 64-bit integers, never a double on the way:
 * stored values, the derived flavour computed modulo 2^64 as CubeLib does
 * (a signed type's values are their two's complement). Laid out as
 * hpcdb_cube_metric_values; HPCDB_EINVAL for a metric that is not integer. */
HPCDB_API int hpcdb_cube_metric_integers(hpcdb_cube *c, uint32_t metric, int inclusive, uint64_t *out);
/* One cnode's values over every location: out[l] (n_locations doubles) is
 * what hpcdb_cube_metric_values gives at [k * n_locations + l], bit for bit,
 * without the matrix. In a plain file with plain data only the rows needed
 * are read: the cnode's, its children's for a derived exclusive flavour, its
 * subtree's for a derived inclusive one; other files are read as for the
 * matrix, which is held for the call only. HPCDB_EINVAL for a metric or
 * cnode out of range. */
HPCDB_API int hpcdb_cube_cnode_values(hpcdb_cube *c, uint32_t metric, uint32_t k, int inclusive, double *out);
/* One location's values at every cnode: out[k] (n_cnodes doubles) is
 * hpcdb_cube_metric_values's [k * n_locations + location], bit for bit; a
 * plain file's data is read through a small buffer. */
HPCDB_API int hpcdb_cube_location_values(hpcdb_cube *c, uint32_t metric, uint32_t location, int inclusive, double *out);

#define HPCDB_CUBE_WRITE_OPTIONS_VERSION 1
#define HPCDB_CUBE_WRITE_OPTIONS_INIT \
  { .version = HPCDB_CUBE_WRITE_OPTIONS_VERSION }
typedef struct hpcdb_cube_write_options {
  unsigned version; /* HPCDB_CUBE_WRITE_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  int compress;     /* ZCUBEX.DATA: one zlib stream per row */
  unsigned flags;   /* HPCDB_WRITE_FORCE: replace an existing file */
} hpcdb_cube_write_options;

/* Writes exp as a .cubex file (atomically: the file appears whole or not at
 * all). options may be NULL. */
HPCDB_API int hpcdb_cube_write(const hpcdb_experiment *exp, const char *path, const hpcdb_cube_write_options *options);

/* Lists, one line per kind, what hpcdb_cube_write cannot carry (summary
 * statistics, scopes other than the stored one, values at contexts the tree
 * does not list, ...). Returns the number of kinds of loss. */
HPCDB_API uint64_t hpcdb_cube_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);

/* Checks a .cubex against the rules of specs/cube-v4.md and what readers
 * rely on: archive members, anchor.xml well-formed with unique ids and
 * references that resolve, an acyclic call tree, and each metric's index and
 * data consistent with each other and with the anchor. */
HPCDB_API int hpcdb_cube_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
