/* SPDX-License-Identifier: BSD-3-Clause */
/* Legacy databases as the library's format list sees them: an
 * experiment.xml of any version but 4.0 (expxml_generation), or a directory
 * holding one. */
#include "older/legacy/legacy.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  *kind = HPCDB_FORMAT_LEGACY_XML;
  return expxml_generation(p) == 2 ? FORMAT_BID_WORD : 0;
}

static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  return legacy_read(out, path);
}

static const format_kind kinds[] = {{HPCDB_FORMAT_LEGACY_XML, "HPCToolkit experiment.xml 2.x database"}};

const format_desc legacy_format = {
    .name = "hpctoolkit-legacy",
    .kinds = kinds,
    .n_kinds = 1,
    .caps = FORMAT_READS | FORMAT_VALIDATES,
    .detect = detect_kind,
    .read = read_kind,
    .validate = legacy_validate,
};
