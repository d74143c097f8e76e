/* SPDX-License-Identifier: BSD-3-Clause */
/* Creating and freeing experiments; adding the static tables. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/map_vec.h"
#include "common/vec.h"
#include "model/model_private.h"

#define NOMEM() hpcdb_fail(HPCDB_ENOMEM, "out of memory building the experiment")

int hpcdb_experiment_new(hpcdb_experiment **out) {
  *out = NULL;
  hpcdb_experiment *exp = calloc(1, sizeof *exp);
  if (!exp) return NOMEM();
  exp->priv = calloc(1, sizeof *exp->priv);
  if (!exp->priv) {
    free(exp);
    return NOMEM();
  }
  exp->priv->synthetic_entry = HPCDB_NONE;
  hpcdb_context global = {0};
  global.kind = HPCDB_CTX_GLOBAL;
  global.parent = HPCDB_NONE;
  global.first_child = global.next_sibling = global.last_child = HPCDB_NONE;
  global.function = global.file = global.module = HPCDB_NONE;
  if (MAP_VEC_RESERVE(&exp->contexts, &exp->priv->cap_contexts, 1) < 0 ||
      ctx_index_put(&exp->priv->ctx_by_id, 0, 0, 1) < 0) {
    hpcdb_experiment_free(exp);
    return NOMEM();
  }
  exp->contexts[0] = global;
  exp->n_contexts = 1;
  exp->priv->n_linked = 1;
  *out = exp;
  return 0;
}

void hpcdb_experiment_free(hpcdb_experiment *exp) {
  if (!exp) return;
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    free(exp->metrics[i].instances);
    free(exp->metrics[i].summaries);
  }
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    hpcdb_profile *p = &exp->profiles[i];
    free(p->ids);
    free(p->ctx_ids);
    free(p->ctx_starts);
    free(p->metric_ids);
    free(p->values);
  }
  for (uint32_t i = 0; i < exp->n_traces; i++) {
    free(exp->traces[i].timestamps);
    free(exp->traces[i].ctx_ids);
  }
  free(exp->attrs);
  free(exp->warnings);
  free(exp->kind_names);
  free(exp->modules);
  free(exp->files);
  free(exp->functions);
  free(exp->scopes);
  free(exp->metrics);
  free(exp->profiles);
  free(exp->traces);
  if (exp->priv) {
    map_vec_free(exp->contexts, exp->priv->cap_contexts, sizeof *exp->contexts);
    strpool_free(&exp->priv->strings);
    ctx_index_free(&exp->priv->ctx_by_id);
    free(exp->priv->cap_instances);
    free(exp->priv->cap_summaries);
    for (uint32_t i = 0; i < exp->priv->n_integer_profiles; i++) free(exp->priv->integers[i]);
    free(exp->priv->integers);
    free(exp->priv->n_integers);
    free(exp->priv);
  }
  free(exp);
}

const char *hpcdb_intern_n(hpcdb_experiment *exp, const char *s, size_t len) {
  if (!s) return NULL;
  const char *r = strpool_intern(&exp->priv->strings, s, len);
  if (!r) NOMEM();
  return r;
}

const char *hpcdb_intern(hpcdb_experiment *exp, const char *s) { return s ? hpcdb_intern_n(exp, s, strlen(s)) : NULL; }

/* Interns s into *dst; fails only when out of memory. */
static int intern_into(hpcdb_experiment *exp, const char **dst, const char *s) {
  *dst = hpcdb_intern(exp, s);
  return (s && !*dst) ? HPCDB_ENOMEM : 0;
}

int hpcdb_set_title(hpcdb_experiment *exp, const char *title, const char *description) {
  HPCDB_TRY(intern_into(exp, &exp->title, title));
  return intern_into(exp, &exp->description, description);
}

int hpcdb_add_attr(hpcdb_experiment *exp, const char *key, const char *value) {
  HPCDB_TRY(VEC_RESERVE(&exp->attrs, &exp->priv->cap_attrs, (uint64_t)exp->n_attrs + 1));
  hpcdb_attr *a = &exp->attrs[exp->n_attrs];
  HPCDB_TRY(intern_into(exp, &a->key, key));
  HPCDB_TRY(intern_into(exp, &a->value, value));
  exp->n_attrs++;
  return 0;
}

int hpcdb_add_warning(hpcdb_experiment *exp, const char *text) {
  HPCDB_TRY(VEC_RESERVE(&exp->warnings, &exp->priv->cap_warnings, (uint64_t)exp->n_warnings + 1));
  HPCDB_TRY(intern_into(exp, &exp->warnings[exp->n_warnings], text));
  exp->n_warnings++;
  return 0;
}

static void set_out(uint32_t *out, uint32_t v) {
  if (out) *out = v;
}

int hpcdb_add_kind_name(hpcdb_experiment *exp, const char *name, uint32_t *out_index) {
  HPCDB_TRY(VEC_RESERVE(&exp->kind_names, &exp->priv->cap_kinds, (uint64_t)exp->n_kind_names + 1));
  HPCDB_TRY(intern_into(exp, &exp->kind_names[exp->n_kind_names], name));
  set_out(out_index, exp->n_kind_names++);
  return 0;
}

