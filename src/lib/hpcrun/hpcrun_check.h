/* SPDX-License-Identifier: BSD-3-Clause */
/* The validator's rules between the parts of a parsed file (tree, sparse
 * values, layout) and of a trace against its profile (profile may be NULL:
 * then only the time order is checked). Diagnostics go to fn; counts add up
 * in res. hpcdb_hpcrun_validate runs these after parsing. */
#ifndef HPCDB_HPCRUN_CHECK_H
#define HPCDB_HPCRUN_CHECK_H

#include "hpcdb/formats.h"
#include "hpcrun/hpcrun_file.h"

void hpcrun_check_profile(hpcdb_validation *res, const char *path, const hpcrun_file *f, hpcdb_diagnostic_fn fn,
                          void *user);
void hpcrun_check_trace(hpcdb_validation *res, const char *path, const hpcrun_trace_file *t, const hpcrun_file *profile,
                        hpcdb_diagnostic_fn fn, void *user);

#endif
