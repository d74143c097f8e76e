/* SPDX-License-Identifier: BSD-3-Clause */
/* Cube v4 as the library's format list sees it: a .cubex is a tar archive
 * ("ustar" at 257) or a gzipped one. */
#include <string.h>

#include "cube/cube.h"
#include "hpcdb/cube.h"

static unsigned detect_kind(const format_probe *p, hpcdb_format *kind) {
  if (p->is_dir) return 0;
  int tar = p->n > 262 && memcmp(p->head + 257, "ustar", 5) == 0;
  int gzip = p->n >= 2 && p->head[0] == 0x1f && p->head[1] == 0x8b;
  *kind = HPCDB_FORMAT_CUBE;
  return tar || gzip ? FORMAT_BID_CONTAINER : 0;
}

static int read_kind(hpcdb_experiment **out, const char *path, hpcdb_format kind, const hpcdb_read_options *options) {
  return cube_read_opts(out, path, options);
}

static int write_cubex(const hpcdb_experiment *exp, const char *path, unsigned flags) {
  hpcdb_cube_write_options options = {.compress = (flags & HPCDB_WRITE_COMPRESS) != 0,
                                      .flags = flags & ~HPCDB_WRITE_COMPRESS};
  return hpcdb_cube_write(exp, path, &options);
}

static const format_kind kinds[] = {{HPCDB_FORMAT_CUBE, "Cube 4 (.cubex)"}};

const format_desc cube_format = {
    .name = "cube",
    .kinds = kinds,
    .n_kinds = 1,
    .caps = FORMAT_READS | FORMAT_READS_PART | FORMAT_WRITES | FORMAT_VALIDATES | FORMAT_COMPRESSES,
    .detect = detect_kind,
    .read = read_kind,
    .write = write_cubex,
    .writer = "cube",
    .losses = hpcdb_cube_write_losses,
    .validate = hpcdb_cube_validate,
};
