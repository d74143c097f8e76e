/* SPDX-License-Identifier: BSD-3-Clause */
/* The metric list of metrics/default.yaml (hpcprof's taxonomy, as the
 * writer in metrics_yaml.c emits it and hpcviewer reads it): roots, each a
 * metric (a "variants" map whose formula's inclusive input names it) or a
 * group of children. Read as a libyaml document (aliases share their node:
 * nothing expands), walked with bounded depth and steps. */
#include "hpcdb/metric_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "common/error.h"

#define MAX_YAML_BYTES (16u << 20)
#define MAX_DEPTH 16
#define MAX_STEPS 100000
#define MAX_WORK 20000000u         /* keys compared: aliases may share one huge mapping many times */
#define MAX_KEPT_BYTES (16u << 20) /* names and descriptions copied out: the same string may be reached often */

typedef struct walk {
  yaml_document_t *doc;
  const hpcdb_experiment *exp;
  hpcdb_metric_list *l;
  uint8_t *listed; /* per metric */
  unsigned steps;
  uint64_t work, kept_bytes;
} walk;

static const char *scalar(yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of key in mapping n, or NULL; the keys looked at are counted in w->work. */
static yaml_node_t *get(walk *w, yaml_node_t *n, const char *key) {
  if (!n || n->type != YAML_MAPPING_NODE) return NULL;
  yaml_document_t *d = w->doc;
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    w->work++;
    const char *k = scalar(yaml_document_get_node(d, p->key));
    if (k && !strcmp(k, key)) return yaml_document_get_node(d, p->value);
  }
  return NULL;
}

static uint32_t metric_named(const hpcdb_experiment *e, const char *name) {
  for (uint32_t m = 0; name && m < e->n_metrics; m++)
    if (e->metrics[m].name && !strcmp(e->metrics[m].name, name)) return m;
  return HPCDB_NONE;
}

/* The metric a root's first variant's inclusive formula reads: an input
 * ({metric: NAME}) directly or under standard / custom; else the root's own name. */
static uint32_t metric_of(walk *w, yaml_node_t *root) {
  yaml_node_t *variants = get(w, root, "variants"), *first = NULL;
  if (variants && variants->type == YAML_MAPPING_NODE &&
      variants->data.mapping.pairs.start < variants->data.mapping.pairs.top)
    first = yaml_document_get_node(w->doc, variants->data.mapping.pairs.start->value);
  yaml_node_t *inc = get(w, get(w, first, "formula"), "inclusive");
  const char *name = scalar(get(w, inc, "metric"));
  if (!name) name = scalar(get(w, get(w, inc, "standard"), "metric"));
  if (!name) name = scalar(get(w, get(w, inc, "custom"), "metric"));
  uint32_t m = metric_named(w->exp, name);
  return m != HPCDB_NONE ? m : metric_named(w->exp, scalar(get(w, root, "name")));
}

