/* SPDX-License-Identifier: BSD-3-Clause */
/* The public face of atomic_clean_leftovers, for the programs' own writers
 * (the CLI's -o FILE) and for a run whose writing child died. */
#include "common/atomic_dir.h"
#include "hpcdb/common.h"

void hpcdb_remove_leftovers(const char *output) { atomic_clean_leftovers(output); }
