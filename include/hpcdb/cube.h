/* hpcdb — Cube v4 (.cubex) files from Score-P and Scalasca: read, write,
 * validate. The mapping to and from the model is in docs/mapping.md. */
#ifndef HPCDB_CUBE_H
#define HPCDB_CUBE_H

#include "hpcdb/hpcdb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a .cubex archive (tar or tar.gz): regions become functions, cnodes
 * contexts (native id = cnode id + 1, recorded in the attribute
 * cube.ctx_id_offset), locations profiles after a summary profile, each
 * metric a metric with exclusive ("point") and inclusive ("execution")
 * values. Files hpcdb wrote carry HPCToolkit's details in hpctoolkit::
 * parameters and attributes, which come back into the model. */
int hpcdb_cube_read(hpcdb_experiment **out, const char *path);

typedef struct hpcdb_cube_write_options {
  int compress;   /* ZCUBEX.DATA: one zlib stream per row */
  unsigned flags; /* HPCDB_WRITE_FORCE: replace an existing file */
} hpcdb_cube_write_options;

/* Writes exp as a .cubex file (atomically: the file appears whole or not at
 * all). options may be NULL. */
int hpcdb_cube_write(const hpcdb_experiment *exp, const char *path, const hpcdb_cube_write_options *options);

/* Lists, one line per kind, what hpcdb_cube_write cannot carry (summary
 * statistics, scopes other than the stored one, values at contexts the tree
 * does not list, ...). Returns the number of kinds of loss. */
uint64_t hpcdb_cube_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);

/* Checks a .cubex against the rules of specs/cube-v4.md and what readers
 * rely on: archive members, anchor.xml well-formed with unique ids and
 * references that resolve, an acyclic call tree, and each metric's index and
 * data consistent with each other and with the anchor. */
int hpcdb_cube_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
