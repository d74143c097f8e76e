/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: what a draft-b database keeps of a model (draftb_write.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draftb_write.h"
#include "hpcdb/hpcdb.h"

#define TRY(expr)            \
  do {                       \
    int rc_ = (expr);        \
    if (rc_ < 0) return rc_; \
  } while (0)

static int scope_of(hpcdb_experiment *e, const char *name, uint32_t *out) {
  for (uint32_t i = 0; i < e->n_scopes; i++)
    if (!strcmp(e->scopes[i].name, name)) return (*out = i), 0;
  hpcdb_scope s = {name, HPCDB_SCOPE_CUSTOM, 255};
  if (!strcmp(name, "point")) s.type = HPCDB_SCOPE_POINT;
  else if (!strcmp(name, "execution")) s.type = HPCDB_SCOPE_EXECUTION;
  else if (!strcmp(name, "function")) s = (hpcdb_scope){name, HPCDB_SCOPE_TRANSITIVE, 0};
  return hpcdb_add_scope(e, &s, out);
}

static int tables(const hpcdb_experiment *x, unsigned flags, hpcdb_experiment *e) {
  const char *description = (flags & DRAFTB_SEVEN_SECTIONS) ? NULL : x->description ? x->description : "";
  TRY(hpcdb_set_title(e, x->title ? x->title : "", description));
  for (uint32_t i = 0; i < x->n_kind_names; i++) TRY(hpcdb_add_kind_name(e, x->kind_names[i], NULL));
  for (uint32_t i = 0; i < x->n_modules; i++) TRY(hpcdb_add_module(e, x->modules[i].path, x->modules[i].flags, NULL));
  for (uint32_t i = 0; i < x->n_files; i++) TRY(hpcdb_add_file(e, x->files[i].path, x->files[i].flags, NULL));
  for (uint32_t i = 0; i < x->n_functions; i++) {
    hpcdb_function f = x->functions[i];
    if (f.module == HPCDB_NONE) f.offset = 0;
    if (f.file == HPCDB_NONE) f.line = 0;
    TRY(hpcdb_add_function(e, &f, NULL));
  }
  for (uint32_t i = 0; i < x->n_metrics; i++) {
    const hpcdb_metric *m = &x->metrics[i];
    uint32_t metric, scope;
    TRY(hpcdb_add_metric(e, m->name, &metric));
    for (uint32_t k = 0; k < m->n_instances; k++) {
      TRY(scope_of(e, x->scopes[m->instances[k].scope].name, &scope));
      TRY(hpcdb_metric_add_instance(e, metric, scope, m->instances[k].prop_metric_id));
      for (uint32_t j = 0; j < m->n_summaries; j++) {
        if (m->summaries[j].scope != m->instances[k].scope) continue;
        hpcdb_summary su = m->summaries[j];
        su.scope = scope;
        TRY(hpcdb_metric_add_summary(e, metric, &su));
      }
    }
  }
  return 0;
}

/* The draft's lex_flags as written (draftb_write), kept by the reader as
 * draftb.lex-flags.ID when they go beyond the three presence bits. */
static int draft_flags_attr(hpcdb_experiment *e, const hpcdb_context *c) {
  unsigned flags = (c->flags & 0xf8u) | (c->function != HPCDB_NONE ? 1u : 0) | (c->file != HPCDB_NONE ? 2u : 0) |
                   (c->module != HPCDB_NONE ? 4u : 0);
  char key[64], value[16];
  snprintf(key, sizeof key, "draftb.lex-flags.%u", c->id);
  snprintf(value, sizeof value, "0x%x", flags);
  return hpcdb_add_attr(e, key, value);
}

static int tree(const hpcdb_experiment *x, hpcdb_experiment *e) {
  uint16_t lexical_bits = 0;
  for (uint32_t i = 0; i < e->n_scopes; i++)
    if (e->scopes[i].type == HPCDB_SCOPE_TRANSITIVE) lexical_bits |= (uint16_t)(1u << e->scopes[i].propagation_index);
  uint32_t *index = malloc(x->n_contexts * sizeof *index); /* x's context -> e's */
  if (!index) return HPCDB_ENOMEM;
  index[0] = 0;
  int rc = 0;
  for (uint32_t i = 1; i < x->n_contexts && rc == 0; i++) { /* parents come before children */
    hpcdb_context c = x->contexts[i];
    c.kind = c.parent == 0 ? HPCDB_CTX_ENTRY : HPCDB_CTX_NORMAL;
    c.flags = 0; /* bits beyond the presence bits: an attribute of the context, below */
    c.propagation = c.relation == HPCDB_REL_LEXICAL && c.kind == HPCDB_CTX_NORMAL ? lexical_bits : 0;
    c.entry_point = 0;
    c.name = c.kind == HPCDB_CTX_ENTRY ? "unknown entry" : NULL;
    if (c.file == HPCDB_NONE) c.line = 0;
    if (c.module == HPCDB_NONE) c.offset = 0;
    rc = hpcdb_add_context(e, &c, index[x->contexts[i].parent], &index[i]);
  }
  free(index);
  return rc;
}

static int by_id(const void *a, const void *b) {
  uint32_t x = (*(const hpcdb_context *const *)a)->id, y = (*(const hpcdb_context *const *)b)->id;
  return (x > y) - (x < y);
}

/* The reader keeps them in context id order. */
static int draft_flags_attrs(const hpcdb_experiment *x, hpcdb_experiment *e) {
  const hpcdb_context **sorted = malloc((x->n_contexts + 1) * sizeof *sorted);
  if (!sorted) return HPCDB_ENOMEM;
  uint32_t n = 0;
  for (uint32_t i = 1; i < x->n_contexts; i++)
    if (x->contexts[i].flags & 0xf8u) sorted[n++] = &x->contexts[i];
  qsort(sorted, n, sizeof *sorted, by_id);
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) rc = draft_flags_attr(e, sorted[i]);
  free(sorted);
  return rc;
}

