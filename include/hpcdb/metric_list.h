/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the metrics as a database presents them to a viewer: an
 * HPCToolkit v4.0 database's metrics/default.yaml gives their order,
 * descriptions and groups (hpcviewer's metric list); other formats give the
 * experiment's order and descriptions. */
/* ABI (docs/api-stability.md): the layouts of this header's structs may
 * change in any 0.x minor release; code that reads their fields is
 * recompiled for it. */
#ifndef HPCDB_METRIC_LIST_H
#define HPCDB_METRIC_LIST_H

#include "hpcdb/export.h"

#include <stdint.h>

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hpcdb_metric_entry {
  uint32_t metric;         /* index into exp->metrics */
  const char *description; /* the YAML's, else the experiment's, or NULL */
  const char
      *group; /* the YAML entry holding it, else the name's prefix before ':' (GXCOPY:H2D (B): GXCOPY), or NULL */
} hpcdb_metric_entry;

typedef struct hpcdb_metric_list {
  hpcdb_metric_entry *entries; /* every named metric of exp once: the YAML's first, in its order, then the rest */
  uint32_t n;
  char **owned; /* the descriptions and groups read (internal) */
  uint32_t n_owned;
} hpcdb_metric_list;

/* The list for exp read from dir (dir/metrics/default.yaml when there is
 * one; dir NULL or without it: the experiment's order). A YAML file that
 * cannot be read or parsed fails (HPCDB_EIO / HPCDB_ECORRUPT, with its path
 * and where); hpcdb_metric_list_read(out, exp, NULL) then still gives the
 * experiment's order. */
HPCDB_API int hpcdb_metric_list_read(hpcdb_metric_list *out, const hpcdb_experiment *exp, const char *dir);
HPCDB_API void hpcdb_metric_list_free(hpcdb_metric_list *l); /* NULL-safe */

#ifdef __cplusplus
}
#endif

#endif
