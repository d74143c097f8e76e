/* SPDX-License-Identifier: BSD-3-Clause */
/* testlib_gzip_copy: a file gzip-compressed, as Cube readers meet a
 * compressed archive. */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "testlib.h"

const char *testlib_gzip_copy(const char *path, const char *dir, const char *name) {
  static char out[4200];
  uint8_t *data;
  size_t len;
  snprintf(out, sizeof out, "%s/%s.cubex.gz", dir, name);
  CHECK(testlib_read_file(path, &data, &len) == 0);
  gzFile z = gzopen(out, "wb");
  CHECK(z != NULL && gzwrite(z, data, (unsigned)len) == (int)len && gzclose(z) == Z_OK);
  free(data);
  return out;
}
