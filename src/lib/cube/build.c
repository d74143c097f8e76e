/* SPDX-License-Identifier: BSD-3-Clause */
/* The model's static part from anchor.xml: attributes, kind names,
 * functions, the context tree, metrics and (empty) profiles. Files hpcdb
 * wrote carry HPCToolkit's details in hpctoolkit:: attributes and cnode
 * parameters (cube/write_anchor.c); they are used where present, and a plain
 * Cube file gets the generic mapping of docs/mapping.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "cube/cube.h"
#include "hpcdb/common.h"
#include "hpcdb/model.h"
#include "model/model_build.h"
#include "model/names.h"

#define FAIL(rule, ...) hpcdb_fail_at(HPCDB_ECORRUPT, path, "anchor.xml", 0, rule, __VA_ARGS__)

typedef struct builder {
  hpcdb_experiment *exp;
  const cube_anchor *a;
  const char *path;
  uint32_t *fn_of_region; /* made on first use */
  uint32_t *params_at;    /* cnode c's parameters: a->params[params_at[c] .. params_at[c + 1]) */
  uint32_t *param_order;
  hpcdb_u64map region_of; /* region id -> its first index in a->regions */
  uint32_t entry;         /* the synthetic entry point for plain Cube roots, or HPCDB_NONE */
  uint32_t max_id;
  int role_defaults; /* cnodes without parameters take them from their region's role (cnode_defaults.c) */
} builder;

static const char *attr_value(const cube_anchor *a, const char *key) {
  for (uint32_t i = 0; i < a->n_attrs; i++)
    if (!strcmp(a->attrs[i].key, key)) return a->attrs[i].value;
  return NULL;
}

static const char *param(const builder *b, uint32_t c, const char *key) {
  for (uint32_t k = b->params_at[c]; k < b->params_at[c + 1]; k++) {
    const cube_param *p = &b->a->params[b->param_order[k]];
    if (!strcmp(p->key, key)) return p->value;
  }
  return NULL;
}

static int file_index(hpcdb_experiment *exp, const char *path, uint32_t *out) {
  const char *s = hpcdb_intern(exp, path);
  for (uint32_t f = 0; f < exp->n_files; f++)
    if (exp->files[f].path == s) {
      *out = f;
      return 0;
    }
  return hpcdb_add_file(exp, s, 0, out);
}

static int module_index(hpcdb_experiment *exp, const char *path, uint32_t *out) {
  const char *s = hpcdb_intern(exp, path);
  for (uint32_t m = 0; m < exp->n_modules; m++)
    if (exp->modules[m].path == s) {
      *out = m;
      return 0;
    }
  return hpcdb_add_module(exp, s, 0, out);
}

/* The function of a region, made the first time a cnode needs it. */
static int function_of(builder *b, uint32_t region, uint32_t *out) {
  if (b->fn_of_region[region] != HPCDB_NONE) {
    *out = b->fn_of_region[region];
    return 0;
  }
  const cube_region *g = &b->a->regions[region];
  hpcdb_function fn = {g->unnamed ? NULL : g->name,           HPCDB_NONE, g->offset, HPCDB_NONE,
                       g->begin > 0 ? (uint32_t)g->begin : 0, 0};
  if (g->mod && *g->mod) HPCDB_TRY(file_index(b->exp, g->mod, &fn.file));
  if (g->module) HPCDB_TRY(module_index(b->exp, g->module, &fn.module));
  HPCDB_TRY(hpcdb_add_function(b->exp, &fn, &b->fn_of_region[region]));
  *out = b->fn_of_region[region];
  return 0;
}

/* A relation or lexical type by name (model/names.h); unknown values were
 * written as numbers. */
static uint8_t named_or_number(int named, const char *s) { return (uint8_t)(named >= 0 ? named : strtol(s, NULL, 10)); }

/* A plain Cube root hangs below one synthetic entry point "main thread". */
static int synthetic_entry(builder *b, uint32_t *out) {
  if (b->entry == HPCDB_NONE) {
    hpcdb_context e = {0};
    e.id = b->max_id + 2;
    e.kind = HPCDB_CTX_ENTRY;
    e.entry_point = HPCDB_ENTRY_MAIN;
    e.name = "main thread";
    e.function = e.file = e.module = HPCDB_NONE;
    HPCDB_TRY(hpcdb_add_context(b->exp, &e, 0, &b->entry));
    char id[16];
    snprintf(id, sizeof id, "%u", e.id);
    HPCDB_TRY(hpcdb_add_attr(b->exp, "cube.synthetic_entry", id));
    model_set_synthetic_entry(b->exp, e.id); /* not a cnode: exports leave it out */
  }
  *out = b->entry;
  return 0;
}