int hpcdb_add_module(hpcdb_experiment *exp, const char *path, uint32_t flags, uint32_t *out_index) {
  HPCDB_TRY(VEC_RESERVE(&exp->modules, &exp->priv->cap_modules, (uint64_t)exp->n_modules + 1));
  hpcdb_module *m = &exp->modules[exp->n_modules];
  m->flags = flags;
  HPCDB_TRY(intern_into(exp, &m->path, path));
  set_out(out_index, exp->n_modules++);
  return 0;
}

int hpcdb_add_file(hpcdb_experiment *exp, const char *path, uint32_t flags, uint32_t *out_index) {
  HPCDB_TRY(VEC_RESERVE(&exp->files, &exp->priv->cap_files, (uint64_t)exp->n_files + 1));
  hpcdb_source_file *f = &exp->files[exp->n_files];
  f->flags = flags;
  HPCDB_TRY(intern_into(exp, &f->path, path));
  set_out(out_index, exp->n_files++);
  return 0;
}

int hpcdb_add_function(hpcdb_experiment *exp, const hpcdb_function *fn, uint32_t *out_index) {
  if ((fn->module != HPCDB_NONE && fn->module >= exp->n_modules) ||
      (fn->file != HPCDB_NONE && fn->file >= exp->n_files))
    return hpcdb_fail(HPCDB_EINVAL, "function refers to a module or file that does not exist");
  HPCDB_TRY(VEC_RESERVE(&exp->functions, &exp->priv->cap_functions, (uint64_t)exp->n_functions + 1));
  hpcdb_function *f = &exp->functions[exp->n_functions];
  *f = *fn;
  HPCDB_TRY(intern_into(exp, &f->name, fn->name));
  set_out(out_index, exp->n_functions++);
  return 0;
}

int hpcdb_add_scope(hpcdb_experiment *exp, const hpcdb_scope *scope, uint32_t *out_index) {
  HPCDB_TRY(VEC_RESERVE(&exp->scopes, &exp->priv->cap_scopes, (uint64_t)exp->n_scopes + 1));
  hpcdb_scope *s = &exp->scopes[exp->n_scopes];
  *s = *scope;
  HPCDB_TRY(intern_into(exp, &s->name, scope->name));
  set_out(out_index, exp->n_scopes++);
  return 0;
}

int hpcdb_add_metric(hpcdb_experiment *exp, const char *name, uint32_t *out_index) {
  uint64_t n = (uint64_t)exp->n_metrics + 1;
  uint64_t cap = exp->priv->cap_metrics;
  HPCDB_TRY(VEC_RESERVE(&exp->metrics, &exp->priv->cap_metrics, n));
  if (exp->priv->cap_metrics != cap) {
    uint64_t *ci = realloc(exp->priv->cap_instances, exp->priv->cap_metrics * sizeof *ci);
    if (!ci) return NOMEM();
    exp->priv->cap_instances = ci;
    uint64_t *cs = realloc(exp->priv->cap_summaries, exp->priv->cap_metrics * sizeof *cs);
    if (!cs) return NOMEM();
    exp->priv->cap_summaries = cs;
  }
  hpcdb_metric *m = &exp->metrics[exp->n_metrics];
  memset(m, 0, sizeof *m);
  exp->priv->cap_instances[exp->n_metrics] = 0;
  exp->priv->cap_summaries[exp->n_metrics] = 0;
  HPCDB_TRY(intern_into(exp, &m->name, name));
  set_out(out_index, exp->n_metrics++);
  return 0;
}

int hpcdb_metric_add_instance(hpcdb_experiment *exp, uint32_t metric, uint32_t scope, uint16_t prop_metric_id) {
  if (metric >= exp->n_metrics || scope >= exp->n_scopes)
    return hpcdb_fail(HPCDB_EINVAL, "scope instance refers to a metric or scope that does not exist");
  hpcdb_metric *m = &exp->metrics[metric];
  HPCDB_TRY(VEC_RESERVE(&m->instances, &exp->priv->cap_instances[metric], (uint64_t)m->n_instances + 1));
  m->instances[m->n_instances++] = (hpcdb_scope_instance){scope, prop_metric_id};
  return 0;
}

int hpcdb_metric_add_summary(hpcdb_experiment *exp, uint32_t metric, const hpcdb_summary *summary) {
  if (metric >= exp->n_metrics || summary->scope >= exp->n_scopes)
    return hpcdb_fail(HPCDB_EINVAL, "summary refers to a metric or scope that does not exist");
  hpcdb_metric *m = &exp->metrics[metric];
  HPCDB_TRY(VEC_RESERVE(&m->summaries, &exp->priv->cap_summaries[metric], (uint64_t)m->n_summaries + 1));
  hpcdb_summary *s = &m->summaries[m->n_summaries];
  *s = *summary;
  HPCDB_TRY(intern_into(exp, &s->formula, summary->formula));
  m->n_summaries++;
  return 0;
}

int hpcdb_metric_of_id(const hpcdb_experiment *exp, uint16_t id, uint32_t *metric, int *is_stat, uint32_t *which) {
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    for (uint32_t k = 0; k < m->n_instances; k++)
      if (m->instances[k].prop_metric_id == id) {
        *metric = i;
        *is_stat = 0;
        *which = k;
        return 1;
      }
    for (uint32_t k = 0; k < m->n_summaries; k++)
      if (m->summaries[k].stat_metric_id == id) {
        *metric = i;
        *is_stat = 1;
        *which = k;
        return 1;
      }
  }
  return 0;
}
