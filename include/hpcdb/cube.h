/* hpcdb — Cube v4 (.cubex) files from Score-P and Scalasca. */
#ifndef HPCDB_CUBE_H
#define HPCDB_CUBE_H

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a .cubex archive (tar or tar.gz): regions become functions, cnodes
 * contexts (native id = cnode id + 1, recorded in the attribute
 * cube.ctx_id_offset), locations profiles after a summary profile, each
 * metric a metric with exclusive ("point") and inclusive ("execution")
 * values. The mapping is described in docs/mapping.md. */
int hpcdb_cube_read(hpcdb_experiment **out, const char *path);

#ifdef __cplusplus
}
#endif
#endif