/* Cube parameters that are not hpcdb's own become the context's label. */
static const char *label_of(builder *b, uint32_t c, char *buf, size_t size) {
  const char *own = param(b, c, "hpctoolkit::label");
  if (own) return own;
  size_t n = 0;
  for (uint32_t k = b->params_at[c]; k < b->params_at[c + 1] && n < size; k++) {
    const cube_param *p = &b->a->params[b->param_order[k]];
    if (!strncmp(p->key, "hpctoolkit::", 12)) continue;
    n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", n ? ", " : "", p->key, p->value);
  }
  return n ? buf : NULL;
}

static int add_cnode(builder *b, uint32_t c, uint32_t *ctx_of) {
  const cube_cnode *n = &b->a->cnodes[c];
  uint64_t found;
  uint32_t region = u64map_get(&b->region_of, n->callee, &found) ? (uint32_t)found : UINT32_MAX;
  const char *path = b->path;
  if (region == UINT32_MAX)
    return FAIL("cnode-callee", "cnode %u calls region %u, which does not exist", n->id, n->callee);
  const cube_region *g = &b->a->regions[region];
  hpcdb_context ctx = {0};
  char label[1024];
  ctx.id = n->id + 1;
  ctx.function = ctx.file = ctx.module = HPCDB_NONE;
  const char *entry = param(b, c, "hpctoolkit::entry"), *v;
  uint32_t parent;
  if (entry) {
    ctx.kind = HPCDB_CTX_ENTRY;
    ctx.entry_point = (uint16_t)strtoul(entry, NULL, 10);
    ctx.name = g->name;
    if (n->parent != UINT32_MAX) return FAIL("cnode-entry", "entry point cnode %u is not a root", n->id);
    return hpcdb_add_context(b->exp, &ctx, 0, &ctx_of[c]);
  }
  ctx.kind = HPCDB_CTX_NORMAL;
  cube_cnode_defaults(b->role_defaults ? g->role : CUBE_ROLE_OTHER, &ctx.relation, &ctx.lexical_type, &ctx.propagation);
  if ((v = param(b, c, "hpctoolkit::relation"))) ctx.relation = named_or_number(model_relation_of(v), v);
  if ((v = param(b, c, "hpctoolkit::lexical"))) ctx.lexical_type = named_or_number(model_lexical_of(v), v);
  if (!g->synthetic) HPCDB_TRY(function_of(b, region, &ctx.function));
  if (n->mod && *n->mod) {
    HPCDB_TRY(file_index(b->exp, n->mod, &ctx.file));
    ctx.line = n->line > 0 ? (uint32_t)n->line : 0;
  } else if (n->line > 0 && ctx.function != HPCDB_NONE && b->exp->functions[ctx.function].file != HPCDB_NONE) {
    ctx.file = b->exp->functions[ctx.function].file;
    ctx.line = (uint32_t)n->line;
  }
  if ((v = param(b, c, "hpctoolkit::module"))) {
    HPCDB_TRY(module_index(b->exp, v, &ctx.module));
    ctx.offset = (v = param(b, c, "hpctoolkit::offset")) ? strtoull(v, NULL, 10) : 0;
  }
  if ((v = param(b, c, "hpctoolkit::propagation"))) ctx.propagation = (uint16_t)strtoul(v, NULL, 10);
  ctx.name = label_of(b, c, label, sizeof label);
  if (n->parent != UINT32_MAX) parent = ctx_of[n->parent];
  else HPCDB_TRY(synthetic_entry(b, &parent));
  int rc = hpcdb_add_context(b->exp, &ctx, parent, &ctx_of[c]);
  if (rc != HPCDB_EINVAL) return rc;
  char why[256]; /* the message buffer is about to be rewritten */
  snprintf(why, sizeof why, "%s", hpcdb_last_error());
  return FAIL("cnode-id", "cnode %u: %s", n->id, why);
}

