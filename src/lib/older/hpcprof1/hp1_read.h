/* SPDX-License-Identifier: BSD-3-Clause */
/* What the HPCPROF-* readers share (internal). */
#ifndef HPCDB_HPCPROF1_READ_H
#define HPCDB_HPCPROF1_READ_H

#include "older/hpcprof1/hp1_file.h"

/* The reader's error for a broken rule: magic -> HPCDB_ENOTFORMAT, version ->
 * HPCDB_EVERSION, a short header -> HPCDB_ETRUNCATED, others HPCDB_ECORRUPT. */
int hpcprof1_fail(const hpcprof1_file *f, const char *section, const hpcprof1_problem *pb);

#endif
