/* SPDX-License-Identifier: BSD-3-Clause */
/* Adding measurement files to an experiment (the model mapping). The analysis
 * pipeline may build on the same pieces. */
#ifndef HPCDB_HPCRUN_MODEL_H
#define HPCDB_HPCRUN_MODEL_H

#include "common/hashmap.h"
#include "hpcdb/model.h"
#include "hpcrun/hpcrun_file.h"

typedef struct hpcrun_builder {
  hpcdb_experiment *exp;
  int renumber; /* several trees: native ids 1, 2, ... in order of addition */
  uint32_t next_id;
  uint32_t point_scope;
  int have_range;
  hpcdb_u64map name_numbers; /* interned metric name -> small number */
  uint64_t n_names;
  hpcdb_u64map metric_ids; /* name number << 16 | occurrence -> metric index */
  hpcdb_u64map modules;    /* interned module path -> module index */
  hpcdb_u64map idle;       /* context ids of "NoActvty" placeholders: not running in a trace */
} hpcrun_builder;

void hpcrun_builder_init(hpcrun_builder *b, hpcdb_experiment *exp, int renumber);
void hpcrun_builder_free(hpcrun_builder *b);

/* One file as one profile (trace optional; attr_prefix, when not NULL,
 * prefixes the header pair names: "file:name"). */
int hpcrun_builder_add(hpcrun_builder *b, const char *path, const hpcrun_file *f, const hpcrun_trace_file *t,
                       const char *trace_path, const char *attr_prefix);

/* The id a node is known by: 02.00 leaf ids are stored negated. */
uint32_t hpcrun_stored_key(const hpcrun_file *f, uint32_t id);

#endif
