/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics/default.yaml: the metric taxonomy viewers read, in hpcprof's shape.
 * inputs: one anchored entry per summary statistic (metric, scope, formula,
 * combine); roots: one per metric with a "Sum" variant whose inclusive value
 * is the execution scope and exclusive value the function scope (standard)
 * and lex_aware scope (custom), each summed with formula $$. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"
#include "hpctk4/subtree_scopes.h"

static const char *combine_name(uint8_t c) {
  switch (c) {
  case HPCDB_COMBINE_SUM: return "sum";
  case HPCDB_COMBINE_MIN: return "min";
  case HPCDB_COMBINE_MAX: return "max";
  default: return NULL; /* METRICS.yaml has no name for it: the input is left out */
  }
}

/* Anchors may hold only [A-Za-z0-9_-]: other bytes become xHH_ as hpcprof does
 * (the statistic id in every anchor keeps them unique). */
static void escape(char *out, size_t size, size_t *used, const char *s) {
  for (; s && *s && *used + 5 < size; s++) {
    unsigned char ch = (unsigned char)*s;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')
      out[(*used)++] = (char)ch;
    else *used += (size_t)snprintf(out + *used, size - *used, "x%02x_", ch);
  }
  out[*used] = '\0';
}

/* The scope's name as meta.db has it (subtree_scopes.h). */
static const char *scope_name(const hpcdb_experiment *exp, const hpcdb_metric *m, uint32_t scope) {
  uint8_t c = m->execution_combine;
  if (exp->scopes[scope].type == HPCDB_SCOPE_EXECUTION && (c == HPCDB_COMBINE_MIN || c == HPCDB_COMBINE_MAX))
    return hpctk4_subtree_scope_name(c);
  return exp->scopes[scope].name;
}

static void anchor_of(char *out, size_t size, const hpcdb_experiment *exp, const hpcdb_metric *m,
                      const hpcdb_summary *s) {
  size_t used = 0;
  out[0] = '\0';
  escape(out, size < 300 ? size : 300, &used, m->name); /* bounded: the id after it keeps anchors unique */
  used += (size_t)snprintf(out + used, size - used, "-%s-x5b_%ux5d_-", combine_name(s->combine), s->stat_metric_id);
  if (used < size) escape(out, size, &used, scope_name(exp, m, s->scope));
}

typedef struct emitter {
  yaml_emitter_t e;
  yaml_event_t ev;
  int ok;
} emitter;

#define EMIT(em, init)                                                                  \
  do {                                                                                  \
    if ((em)->ok && (!(init) || !yaml_emitter_emit(&(em)->e, &(em)->ev))) (em)->ok = 0; \
  } while (0)

/* libyaml's event constructors copy the strings they are given (yaml_strdup)
 * but declare them non-const. */
static yaml_char_t *yaml_text(const char *s) { return (yaml_char_t *)(uintptr_t)s; }

static void scalar(emitter *em, const char *s) {
  if (!s) s = "";
  EMIT(em,
       yaml_scalar_event_initialize(&em->ev, NULL, NULL, yaml_text(s), (int)strlen(s), 1, 1, YAML_ANY_SCALAR_STYLE));
}

static void pair(emitter *em, const char *key, const char *value) {
  scalar(em, key);
  scalar(em, value);
}

