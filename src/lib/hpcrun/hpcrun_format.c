/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcrun measurements as the library's format list sees them: a file by its
 * magic, or a directory of .hpcrun files (hpcdb_hpcrun_detect). */
#include "hpcdb/hpcrun.h"
#include "hpcrun/hpcrun_format.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  if (!p->is_dir) {
    *kind = hpcdb_hpcrun_sniff(p->head, p->n);
    return *kind != HPCDB_FORMAT_UNKNOWN ? FORMAT_BID_SURE : 0;
  }
  return hpcdb_hpcrun_detect(kind, p->path) == 0 ? FORMAT_BID_DIR_FILES : 0;
}

static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  return hpcdb_hpcrun_read(out, path);
}

static const format_kind kinds[] = {
    {HPCDB_FORMAT_HPCRUN, "hpcrun measurement file"},
    {HPCDB_FORMAT_HPCTRACE, "hpcrun trace file"},
    {HPCDB_FORMAT_HPCRUN_DIR, "hpcrun measurements directory"},
};

const format_desc hpcrun_format = {
    .name = "hpcrun",
    .kinds = kinds,
    .n_kinds = sizeof kinds / sizeof *kinds,
    .caps = FORMAT_READS | FORMAT_VALIDATES | FORMAT_CARRIES_TRACES,
    .detect = detect_kind,
    .read = read_kind,
    .validate = hpcdb_hpcrun_validate,
};
