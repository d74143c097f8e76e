/* SPDX-License-Identifier: BSD-3-Clause */
/* Model metrics, scopes and summaries for the metric tables of both
 * experiment.xml generations: one model metric per name without the " (I)" /
 * " (E)" suffix; inclusive values are v4.0's "execution" scope, exclusive
 * ones its "function" scope (hpcprof's exclusive cost of a procedure includes
 * its statements and loops: the transitive function scope), untyped ones
 * "point". Ids are handed out in order of first use. */
#include <string.h>

#include "common/error.h"
#include "older/expxml/expxml.h"

#define NO_MORE_IDS 0xFFFFu

int expxml_metrics_begin(expxml_metric_builder *b, hpcdb_experiment *exp) {
  static const hpcdb_scope scopes[EXPXML_N_SCOPES] = {{"point", HPCDB_SCOPE_POINT, 255},
                                                      {"function", HPCDB_SCOPE_TRANSITIVE, 0},
                                                      {"execution", HPCDB_SCOPE_EXECUTION, 255}};
  memset(b, 0, sizeof *b);
  b->exp = exp;
  for (int s = 0; s < EXPXML_N_SCOPES; s++) HPCDB_TRY(hpcdb_add_scope(exp, &scopes[s], &b->scope[s]));
  return 0;
}

size_t expxml_base_length(const char *name) {
  size_t n = strlen(name);
  if (n >= 4 && name[n - 4] == ' ' && name[n - 3] == '(' && (name[n - 2] == 'I' || name[n - 2] == 'E') &&
      name[n - 1] == ')')
    return n - 4;
  return n;
}

enum expxml_scope expxml_scope_of(const expxml_metric *m) {
  if (m->type == EXPXML_INCLUSIVE) return EXPXML_SCOPE_EXECUTION;
  if (m->type == EXPXML_EXCLUSIVE) return EXPXML_SCOPE_FUNCTION;
  size_t n = strlen(m->name);
  if (expxml_base_length(m->name) != n) return m->name[n - 2] == 'I' ? EXPXML_SCOPE_EXECUTION : EXPXML_SCOPE_FUNCTION;
  return EXPXML_SCOPE_POINT;
}

int expxml_metric_named(expxml_metric_builder *b, const char *name, size_t len, const expxml_metric *from,
                        uint32_t *out) {
  const char *s = hpcdb_intern_n(b->exp, name, len);
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t m = 0; m < b->exp->n_metrics; m++)
    if (b->exp->metrics[m].name == s) {
      *out = m;
      return 0;
    }
  HPCDB_TRY(hpcdb_add_metric(b->exp, s, out));
  hpcdb_metric *m = &b->exp->metrics[*out];
  m->description = from->description && strcmp(from->description, s) ? from->description : NULL;
  m->unit = from->unit;
  return 0;
}

int expxml_metric_instance(expxml_metric_builder *b, uint32_t metric, enum expxml_scope scope, uint16_t *id) {
  const hpcdb_metric *m = &b->exp->metrics[metric];
  for (uint32_t k = 0; k < m->n_instances; k++)
    if (m->instances[k].scope == b->scope[scope]) {
      *id = m->instances[k].prop_metric_id;
      return 0;
    }
  if (b->next_prop == NO_MORE_IDS) return hpcdb_fail(HPCDB_EUNSUPPORTED, "too many metric columns");
  *id = b->next_prop++;
  return hpcdb_metric_add_instance(b->exp, metric, b->scope[scope], *id);
}

int expxml_metric_summary(expxml_metric_builder *b, uint32_t metric, enum expxml_scope scope, uint8_t combine,
                          uint16_t *id) {
  const hpcdb_metric *m = &b->exp->metrics[metric];
  for (uint32_t k = 0; k < m->n_summaries; k++)
    if (m->summaries[k].scope == b->scope[scope] && m->summaries[k].combine == combine) {
      *id = m->summaries[k].stat_metric_id;
      return 0;
    }
  if (b->next_stat == NO_MORE_IDS) return hpcdb_fail(HPCDB_EUNSUPPORTED, "too many metric columns");
  hpcdb_summary s = {b->scope[scope], "$$", combine, b->next_stat++};
  *id = s.stat_metric_id;
  return hpcdb_metric_add_summary(b->exp, metric, &s);
}
