/* SPDX-License-Identifier: BSD-3-Clause */
/* Recognising a format from its bytes, not its name: every descriptor bids
 * (how sure it is the path is its), the highest bid wins, equal bids the
 * smaller kind: the list's order does not matter. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/probe.h"
#include "core/formats.h"

int format_probe_of(format_probe *p, const char *path, uint8_t *head, size_t size) {
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  *p = (format_probe){.path = path, .is_dir = S_ISDIR(st.st_mode)};
  if (!p->is_dir) {
    p->n = probe_head(path, head, size);
    p->head = head;
    if (p->n == 0 && access(path, R_OK) != 0) /* unreadable is not unknown */
      return hpcdb_fail(HPCDB_EIO, "%s: cannot read: %s", path, strerror(errno));
  }
  return 0;
}

hpcdb_format format_detect_in(const format_desc *const *list, size_t n, const format_probe *p) {
  hpcdb_format best = HPCDB_FORMAT_UNKNOWN;
  unsigned best_bid = 0;
  for (size_t i = 0; i < n; i++) {
    hpcdb_format kind = HPCDB_FORMAT_UNKNOWN;
    unsigned bid = list[i]->detect(p, &kind);
    if (bid && kind != HPCDB_FORMAT_UNKNOWN && (bid > best_bid || (bid == best_bid && kind < best)))
      best = kind, best_bid = bid;
  }
  return best;
}

int hpcdb_detect(hpcdb_format *out, const char *path) {
  *out = HPCDB_FORMAT_UNKNOWN;
  uint8_t head[4096];
  format_probe p;
  HPCDB_TRY(format_probe_of(&p, path, head, sizeof head));
  size_t n;
  const format_desc *const *formats = format_list(&n);
  *out = format_detect_in(formats, n, &p);
  const char *left_out = format_parts_left_out();
  if (*out == HPCDB_FORMAT_UNKNOWN && left_out)
    return hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a format hpcdb reads (no known magic bytes; built without %s)", path,
                      left_out);
  if (*out == HPCDB_FORMAT_UNKNOWN)
    return hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a format hpcdb reads (no known magic bytes)", path);
  return 0;
}

const char *hpcdb_format_name(hpcdb_format format) {
  const char *name = "unknown";
  format_lookup(format, &name);
  return name;
}
