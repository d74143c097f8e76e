/* SPDX-License-Identifier: BSD-3-Clause */
/* The hpcrun module's descriptor for the library's format list. */
#ifndef HPCDB_HPCRUN_FORMAT_H
#define HPCDB_HPCRUN_FORMAT_H

#include "model/format.h"

extern const format_desc hpcrun_format;

#endif
