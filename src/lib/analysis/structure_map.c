/* SPDX-License-Identifier: BSD-3-Clause */
/* Structure files in the analysis, as hpcprof reads them (its struct
 * finalizer): an instruction of a load module that a structure file
 * describes becomes the chain of scopes around its statement, outermost
 * first: the procedure (function context, reached by the frame's call),
 * its loops (lexical), each inlined procedure as its call-site line
 * (lexical) with the inlined function below it (inlined call), and the
 * statement's line (lexical); the instruction itself is a hidden lexical
 * child of the line, which holds the values and the callees. An address no
 * statement holds stays an instruction context of its own. */
#include "analysis/structure_map.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/binary_structure.h"
#include "analysis/kernel_symbols.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "common/vec.h"
#include "hpcdb/hpcstruct.h"
#include "hpcrun/hpcrun_paths.h"

/* A structure file: its first load module's name, and the whole file once
 * some frame needed it. */
typedef struct struct_file {
  char *path;
  char *first_module;
  int state; /* 0 not read, 1 read, -1 unreadable (warned) */
  hpcdb_struct *s;
} struct_file;

/* What the analysis keeps per experiment module. */
typedef struct module_structure {
  int state; /* 0 not looked up, 1 structure, -1 none */
  const hpcdb_struct_module *m;
  uint32_t *function; /* per scope: function index (procedures, inlined), HPCDB_NONE until used */
} module_structure;

struct structure_map {
  hpcdb_experiment *exp;
  const char *measurements;
  const hpcdb_analyze_options *opt;
  hpcdb_warning_fn warn;
  void *user;
  struct_file *files;
  uint64_t n_files, cap_files;
  module_structure *modules; /* per experiment module index */
  uint64_t cap_modules;
  hpcdb_u64map file_index; /* interned source path -> file index */
};

