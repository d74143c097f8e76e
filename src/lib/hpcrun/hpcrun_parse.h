/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the hpcrun readers: a bounds-checked parser over one file's
 * bytes that copies what it reads into the file's arena and remembers where
 * (offset, rule) it failed. All integers are big-endian. */
#ifndef HPCDB_HPCRUN_PARSE_H
#define HPCDB_HPCRUN_PARSE_H

#include "common/cursor.h"
#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcrun/hpcrun_file.h"

typedef struct hpcrun_parser {
  hpcdb_cursor c;
  hpcdb_arena *arena;
  int noted; /* err_* already describe the failure */
  uint64_t err_off;
  const char *err_rule;
} hpcrun_parser;

void hpcrun_parse_init(hpcrun_parser *p, const uint8_t *data, uint64_t len, const char *path, hpcdb_arena *arena);
/* Reports a rule violation at off (in the cursor's current section). */
int hpcrun_parse_fail(hpcrun_parser *p, int status, uint64_t off, const char *rule, const char *fmt, ...)
    HPCDB_PRINTF(5, 6);
/* Records the cursor position as the failure point of a lower-level error. */
int hpcrun_parse_note(hpcrun_parser *p, int status);
void hpcrun_parse_clear(hpcrun_parser *p);
void hpcrun_parse_copy_error(const hpcrun_parser *p, hpcrun_parse_error *err);
/* Maps a measurement file for parsing; on failure err (when not NULL) says
 * "io" at offset 0. The .hpcrun and .hpctrace loaders share it. */
int hpcrun_parse_map(hpcdb_mapped_file *m, const char *path, hpcrun_parse_error *err);

#define HPCRUN_PARSE_TRY(p, expr)                                              \
  do {                                                                         \
    int hpcrun_parse_rc_ = (expr);                                             \
    if (hpcrun_parse_rc_ < 0) return hpcrun_parse_note((p), hpcrun_parse_rc_); \
  } while (0)

/* Fails unless count elements of at least min_size bytes fit in what is left
 * of the section: counts read from the file are capped before allocating. */
int hpcrun_parse_check_count(hpcrun_parser *p, uint64_t count, uint64_t min_size, const char *what);
/* count elements of size bytes from the arena (count already checked). */
void *hpcrun_parse_alloc(hpcrun_parser *p, uint64_t count, size_t size);
/* As hpcrun_parse_alloc, not zeroed: for an array the caller fills whole. */
void *hpcrun_parse_alloc_filled(hpcrun_parser *p, uint64_t count, size_t size);
const uint8_t *hpcrun_parse_copy_bytes(hpcrun_parser *p, const uint8_t *src, uint64_t n);

int hpcrun_parse_u8(hpcrun_parser *p, uint8_t *v, const char *what);
int hpcrun_parse_u16(hpcrun_parser *p, uint16_t *v, const char *what);
int hpcrun_parse_u32(hpcrun_parser *p, uint32_t *v, const char *what);
int hpcrun_parse_u64(hpcrun_parser *p, uint64_t *v, const char *what);
int hpcrun_parse_str(hpcrun_parser *p, hpcrun_str *s, const char *what);
int hpcrun_parse_nvlist(hpcrun_parser *p, hpcrun_nvlist *l, const char *what);
int hpcrun_parse_loadmap(hpcrun_parser *p, hpcrun_tables *t);
int hpcrun_parse_metric_table(hpcrun_parser *p, hpcrun_tables *t, int with_tail);

int hpcrun_parse_v4(hpcrun_parser *p, hpcrun_file *f);
int hpcrun_parse_v2(hpcrun_parser *p, hpcrun_file *f);

#endif
