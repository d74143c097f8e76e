/* SPDX-License-Identifier: BSD-3-Clause */
/* Draft a as the library's format list sees it: an experiment.xml of
 * version 4.0 (expxml_generation), or a directory holding one. */
#include "older/drafta/drafta.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  *kind = HPCDB_FORMAT_DRAFT_A;
  return expxml_generation(p) == 4 ? FORMAT_BID_WORD : 0;
}

static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  return drafta_read(out, path);
}

static const format_kind kinds[] = {{HPCDB_FORMAT_DRAFT_A, "HPCToolkit experiment.xml 4.0 database (2021-22 draft)"}};

const format_desc drafta_format = {
    .name = "hpctoolkit-draft-a",
    .kinds = kinds,
    .n_kinds = 1,
    .caps = FORMAT_READS | FORMAT_VALIDATES | FORMAT_CARRIES_TRACES,
    .detect = detect_kind,
    .read = read_kind,
    .validate = drafta_validate,
};
