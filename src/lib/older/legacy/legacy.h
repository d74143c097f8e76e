/* SPDX-License-Identifier: BSD-3-Clause */
/* Legacy HPCToolkit databases (before 2020): experiment.xml (DTD 2.x) with
 * inline <M> summary values and per-thread *.metric-db files (internal). */
#ifndef HPCDB_LEGACY_H
#define HPCDB_LEGACY_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "older/expxml/expxml.h"

/* Metric-db rows are context ids minus one: row 0 is the root (id 1), which
 * the model keeps as the "main thread" entry point. */
#define LEGACY_ENTRY_ID 1u
#define LEGACY_DROP 0xFFFFu

/* ---- metric-db files ("HPCPROF-metricdb__", big-endian) ------------------ */

#define LEGACY_METRICDB_MAGIC "HPCPROF-metricdb__"
#define LEGACY_METRICDB_IDENT 24 /* magic (18), version "00.10" (5), endianness 'b' (1) */

typedef struct legacy_metricdb_header {
  char version[6];
  uint32_t n_nodes;   /* rows: context ids 1..n_nodes */
  uint32_t n_metrics; /* columns: MetricDB db-id */
  uint64_t data_offset;
} legacy_metricdb_header;

/* Checks the header and that the file holds every row; extra bytes after the
 * last row are reported through *trailing. */
int legacy_metricdb_header_parse(legacy_metricdb_header *h, const uint8_t *data, uint64_t len, const char *path,
                                 uint64_t *trailing);
/* Non-zero values of a metric-db in CSR form (contexts ascending; only the
 * profile's CSR fields are set), columns mapped through column_ids
 * (LEGACY_DROP drops them). The arrays are malloc'ed for
 * hpcdb_profile_adopt_csr. */
int legacy_metricdb_values(hpcdb_profile *out, const uint8_t *data, uint64_t len, const char *path,
                           const legacy_metricdb_header *h, const uint16_t *column_ids, uint32_t n_columns);
void legacy_csr_free(hpcdb_profile *c);

/* ---- the metric tables ------------------------------------------------- */

typedef struct legacy_metric_map {
  uint16_t *inline_stat; /* doc->metrics index -> statistic id in the summary profile */
  uint16_t *column_prop; /* metric-db column -> propagated id in the thread profiles */
  uint32_t n_columns;    /* db-num-metrics */
} legacy_metric_map;

/* Model metrics, scopes and summaries from the Metric and MetricDB tables. */
int legacy_build_metrics(hpcdb_experiment *exp, const expxml_doc *doc, legacy_metric_map *map, const char *path);
void legacy_metric_map_free(legacy_metric_map *map);

/* Format, version, identifier kinds (SUMMARY, NODE, RANK, THREAD), metrics
 * and the summary profile (profiles[0]) from the inline values: the part of
 * the model experiment.xml alone gives. The doc's value arrays are adopted
 * by the model. */
enum { LEGACY_KIND_SUMMARY, LEGACY_KIND_NODE, LEGACY_KIND_RANK, LEGACY_KIND_THREAD };
int legacy_from_xml(hpcdb_experiment *exp, expxml_doc *doc, legacy_metric_map *map, const char *xml);

/* ---- metric-db files of a directory ------------------------------------ */

typedef struct legacy_profile_file {
  char *name; /* file name inside the directory */
  int64_t rank, thread;
  uint64_t host; /* host id (hex in the name) */
  int named;     /* the name had the -rank-thread-host-pid-gen form */
} legacy_profile_file;

/* The *.metric-db files (db-glob of the MetricDB table) sorted by rank, thread, name. */
int legacy_list_files(legacy_profile_file **out, uint32_t *n, const char *dir, const char *glob);
void legacy_files_free(legacy_profile_file *files, uint32_t n);

/* experiment.xml inside a database directory, or path itself. */
int legacy_paths(const char *path, char *dir, size_t dir_size, char *xml, size_t xml_size);

/* The module's face to the library: its descriptor (format.c), and what it
 * points at. */
extern const format_desc legacy_format;
int legacy_read(hpcdb_experiment **out, const char *path);
int legacy_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#endif
