/* SPDX-License-Identifier: BSD-3-Clause */
/* anchor.xml of a written .cubex: attributes, metrics, regions, the cnode
 * tree and the system tree. What Cube has no element for (HPCToolkit's
 * relations, lexical types, load modules, id tuples) travels in cnode
 * parameters and attributes named hpctoolkit::…, which hpcdb_cube_read
 * turns back into the model (docs/mapping.md). */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "cube/cube_write.h"
#include "model/names.h"

static const char *attr_kept_from_cube(const char *key) {
  /* the Cube reader's own records are not the file's attributes */
  if (!strcmp(key, "cube.ctx_id_offset") || !strcmp(key, "cube.version") || !strcmp(key, "cube.synthetic_entry") ||
      !strncmp(key, "cube.not-decoded.", 17) || !strncmp(key, "cube.components-omitted.", 24))
    return NULL;
  return !strncmp(key, "cube.", 5) ? key + 5 : key;
}

static void attr(cube_buf *b, const char *key, const char *value) {
  cube_buf_lit(b, "<attr key=\"");
  cube_buf_escaped(b, key);
  cube_buf_lit(b, "\" value=\"");
  cube_buf_escaped(b, value ? value : "");
  cube_buf_lit(b, "\"/>\n");
}

static void element(cube_buf *b, const char *name, const char *text) {
  cube_buf_printf(b, "<%s>", name);
  cube_buf_escaped(b, text ? text : "");
  cube_buf_printf(b, "</%s>\n", name);
}

static void write_attrs(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t, const cube_metric_plan *plans,
                        uint32_t n_plans) {
  int creator = 0;
  for (uint32_t i = 0; i < exp->n_attrs; i++) {
    const char *key = exp->attrs[i].key ? attr_kept_from_cube(exp->attrs[i].key) : NULL;
    if (!key || !strncmp(key, "hpctoolkit::", 12)) continue;
    creator |= !strcmp(key, "Creator");
    attr(b, key, exp->attrs[i].value);
  }
  if (!creator) {
    char who[64];
    snprintf(who, sizeof who, "hpcdb %s", hpcdb_version());
    attr(b, "Creator", who);
  }
  attr(b, CUBE_CNODE_DEFAULTS_KEY, "role");
  if (exp->title) attr(b, "hpctoolkit::title", exp->title);
  if (exp->description) attr(b, "hpctoolkit::description", exp->description);
  cube_buf t_kinds = {0};
  for (uint32_t k = 0; k < exp->n_kind_names; k++) {
    if (k) cube_buf_put(&t_kinds, ",", 1);
    cube_buf_printf(&t_kinds, "%s", exp->kind_names[k] ? exp->kind_names[k] : "");
  }
  cube_buf_put(&t_kinds, "", 1);
  if (t_kinds.failed) b->failed = 1; /* out of memory: the anchor fails, rather than go without the kinds */
  else attr(b, "hpctoolkit::kinds", (const char *)t_kinds.data);
  cube_buf_free(&t_kinds);
  /* each location's id tuple: kind:flags:logical:physical, space-separated */
  for (uint32_t l = 0; l < t->n_locations; l++) {
    const hpcdb_profile *p = &exp->profiles[t->locations[l]];
    char key[64], value[2048];
    size_t n = 0;
    value[0] = '\0';
    for (uint16_t i = 0; i < p->n_ids && n < sizeof value; i++)
      n += (size_t)snprintf(value + n, sizeof value - n, "%s%u:%u:%u:%llu", i ? " " : "", p->ids[i].kind,
                            p->ids[i].flags, p->ids[i].logical_id, (unsigned long long)p->ids[i].physical_id);
    snprintf(key, sizeof key, "hpctoolkit::idtuple::%u", l);
    attr(b, key, p->has_id_tuple ? value : "-");
  }
  for (uint32_t k = 0; k < n_plans; k++)
    if (plans[k].stored_only) {
      char key[64];
      snprintf(key, sizeof key, "hpctoolkit::stored-only::%u", k);
      attr(b, key, "1");
    }
}

static void write_metrics(cube_buf *b, const hpcdb_experiment *exp, const cube_metric_plan *plans, uint32_t n) {
  cube_buf_lit(b, "<metrics>\n");
  for (uint32_t k = 0; k < n; k++) {
    const hpcdb_metric *m = &exp->metrics[plans[k].metric];
    cube_buf_printf(b, "<metric id=\"%u\" type=\"%s\">\n", k, plans[k].inclusive ? "INCLUSIVE" : "EXCLUSIVE");
    element(b, "disp_name", m->name);
    element(b, "uniq_name", m->name);
    element(b, "dtype", plans[k].dtype);
    element(b, "uom", m->unit);
    element(b, "url", "");
    element(b, "descr", m->description);
    cube_buf_lit(b, "</metric>\n");
  }
  cube_buf_lit(b, "</metrics>\n");
}