/* Parameters grouped by cnode (a counting sort keeps document order). */
static int group_params(builder *b) {
  const cube_anchor *a = b->a;
  b->params_at = calloc((size_t)a->n_cnodes + 2, sizeof *b->params_at);
  b->param_order = malloc(((size_t)a->n_params + 1) * sizeof *b->param_order);
  uint32_t *fill = malloc(((size_t)a->n_cnodes + 1) * sizeof *fill);
  if (!b->params_at || !b->param_order || !fill) {
    free(fill);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (uint32_t k = 0; k < a->n_params; k++) b->params_at[a->params[k].cnode + 1]++;
  for (uint32_t c = 0; c < a->n_cnodes; c++) b->params_at[c + 1] += b->params_at[c];
  memcpy(fill, b->params_at, (size_t)a->n_cnodes * sizeof *fill);
  for (uint32_t k = 0; k < a->n_params; k++) b->param_order[fill[a->params[k].cnode]++] = k;
  free(fill);
  return 0;
}

static int build_tree(builder *b) {
  const cube_anchor *a = b->a;
  const char *path = b->path;
  for (uint32_t c = 0; c < a->n_cnodes; c++)
    if (a->cnodes[c].id > b->max_id) b->max_id = a->cnodes[c].id;
  if (b->max_id >= UINT32_MAX - 2) return FAIL("cnode-id", "cnode id %u is too large", b->max_id);
  b->fn_of_region = malloc(((size_t)a->n_regions + 1) * sizeof *b->fn_of_region);
  uint32_t *ctx_of = malloc(((size_t)a->n_cnodes + 1) * sizeof *ctx_of);
  int rc = b->fn_of_region && ctx_of ? group_params(b) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; rc == 0 && i < a->n_regions; i++) b->fn_of_region[i] = HPCDB_NONE;
  for (uint32_t i = a->n_regions; rc == 0 && i-- > 0;) /* backwards: the first of equal ids stays */
    if (u64map_put(&b->region_of, a->regions[i].id, i) < 0) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t c = 0; c < a->n_cnodes && rc == 0; c++) rc = add_cnode(b, c, ctx_of);
  free(ctx_of);
  return rc;
}

/* Kind names and each location's id tuple as hpcdb wrote them (attributes
 * hpctoolkit::kinds and hpctoolkit::idtuple::<location>); 0 when absent. */
static int written_identities(builder *b, int *found) {
  const char *kinds = attr_value(b->a, "hpctoolkit::kinds");
  *found = kinds != NULL;
  if (!kinds) return 0;
  for (const char *s = kinds;;) {
    const char *end = strchr(s, ',');
    size_t n = end ? (size_t)(end - s) : strlen(s);
    HPCDB_TRY(hpcdb_add_kind_name(b->exp, hpcdb_intern_n(b->exp, s, n), NULL));
    if (!end) break;
    s = end + 1;
  }
  for (uint32_t l = 0; l < b->a->n_locations; l++) {
    char key[64];
    snprintf(key, sizeof key, "hpctoolkit::idtuple::%u", l);
    const char *t = attr_value(b->a, key), *path = b->path;
    if (!t) return FAIL("idtuple", "no %s for location %u", key, l);
    hpcdb_id ids[64];
    uint16_t n = 0;
    for (const char *s = t; *t != '-' && *s && n < 64;) {
      char *e;
      unsigned long kind = strtoul(s, &e, 10), flags = *e == ':' ? strtoul(e + 1, &e, 10) : 0;
      unsigned long logical = *e == ':' ? strtoul(e + 1, &e, 10) : 0;
      unsigned long long physical = *e == ':' ? strtoull(e + 1, &e, 10) : 0;
      if (e == s || (*e && *e != ' ') || kind >= b->exp->n_kind_names)
        return FAIL("idtuple", "location %u: id tuple \"%s\" is not kind:flags:logical:physical", l, t);
      ids[n++] = (hpcdb_id){(uint16_t)kind, (uint16_t)flags, (uint32_t)logical, physical};
      s = *e ? e + 1 : e;
    }
    HPCDB_TRY(hpcdb_add_profile(b->exp, 0, *t != '-', ids, n, NULL));
  }
  return 0;
}

/* NODE / RANK / THREAD from the system tree. */
static int system_identities(builder *b) {
  static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD"};
  for (int k = 0; k < 4; k++) HPCDB_TRY(hpcdb_add_kind_name(b->exp, kinds[k], NULL));
  for (uint32_t l = 0; l < b->a->n_locations; l++) {
    const cube_location *loc = &b->a->locations[l];
    hpcdb_id ids[3] = {{1, 0, loc->node_index, loc->node_index},
                       {2, 0, loc->group_rank, loc->group_rank},
                       {3, 0, loc->rank, loc->rank}};
    HPCDB_TRY(hpcdb_add_profile(b->exp, 0, 1, ids, 3, NULL));
  }
  return 0;
}

