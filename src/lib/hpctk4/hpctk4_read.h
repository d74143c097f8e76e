/* The v4.0 readers, internal: a mapped file with its checked common header,
 * and one parser per file kind that fills the model. Every function returns
 * 0 or a negative hpcdb_status with a message naming path, section, offset
 * and rule. */
#ifndef HPCDB_HPCTK4_READ_H
#define HPCDB_HPCTK4_READ_H

#include <stdint.h>

#include "common/cursor.h"
#include "common/mapped_file.h"
#include "hpcdb/model.h"

#define HPCTK4_MAX_SECTIONS 8

/* One *.db file: bytes and the header's sections (size, offset). */
typedef struct hpctk4_file {
  const char *path;
  const uint8_t *data;
  uint64_t len;
  uint8_t major, minor;
  unsigned n_sections;
  uint64_t sec_size[HPCTK4_MAX_SECTIONS];
  uint64_t sec_off[HPCTK4_MAX_SECTIONS];
} hpctk4_file;

/* Checks magic "HPCTOOLKIT", the 4-byte format id, major version 4, the
 * 8-byte footer, and that each of the n_sections sections lies in the file. */
int hpctk4_open_bytes(hpctk4_file *f, const uint8_t *data, uint64_t len, const char *path,
                      const char format[4], const char footer[8], unsigned n_sections);

/* A cursor over the whole file, its section name set for messages. */
void hpctk4_cursor(const hpctk4_file *f, hpcdb_cursor *c, const char *section);

/* Parsers of one file each, from bytes (the fuzz targets call these). The
 * profile and trace parsers need the meta.db already read into exp. */
int hpctk4_parse_meta(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
int hpctk4_parse_profile(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
int hpctk4_parse_cct_header(const uint8_t *data, uint64_t len, const char *path, uint32_t *n_ctxs);
int hpctk4_parse_trace(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);

#endif
