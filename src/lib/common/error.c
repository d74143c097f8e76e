/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define HPCDB_MSG_MAX 1024

static _Thread_local char last_message[HPCDB_MSG_MAX];

const char *hpcdb_last_error(void) { return last_message; }

void hpcdb_clear_error(void) { last_message[0] = '\0'; }

const char *hpcdb_status_name(int status) {
  switch (status) {
  case HPCDB_OK: return "ok";
  case HPCDB_ENOTFORMAT: return "not this format";
  case HPCDB_EVERSION: return "unsupported version";
  case HPCDB_ETRUNCATED: return "truncated";
  case HPCDB_ECORRUPT: return "corrupt";
  case HPCDB_EIO: return "i/o error";
  case HPCDB_ENOMEM: return "out of memory";
  case HPCDB_EINVAL: return "invalid argument";
  case HPCDB_EUNSUPPORTED: return "unsupported";
  case HPCDB_EEXIST: return "already exists";
  case HPCDB_ECANCELED: return "cancelled";
  default: return "unknown status";
  }
}

int hpcdb_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_message, sizeof last_message, fmt, ap);
  va_end(ap);
  return status;
}

int hpcdb_fail_at(int status, const char *path, const char *section, uint64_t offset, const char *rule, const char *fmt,
                  ...) {
  int n = snprintf(last_message, sizeof last_message, "%s: %s: offset 0x%llx: %s: ", path ? path : "(memory)",
                   section ? section : "file", (unsigned long long)offset, rule);
  if (n < 0 || (size_t)n >= sizeof last_message) return status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_message + n, sizeof last_message - (size_t)n, fmt, ap);
  va_end(ap);
  return status;
}

int hpcdb_fail_wrap(int status, const char *fmt, ...) {
  char prefix[HPCDB_MSG_MAX];
  char saved[HPCDB_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(saved, last_message, sizeof saved);
  snprintf(last_message, sizeof last_message, "%s: %s", prefix, saved);
  return status;
}

int hpcdb_options_check(unsigned version, unsigned supported, const char *name) {
  if (version <= supported) return 0;
  return hpcdb_fail(HPCDB_EINVAL, "%s: version %u is newer than this library's %u (hpcdb %s)", name, version, supported,
                    HPCDB_VERSION_STRING);
}
