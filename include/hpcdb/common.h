/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — what every part of the API shares: the version, the status codes and
 * the error of the last failure.
 *
 * Conventions: every function that can fail returns 0 or a negative
 * hpcdb_status; the message with context (path, section, offset, rule) is then
 * available from hpcdb_last_error() in the same thread. Out-parameters come
 * first; what comes back through **out is the caller's to release with the
 * matching _free/_close function (all NULL-safe). The library never prints. */
#ifndef HPCDB_COMMON_H
#define HPCDB_COMMON_H

#include "hpcdb/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HPCDB_VERSION_MAJOR 0
#define HPCDB_VERSION_MINOR 2
#define HPCDB_VERSION_PATCH 0
#define HPCDB_VERSION_STRING "0.2.0"
/* One number that compares: 0.1.0 is 100, 1.2.3 is 10203 (as SQLite and zstd do). */
#define HPCDB_VERSION_NUMBER (HPCDB_VERSION_MAJOR * 10000 + HPCDB_VERSION_MINOR * 100 + HPCDB_VERSION_PATCH)
/* The version of the library linked at run time (the macros: the headers compiled against). */
HPCDB_API const char *hpcdb_version(void);
HPCDB_API unsigned hpcdb_version_number(void);

typedef enum hpcdb_status {
  HPCDB_OK = 0,
  HPCDB_ENOTFORMAT = -1,   /* not this format (bad magic, unknown file) */
  HPCDB_EVERSION = -2,     /* a version this library does not read */
  HPCDB_ETRUNCATED = -3,   /* data ends before a structure does */
  HPCDB_ECORRUPT = -4,     /* a rule of the format is broken */
  HPCDB_EIO = -5,          /* the operating system said no */
  HPCDB_ENOMEM = -6,       /* out of memory, or a size that cannot be allocated */
  HPCDB_EINVAL = -7,       /* the caller's arguments are wrong */
  HPCDB_EUNSUPPORTED = -8, /* valid input this library cannot represent */
  HPCDB_EEXIST = -9,       /* the output exists and may not be overwritten */
  HPCDB_ECANCELED = -10    /* the caller's cancel hook said stop (the work was superseded) */
} hpcdb_status;

/* Message of the last failure in this thread ("" when none). */
HPCDB_API const char *hpcdb_last_error(void);
HPCDB_API void hpcdb_clear_error(void);
HPCDB_API const char *hpcdb_status_name(int status);

/* Removes what runs writing output left behind when they were killed: the
 * hidden temporaries beside it, `.NAME.hpcdb-tmp-PID.*`, whose PID is not a
 * live process (a live run's are never touched). Every writer of the library
 * does this itself before writing; for a program's own writers. */
HPCDB_API void hpcdb_remove_leftovers(const char *output);

#ifdef __cplusplus
}
#endif

#endif
