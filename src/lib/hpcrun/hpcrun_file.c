/* SPDX-License-Identifier: BSD-3-Clause */
/* Entry points of the .hpcrun reader: magic and version decide between the
 * epoch layout (02.00, 03.00) and the sectioned 04.00 layout. */
#include <stdlib.h>
#include <string.h>

#include "common/mapped_file.h"
#include "hpcrun/hpcrun_parse.h"

static int version_digits(const uint8_t *v, uint8_t *major, uint8_t *minor) {
  for (int i = 0; i < 5; i++)
    if (i != 2 && (v[i] < '0' || v[i] > '9')) return 0;
  if (v[2] != '.') return 0;
  *major = (uint8_t)((v[0] - '0') * 10 + (v[1] - '0'));
  *minor = (uint8_t)((v[3] - '0') * 10 + (v[4] - '0'));
  return 1;
}

int hpcrun_file_parse(hpcrun_file **out, const uint8_t *data, uint64_t len, const char *path, hpcrun_parse_error *err) {
  *out = NULL;
  hpcrun_file *f = calloc(1, sizeof *f);
  if (!f) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  hpcrun_parser p;
  hpcrun_parse_init(&p, data, len, path, &f->arena);
  p.c.section = "header";
  int rc;
  if (len < HPCRUN_HEADER_LEN || memcmp(data, HPCRUN_MAGIC, HPCRUN_MAGIC_LEN) != 0) {
    rc = hpcrun_parse_fail(&p, HPCDB_ENOTFORMAT, 0, "magic", "not an hpcrun profile (no \"%s\")", HPCRUN_MAGIC);
  } else if (!version_digits(data + HPCRUN_MAGIC_LEN, &f->major, &f->minor) ||
             !((f->major == 2 || f->major == 3 || f->major == 4) && f->minor == 0)) {
    rc = hpcrun_parse_fail(&p, HPCDB_EVERSION, HPCRUN_MAGIC_LEN, "version",
                           "version \"%.5s\" is not 02.00, 03.00 or 04.00", data + HPCRUN_MAGIC_LEN);
  } else if (data[HPCRUN_HEADER_LEN - 1] != 'b') {
    rc = hpcrun_parse_fail(&p, HPCDB_ECORRUPT, HPCRUN_HEADER_LEN - 1, "endian",
                           "byte-order mark is 0x%02x, expected 'b'", data[HPCRUN_HEADER_LEN - 1]);
  } else {
    memcpy(f->version, data + HPCRUN_MAGIC_LEN, 5);
    rc = f->major == 4 ? hpcrun_parse_v4(&p, f) : hpcrun_parse_v2(&p, f);
  }
  if (rc < 0) {
    hpcrun_parse_copy_error(&p, err);
    hpcrun_file_free(f);
    return rc;
  }
  *out = f;
  return 0;
}

int hpcrun_file_load(hpcrun_file **out, const char *path, hpcrun_parse_error *err) {
  *out = NULL;
  hpcdb_mapped_file m;
  HPCDB_TRY(hpcrun_parse_map(&m, path, err));
  int rc = mapped_file_finish(&m, path, hpcrun_file_parse(out, m.data, m.len, path, err));
  if (rc < 0 && *out) {
    hpcrun_file_free(*out);
    *out = NULL;
  }
  return rc;
}

void hpcrun_file_free(hpcrun_file *f) {
  if (!f) return;
  arena_free(&f->arena);
  free(f);
}
