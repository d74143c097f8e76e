/* SPDX-License-Identifier: BSD-3-Clause */
/* What a format module offers the library: one descriptor, exported by the
 * module's own header and listed by core (core/formats.c), which detects,
 * reads and validates through it. A new format is a new descriptor and one
 * line in that list. The public hpcdb_format enum stays the names API users
 * see: a descriptor answers for one or more of its values (its kinds). */
#ifndef HPCDB_MODEL_FORMAT_H
#define HPCDB_MODEL_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"

/* What a format can do and carry. */
enum {
  FORMAT_READS = 1u << 0,        /* into the model */
  FORMAT_READS_PART = 1u << 1,   /* honours hpcdb_read_options (reads less) */
  FORMAT_WRITES = 1u << 2,       /* from the model */
  FORMAT_VALIDATES = 1u << 3,    /* checks every rule of its documents */
  FORMAT_CARRIES_TRACES = 1u << 4,
};

/* What detection looks at: a path, and for a file its first bytes. */
typedef struct format_probe {
  const char *path;
  int is_dir;
  const uint8_t *head; /* NULL for a directory */
  size_t n;
} format_probe;

typedef struct format_kind {
  hpcdb_format id;
  const char *name; /* hpcdb_format_name */
} format_kind;

typedef struct format_desc {
  const char *name;          /* short; what hpcdb_experiment.format says of what it reads */
  const format_kind *kinds;  /* the enum values it answers for */
  size_t n_kinds;
  unsigned caps;             /* FORMAT_* */
  /* The kind path holds, or HPCDB_FORMAT_UNKNOWN. Never fails: a path it
   * cannot examine is not its. */
  hpcdb_format (*detect)(const format_probe *p);
  /* NULL where not FORMAT_READS. options is NULL for "everything". */
  int (*read)(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options);
  /* NULL where not FORMAT_WRITES. flags: HPCDB_WRITE_*. */
  int (*write)(const hpcdb_experiment *exp, const char *path, unsigned flags);
  int (*validate)(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
} format_desc;

/* A writer's report of what its format cannot carry of a model: "N what"
 * to fn (when not NULL) when n is not 0. Returns 1 when it reported, so that
 * the kinds of loss add up. */
uint64_t format_loss(hpcdb_line_fn fn, void *user, uint64_t n, const char *what);

#endif
