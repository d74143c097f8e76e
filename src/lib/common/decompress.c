/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/decompress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "common/vec.h"

int decompress_magic(const uint8_t *p, size_t n) {
  static const uint8_t xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0}, gz[2] = {0x1f, 0x8b}, bz[3] = {'B', 'Z', 'h'};
  return (n >= 6 && !memcmp(p, xz, 6)) || (n >= 2 && !memcmp(p, gz, 2)) || (n >= 3 && !memcmp(p, bz, 3));
}

int decompress_file_is_compressed(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  uint8_t magic[6] = {0};
  size_t got = fread(magic, 1, sizeof magic, f);
  fclose(f);
  return decompress_magic(magic, got);
}

int decompress_file(const char *path, uint64_t max, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  const archive_lib *al = archive_lib_open(path);
  if (!al) return HPCDB_EIO;
  struct archive *a = al->read_new();
  if (!a) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  al->read_support_filter_all(a);
  al->read_support_format_raw(a);
  struct archive_entry *e;
  int h = al->read_open_filename(a, path, 1 << 16) == ARCHIVE_OK ? al->read_next_header(a, &e) : ARCHIVE_FATAL;
  if (h != ARCHIVE_OK && h != ARCHIVE_EOF) { /* EOF: an empty file */
    int rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: unreadable%s: %s", path,
                        decompress_file_is_compressed(path) ? " compressed data" : "",
                        al->error_string(a) ? al->error_string(a) : "cannot open");
    al->read_free(a);
    return rc;
  }
  uint64_t cap = 0;
  char *buf = NULL;
  int rc = VEC_RESERVE(&buf, &cap, 1) < 0 ? HPCDB_ENOMEM : 0;
  for (; rc == 0 && h == ARCHIVE_OK;) {
    if (VEC_RESERVE(&buf, &cap, *len + (1 << 16) + 1) < 0) {
      rc = HPCDB_ENOMEM;
      break;
    }
    la_ssize_t got = al->read_data(a, buf + *len, 1 << 16);
    if (got < 0) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: damaged data after %zu bytes: %s", path, *len,
                      al->error_string(a) ? al->error_string(a) : "unreadable");
      break;
    }
    if (got == 0) break;
    *len += (size_t)got;
    if (*len > max) {
      rc = hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: more than %llu bytes once decompressed", path, (unsigned long long)max);
      break;
    }
  }
  al->read_free(a);
  if (rc < 0) {
    free(buf);
    *len = 0;
    return rc;
  }
  buf[*len] = '\0';
  *out = buf;
  return 0;
}