static void map_start(emitter *em, const char *anchor) {
  EMIT(em, yaml_mapping_start_event_initialize(&em->ev, yaml_text(anchor), NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}
static void map_end(emitter *em) { EMIT(em, yaml_mapping_end_event_initialize(&em->ev)); }
static void seq_start(emitter *em, yaml_sequence_style_t style) {
  EMIT(em, yaml_sequence_start_event_initialize(&em->ev, NULL, NULL, 1, style));
}
static void seq_end(emitter *em) { EMIT(em, yaml_sequence_end_event_initialize(&em->ev)); }

static void inputs(emitter *em, const hpcdb_experiment *exp) {
  char anchor[1024];
  scalar(em, "inputs");
  seq_start(em, YAML_BLOCK_SEQUENCE_STYLE);
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    for (uint32_t k = 0; k < m->n_summaries; k++) {
      const hpcdb_summary *s = &m->summaries[k];
      if (!combine_name(s->combine)) continue;
      anchor_of(anchor, sizeof anchor, exp, m, s);
      map_start(em, anchor);
      pair(em, "metric", m->name);
      pair(em, "scope", scope_name(exp, m, s->scope));
      pair(em, "formula", s->formula);
      pair(em, "combine", combine_name(s->combine));
      map_end(em);
    }
  }
  seq_end(em);
}

/* The summary of m summing $$ over the scope named scope, or NULL. */
static const hpcdb_summary *sum_of(const hpcdb_experiment *exp, const hpcdb_metric *m, const char *scope) {
  for (uint32_t k = 0; k < m->n_summaries; k++) {
    const hpcdb_summary *s = &m->summaries[k];
    const char *name = exp->scopes[s->scope].name;
    if (s->combine == HPCDB_COMBINE_SUM && s->formula && strcmp(s->formula, "$$") == 0 && name &&
        strcmp(name, scope) == 0)
      return s;
  }
  return NULL;
}

static void alias(emitter *em, const char *key, const hpcdb_experiment *exp, const hpcdb_metric *m,
                  const hpcdb_summary *s) {
  char anchor[1024];
  anchor_of(anchor, sizeof anchor, exp, m, s);
  scalar(em, key);
  EMIT(em, yaml_alias_event_initialize(&em->ev, (yaml_char_t *)anchor));
}

static void root(emitter *em, const hpcdb_experiment *exp, const hpcdb_metric *m) {
  const hpcdb_summary *inc = sum_of(exp, m, "execution"), *std = sum_of(exp, m, "function"),
                      *cus = sum_of(exp, m, "lex_aware");
  if (!inc && !std && !cus) return;
  map_start(em, NULL);
  pair(em, "name", m->name);
  pair(em, "description", m->description ? m->description : m->name);
  scalar(em, "variants");
  map_start(em, NULL);
  scalar(em, "Sum");
  map_start(em, NULL);
  scalar(em, "render");
  seq_start(em, YAML_FLOW_SEQUENCE_STYLE);
  scalar(em, "number");
  scalar(em, "percent");
  seq_end(em);
  scalar(em, "formula");
  map_start(em, NULL);
  if (inc) {
    scalar(em, "inclusive");
    map_start(em, NULL);
    alias(em, "standard", exp, m, inc);
    map_end(em);
  }
  if (std || cus) {
    scalar(em, "exclusive");
    map_start(em, NULL);
    if (cus) alias(em, "custom", exp, m, cus);
    if (std) alias(em, "standard", exp, m, std);
    map_end(em);
  }
  map_end(em);
  map_end(em);
  map_end(em);
  map_end(em);
}

static int to_wbuf(void *data, unsigned char *bytes, size_t size) {
  hpctk4_wbuf *b = data;
  uint64_t off;
  if (hpctk4_wbuf_alloc(b, size, 1, &off) < 0) return 0;
  memcpy(b->data + off, bytes, size);
  return 1;
}

static int emit_all(hpctk4_wbuf *out, const hpcdb_experiment *exp) {
  emitter em = {.ok = 1};
  if (!yaml_emitter_initialize(&em.e)) return hpcdb_fail(HPCDB_ENOMEM, "out of memory starting the YAML emitter");
  yaml_emitter_set_output(&em.e, to_wbuf, out);
  yaml_emitter_set_unicode(&em.e, 1);
  yaml_emitter_set_width(&em.e, -1);
  EMIT(&em, yaml_stream_start_event_initialize(&em.ev, YAML_UTF8_ENCODING));
  EMIT(&em, yaml_document_start_event_initialize(&em.ev, NULL, NULL, NULL, 1));
  map_start(&em, NULL);
  pair(&em, "version", "0");
  inputs(&em, exp);
  scalar(&em, "roots");
  seq_start(&em, YAML_BLOCK_SEQUENCE_STYLE);
  for (uint32_t i = 0; i < exp->n_metrics; i++) root(&em, exp, &exp->metrics[i]);
  seq_end(&em);
  map_end(&em);
  EMIT(&em, yaml_document_end_event_initialize(&em.ev, 1));
  EMIT(&em, yaml_stream_end_event_initialize(&em.ev));
  int ok = em.ok;
  const char *problem = em.e.problem;
  yaml_emitter_delete(&em.e);
  /* the emitter writes to memory: its failures are failed allocations */
  return ok ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory writing metrics YAML (%s)", problem ? problem : "emitter");
}

int hpctk4_write_metrics_yaml(const hpcdb_experiment *exp, const char *path) {
  hpctk4_wbuf b = {0};
  int rc = emit_all(&b, exp);
  if (rc == 0) rc = atomic_file_write_whole(path, b.data, (size_t)b.len, 0);
  hpctk4_wbuf_free(&b);
  return rc;
}
