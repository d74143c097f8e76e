/* SPDX-License-Identifier: BSD-3-Clause */
#include "hpcdb/common.h"

const char *hpcdb_version(void) { return HPCDB_VERSION_STRING; }

unsigned hpcdb_version_number(void) { return HPCDB_VERSION_NUMBER; }