static int build_metrics(builder *b) {
  hpcdb_experiment *exp = b->exp;
  const cube_anchor *a = b->a;
  hpcdb_scope point = {"point", HPCDB_SCOPE_POINT, 255}, execution = {"execution", HPCDB_SCOPE_EXECUTION, 255};
  uint32_t sp, se;
  HPCDB_TRY(hpcdb_add_scope(exp, &point, &sp));
  HPCDB_TRY(hpcdb_add_scope(exp, &execution, &se));
  if (a->n_metrics > 32767) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: more than 32767 metrics", b->path);
  for (uint32_t i = 0; i < a->n_metrics; i++) {
    const cube_metric *m = &a->metrics[i];
    uint32_t idx;
    uint8_t combine = m->aggregate == CUBE_MIN   ? HPCDB_COMBINE_MIN
                      : m->aggregate == CUBE_MAX ? HPCDB_COMBINE_MAX
                                                 : HPCDB_COMBINE_SUM;
    HPCDB_TRY(hpcdb_add_metric(exp, *m->uniq ? m->uniq : m->disp, &idx));
    HPCDB_TRY(hpcdb_metric_describe(exp, idx, *m->descr ? m->descr : NULL, *m->uom ? m->uom : NULL));
    cube_dtype t;
    uint8_t integer = 0;
    if (cube_dtype_parse(&t, m->dtype) && t.kind == CUBE_DT_INTEGER) /* read.c sums them so */
      integer = t.is_signed ? HPCDB_INTEGER_SIGNED : HPCDB_INTEGER_UNSIGNED;
    HPCDB_TRY(hpcdb_metric_set_combine(exp, idx, integer, HPCDB_COMBINE_SUM));
    if (m->stored_only) { /* hpcdb wrote it so: one flavour, no summary (read.c) */
      int inclusive = m->flavour == CUBE_INCLUSIVE;
      HPCDB_TRY(hpcdb_metric_add_instance(exp, idx, inclusive ? se : sp, (uint16_t)(2 * i + (uint32_t)inclusive)));
      continue;
    }
    /* min / max over the subtree: not v4.0's execution sum */
    HPCDB_TRY(hpcdb_metric_set_combine(exp, idx, integer, combine));
    HPCDB_TRY(hpcdb_metric_add_instance(exp, idx, sp, (uint16_t)(2 * i)));
    HPCDB_TRY(hpcdb_metric_add_instance(exp, idx, se, (uint16_t)(2 * i + 1)));
    hpcdb_summary s1 = {sp, "$$", combine, (uint16_t)(2 * i)}, s2 = {se, "$$", combine, (uint16_t)(2 * i + 1)};
    HPCDB_TRY(hpcdb_metric_add_summary(exp, idx, &s1));
    HPCDB_TRY(hpcdb_metric_add_summary(exp, idx, &s2));
  }
  return 0;
}

int cube_build_model(hpcdb_experiment *exp, const cube_anchor *a, const char *path, uint32_t *entry_id) {
  HPCDB_TRY(hpcdb_set_format(exp, cube_format.name, 4, 0));
  const char *title = attr_value(a, "hpctoolkit::title");
  HPCDB_TRY(hpcdb_set_title(exp, title ? title : "cube", attr_value(a, "hpctoolkit::description")));
  HPCDB_TRY(hpcdb_add_attr(exp, "cube.ctx_id_offset", "1"));
  model_set_native_offset(exp, 1);
  HPCDB_TRY(hpcdb_add_attr(exp, "cube.version", a->version));
  for (uint32_t i = 0; i < a->n_attrs; i++) {
    if (!strncmp(a->attrs[i].key, "hpctoolkit::", 12)) continue; /* hpcdb's own: used below */
    char key[512];
    snprintf(key, sizeof key, "cube.%s", a->attrs[i].key);
    HPCDB_TRY(hpcdb_add_attr(exp, key, a->attrs[i].value));
  }
  const char *defaults = attr_value(a, CUBE_CNODE_DEFAULTS_KEY);
  builder b = {exp, a, path, NULL, NULL, NULL, {0}, HPCDB_NONE, 0, defaults && !strcmp(defaults, "role")};
  int rc = build_tree(&b), found = 0;
  free(b.fn_of_region);
  u64map_free(&b.region_of);
  free(b.params_at);
  free(b.param_order);
  HPCDB_TRY(rc);
  *entry_id = b.entry != HPCDB_NONE ? exp->contexts[b.entry].id : 0;
  HPCDB_TRY(build_metrics(&b));
  HPCDB_TRY(hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL));
  HPCDB_TRY(written_identities(&b, &found));
  return found ? 0 : system_identities(&b);
}
