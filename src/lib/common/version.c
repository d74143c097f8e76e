/* SPDX-License-Identifier: BSD-3-Clause */
#include "hpcdb/hpcdb.h"

const char *hpcdb_version(void) { return HPCDB_VERSION_STRING; }
