/* SPDX-License-Identifier: BSD-3-Clause */
/* Functions, inlined calls and the line table of one compile unit, from
 * DWARF through libdw. Everything libdw returns is checked: a damaged
 * entry is skipped, never trusted. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "common/error.h"
#include "common/vec.h"

enum { MAX_DEPTH = 256 }; /* DIE nesting deeper than this is not followed */

typedef struct walk {
  bs_unit *u;
  Dwarf_Files *files;
  size_t n_files;
  const char *cu_name, *comp_dir;
  Dwarf_Die *pending; /* functions defined inside a function: walked after it */
  uint64_t n_pending, cap_pending;
} walk;

/* A source file's name, absolute when the compilation directory is known
 * (libdw leaves names relative to it as they are). */
int bs_dwarf_out_of_memory(const char *what) {
  int e = dwarf_errno(), le = elf_errno(); /* the libraries' last errors, cleared by reading them */
  /* their messages are untranslated (no setlocale); libelf's counts too: libdw reads through it */
  if ((e && strcmp(dwarf_errmsg(e), "out of memory") == 0) || (le && strcmp(elf_errmsg(le), "out of memory") == 0))
    return hpcdb_fail(HPCDB_ENOMEM, "libdw: out of memory reading %s", what);
  return 0;
}

static const char *file_name(bs_unit *u, const char *comp_dir, const char *name) {
  if (!name) return NULL;
  if (name[0] == '/' || !comp_dir || !comp_dir[0] || !name[0]) return bs_intern(u, name);
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s/%s", comp_dir, name) >= (int)sizeof buf) return bs_intern(u, name);
  return bs_intern(u, buf);
}

/* Adds the DIE's address ranges to u; returns how many. */
static int64_t add_ranges(bs_unit *u, Dwarf_Die *die) {
  Dwarf_Addr base, lo, hi;
  ptrdiff_t off = 0;
  int64_t n = 0;
  while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
    /* lo 0: code the linker discarded (--gc-sections leaves its DWARF at address 0) */
    if (hi <= lo || lo == 0 || n >= UINT32_MAX / 2) continue;
    int rc = bs_unit_add_range(u, lo, hi);
    if (rc < 0) return rc;
    n++;
  }
  if (off < 0) HPCDB_TRY(bs_dwarf_out_of_memory("address ranges"));
  return n;
}

static const char *link_name(Dwarf_Die *die) {
  Dwarf_Attribute a;
  const char *s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
  if (!s) s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
  return s;
}

static uint32_t decl_line(Dwarf_Die *die) {
  int line = 0;
  if (dwarf_decl_line(die, &line) != 0 || line < 0) return 0;
  return (uint32_t)line;
}

static int walk_scope(walk *w, Dwarf_Die *die, uint32_t func, int32_t parent, int depth);

static int add_inline(walk *w, Dwarf_Die *die, uint32_t func, int32_t parent, int depth) {
  bs_unit *u = w->u;
  bs_func *f = &u->funcs[func];
  uint32_t first = (uint32_t)u->n_ranges;
  int64_t n = add_ranges(u, die);
  if (n < 0) return (int)n;
  if (n == 0) return walk_scope(w, die, func, parent, depth + 1);
  HPCDB_TRY(VEC_RESERVE(&u->inlines, &u->cap_inlines, u->n_inlines + 1));
  bs_inline *in = &u->inlines[u->n_inlines];
  memset(in, 0, sizeof *in);
  in->parent = parent;
  in->first_range = first;
  in->n_ranges = (uint32_t)n;
  const char *name = dwarf_diename(die);
  const char *pretty = bs_demangled(u, link_name(die));
  in->name = pretty ? pretty : bs_intern(u, name ? name : "");
  const char *decl = dwarf_decl_file(die), *call = NULL;
  in->decl_file = file_name(u, w->comp_dir, decl);
  in->decl_line = decl_line(die);
  Dwarf_Attribute a;
  Dwarf_Word v;
  if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &v) == 0 && v <= UINT32_MAX) in->call_line = (uint32_t)v;
  if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &v) == 0 && w->files && v < w->n_files)
    in->call_file = file_name(u, w->comp_dir, call = dwarf_filesrc(w->files, v, NULL, NULL));
  if ((decl && !in->decl_file) || (call && !in->call_file)) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (!in->decl_file)
    in->decl_file = in->call_file ? in->call_file
                    : parent >= 0 ? u->inlines[f->first_inline + (uint32_t)parent].decl_file
                    : f->file     ? f->file
                                  : w->cu_name;
  /* no call site in DWARF: hpcstruct (Dyninst's InlinedFunction::getCallsite) names it so, line 0 */
  if (!in->call_file && !(in->call_file = bs_intern(u, "<unknown>"))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if ((name && !in->name) || u->n_inlines - f->first_inline >= INT32_MAX)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int32_t self = (int32_t)(u->n_inlines - f->first_inline);
  u->n_inlines++;
  f->n_inlines++;
  return walk_scope(w, die, func, self, depth + 1);
}