static void warnf(structure_map *sm, const char *fmt, ...) HPCDB_PRINTF(2, 3);
static void warnf(structure_map *sm, const char *fmt, ...) {
  if (!sm->warn) return;
  char line[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  sm->warn(sm->user, line);
}

static int add_file(structure_map *sm, const char *path) {
  char *name = NULL;
  int rc = hpcdb_hpcstruct_first_module(&name, path);
  if (rc == HPCDB_ENOMEM) return rc; /* not the file's fault: going on without it would be a wrong answer */
  if (rc < 0) {
    warnf(sm, "structure file ignored: %s", hpcdb_last_error());
    return 0;
  }
  if (!name) return 0; /* empty (hpcstruct writes those for its own libraries): nothing to use */
  rc = VEC_RESERVE(&sm->files, &sm->cap_files, sm->n_files + 1);
  char *copy = rc == 0 ? strdup(path) : NULL;
  if (!copy) {
    free(name);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  sm->files[sm->n_files++] = (struct_file){copy, name, 0, NULL};
  return 0;
}

/* The *.hpcstruct files of a directory (a missing one has none), or the file. */
static int add_path(structure_map *sm, const char *path, int must_exist) {
  if (hpcrun_is_file(path)) return add_file(sm, path);
  if (!hpcrun_is_dir(path)) {
    if (must_exist) warnf(sm, "structure path ignored: %s: no such file or directory", path);
    return 0;
  }
  hpcrun_path_list l = {0};
  HPCDB_TRY(hpcrun_list_files(&l, path, ".hpcstruct"));
  int rc = 0;
  for (size_t i = 0; i < l.n && rc == 0; i++) rc = add_file(sm, l.paths[i]);
  hpcrun_path_list_free(&l);
  return rc;
}

int structure_map_open(structure_map **out, hpcdb_experiment *exp, const char *measurements,
                       const hpcdb_analyze_options *opt, hpcdb_warning_fn warn, void *user) {
  *out = NULL;
  structure_map *sm = calloc(1, sizeof *sm);
  if (!sm) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  *sm = (structure_map){exp, measurements, opt, warn, user, NULL, 0, 0, NULL, 0, {0}};
  int rc = 0;
  for (uint32_t i = 0; opt && i < opt->n_structs && rc == 0; i++) rc = add_path(sm, opt->structs[i], 1);
  char dir[4096];
  if (rc == 0 && (size_t)snprintf(dir, sizeof dir, "%s/structs", measurements) < sizeof dir) rc = add_path(sm, dir, 0);
  if (rc < 0) {
    structure_map_free(sm);
    return rc;
  }
  *out = sm;
  return 0;
}

void structure_map_free(structure_map *sm) {
  if (!sm) return;
  for (uint64_t i = 0; i < sm->n_files; i++) {
    free(sm->files[i].path);
    free(sm->files[i].first_module);
    hpcdb_hpcstruct_free(sm->files[i].s);
  }
  free(sm->files);
  for (uint64_t i = 0; i < sm->cap_modules; i++) free(sm->modules[i].function);
  free(sm->modules);
  u64map_free(&sm->file_index);
  free(sm);
}

/* Whether a structure file's load-module name is this module's path: the
 * same, or the same once a relative one is taken inside the measurements
 * (hpcstruct names the measurement's own vdso copy relatively). */
static int same_module(const structure_map *sm, const char *lm, const char *path) {
  if (!strcmp(lm, path)) return 1;
  size_t d = strlen(sm->measurements);
  if (lm[0] != '/' && path[0] == '/')
    return !strncmp(path, sm->measurements, d) && path[d] == '/' && !strcmp(path + d + 1, lm);
  if (lm[0] == '/' && path[0] != '/')
    return !strncmp(lm, sm->measurements, d) && lm[d] == '/' && !strcmp(lm + d + 1, path);
  return 0;
}

/* Where a module's binary is on this machine: its path with the first
 * --replace-path OLD=NEW whose OLD is a prefix of it (at a '/') replaced, as
 * hpcprof -R; a relative path is inside the measurements. 0 when it does not
 * fit in size. */
int structure_resolved_path(const structure_map *sm, const char *path, char *out, size_t size) {
  for (uint32_t i = 0; sm->opt && i < sm->opt->n_replace_paths; i++) {
    const char *rule = sm->opt->replace_paths[i], *eq = strchr(rule, '=');
    size_t n = eq ? (size_t)(eq - rule) : 0;
    if (!eq || n == 0 || strncmp(path, rule, n) != 0 || (path[n] != '/' && path[n] != '\0' && rule[n - 1] != '/'))
      continue;
    return (size_t)snprintf(out, size, "%s%s", eq + 1, path + n) < size;
  }
  if (path[0] != '/') return (size_t)snprintf(out, size, "%s/%s", sm->measurements, path) < size;
  return (size_t)snprintf(out, size, "%s", path) < size;
}

/* Whether a structure file's load module is this module: by its recorded
 * path, or by where its binary is on this machine (as hpcprof matches). */
static int describes(const structure_map *sm, const char *lm, const char *path, const char *resolved) {
  return same_module(sm, lm, path) || (resolved[0] && !strcmp(lm, resolved));
}

/* Takes the load module of f that describes the module, if any. */
static int use_file(structure_map *sm, module_structure *ms, const struct_file *f, const char *path,
                    const char *resolved) {
  for (uint32_t k = 0; k < hpcdb_hpcstruct_n_modules(f->s); k++) {
    const hpcdb_struct_module *m = hpcdb_hpcstruct_module(f->s, k);
    if (!describes(sm, m->name, path, resolved)) continue;
    ms->function = malloc(((size_t)m->n_scopes + 1) * sizeof *ms->function);
    if (!ms->function) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    memset(ms->function, 0xff, ((size_t)m->n_scopes + 1) * sizeof *ms->function);
    ms->m = m;
    ms->state = 1;
    return 0;
  }
  return 0;
}

/* No structure file describes the module: its binary, where the measurement
 * recorded it (or --replace-path puts it), analyzed as hpcdb struct does. A
 * binary that is not there, or cannot be analyzed, is a warning naming it;
 * the module's frames then stay instructions. */
static int from_binary(structure_map *sm, module_structure *ms, const char *path, const char *resolved) {
  char kernel[256];
  if (!resolved[0] || kernel_module_name(path, kernel, sizeof kernel)) return 0;
  if (!hpcrun_is_file(resolved)) {
    warnf(sm, "binary not found: %s%s%s (no structure file describes it either; its frames stay addresses)", resolved,
          strcmp(resolved, path) ? ", recorded as " : "", strcmp(resolved, path) ? path : "");
    return 0;
  }
  hpcdb_struct *s;
  int has_lines;
  int rc =
      binary_structure_make(&s, resolved, path, sm->opt && sm->opt->threads > 1 ? sm->opt->threads : 1, &has_lines);
  if (rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) {
    warnf(sm, "no structure from the binary %s: %s (its frames stay addresses)", resolved, hpcdb_last_error());
    return 0;
  }
  if (!has_lines)
    warnf(sm,
          "no line information for %s (no DWARF in it, under /usr/lib/debug, by .gnu_debuglink or from the "
          "debuginfod servers of DEBUGINFOD_URLS): its functions have no file and line",
          resolved);
  if (VEC_RESERVE(&sm->files, &sm->cap_files, sm->n_files + 1) < 0) {
    hpcdb_hpcstruct_free(s);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  struct_file *f = &sm->files[sm->n_files++];
  *f = (struct_file){NULL, NULL, 1, s};
  return use_file(sm, ms, f, path, resolved);
}

/* The structure of a module, read on first use; NULL when none describes it. */
static int module_structure_of(structure_map *sm, uint32_t module, module_structure **out) {
  *out = NULL;
  if (module >= sm->cap_modules) {
    uint64_t old = sm->cap_modules;
    HPCDB_TRY(VEC_RESERVE(&sm->modules, &sm->cap_modules, (uint64_t)module + 1));
    memset(sm->modules + old, 0, (sm->cap_modules - old) * sizeof *sm->modules);
  }
  module_structure *ms = &sm->modules[module];
  if (ms->state == 0) {
    ms->state = -1;
    const char *path = sm->exp->modules[module].path;
    char resolved[4096];
    if (!structure_resolved_path(sm, path, resolved, sizeof resolved)) resolved[0] = '\0';
    for (uint64_t i = 0; i < sm->n_files && ms->state < 0; i++) {
      struct_file *f = &sm->files[i];
      if (f->state < 0) continue;
      if (f->state == 0 && !describes(sm, f->first_module, path, resolved)) continue; /* unread: its first LM only */
      if (f->state == 0) {
        int rc = hpcdb_hpcstruct_read(&f->s, f->path);
        if (rc == HPCDB_ENOMEM) return rc;
        if (rc < 0) {
          f->state = -1;
          warnf(sm, "structure file ignored (%s): %s", path, hpcdb_last_error());
          continue;
        }
        f->state = 1;
      }
      HPCDB_TRY(use_file(sm, ms, f, path, resolved));
    }
    if (ms->state < 0) HPCDB_TRY(from_binary(sm, ms, path, resolved));
  }
  if (ms->state > 0) *out = ms;
  return 0;
}

static int file_of(structure_map *sm, const char *path, uint32_t *out) {
  *out = HPCDB_NONE;
  if (!path) return 0;
  const char *p = hpcdb_intern(sm->exp, path);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t idx;
  if (u64map_get(&sm->file_index, (uint64_t)(uintptr_t)p, &idx)) {
    *out = (uint32_t)idx;
    return 0;
  }
  HPCDB_TRY(hpcdb_add_file(sm->exp, p, 0, out));
  if (u64map_put(&sm->file_index, (uint64_t)(uintptr_t)p, *out) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  return 0;
}

/* The function of a procedure or inlined scope, made on first use (one per
 * scope: hpcprof makes a function of every inlined <A>). An inlined
 * procedure has no entry address: offset 0, as hpcprof writes it. */
static int function_of(structure_map *sm, module_structure *ms, uint32_t module, uint32_t scope, uint32_t *out) {
  if (ms->function[scope] == HPCDB_NONE) {
    const hpcdb_struct_scope *sc = &ms->m->scopes[scope];
    hpcdb_function fn = {sc->name, module, sc->kind == HPCDB_SCOPE_PROCEDURE ? sc->entry : 0, HPCDB_NONE, sc->line, 0};
    HPCDB_TRY(file_of(sm, sc->file, &fn.file));
    if (fn.file == HPCDB_NONE) fn.line = 0;
    HPCDB_TRY(hpcdb_add_function(sm->exp, &fn, &ms->function[scope]));
  }
  *out = ms->function[scope];
  return 0;
}

static hpcdb_context proto(uint8_t relation, uint8_t lexical_type) {
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = relation;
  c.lexical_type = lexical_type;
  c.propagation = relation == HPCDB_REL_LEXICAL; /* the cost stays in the function */
  c.function = c.file = c.module = HPCDB_NONE;
  return c;
}

static int line_context(unified_tree *t, uint32_t parent, const char *path, uint32_t line, uint32_t *out) {
  hpcdb_context c = proto(HPCDB_REL_LEXICAL, HPCDB_LEX_LINE);
  HPCDB_TRY(file_of(t->structure, path, &c.file));
  c.line = line;
  uint64_t key = (uint64_t)c.file << 32 | line;
  return unify_find_or_add(t, (unify_key){parent, KEY_LINE, key}, &c, 0, out);
}

/* The scopes from the procedure down to a statement, outermost first. */
#define MAX_CHAIN 4096

int structure_frame(unified_tree *t, uint32_t parent, uint32_t module, uint64_t ip, uint32_t *out_id) {
  structure_map *sm = t->structure;
  module_structure *ms;
  HPCDB_TRY(module_structure_of(sm, module, &ms));
  if (!ms) return 0;
  const hpcdb_struct_module *m = ms->m;
  uint32_t stmt = hpcdb_hpcstruct_lookup(m, ip);
  if (stmt == HPCDB_NONE) { /* a gap in the structure: hpcprof knows nothing more of it */
    hpcdb_context c = proto(HPCDB_REL_CALL, HPCDB_LEX_INSTRUCTION);
    c.propagation = 0;
    c.module = module;
    c.offset = ip;
    HPCDB_TRY(unify_find_or_add(t, (unify_key){parent, module, ip}, &c, 0, out_id));
    return 1;
  }
  uint32_t chain[MAX_CHAIN], n = 0;
  for (uint32_t s = stmt; s != HPCDB_NONE && n < MAX_CHAIN; s = m->scopes[s].parent) chain[n++] = s;
  uint32_t cur = parent;
  uint8_t relation = HPCDB_REL_CALL;
  while (n-- > 0) {
    uint32_t s = chain[n];
    const hpcdb_struct_scope *sc = &m->scopes[s];
    if (sc->kind == HPCDB_SCOPE_INLINED) { /* the call site's line, then the inlined function */
      HPCDB_TRY(line_context(t, cur, sc->call_file, sc->call_line, &cur));
      relation = HPCDB_REL_INLINED_CALL;
    }
    if (sc->kind == HPCDB_SCOPE_PROCEDURE || sc->kind == HPCDB_SCOPE_INLINED) {
      hpcdb_context c = proto(relation, HPCDB_LEX_FUNCTION);
      HPCDB_TRY(function_of(sm, ms, module, s, &c.function));
      HPCDB_TRY(unify_find_or_add(t, (unify_key){cur, KEY_FUNCTION, c.function}, &c, 0, &cur));
    } else if (sc->kind == HPCDB_SCOPE_LOOP) {
      hpcdb_context c = proto(HPCDB_REL_LEXICAL, HPCDB_LEX_LOOP);
      HPCDB_TRY(file_of(sm, sc->file, &c.file));
      c.line = sc->line;
      c.module = module;
      c.offset = sc->entry;
      HPCDB_TRY(unify_find_or_add(t, (unify_key){cur, KEY_LOOP, (uint64_t)module << 32 | s}, &c, 0, &cur));
    } else {
      HPCDB_TRY(line_context(t, cur, sc->file, sc->line, &cur));
    }
    relation = HPCDB_REL_LEXICAL;
  }
  hpcdb_context insn = proto(HPCDB_REL_LEXICAL, HPCDB_LEX_INSTRUCTION);
  insn.module = module;
  insn.offset = ip;
  HPCDB_TRY(unify_find_or_add(t, (unify_key){cur, module, ip}, &insn, 1, out_id));
  return 1;
}

void structure_map_functions(const structure_map *sm,
                             void (*fn)(void *user, uint32_t module, uint32_t scope, uint32_t function), void *user) {
  for (uint64_t m = 0; sm && m < sm->cap_modules; m++) {
    const module_structure *ms = &sm->modules[m];
    if (ms->state != 1 || !ms->function) continue;
    for (uint32_t s = 0; s < ms->m->n_scopes; s++)
      if (ms->function[s] != HPCDB_NONE) fn(user, (uint32_t)m, s, ms->function[s]);
  }
}
