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

#include "hpcdb/formats.h"
#include "hpcdb/model.h"

/* What a format can do and carry. */
enum {
  FORMAT_READS = HPCDB_FORMAT_CAN_READ,
  FORMAT_READS_PART = HPCDB_FORMAT_CAN_READ_PART,
  FORMAT_WRITES = HPCDB_FORMAT_CAN_WRITE,
  FORMAT_VALIDATES = HPCDB_FORMAT_CAN_VALIDATE,
  FORMAT_CARRIES_TRACES = HPCDB_FORMAT_CARRIES_TRACES,
  FORMAT_COMPRESSES = HPCDB_FORMAT_COMPRESSES,
};

/* Bids (format_desc.detect), from the surest: a magic number of the
 * format's own; a magic another format's begins with (v4.0's, which draft b
 * extends); the file the format names in a directory (meta.db); files of its
 * kind among others in a directory (measurements); a container many files
 * use (tar, gzip); a name only the format uses in an XML head
 * (HPCToolkitStructure); a root element several generations share
 * (HPCToolkitExperiment, told apart by version). Equal bids: the smaller kind. */
enum {
  FORMAT_BID_SURE = 100,
  FORMAT_BID_PREFIX = 90,
  FORMAT_BID_DIR_NAMED = 60,
  FORMAT_BID_DIR_FILES = 50,
  FORMAT_BID_CONTAINER = 40,
  FORMAT_BID_NAME = 30,
  FORMAT_BID_WORD = 20,
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
  const char *name;         /* short; what hpcdb_experiment.format says of what it reads */
  const format_kind *kinds; /* the enum values it answers for */
  size_t n_kinds;
  unsigned caps; /* FORMAT_* */
  /* How sure the format is that the path is its (*kind: which kind): 0 not
   * its, up to FORMAT_BID_SURE for a magic number of its own. The highest bid
   * wins, whatever the order of the list (core/detect.c). Never fails: a path
   * it cannot examine is not its. */
  unsigned (*detect)(const format_probe *p, hpcdb_format *kind);
  /* NULL where not FORMAT_READS. options is NULL for "everything". */
  int (*read)(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options);
  /* NULL where not FORMAT_WRITES. flags: HPCDB_WRITE_*. */
  int (*write)(const hpcdb_experiment *exp, const char *path, unsigned flags);
  const char *writer; /* the name hpcdb_write takes (convert --to), with write */
  /* With write: what it cannot carry of exp, a line each to fn; how many kinds. */
  uint64_t (*losses)(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);
  int (*validate)(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
} format_desc;

/* A writer's report of what its format cannot carry of a model: "N what"
 * to fn (when not NULL) when n is not 0. Returns 1 when it reported, so that
 * the kinds of loss add up. */
uint64_t format_loss(hpcdb_line_fn fn, void *user, uint64_t n, const char *what);

#endif
