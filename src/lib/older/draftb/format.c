/* SPDX-License-Identifier: BSD-3-Clause */
/* Draft b as the library's format list sees it: a meta.db (or a directory
 * holding one) that starts with "HPCTOOLKIT_expmt". Asked before v4.0,
 * whose magic begins the same. */
#include <string.h>

#include "common/probe.h"
#include "older/draftb/draftb.h"

static int is_draftb(const uint8_t *head, size_t n) { return n >= 16 && memcmp(head, "HPCTOOLKIT_expmt", 16) == 0; }

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  *kind = HPCDB_FORMAT_DRAFT_B;
  if (!p->is_dir) return is_draftb(p->head, p->n) ? FORMAT_BID_SURE : 0;
  char meta[4096];
  uint8_t head[16];
  if (!probe_file_in(p->path, "meta.db", meta, sizeof meta)) return 0;
  return is_draftb(head, probe_head(meta, head, sizeof head)) ? FORMAT_BID_SURE : 0;
}

static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  return draftb_read(out, path);
}

static const format_kind kinds[] = {{HPCDB_FORMAT_DRAFT_B, "HPCToolkit meta.db draft (HPCTOOLKIT_expmt)"}};

const format_desc draftb_format = {
    .name = "hpctoolkit-draft-b",
    .kinds = kinds,
    .n_kinds = 1,
    .caps = FORMAT_READS | FORMAT_VALIDATES | FORMAT_CARRIES_TRACES,
    .detect = detect_kind,
    .read = read_kind,
    .validate = draftb_validate,
};
