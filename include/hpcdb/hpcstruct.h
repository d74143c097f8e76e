/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — HPCToolkit structure files (hpcstruct's XML): which procedure,
 * inlined procedure, loop and source line every instruction address of a
 * load module belongs to.
 *
 * A file holds load modules (<LM>); each is read into a flat array of
 * scopes, parents before children, in file order:
 *   procedure  (<P>: name, link name, file + line, entry address)
 *   inlined    (an <A> inside an <A>: the inlined procedure, its file + line,
 *               and the call site (file + line) the outer <A> gives)
 *   loop       (<L>: file + header line, header address)
 *   statement  (<S>, or <C> for a call: file + line; the address ranges)
 * The outer <A> of a pair is not a scope of its own: it only moves its
 * contents to another file and names the call site's line, as hpcprof reads
 * it. Address lookup goes to the innermost scope: the statement whose
 * range holds the address (where two statements claim the same bytes, the
 * first in the file keeps them, as hpcprof does). */
#ifndef HPCDB_HPCSTRUCT_H
#define HPCDB_HPCSTRUCT_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdint.h>
#include <stdio.h>

#include "hpcdb/formats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hpcdb_scope_kind {
  HPCDB_SCOPE_PROCEDURE = 0,
  HPCDB_SCOPE_INLINED = 1,
  HPCDB_SCOPE_LOOP = 2,
  HPCDB_SCOPE_STATEMENT = 3
} hpcdb_scope_kind;

typedef struct hpcdb_struct_scope {
  uint8_t kind;          /* hpcdb_scope_kind */
  uint8_t is_call;       /* a statement from a <C> */
  uint32_t parent;       /* index of the enclosing scope; HPCDB_NONE for procedures */
  uint32_t procedure;    /* index of the enclosing procedure (itself for one) */
  const char *name;      /* procedure, inlined: n */
  const char *link_name; /* procedure: ln, or NULL */
  const char *file;      /* procedure: its <F>; inlined: f; loop: f; statement: the file it is in
                            (NULL when the file gives none) */
  uint32_t line;         /* procedure, inlined: definition; loop: header; statement: its line */
  const char *call_file; /* inlined: the call site */
  uint32_t call_line;
  uint64_t entry;    /* procedure: entry address; loop: header address */
  uint64_t target;   /* call statement: the callee's address (t=), 0 when not given */
  uint32_t xml_line; /* where the element is in the file */
} hpcdb_struct_scope;

/* An address range [lo, hi) of a statement. */
typedef struct hpcdb_struct_range {
  uint64_t lo, hi;
  uint32_t scope;
} hpcdb_struct_range;

typedef struct hpcdb_struct_module {
  const char *name; /* the LM's n: the binary's path (relative paths are relative to the measurements) */
  int has_calls;
  hpcdb_struct_scope *scopes;
  uint32_t n_scopes;
  hpcdb_struct_range *ranges; /* sorted by lo, disjoint */
  uint32_t n_ranges;
  uint32_t n_shadowed; /* statement ranges dropped because earlier ones held their bytes */
} hpcdb_struct_module;

typedef struct hpcdb_struct hpcdb_struct;

/* Reads a whole structure file (streaming; a bad file fails with
 * "PATH: line N: RULE: DETAIL"). An empty file reads as no load modules. */
HPCDB_API int hpcdb_hpcstruct_read(hpcdb_struct **out, const char *path);
/* The same from memory; name is used in messages. */
HPCDB_API int hpcdb_hpcstruct_read_mem(hpcdb_struct **out, const char *name, const void *data, size_t len);
/* The name of the file's first load module, reading no further than its
 * <LM> tag (*out malloc'ed, NULL when the file has none). */
HPCDB_API int hpcdb_hpcstruct_first_module(char **out, const char *path);
HPCDB_API void hpcdb_hpcstruct_free(hpcdb_struct *s);

HPCDB_API uint32_t hpcdb_hpcstruct_n_modules(const hpcdb_struct *s);
HPCDB_API const hpcdb_struct_module *hpcdb_hpcstruct_module(const hpcdb_struct *s, uint32_t i);
/* The innermost scope (a statement) holding addr, or HPCDB_NONE. */
HPCDB_API uint32_t hpcdb_hpcstruct_lookup(const hpcdb_struct_module *m, uint64_t addr);

/* What `hpcdb info` prints for a structure file. */
HPCDB_API void hpcdb_hpcstruct_write_info(FILE *out, const hpcdb_struct *s);
/* The checks of `hpcdb validate`: a problem that stops the read is one error
 * (offset: its byte in the file); statements sharing bytes are a note. */
HPCDB_API int hpcdb_hpcstruct_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