static void region(cube_buf *b, uint32_t id, const char *name, const char *file, uint32_t line, const char *role) {
  cube_buf_printf(b, "<region id=\"%u\" mod=\"", id);
  cube_buf_escaped(b, file ? file : "");
  if (line) cube_buf_printf(b, "\" begin=\"%u\" end=\"-1\">\n", line);
  else cube_buf_lit(b, "\" begin=\"-1\" end=\"-1\">\n");
  element(b, "name", name);
  element(b, "mangled_name", name);
  element(b, "paradigm", "hpctoolkit");
  element(b, "role", role);
  element(b, "url", "");
  element(b, "descr", "");
}

static void write_regions(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t) {
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    region(b, i, f->name ? f->name : "<unnamed>", f->file != HPCDB_NONE ? exp->files[f->file].path : NULL, f->line,
           "function");
    if (f->module != HPCDB_NONE) {
      char offset[32];
      snprintf(offset, sizeof offset, "0x%llx", (unsigned long long)f->offset);
      attr(b, "hpctoolkit::module", exp->modules[f->module].path);
      attr(b, "hpctoolkit::offset", offset);
    }
    if (f->name == NULL) attr(b, "hpctoolkit::unnamed", "1");
    cube_buf_lit(b, "</region>\n");
  }
  for (uint32_t i = 0; i < t->n_synthetic; i++) {
    const cube_synthetic_region *s = &t->synthetic[i];
    region(b, exp->n_functions + i, s->name, s->file != HPCDB_NONE ? exp->files[s->file].path : NULL, s->line, s->role);
    cube_buf_lit(b, "</region>\n");
  }
}

static void parameter(cube_buf *b, const char *type, const char *key, const char *value) {
  cube_buf_printf(b, "<parameter partype=\"%s\" parkey=\"%s\" parvalue=\"", type, key);
  cube_buf_escaped(b, value);
  cube_buf_lit(b, "\"/>\n");
}

static void cnode_open(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t, uint32_t c) {
  const hpcdb_context *x = &exp->contexts[t->ctx[c]];
  char num[32];
  cube_buf_printf(b, "<cnode id=\"%u\"", c);
  if (x->file != HPCDB_NONE && x->kind != HPCDB_CTX_ENTRY) {
    cube_buf_printf(b, " line=\"%u\" mod=\"", x->line);
    cube_buf_escaped(b, exp->files[x->file].path);
    cube_buf_lit(b, "\"");
  }
  cube_buf_printf(b, " calleeId=\"%u\">\n", t->region[c]);
  if (x->kind == HPCDB_CTX_ENTRY) {
    snprintf(num, sizeof num, "%u", x->entry_point);
    parameter(b, "numeric", "hpctoolkit::entry", num);
    return;
  }
  /* only what differs from the defaults of the region's role (cnode_defaults.c) */
  uint32_t r = t->region[c];
  uint8_t relation, lexical_type;
  uint16_t propagation;
  cube_cnode_defaults(r < exp->n_functions ? CUBE_ROLE_OTHER : cube_role_of(t->synthetic[r - exp->n_functions].role),
                      &relation, &lexical_type, &propagation);
  if (x->relation != relation && model_relation_name(x->relation))
    parameter(b, "string", "hpctoolkit::relation", model_relation_name(x->relation));
  else if (x->relation != relation)
    snprintf(num, sizeof num, "%u", x->relation), parameter(b, "string", "hpctoolkit::relation", num);
  if (x->lexical_type != lexical_type && model_lexical_name(x->lexical_type))
    parameter(b, "string", "hpctoolkit::lexical", model_lexical_name(x->lexical_type));
  else if (x->lexical_type != lexical_type)
    snprintf(num, sizeof num, "%u", x->lexical_type), parameter(b, "string", "hpctoolkit::lexical", num);
  if (x->module != HPCDB_NONE) {
    parameter(b, "string", "hpctoolkit::module", exp->modules[x->module].path);
    snprintf(num, sizeof num, "%llu", (unsigned long long)x->offset);
    parameter(b, "numeric", "hpctoolkit::offset", num);
  }
  if (x->propagation != propagation) {
    snprintf(num, sizeof num, "%u", x->propagation);
    parameter(b, "numeric", "hpctoolkit::propagation", num);
  }
  if (x->name) parameter(b, "string", "hpctoolkit::label", x->name);
}

