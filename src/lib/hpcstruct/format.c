/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcstruct's structure file as the library's format list sees it: no
 * experiment to read, but a file to recognise and validate. */
#include "common/probe.h"
#include "hpcstruct/hpcstruct_private.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  *kind = HPCDB_FORMAT_HPCSTRUCT;
  return !p->is_dir && probe_contains(p->head, p->n, "HPCToolkitStructure") ? FORMAT_BID_NAME : 0;
}

static const format_kind kinds[] = {{HPCDB_FORMAT_HPCSTRUCT, "HPCToolkit structure file (hpcstruct)"}};

const format_desc hpcstruct_format = {
    .name = "hpcstruct",
    .kinds = kinds,
    .n_kinds = 1,
    .caps = FORMAT_VALIDATES,
    .detect = detect_kind,
    .validate = hpcdb_hpcstruct_validate,
};
