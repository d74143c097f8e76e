/* SPDX-License-Identifier: BSD-3-Clause */
/* The v4.0 database as the library's format list sees it: a directory with
 * a meta.db, or one of its four files by the "HPCTOOLKIT" header's kind. */
#include <stdio.h>
#include <string.h>

#include "common/probe.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"
#include "hpctk4/hpctk4_read.h"
#include "hpctk4/validate.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  if (p->is_dir) {
    /* a meta.db that is not the draft's (draft b bids higher for its own) is
     * taken as v4.0 even when damaged, so that validation can say what is wrong */
    char meta[4096];
    *kind = HPCDB_FORMAT_HPCTK4_DIR;
    return probe_file_in(p->path, "meta.db", meta, sizeof meta) ? FORMAT_BID_DIR_NAMED : 0;
  }
  if (p->n < 14 || memcmp(p->head, "HPCTOOLKIT", 10) != 0) return 0;
  static const struct {
    const char *id;
    hpcdb_format f;
  } ids[] = {{"meta", HPCDB_FORMAT_HPCTK4_META},
             {"prof", HPCDB_FORMAT_HPCTK4_PROFILE},
             {"ctxt", HPCDB_FORMAT_HPCTK4_CCT},
             {"trce", HPCDB_FORMAT_HPCTK4_TRACE}};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
    if (memcmp(p->head + 10, ids[i].id, 4) == 0) {
      *kind = ids[i].f;
      return FORMAT_BID_PREFIX; /* draft b's magic begins so too: its own bid is higher */
    }
  return 0;
}

/* A lone profile.db, cct.db or trace.db is read as the database around it
 * (whole: the options apply to a directory or meta.db). */
static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  if (kind == HPCDB_FORMAT_HPCTK4_DIR || kind == HPCDB_FORMAT_HPCTK4_META) return hpctk4_read_opts(out, path, options);
  char dir[4096];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  return hpcdb_hpctk4_read(out, dir);
}

static const format_kind kinds[] = {
    {HPCDB_FORMAT_HPCTK4_DIR, "HPCToolkit database v4.0"},       {HPCDB_FORMAT_HPCTK4_META, "HPCToolkit meta.db v4.0"},
    {HPCDB_FORMAT_HPCTK4_PROFILE, "HPCToolkit profile.db v4.0"}, {HPCDB_FORMAT_HPCTK4_CCT, "HPCToolkit cct.db v4.0"},
    {HPCDB_FORMAT_HPCTK4_TRACE, "HPCToolkit trace.db v4.0"},
};

const format_desc hpctk4_format = {
    .name = "hpctoolkit-v4",
    .kinds = kinds,
    .n_kinds = sizeof kinds / sizeof *kinds,
    .caps = FORMAT_READS | FORMAT_READS_PART | FORMAT_WRITES | FORMAT_VALIDATES | FORMAT_CARRIES_TRACES,
    .detect = detect_kind,
    .read = read_kind,
    .write = hpcdb_hpctk4_write,
    .writer = "v4",
    .losses = hpcdb_hpctk4_write_losses,
    .validate = hpctk4_validate,
};