static uint16_t id_flags(uint16_t flags) {
  uint16_t interpret = (uint16_t)((flags >> 14) & 3u);
  if (interpret == 1 || interpret == 2) return (uint16_t)(HPCDB_ID_PHYSICAL | (unsigned)interpret << 14);
  return interpret == 3 ? 0 : (uint16_t)(flags & HPCDB_ID_PHYSICAL);
}

static int profiles(const hpcdb_experiment *x, hpcdb_experiment *e) {
  for (uint32_t i = 0; i < x->n_profiles; i++) {
    const hpcdb_profile *p = &x->profiles[i];
    hpcdb_id ids[64];
    uint16_t n = p->n_ids < 64 ? p->n_ids : 64;
    for (uint16_t k = 0; k < n; k++) {
      ids[k] = p->ids[k];
      ids[k].flags = id_flags(p->ids[k].flags);
    }
    uint32_t q;
    TRY(hpcdb_add_profile(e, i == 0 ? HPCDB_PROFILE_SUMMARY : 0, i > 0, ids, i > 0 ? n : 0, &q));
    if (p->n_ctxs) /* an empty profile has no arrays to copy */
      TRY(hpcdb_profile_set_csr(e, q, p->n_ctxs, p->ctx_ids, p->ctx_starts, p->n_values, p->metric_ids, p->values));
  }
  for (uint32_t i = 0; i < x->n_traces; i++) {
    const hpcdb_trace *t = &x->traces[i];
    TRY(hpcdb_add_trace(e, t->profile, t->n, t->timestamps, t->ctx_ids, NULL));
  }
  e->has_traces = x->has_traces;
  e->trace_min = x->trace_min;
  e->trace_max = x->trace_max;
  return 0;
}

int draftb_normalise(const hpcdb_experiment *x, unsigned flags, hpcdb_experiment **out) {
  hpcdb_experiment *e;
  *out = NULL;
  TRY(hpcdb_experiment_new(&e));
  int rc = tables(x, flags, e);
  if (rc == 0) rc = tree(x, e);
  if (rc == 0) rc = draft_flags_attrs(x, e);
  if (rc == 0) rc = profiles(x, e);
  if (rc < 0) {
    hpcdb_experiment_free(e);
    return rc;
  }
  *out = e;
  return 0;
}
