/* SPDX-License-Identifier: BSD-3-Clause */
/* Status codes and the per-thread error message (internal). */
#ifndef HPCDB_COMMON_ERROR_H
#define HPCDB_COMMON_ERROR_H

#include <stdint.h>

#include "hpcdb/common.h"

#if defined(__GNUC__)
#define HPCDB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HPCDB_PRINTF(a, b)
#endif

/* Sets the thread's message and returns status (so: `return hpcdb_fail(...)`). */
int hpcdb_fail(int status, const char *fmt, ...) HPCDB_PRINTF(2, 3);

/* The one place format violations are reported from (set a breakpoint here):
 * "path: section: offset 0x…: rule: detail". Returns status. */
int hpcdb_fail_at(int status, const char *path, const char *section, uint64_t offset, const char *rule, const char *fmt,
                  ...) HPCDB_PRINTF(6, 7);

/* Prefixes the current message with "context: " (for upper layers adding
 * where they were, without losing what the lower layer said). */
int hpcdb_fail_wrap(int status, const char *fmt, ...) HPCDB_PRINTF(2, 3);

/* Refuses an options struct from a newer caller than this library
 * (docs/api-stability.md): version 0 is taken as 1, the first. */
int hpcdb_options_check(unsigned version, unsigned supported, const char *name);
#define HPCDB_CHECK_OPTIONS(opts, SUPPORTED, name)                                                    \
  do {                                                                                                \
    if ((opts) && hpcdb_options_check((opts)->version, (SUPPORTED), (name)) < 0) return HPCDB_EINVAL; \
  } while (0)

#define HPCDB_TRY(expr)                          \
  do {                                           \
    int hpcdb_try_rc_ = (expr);                  \
    if (hpcdb_try_rc_ < 0) return hpcdb_try_rc_; \
  } while (0)

#endif