static int keep(walk *w, const char *s, const char **out) {
  hpcdb_metric_list *l = w->l;
  *out = NULL;
  if (!s) return 0;
  w->kept_bytes += strlen(s) + 1;
  if (w->kept_bytes > MAX_KEPT_BYTES)
    return hpcdb_fail(HPCDB_ECORRUPT, "names and descriptions over %u bytes", MAX_KEPT_BYTES);
  char **owned = realloc(l->owned, ((size_t)l->n_owned + 1) * sizeof *owned);
  if (!owned) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  l->owned = owned;
  if (!(owned[l->n_owned] = strdup(s))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  *out = owned[l->n_owned++];
  return 0;
}

static const char *prefix_group(walk *w, const char *name, int *rc) {
  const char *colon = name ? strchr(name, ':') : NULL;
  const char *out = NULL;
  if (!colon || colon == name) return NULL;
  char buf[256];
  snprintf(buf, sizeof buf, "%.*s", (int)(colon - name < 255 ? colon - name : 255), name);
  *rc = keep(w, buf, &out);
  return out;
}

static int add(walk *w, uint32_t m, const char *description, const char *group) {
  hpcdb_metric_list *l = w->l;
  hpcdb_metric_entry *e = &l->entries[l->n++];
  w->listed[m] = 1;
  e->metric = m;
  int rc = 0;
  e->group = group ? group : prefix_group(w, w->exp->metrics[m].name, &rc);
  if (rc == 0 && description) rc = keep(w, description, &e->description);
  else if (rc == 0) e->description = w->exp->metrics[m].description;
  return rc;
}

static int walk_roots(walk *w, yaml_node_t *seq, const char *group, int depth) {
  if (!seq || seq->type != YAML_SEQUENCE_NODE || depth > MAX_DEPTH) return 0;
  for (yaml_node_item_t *i = seq->data.sequence.items.start; i < seq->data.sequence.items.top; i++) {
    if (++w->steps > MAX_STEPS) return hpcdb_fail(HPCDB_ECORRUPT, "more than %d entries", MAX_STEPS);
    if (w->work > MAX_WORK) return hpcdb_fail(HPCDB_ECORRUPT, "more than %u keys to look at", MAX_WORK);
    yaml_node_t *n = yaml_document_get_node(w->doc, *i);
    const char *name = scalar(get(w, n, "name")), *kept = NULL;
    uint32_t m = get(w, n, "variants") ? metric_of(w, n) : HPCDB_NONE;
    if (m != HPCDB_NONE && !w->listed[m]) HPCDB_TRY(add(w, m, scalar(get(w, n, "description")), group));
    yaml_node_t *kids = get(w, n, "children");
    if (kids) {
      HPCDB_TRY(keep(w, name, &kept));
      HPCDB_TRY(walk_roots(w, kids, kept, depth + 1));
    }
  }
  return 0;
}

static int read_yaml(walk *w, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return 0; /* none: the experiment's order */
  if (st.st_size > MAX_YAML_BYTES) return hpcdb_fail(HPCDB_ECORRUPT, "%s: larger than %u bytes", path, MAX_YAML_BYTES);
  FILE *f = fopen(path, "rb");
  if (!f) return hpcdb_fail(HPCDB_EIO, "%s: cannot be opened", path);
  yaml_parser_t p;
  yaml_document_t doc;
  int rc = yaml_parser_initialize(&p) ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) {
    yaml_parser_set_input_file(&p, f);
    if (!yaml_parser_load(&p, &doc))
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: line %zu: %s", path, p.problem_mark.line + 1,
                      p.problem ? p.problem : "not YAML");
    yaml_parser_delete(&p);
  }
  fclose(f);
  if (rc < 0) return rc;
  w->doc = &doc;
  rc = walk_roots(w, get(w, yaml_document_get_root_node(&doc), "roots"), NULL, 0);
  if (rc < 0) {
    char why[512];
    snprintf(why, sizeof why, "%s", hpcdb_last_error());
    rc = hpcdb_fail(rc, "%s: %s", path, why);
  }
  yaml_document_delete(&doc);
  return rc;
}

int hpcdb_metric_list_read(hpcdb_metric_list *out, const hpcdb_experiment *exp, const char *dir) {
  memset(out, 0, sizeof *out);
  walk w = {NULL, exp, out, calloc(exp->n_metrics + 1, 1), 0, 0, 0};
  out->entries = calloc((size_t)exp->n_metrics + 1, sizeof *out->entries);
  int rc = w.listed && out->entries ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  char path[4096];
  if (rc == 0 && dir) {
    if (snprintf(path, sizeof path, "%s/metrics/default.yaml", dir) >= (int)sizeof path)
      rc = hpcdb_fail(HPCDB_EINVAL, "%s: path too long", dir);
    else rc = read_yaml(&w, path);
  }
  for (uint32_t m = 0; rc == 0 && m < exp->n_metrics; m++)
    if (exp->metrics[m].name && !w.listed[m]) rc = add(&w, m, NULL, NULL);
  free(w.listed);
  if (rc < 0) hpcdb_metric_list_free(out);
  return rc;
}

void hpcdb_metric_list_free(hpcdb_metric_list *l) {
  if (!l) return;
  for (uint32_t k = 0; k < l->n_owned; k++) free(l->owned[k]);
  free(l->owned);
  free(l->entries);
  memset(l, 0, sizeof *l);
}