/* Nested cnodes in pre-order: a leaf closes itself and every ancestor
 * whose last child it ends. */
static void write_cnodes(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t) {
  for (uint32_t c = 0; c < t->n; c++) {
    cnode_open(b, exp, t, c);
    if (t->kids_at[c] != t->kids_at[c + 1]) continue;
    for (uint32_t x = c;;) {
      cube_buf_lit(b, "</cnode>\n");
      uint32_t p = t->parent[x];
      if (p == UINT32_MAX || t->kids[t->kids_at[p + 1] - 1] != x) break;
      x = p;
    }
  }
}

/* The id of the element of kind `name` in a profile's id tuple, or -1. */
static int64_t id_of_kind(const hpcdb_experiment *exp, const hpcdb_profile *p, const char *name) {
  for (uint16_t i = 0; i < p->n_ids; i++) {
    uint16_t k = p->ids[i].kind;
    if (k < exp->n_kind_names && exp->kind_names[k] && !strcmp(exp->kind_names[k], name)) return p->ids[i].logical_id;
  }
  return -1;
}

static int is_gpu(const hpcdb_experiment *exp, const hpcdb_profile *p) {
  for (uint16_t i = 0; i < p->n_ids; i++) {
    uint16_t k = p->ids[i].kind;
    if (k < exp->n_kind_names && exp->kind_names[k] && !strncmp(exp->kind_names[k], "GPU", 3)) return 1;
  }
  return 0;
}

/* machine > node (one per NODE value, in order of appearance) > process
 * (one per consecutive RANK) > location (thread or GPU stream). */
static void write_system(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t) {
  cube_buf_lit(b, "<system>\n<systemtreenode Id=\"0\">\n");
  element(b, "name", "machine");
  element(b, "class", "machine");
  uint32_t stn = 1, group = 0;
  int64_t node = -2, rank = -2;
  for (uint32_t l = 0; l < t->n_locations; l++) {
    const hpcdb_profile *p = &exp->profiles[t->locations[l]];
    int64_t n = id_of_kind(exp, p, "NODE"), r = id_of_kind(exp, p, "RANK");
    if (l == 0 || n != node) {
      if (l) cube_buf_lit(b, "</locationgroup>\n</systemtreenode>\n");
      cube_buf_printf(b, "<systemtreenode Id=\"%u\">\n<name>node %lld</name>\n", stn++, (long long)(n < 0 ? 0 : n));
      element(b, "class", "node");
      node = n;
      rank = -2;
    }
    if (r != rank || rank == -2) {
      if (rank != -2) cube_buf_lit(b, "</locationgroup>\n");
      cube_buf_printf(b, "<locationgroup Id=\"%u\">\n<name>%s %lld</name>\n<rank>%lld</rank>\n<type>process</type>\n",
                      group++, r < 0 ? "Process" : "MPI Rank", (long long)(r < 0 ? 0 : r), (long long)(r < 0 ? 0 : r));
      rank = r;
    }
    char who[256];
    hpcdb_profile_identity(exp, p, who, sizeof who);
    uint32_t within = p->n_ids ? p->ids[p->n_ids - 1].logical_id : 0;
    cube_buf_printf(b, "<location Id=\"%u\">\n", l);
    element(b, "name", who);
    cube_buf_printf(b, "<rank>%u</rank>\n", within);
    element(b, "type", is_gpu(exp, p) ? "accelerator stream" : "thread");
    cube_buf_lit(b, "</location>\n");
  }
  if (t->n_locations) cube_buf_lit(b, "</locationgroup>\n</systemtreenode>\n");
  cube_buf_lit(b, "</systemtreenode>\n</system>\n");
}

int cube_write_anchor(cube_buf *b, const hpcdb_experiment *exp, const cube_tree *t, const cube_metric_plan *plans,
                      uint32_t n_plans) {
  cube_buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n");
  write_attrs(b, exp, t, plans, n_plans);
  write_metrics(b, exp, plans, n_plans);
  cube_buf_lit(b, "<program>\n");
  write_regions(b, exp, t);
  write_cnodes(b, exp, t);
  cube_buf_lit(b, "</program>\n");
  write_system(b, exp, t);
  cube_buf_lit(b, "</cube>\n");
  return b->failed ? hpcdb_fail(HPCDB_ENOMEM, "out of memory for anchor.xml") : 0;
}
