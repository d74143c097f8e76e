/* SPDX-License-Identifier: BSD-3-Clause */
/* The 2021-22 draft database (internal): experiment.xml version "4.0" for the
 * tree and metric tables, and the big-endian HPCPROF-profdb__, -cctdb___ and
 * -tracedb_ files (version 1.0) for values and traces, read through hpcprof1. */
#ifndef HPCDB_DRAFTA_H
#define HPCDB_DRAFTA_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "older/expxml/expxml.h"
#include "older/hpcprof1/hpcprof1.h"

/* The file metric ids of profile.db mapped to model ids: MetricDB i -> the
 * propagated id (thread profiles), Metric i of a stored partial ("NAME:PARTIAL:k")
 * -> the statistic id (summary profile); everything else dropped. The arrays
 * have 65536 entries. */
typedef struct drafta_metric_map {
  uint16_t *thread;
  uint16_t *summary;
} drafta_metric_map;

int drafta_build_metrics(hpcdb_experiment *exp, const expxml_doc *doc, drafta_metric_map *map, const char *path);
void drafta_metric_map_free(drafta_metric_map *map);

/* Database directory and its files (path may be the directory or its experiment.xml). */
typedef struct drafta_paths {
  char dir[4096], xml[4200], profile[4200], cct[4200], trace[4200];
} drafta_paths;
int drafta_paths_of(drafta_paths *p, const char *path);
/* Context ids the binary files may use (cct.db's number of contexts), 0 when unknown. */
uint32_t drafta_value_id_bound(const drafta_paths *p);

/* After the values and traces are read: the entry point and the inner
 * elements of contexts written twice (expxml_mirror) get the values the stored
 * ones imply, and trace samples of X go to the inner element with it="X"
 * (mirrors.c). path names the XML in warnings. */
int drafta_fill_mirrors(hpcdb_experiment *exp, const expxml_mirror *mirrors, uint64_t n, const char *path);

/* The module's face to the library: its descriptor (format.c), and what it
 * points at. */
extern const format_desc drafta_format;
int drafta_read(hpcdb_experiment **out, const char *path);
int drafta_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#endif
