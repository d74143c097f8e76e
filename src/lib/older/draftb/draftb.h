/* SPDX-License-Identifier: BSD-3-Clause */
/* The draft-b meta.db ("HPCTOOLKIT_expmt") reader and validator (internal).
 * One parser serves both: every broken rule goes through draftb_fail, which
 * sets the library error and remembers the rule and offset, so that the
 * validator can report it as a diagnostic. Layout and the choices made where
 * the document is ambiguous: docs/formats-notes.md, "Draft b meta.db". */
#ifndef HPCDB_DRAFTB_H
#define HPCDB_DRAFTB_H

#include <stddef.h>
#include <stdint.h>

#include "common/cursor.h"
#include "common/hashmap.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "model/format.h"

enum { DB_GENERAL, DB_IDTABLE, DB_METRICS, DB_TREE, DB_STRINGS, DB_BINARIES, DB_FILES, DB_FUNCTIONS, DB_N_SECTIONS };

typedef struct draftb_meta {
  const char *path;
  const uint8_t *d;
  uint64_t len, body; /* body: bytes before the footer */
  uint8_t major, minor;
  uint16_t n_sections; /* 7 (the document) or 8 (the code) */
  uint64_t sec_size[DB_N_SECTIONS], sec_off[DB_N_SECTIONS];
  uint16_t spec_size[DB_N_SECTIONS]; /* binaries, files, functions */
  uint32_t spec_count[DB_N_SECTIONS];
  hpcdb_experiment *exp;
  uint64_t tree_bytes; /* node bytes read so far (a cycle would exceed the section) */
  hpcdb_u64map scopes; /* interned scope name -> scope index */
  /* contexts whose lex_flags go beyond the presence bits (id << 16 | flags),
   * kept as attributes in id order once the tree is read */
  uint64_t *lex_flags, n_lex_flags, cap_lex_flags;
  /* the last broken rule */
  const char *rule;
  uint64_t offset;
} draftb_meta;

int draftb_fail(draftb_meta *m, int status, const char *section, uint64_t off, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* meta.db bytes into m->exp (title, kinds, metrics, tables, tree); m keeps
 * no memory afterwards. */
int draftb_parse_meta(draftb_meta *m, hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
/* The sections after the header: General Properties, identifiers, metrics, tables. */
int draftb_parse_tables(draftb_meta *m);
/* The context tree. */
int draftb_parse_tree(draftb_meta *m);
/* Index of the entry a *_ptr names in a table section (binaries, files, functions). */
int draftb_entry_index(draftb_meta *m, unsigned sec, uint64_t ptr, uint64_t where, const char *what, uint32_t *out);
/* A NUL-terminated string of the Context Attribute Strings section, interned. */
int draftb_string(draftb_meta *m, uint64_t ptr, uint64_t where, const char *what, const char **out);

/* The directory and the meta.db of a path naming either. */
int draftb_locate(const char *path, char *dir, size_t dir_size, char *meta, size_t meta_size);

/* The module's face to the library: its descriptor (format.c), and what it
 * points at. */
extern const format_desc draftb_format;
int draftb_read(hpcdb_experiment **out, const char *path);
int draftb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#endif
