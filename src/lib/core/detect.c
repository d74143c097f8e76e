/* SPDX-License-Identifier: BSD-3-Clause */
/* Recognising a format from its bytes, not its name: the first descriptor
 * that claims the path wins. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/probe.h"
#include "core/formats.h"

int hpcdb_detect(hpcdb_format *out, const char *path) {
  *out = HPCDB_FORMAT_UNKNOWN;
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  uint8_t head[4096];
  format_probe p = {.path = path, .is_dir = S_ISDIR(st.st_mode)};
  if (!p.is_dir) {
    p.n = probe_head(path, head, sizeof head);
    p.head = head;
    if (p.n == 0 && access(path, R_OK) != 0) /* unreadable is not unknown */
      return hpcdb_fail(HPCDB_EIO, "%s: cannot read: %s", path, strerror(errno));
  }
  size_t n;
  const format_desc *const *formats = format_list(&n);
  for (size_t i = 0; i < n && *out == HPCDB_FORMAT_UNKNOWN; i++) *out = formats[i]->detect(&p);
  if (*out == HPCDB_FORMAT_UNKNOWN)
    return hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a format hpcdb reads (no known magic bytes)", path);
  return 0;
}

const char *hpcdb_format_name(hpcdb_format format) {
  const char *name = "unknown";
  format_lookup(format, &name);
  return name;
}
