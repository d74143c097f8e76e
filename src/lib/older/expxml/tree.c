/* SPDX-License-Identifier: BSD-3-Clause */
/* The calling-context tree (PF, Pr, A, P, C, L, S) and inline <M> values.
 *
 * Relations and lexical types follow what hpcprof's v4.0 output has for the
 * same program: a procedure frame (PF, P) is a call to a function, an inlined
 * or alien procedure (Pr, A) an inlined call, a call site (C) or statement (S)
 * a lexical line, a loop (L) a lexical loop. Lexical contexts carry bit 0 of
 * the propagation mask (the "function" scope propagates through them). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "older/expxml/expxml_private.h"

#define FRESH_LIMIT 0xFFFFFFF0u

static uint64_t key_of(int64_t id) { return (uint64_t)id; }

static uint32_t fresh_id(xparser *p) {
  if (p->next_fresh >= FRESH_LIMIT) {
    expxml_fail(p, HPCDB_EUNSUPPORTED, "ctx-id", "too many contexts");
    return 0;
  }
  p->doc->n_fresh++;
  return p->next_fresh++;
}

void expxml_start_data(xparser *p) {
  hpcdb_context e = {0};
  e.kind = HPCDB_CTX_ENTRY;
  e.entry_point = HPCDB_ENTRY_MAIN;
  e.function = e.file = e.module = HPCDB_NONE;
  e.id = p->opt->entry_id ? p->opt->entry_id : fresh_id(p);
  e.name = "main thread"; /* the name v4.0 writers give this entry point */
  uint32_t index;
  if (!e.id) return;
  if (hpcdb_find_context(p->exp, e.id) != HPCDB_NONE)
    return expxml_fail(p, HPCDB_ECORRUPT, "duplicate-section", "more than one SecCallPathProfileData");
  int rc = hpcdb_add_context(p->exp, &e, 0, &index);
  if (rc < 0) return expxml_fail(p, rc, "context", "%s", hpcdb_last_error());
  p->stack[p->depth - 1].ctx = index;
}

/* Native id of a frame: the XML id where it is usable, else a fresh one. */
static int native_id(xparser *p, const char **atts, uint32_t *out) {
  const char *s = expxml_attr(atts, "i");
  int64_t i;
  if (!s) return (*out = fresh_id(p)) != 0;
  if (!expxml_int(s, &i)) {
    if (!expxml_problem(p, "ctx-id", "i=\"%s\" is not an integer", s)) return 0;
    return (*out = fresh_id(p)) != 0;
  }
  int usable = i > 0 && i < 0x80000000ll && (uint32_t)i != p->opt->entry_id && (uint32_t)i < p->first_fresh;
  if (usable && hpcdb_find_context(p->exp, (uint32_t)i) != HPCDB_NONE) {
    if (!p->opt->fresh_ids_for_negative &&
        !expxml_problem(p, "duplicate-id", "context i=\"%lld\" is used twice", (long long)i))
      return 0;
    usable = 0;
  } else if (!usable && !p->opt->fresh_ids_for_negative) {
    if (!expxml_problem(p, "ctx-id", "context i=\"%lld\" is outside 2..2147483647", (long long)i)) return 0;
  }
  if (usable) {
    *out = (uint32_t)i;
    if ((uint32_t)i > p->doc->max_xml_id) p->doc->max_xml_id = (uint32_t)i;
    return 1;
  }
  if (!(*out = fresh_id(p))) return 0;
  uint64_t old;
  if (p->opt->fresh_ids_for_negative && !u64map_get(&p->doc->xml_ids, key_of(i), &old) &&
      u64map_put(&p->doc->xml_ids, key_of(i), *out) < 0) {
    expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    return 0;
  }
  return 1;
}

/* A table reference: an id of the table, else (as the legacy DTD allows) the
 * name itself. Returns HPCDB_NONE for a dangling id (after reporting it). */
static uint32_t table_ref(xparser *p, hpcdb_u64map *map, const char *s, const char *what, int is_file) {
  int64_t id;
  uint64_t index;
  if (!s) return HPCDB_NONE;
  if (!expxml_int(s, &id)) {
    uint32_t added;
    int rc = is_file ? hpcdb_add_file(p->exp, s, 0, &added) : hpcdb_add_module(p->exp, s, 0, &added);
    if (rc < 0) expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    return rc < 0 ? HPCDB_NONE : added;
  }
  if (u64map_get(map, key_of(id), &index)) return (uint32_t)index;
  expxml_problem(p, is_file ? "dangling-file" : "dangling-module", "%s=\"%s\" names no %s", is_file ? "f" : "lm", s,
                 what);
  return HPCDB_NONE;
}

static uint64_t function_key(const hpcdb_function *f) {
  uint64_t parts[5] = {(uint64_t)(uintptr_t)f->name, f->module, f->file, f->line, f->offset};
  return hash_bytes(parts, sizeof parts);
}

/* The function of a procedure element: one per distinct (name, module,
 * file, line, entry offset). */
