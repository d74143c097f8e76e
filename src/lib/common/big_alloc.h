/* SPDX-License-Identifier: BSD-3-Clause */
/* Large scratch buffers (tens of MB and more) in transparent huge pages where
 * the kernel offers them (madvise mode): touching a fresh buffer then costs a
 * fault per 2 MiB instead of one per 4 KiB page, and walking it by rows a
 * few TLB entries. The memory comes zeroed. */
#ifndef HPCDB_COMMON_BIG_ALLOC_H
#define HPCDB_COMMON_BIG_ALLOC_H

#include <stddef.h>

/* NULL when out of memory; free with big_free(p, bytes) of the same size. */
void *big_alloc(size_t bytes);
void big_free(void *p, size_t bytes);

#endif
