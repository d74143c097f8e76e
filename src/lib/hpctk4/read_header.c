/* SPDX-License-Identifier: BSD-3-Clause */
/* The common header of every v4.0 file (specification: "Common file
 * structure"): checked once, before anything else is read. */
#include <string.h>

#include "common/error.h"
#include "hpctk4/hpctk4_read.h"

int hpctk4_open_bytes(hpctk4_file *f, const uint8_t *data, uint64_t len, const char *path, const char format[4],
                      const char footer[8], unsigned n_sections) {
  memset(f, 0, sizeof *f);
  f->path = path;
  f->data = data;
  f->len = len;
  f->n_sections = n_sections;
  uint64_t header = 16 + 16 * (uint64_t)n_sections;
  if (len < 14 || memcmp(data, "HPCTOOLKIT", 10) != 0)
    return hpcdb_fail_at(HPCDB_ENOTFORMAT, path, "header", 0, "magic", "not an HPCToolkit database file");
  if (memcmp(data + 10, format, 4) != 0)
    return hpcdb_fail_at(HPCDB_ENOTFORMAT, path, "header", 10, "format",
                         "format id \"%.4s\" where \"%.4s\" was expected", (const char *)data + 10, format);
  if (len < 16) return hpcdb_fail_at(HPCDB_ETRUNCATED, path, "header", len, "header-size", "file ends in the header");
  f->major = data[14];
  f->minor = data[15];
  if (f->major != 4)
    return hpcdb_fail_at(HPCDB_EVERSION, path, "header", 14, "version", "major version %u (this reader reads 4)",
                         f->major);
  if (len < header + 8)
    return hpcdb_fail_at(HPCDB_ETRUNCATED, path, "header", len, "header-size",
                         "file of %llu bytes is shorter than its header and footer", (unsigned long long)len);
  if (memcmp(data + len - 8, footer, 8) != 0)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "footer", len - 8, "footer",
                         "the file does not end in \"%.8s\" (truncated?)", footer);
  for (unsigned i = 0; i < n_sections; i++) {
    f->sec_size[i] = rd_le64(data + 16 + 16 * i);
    f->sec_off[i] = rd_le64(data + 24 + 16 * i);
    if (!in_bounds(len - 8, f->sec_off[i], f->sec_size[i]))
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "header", 16 + 16 * (uint64_t)i, "section-bounds",
                           "section %u (0x%llx + %llu bytes) is not inside the file", i + 1,
                           (unsigned long long)f->sec_off[i], (unsigned long long)f->sec_size[i]);
  }
  return 0;
}

void hpctk4_cursor(const hpctk4_file *f, hpcdb_cursor *c, const char *section) {
  cursor_init(c, f->data, f->len, f->path);
  c->section = section;
}