static uint32_t function_of(xparser *p, const char **atts, uint32_t module, uint32_t file) {
  const char *n = expxml_attr(atts, "n");
  hpcdb_function f = {0};
  f.module = module;
  f.file = file;
  f.line = expxml_line(expxml_attr(atts, "l"));
  int64_t id;
  uint64_t index;
  if (n && expxml_int(n, &id)) {
    if (u64map_get(&p->procs, key_of(id), &index)) {
      f.name = p->proc[index].name;
      f.offset = p->proc[index].offset;
    } else {
      if (!expxml_problem(p, "dangling-procedure", "n=\"%s\" names no Procedure", n)) return HPCDB_NONE;
      f.name = hpcdb_intern(p->exp, n);
    }
  } else {
    f.name = hpcdb_intern(p->exp, n ? n : "");
  }
  for (uint64_t key = function_key(&f);; key++) {
    if (!u64map_get(&p->functions, key, &index)) {
      uint32_t added;
      if (hpcdb_add_function(p->exp, &f, &added) < 0 || u64map_put(&p->functions, key, added) < 0) {
        expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
        return HPCDB_NONE;
      }
      return added;
    }
    const hpcdb_function *g = &p->exp->functions[index];
    if (g->name == f.name && g->module == f.module && g->file == f.file && g->line == f.line && g->offset == f.offset)
      return (uint32_t)index;
  }
}

static void value(xparser *p, const char **atts, xframe *f) {
  const char *n = expxml_attr(atts, "n"), *v = expxml_attr(atts, "v");
  int64_t id;
  uint64_t metric;
  if (!expxml_int(n, &id) || !u64map_get(&p->metric_ids, key_of(id), &metric)) {
    expxml_problem(p, "dangling-metric", "M n=\"%s\" names no Metric", n ? n : "");
    return;
  }
  char *end;
  double x = v ? strtod(v, &end) : 0;
  if (!v || end == v || *end || !isfinite(x)) {
    expxml_problem(p, "value", "M v=\"%s\" is not a finite number", v ? v : "");
    return;
  }
  expxml_doc *d = p->doc;
  uint32_t ctx = p->exp->contexts[f->ctx].id;
  if (!d->n_runs || d->run_ctx[d->n_runs - 1] != ctx) {
    if (VEC_RESERVE(&d->run_ctx, &d->cap_run_ctx, d->n_runs + 1) < 0 ||
        VEC_RESERVE(&d->run_start, &d->cap_run_start, d->n_runs + 2) < 0)
      return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
    d->run_ctx[d->n_runs] = ctx;
    d->run_start[d->n_runs++] = d->n_values;
  }
  if (VEC_RESERVE(&d->value_metric, &d->cap_value_metric, d->n_values + 1) < 0 ||
      VEC_RESERVE(&d->value, &d->cap_value, d->n_values + 1) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  d->value_metric[d->n_values] = (uint16_t)metric;
  d->value[d->n_values++] = x;
  d->run_start[d->n_runs] = d->n_values;
}

/* Draft a: a C or S i="-X" directly inside the element of id X is context X
 * again, at its call site or statement (hpcprof's writer wraps an instruction
 * without line information in a PF of the same id). Only the first element
 * with that id counts: xml_ids keeps the first occurrence. */
static void note_mirror(xparser *p, enum xtag tag, const char **atts, uint32_t parent, uint32_t index) {
  const hpcdb_context *up = &p->exp->contexts[parent];
  int64_t i, it;
  uint64_t native;
  if (!p->opt->fresh_ids_for_negative || (tag != X_C && tag != X_S) || up->kind != HPCDB_CTX_NORMAL) return;
  if (!expxml_int(expxml_attr(atts, "i"), &i) || i != -(int64_t)up->id ||
      !u64map_get(&p->doc->xml_ids, key_of(i), &native) || native != p->exp->contexts[index].id)
    return;
  expxml_doc *d = p->doc;
  if (VEC_RESERVE(&d->mirrors, &d->cap_mirrors, d->n_mirrors + 1) < 0)
    return expxml_fail(p, HPCDB_ENOMEM, "memory", "out of memory");
  int traced = expxml_int(expxml_attr(atts, "it"), &it) && it == (int64_t)up->id;
  d->mirrors[d->n_mirrors++] = (expxml_mirror){index, traced ? up->id : 0};
}

void expxml_start_tree_element(xparser *p, enum xtag tag, const char **atts) {
  xframe *f = &p->stack[p->depth - 1];
  if (f->ctx == HPCDB_NONE) {
    expxml_problem(p, "misplaced", "context element outside SecCallPathProfileData");
    f->tag = X_OTHER;
    return;
  }
  if (tag == X_M) return value(p, atts, f);
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_NORMAL;
  c.function = c.file = c.module = HPCDB_NONE;
  if (!native_id(p, atts, &c.id)) return;
  if (tag == X_PF || tag == X_PR || tag == X_A || tag == X_P) {
    uint32_t module = table_ref(p, &p->modules, expxml_attr(atts, "lm"), "LoadModule", 0);
    uint32_t file = table_ref(p, &p->files, expxml_attr(atts, "f"), "File", 1);
    if (p->error) return;
    c.relation = tag == X_PF || tag == X_P ? HPCDB_REL_CALL : HPCDB_REL_INLINED_CALL;
    c.lexical_type = HPCDB_LEX_FUNCTION;
    c.function = function_of(p, atts, module, file);
    if (p->error) return;
    f->file = file;
  } else {
    c.relation = HPCDB_REL_LEXICAL;
    c.lexical_type = tag == X_L ? HPCDB_LEX_LOOP : HPCDB_LEX_LINE;
    c.propagation = 1;
    if (tag == X_L && expxml_attr(atts, "f")) f->file = table_ref(p, &p->files, expxml_attr(atts, "f"), "File", 1);
    c.file = f->file;
    c.line = expxml_line(expxml_attr(atts, "l"));
  }
  if (p->error) return;
  p->doc->n_frames++;
  uint32_t parent = f->ctx;
  int rc = hpcdb_add_context(p->exp, &c, parent, &f->ctx);
  if (rc < 0) return expxml_fail(p, rc, "context", "%s", hpcdb_last_error());
  note_mirror(p, (enum xtag)tag, atts, parent, f->ctx);
}