static int walk_children(walk *w, Dwarf_Die *die, int depth);

static int add_function(walk *w, Dwarf_Die *die, int depth) {
  bs_unit *u = w->u;
  if (dwarf_hasattr(die, DW_AT_declaration)) return 0;
  uint32_t first = (uint32_t)u->n_ranges;
  int64_t n = add_ranges(u, die);
  if (n < 0) return (int)n;
  if (n == 0) return walk_children(w, die, depth + 1); /* nested definitions may have code */
  HPCDB_TRY(VEC_RESERVE(&u->funcs, &u->cap_funcs, u->n_funcs + 1));
  bs_func *f = &u->funcs[u->n_funcs];
  memset(f, 0, sizeof *f);
  f->first_range = first;
  f->n_ranges = (uint32_t)n;
  f->first_inline = (uint32_t)u->n_inlines;
  const char *name = dwarf_diename(die);
  const char *ln = link_name(die);
  /* hpcstruct names C++ procedures so; GCC names OpenMP-outlined C++ code by its symbol */
  const char *pretty = bs_demangled(u, ln ? ln : name);
  if (!ln && pretty) ln = name;
  f->name = pretty ? pretty : bs_intern(u, name ? name : ln ? ln : "");
  if (!f->name) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  f->link_name = ln && strcmp(ln, f->name) ? bs_intern(u, ln) : NULL;
  /* compiler-made functions (OpenMP outlined bodies) have no declaration:
   * bs_dwarf_unit gives them the file and line at their entry */
  const char *file = dwarf_decl_file(die);
  f->file = file ? file_name(u, w->comp_dir, file) : NULL;
  if ((ln && strcmp(ln, f->name) && !f->link_name) || (file && !f->file))
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  f->line = decl_line(die);
  Dwarf_Addr entry;
  if (dwarf_entrypc(die, &entry) == 0) f->entry = entry;
  else f->entry = u->ranges[first].lo;
  uint32_t func = (uint32_t)u->n_funcs++;
  /* a function's inlined calls stay contiguous: nested definitions wait */
  uint64_t pending = w->n_pending;
  HPCDB_TRY(walk_scope(w, die, func, -1, depth + 1));
  while (w->n_pending > pending) {
    Dwarf_Die nested = w->pending[--w->n_pending];
    HPCDB_TRY(add_function(w, &nested, depth + 1));
  }
  return 0;
}

/* The inside of a function or inlined call: nested inlined calls (through
 * lexical blocks) and nested function definitions. */
static int walk_scope(walk *w, Dwarf_Die *die, uint32_t func, int32_t parent, int depth) {
  if (depth > MAX_DEPTH) return 0;
  Dwarf_Die child;
  int more = dwarf_child(die, &child); /* 1: none; -1: an error, which must not read as "none" */
  if (more != 0) return more < 0 ? bs_dwarf_out_of_memory("a scope") : 0;
  do {
    int tag = dwarf_tag(&child);
    int rc = 0;
    if (tag == DW_TAG_inlined_subroutine) rc = add_inline(w, &child, func, parent, depth);
    else if (tag == DW_TAG_lexical_block) rc = walk_scope(w, &child, func, parent, depth + 1);
    else if (tag == DW_TAG_subprogram) {
      rc = VEC_RESERVE(&w->pending, &w->cap_pending, w->n_pending + 1);
      if (rc == 0) w->pending[w->n_pending++] = child;
    }
    if (rc < 0) return rc;
  } while ((more = dwarf_siblingof(&child, &child)) == 0);
  return more < 0 ? bs_dwarf_out_of_memory("a scope") : 0;
}

static int walk_children(walk *w, Dwarf_Die *die, int depth) {
  if (depth > MAX_DEPTH) return 0;
  Dwarf_Die child;
  int more = dwarf_child(die, &child);
  if (more != 0) return more < 0 ? bs_dwarf_out_of_memory("a unit's entries") : 0;
  do {
    int rc = 0;
    switch (dwarf_tag(&child)) {
    case DW_TAG_subprogram: rc = add_function(w, &child, depth); break;
    case DW_TAG_lexical_block: /* of a function without code of its own (an abstract instance: its
                                * OpenMP-outlined body is defined in a block of it) */
    case DW_TAG_namespace:
    case DW_TAG_module:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type: rc = walk_children(w, &child, depth + 1); break;
    default: break;
    }
    if (rc < 0) return rc;
  } while ((more = dwarf_siblingof(&child, &child)) == 0);
  return more < 0 ? bs_dwarf_out_of_memory("a unit's entries") : 0;
}

