/* SPDX-License-Identifier: BSD-3-Clause */
/* An export's descriptor: what hpcdb_export lists and how it writes. Each
 * export's file defines one; exports.c is the table (internal to report). */
#ifndef HPCDB_REPORT_EXPORT_REGISTRY_H
#define HPCDB_REPORT_EXPORT_REGISTRY_H

#include "hpcdb/model.h"
#include "hpcdb/report.h"
#include "hpcdb/source.h"

typedef struct export_desc {
  hpcdb_export_info info;
  /* exp: the experiment with the values info.reads names (NULL when it reads
   * the profiles through src); o->metric is the default one when none was named. */
  int (*write)(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o);
} export_desc;

extern const export_desc export_folded, export_csv, export_speedscope, export_chrome_trace, export_flamegraph,
    export_html;

#endif
