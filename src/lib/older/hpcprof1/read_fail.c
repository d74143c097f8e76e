/* SPDX-License-Identifier: BSD-3-Clause */
/* The readers' error for a broken HPCPROF-* rule. */
#include <string.h>

#include "common/error.h"
#include "older/hpcprof1/hp1_read.h"

int hpcprof1_fail(const hpcprof1_file *f, const char *section, const hpcprof1_problem *pb) {
  int status = HPCDB_ECORRUPT;
  if (!strcmp(pb->rule, "magic")) status = HPCDB_ENOTFORMAT;
  else if (!strcmp(pb->rule, "version")) status = HPCDB_EVERSION;
  else if (!strcmp(pb->rule, "header-size")) status = HPCDB_ETRUNCATED;
  return hpcdb_fail_at(status, f->path, section, pb->offset, pb->rule, "%s", pb->detail);
}