static int read_lines(bs_unit *u, Dwarf_Die *cudie, const char *comp_dir) {
  Dwarf_Lines *lines;
  size_t n;
  if (dwarf_getsrclines(cudie, &lines, &n) != 0) return bs_dwarf_out_of_memory("a line table"); /* else none */
  HPCDB_TRY(VEC_RESERVE(&u->rows, &u->cap_rows, n));
  const char *last_src = NULL, *last_file = NULL;
  for (size_t i = 0; i < n; i++) {
    Dwarf_Line *l = dwarf_onesrcline(lines, i);
    Dwarf_Addr addr;
    if (!l || dwarf_lineaddr(l, &addr) != 0) continue;
    bool end = false;
    dwarf_lineendsequence(l, &end);
    bs_row r = {addr, NULL, 0};
    if (!end) {
      int line = 0;
      const char *src = dwarf_linesrc(l, NULL, NULL);
      if (dwarf_lineno(l, &line) != 0 || line < 0) line = 0;
      if (!src) src = "";
      if (src != last_src) {
        last_src = src;
        last_file = file_name(u, comp_dir, src);
        if (!last_file) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      }
      r.file = last_file;
      r.line = (uint32_t)line;
    }
    u->rows[u->n_rows++] = r;
  }
  bs_unit_sort_rows(u);
  return 0;
}

/* The line-table row of a function's entry with a file, else the first one
 * after it within 800 bytes of its code (hpcstruct's getProcLineMap looks
 * that far when the first bytes have none); NULL when none. */
static const bs_row *entry_row(const bs_unit *u, const bs_func *f) {
  const bs_row *r = bs_unit_row_at(u, f->entry);
  if (r && r->file && r->file[0]) return r;
  uint64_t end = f->entry + 800;
  for (uint32_t k = 0; k < f->n_ranges; k++) /* the range holding the entry bounds the search */
    if (u->ranges[f->first_range + k].lo <= f->entry && f->entry < u->ranges[f->first_range + k].hi &&
        u->ranges[f->first_range + k].hi < end)
      end = u->ranges[f->first_range + k].hi;
  for (uint64_t i = r ? (uint64_t)(r - u->rows) + 1 : 0; i < u->n_rows && u->rows[i].addr < end; i++)
    if (u->rows[i].addr > f->entry && u->rows[i].file && u->rows[i].file[0]) return &u->rows[i];
  return NULL;
}

int bs_dwarf_unit(bs_unit *u, Dwarf_Die *cudie) {
  bs_unit_reset(u);
  walk w = {u, NULL, 0, NULL, NULL, NULL, 0, 0};
  Dwarf_Attribute a;
  const char *comp_dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a));
  if (!comp_dir && dwarf_hasattr(cudie, DW_AT_comp_dir)) HPCDB_TRY(bs_dwarf_out_of_memory("a unit's directory"));
  const char *name = dwarf_diename(cudie);
  if (!name && dwarf_hasattr(cudie, DW_AT_name)) HPCDB_TRY(bs_dwarf_out_of_memory("a unit's name"));
  w.comp_dir = bs_intern(u, comp_dir);
  w.cu_name = file_name(u, w.comp_dir, name ? name : "");
  if ((comp_dir && !w.comp_dir) || !w.cu_name) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (dwarf_getsrcfiles(cudie, &w.files, &w.n_files) != 0) {
    HPCDB_TRY(bs_dwarf_out_of_memory("a file table"));
    w.files = NULL;
    w.n_files = 0;
  }
  int rc = walk_children(&w, cudie, 0);
  free(w.pending);
  if (rc < 0) return rc;
  HPCDB_TRY(read_lines(u, cudie, w.comp_dir));
  /* libdw goes on after some failed allocations without saying so (a line table's file names
   * left relative when the compilation directory could not be read): its error is still set */
  HPCDB_TRY(bs_dwarf_out_of_memory("a unit"));
  for (uint64_t i = 0; i < u->n_funcs; i++) {
    bs_func *f = &u->funcs[i];
    const bs_row *r = entry_row(u, f);
    if (r) { /* hpcstruct's procedure: the file and line of its entry in the line table, not its declaration */
      f->file = r->file;
      f->line = r->line;
    } else if (!f->file) {
      f->file = w.cu_name;
    }
  }
  return 0;
}
