/* hpcdb_cube_read: a .cubex archive into the model, one metric at a time.
 * Mapping (docs/mapping.md): regions are functions (their `mod` a source
 * file, `begin` the line), cnodes contexts (id = cnode id + 1: the model's
 * id 0 is the global context) reached by calls, locations profiles (NODE /
 * RANK / THREAD from the system tree) after a summary profile, and each
 * metric a model metric with its exclusive values in a `point` scope and its
 * inclusive values in an `execution` scope; the flavour Cube does not store
 * is derived along the tree (sums, or min / max for MINDOUBLE/MAXDOUBLE). */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "cube/cube.h"
#include "hpcdb/hpcdb.h"

typedef struct member {
  uint8_t *data;
  size_t len;
} member;

/* The whole current archive member. */
static int read_member(struct archive *ar, struct archive_entry *e, member *m, const char *path) {
  int64_t size = archive_entry_size(e);
  if (size < 0 || (uint64_t)size > SIZE_MAX - 1) return hpcdb_fail(HPCDB_ECORRUPT, "%s: member of bad size", path);
  m->len = (size_t)size;
  m->data = malloc(m->len + 1);
  if (!m->data) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for a %zu-byte member", path, m->len);
  la_ssize_t got = archive_read_data(ar, m->data, m->len);
  if (got < 0 || (size_t)got != m->len) {
    free(m->data);
    m->data = NULL;
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, archive_entry_pathname(e), 0, "archive", "short member: %s",
                         archive_error_string(ar) ? archive_error_string(ar) : "truncated");
  }
  return 0;
}

static int open_archive(struct archive **out, const char *path) {
  struct archive *ar = archive_read_new();
  if (!ar) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  archive_read_support_filter_all(ar);
  archive_read_support_format_tar(ar);
  if (archive_read_open_filename(ar, path, 1 << 16) != ARCHIVE_OK) {
    int rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a readable tar archive: %s", path, archive_error_string(ar));
    archive_read_free(ar);
    return rc;
  }
  *out = ar;
  return 0;
}

/* The metric's cnode order: positions of the index refer to it. Exclusive
 * (and simple) metrics: depth-first pre-order (document order); inclusive:
 * a node, then all its children, then the same for each child. */
static void cnode_order(const cube_anchor *a, int flavour, uint32_t *order, uint32_t *kids_at, uint32_t *kids) {
  if (flavour != CUBE_INCLUSIVE) {
    for (uint32_t i = 0; i < a->n_cnodes; i++) order[i] = i;
    return;
  }
  uint32_t n = 0;
  /* an explicit queue of "emit my children, then recurse" steps, per root */
  uint32_t *stack = malloc(((size_t)a->n_cnodes + 1) * sizeof *stack);
  if (!stack) return;
  for (uint32_t r = 0; r < a->n_cnodes; r++) {
    if (a->cnodes[r].parent != UINT32_MAX) continue;
    order[n++] = r;
    size_t top = 0;
    stack[top++] = r;
    while (top > 0) {
      uint32_t c = stack[--top];
      for (uint32_t k = kids_at[c]; k < kids_at[c + 1]; k++) order[n++] = kids[k];
      for (uint32_t k = kids_at[c + 1]; k-- > kids_at[c];) stack[top++] = kids[k];
    }
  }
  free(stack);
}

typedef struct triples {
  uint32_t *ctx;
  uint16_t *metric;
  double *value;
  uint64_t n, cap;
} triples;

static int push(triples *t, uint32_t ctx, uint16_t metric, double v) {
  if (t->n == t->cap) {
    uint64_t cap = t->cap ? 2 * t->cap : 1024;
    uint32_t *c = realloc(t->ctx, cap * sizeof *c);
    if (c) t->ctx = c;
    uint16_t *m = realloc(t->metric, cap * sizeof *m);
    if (m) t->metric = m;
    double *x = realloc(t->value, cap * sizeof *x);
    if (x) t->value = x;
    if (!c || !m || !x) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    t->cap = cap;
  }
  t->ctx[t->n] = ctx;
  t->metric[t->n] = metric;
  t->value[t->n++] = v;
  return 0;
}

typedef struct reader {
  const char *path;
  cube_anchor a;
  hpcdb_experiment *exp;
  uint32_t *kids_at, *kids; /* children of each cnode */
  uint32_t *order;
  double *exc, *inc;        /* one metric: n_cnodes × n_locations */
  triples *per_profile;     /* n_locations + 1 (the summary first) */
  uint32_t *loc_of_id_pos;  /* location position by data column */
} reader;

/* Both flavours of one metric for every cnode and location, then into the
 * profiles' value lists. */
static int add_metric(reader *r, uint32_t mi, const cube_values *v) {
  const cube_metric *m = &r->a.metrics[mi];
  uint32_t nc = r->a.n_cnodes, nl = r->a.n_locations;
  size_t size = cube_dtype_size(m->dtype);
  double *stored = m->flavour == CUBE_INCLUSIVE ? r->inc : r->exc, *other = m->flavour == CUBE_INCLUSIVE ? r->exc : r->inc;
  memset(r->exc, 0, (size_t)nc * nl * sizeof *r->exc);
  memset(r->inc, 0, (size_t)nc * nl * sizeof *r->inc);
  cnode_order(&r->a, m->flavour, r->order, r->kids_at, r->kids);
  for (uint32_t k = 0; k < v->n_rows; k++) {
    uint32_t c = r->order[v->row_pos[k]];
    for (uint32_t l = 0; l < nl; l++)
      stored[(size_t)c * nl + l] = cube_decode(m->dtype, v->data + ((size_t)k * nl + l) * size, v->big_endian);
  }
  /* the other flavour, children after parents in document order */
  for (uint32_t c = 0; c < nc; c++)
    for (uint32_t l = 0; l < nl; l++) other[(size_t)c * nl + l] = stored[(size_t)c * nl + l];
  for (uint32_t c = nc; c-- > 0;) {
    uint32_t p = r->a.cnodes[c].parent;
    if (p == UINT32_MAX) continue;
    for (uint32_t l = 0; l < nl; l++) {
      double *pv = &r->inc[(size_t)p * nl + l], cv = r->inc[(size_t)c * nl + l];
      if (m->flavour == CUBE_INCLUSIVE) {
        r->exc[(size_t)p * nl + l] -= cv;
      } else if (m->aggregate == CUBE_MIN) { /* as CubeLib: a child without a value counts as 0 */
        if (cv < *pv) *pv = cv;
      } else if (m->aggregate == CUBE_MAX) {
        if (cv > *pv) *pv = cv;
      } else {
        *pv += cv;
      }
    }
  }
  uint16_t point = (uint16_t)(2 * mi), execution = (uint16_t)(2 * mi + 1);
  for (uint32_t c = 0; c < nc; c++) {
    double sx = 0, sy = 0; /* the summary: combined over locations as the metric aggregates */
    int first = 1;
    for (uint32_t l = 0; l < nl; l++) {
      double x = r->exc[(size_t)c * nl + l], y = r->inc[(size_t)c * nl + l];
      if (x != 0) HPCDB_TRY(push(&r->per_profile[l + 1], r->a.cnodes[c].id + 1, point, x));
      if (y != 0) HPCDB_TRY(push(&r->per_profile[l + 1], r->a.cnodes[c].id + 1, execution, y));
      if (m->aggregate == CUBE_SUM) {
        sx += x;
        sy += y;
      } else if (x != 0 || y != 0) {
        int lower = m->aggregate == CUBE_MIN;
        sx = first || (lower ? x < sx : x > sx) ? x : sx;
        sy = first || (lower ? y < sy : y > sy) ? y : sy;
        first = 0;
      }
    }
    if (sx != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, point, sx));
    if (sy != 0) HPCDB_TRY(push(&r->per_profile[0], r->a.cnodes[c].id + 1, execution, sy));
  }
  return 0;
}

/* Files, functions, the context tree, metrics and profiles from the anchor. */
static int build_model(reader *r) {
  cube_anchor *a = &r->a;
  hpcdb_experiment *exp = r->exp;
  exp->format = "cube";
  exp->version_major = 4;
  HPCDB_TRY(hpcdb_set_title(exp, "cube", NULL));
  HPCDB_TRY(hpcdb_add_attr(exp, "cube.ctx_id_offset", "1"));
  HPCDB_TRY(hpcdb_add_attr(exp, "cube.version", a->version));
  for (uint32_t i = 0; i < a->n_attrs; i++) {
    char key[512];
    snprintf(key, sizeof key, "cube.%s", a->attrs[i].key);
    HPCDB_TRY(hpcdb_add_attr(exp, key, a->attrs[i].value));
  }
  static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD"};
  for (int k = 0; k < 4; k++) HPCDB_TRY(hpcdb_add_kind_name(exp, kinds[k], NULL));
  /* regions: a function each; their mod is a source file */
  uint32_t *fn_of_region = malloc(((size_t)a->n_regions + 1) * sizeof *fn_of_region);
  if (!fn_of_region) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  for (uint32_t i = 0; i < a->n_regions && rc == 0; i++) {
    const cube_region *g = &a->regions[i];
    hpcdb_function fn = {g->name, HPCDB_NONE, 0, HPCDB_NONE, g->begin > 0 ? (uint32_t)g->begin : 0, 0};
    if (g->mod && *g->mod) {
      const char *path = hpcdb_intern(exp, g->mod);
      for (uint32_t f = 0; f < exp->n_files && fn.file == HPCDB_NONE; f++)
        if (exp->files[f].path == path) fn.file = f;
      if (fn.file == HPCDB_NONE) rc = hpcdb_add_file(exp, path, 0, &fn.file);
    }
    if (rc == 0) rc = hpcdb_add_function(exp, &fn, &fn_of_region[i]);
  }
  /* cnodes: contexts under one entry point (HPCToolkit's trees start with
   * entry points; its id follows the largest cnode id); a region is found
   * by its id */
  uint32_t *ctx_of = malloc(((size_t)a->n_cnodes + 1) * sizeof *ctx_of), entry = 0, max_id = 0;
  if (!ctx_of) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t c = 0; c < a->n_cnodes; c++)
    if (a->cnodes[c].id > max_id) max_id = a->cnodes[c].id;
  if (rc == 0 && max_id >= UINT32_MAX - 2)
    rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "anchor.xml", 0, "cnode-id", "cnode id %u is too large", max_id);
  if (rc == 0) {
    hpcdb_context e = {0};
    e.id = max_id + 2;
    e.kind = HPCDB_CTX_ENTRY;
    e.entry_point = HPCDB_ENTRY_MAIN;
    e.name = "main thread";
    e.function = e.file = e.module = HPCDB_NONE;
    rc = hpcdb_add_context(exp, &e, 0, &entry);
  }
  for (uint32_t c = 0; c < a->n_cnodes && rc == 0; c++) {
    const cube_cnode *n = &a->cnodes[c];
    uint32_t region = UINT32_MAX;
    for (uint32_t i = 0; i < a->n_regions && region == UINT32_MAX; i++)
      if (a->regions[i].id == n->callee) region = i;
    if (region == UINT32_MAX) {
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "anchor.xml", 0, "cnode-callee", "cnode %u calls region %u, which does not exist", n->id, n->callee);
      break;
    }
    hpcdb_context ctx = {0};
    ctx.id = n->id + 1;
    ctx.kind = HPCDB_CTX_NORMAL;
    ctx.relation = HPCDB_REL_CALL;
    ctx.lexical_type = HPCDB_LEX_FUNCTION;
    ctx.function = fn_of_region[region];
    ctx.file = ctx.module = HPCDB_NONE;
    if (n->line > 0 && exp->functions[ctx.function].file != HPCDB_NONE) {
      ctx.file = exp->functions[ctx.function].file;
      ctx.line = (uint32_t)n->line;
    }
    rc = hpcdb_add_context(exp, &ctx, n->parent == UINT32_MAX ? entry : ctx_of[n->parent], &ctx_of[c]);
    if (rc == HPCDB_EINVAL) rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "anchor.xml", 0, "cnode-id", "%s", hpcdb_last_error());
  }
  free(fn_of_region);
  free(ctx_of);
  HPCDB_TRY(rc);
  /* metrics: point (exclusive) and execution (inclusive) each */
  hpcdb_scope point = {"point", HPCDB_SCOPE_POINT, 255}, execution = {"execution", HPCDB_SCOPE_EXECUTION, 255};
  uint32_t sp, se;
  HPCDB_TRY(hpcdb_add_scope(exp, &point, &sp));
  HPCDB_TRY(hpcdb_add_scope(exp, &execution, &se));
  if (a->n_metrics > 32767) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: more than 32767 metrics", r->path);
  for (uint32_t i = 0; i < a->n_metrics; i++) {
    const cube_metric *m = &a->metrics[i];
    uint32_t idx;
    uint8_t combine = m->aggregate == CUBE_MIN ? HPCDB_COMBINE_MIN : m->aggregate == CUBE_MAX ? HPCDB_COMBINE_MAX : HPCDB_COMBINE_SUM;
    HPCDB_TRY(hpcdb_add_metric(exp, *m->uniq ? m->uniq : m->disp, &idx));
    exp->metrics[idx].description = hpcdb_intern(exp, m->descr);
    exp->metrics[idx].unit = hpcdb_intern(exp, m->uom);
    HPCDB_TRY(hpcdb_metric_add_instance(exp, idx, sp, (uint16_t)(2 * i)));
    HPCDB_TRY(hpcdb_metric_add_instance(exp, idx, se, (uint16_t)(2 * i + 1)));
    hpcdb_summary s1 = {sp, "$$", combine, (uint16_t)(2 * i)}, s2 = {se, "$$", combine, (uint16_t)(2 * i + 1)};
    HPCDB_TRY(hpcdb_metric_add_summary(exp, idx, &s1));
    HPCDB_TRY(hpcdb_metric_add_summary(exp, idx, &s2));
  }
  /* profiles: the summary, then one per location */
  HPCDB_TRY(hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL));
  for (uint32_t l = 0; l < a->n_locations; l++) {
    const cube_location *loc = &a->locations[l];
    hpcdb_id ids[3] = {{1, 0, loc->node_index, loc->node_index}, {2, 0, loc->group_rank, loc->group_rank}, {3, 0, loc->rank, loc->rank}};
    HPCDB_TRY(hpcdb_add_profile(exp, 0, 1, ids, 3, NULL));
  }
  return 0;
}

static int metric_of_member(const cube_anchor *a, const char *name, const char *suffix, uint32_t *out) {
  size_t n = strlen(name), k = strlen(suffix);
  if (n <= k || strcmp(name + n - k, suffix) != 0) return 0;
  char *end;
  unsigned long id = strtoul(name, &end, 10);
  if (end != name + n - k) return 0;
  for (uint32_t i = 0; i < a->n_metrics; i++)
    if (a->metrics[i].id == id) {
      *out = i;
      return 1;
    }
  return 0;
}

/* The second pass: each metric's .index and .data, decoded as soon as both are there. */
static int read_metrics(reader *r) {
  struct archive *ar;
  HPCDB_TRY(open_archive(&ar, r->path));
  member *ix = calloc(r->a.n_metrics + 1, sizeof *ix), *dt = calloc(r->a.n_metrics + 1, sizeof *dt);
  int rc = ix && dt ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  struct archive_entry *e;
  while (rc == 0) {
    int h = archive_read_next_header(ar, &e);
    if (h == ARCHIVE_EOF) break;
    if (h < ARCHIVE_WARN) {
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "archive", 0, "tar", "%s", archive_error_string(ar));
      break;
    }
    const char *name = archive_entry_pathname(e);
    uint32_t m;
    member *slot = NULL;
    if (metric_of_member(&r->a, name, ".index", &m)) slot = &ix[m];
    else if (metric_of_member(&r->a, name, ".data", &m)) slot = &dt[m];
    if (!slot || slot->data) continue;
    if ((rc = read_member(ar, e, slot, r->path)) < 0) break;
    if (ix[m].data && dt[m].data) {
      cube_values v;
      size_t size = cube_dtype_size(r->a.metrics[m].dtype);
      if (!size) { /* a type this reader cannot decode: the metric stays empty, and says why */
        char key[600];
        snprintf(key, sizeof key, "cube.not-decoded.%s", r->a.metrics[m].uniq);
        rc = hpcdb_add_attr(r->exp, key, r->a.metrics[m].dtype);
      } else {
        rc = cube_values_decode(&v, ix[m].data, ix[m].len, dt[m].data, dt[m].len, size, r->a.n_locations, r->a.n_cnodes, r->path, r->a.metrics[m].uniq);
        if (rc == 0) {
          rc = add_metric(r, m, &v);
          cube_values_free(&v);
        }
      }
      free(ix[m].data);
      free(dt[m].data);
      ix[m].data = dt[m].data = NULL;
    }
  }
  for (uint32_t i = 0; ix && dt && i < r->a.n_metrics; i++) {
    free(ix[i].data);
    free(dt[i].data);
  }
  free(ix);
  free(dt);
  archive_read_free(ar);
  return rc;
}

static int read_anchor(reader *r) {
  struct archive *ar;
  HPCDB_TRY(open_archive(&ar, r->path));
  struct archive_entry *e;
  int rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no anchor.xml in the archive", r->path);
  for (;;) {
    int h = archive_read_next_header(ar, &e);
    if (h == ARCHIVE_EOF) break;
    if (h < ARCHIVE_WARN) {
      rc = hpcdb_fail_at(HPCDB_ECORRUPT, r->path, "archive", 0, "tar", "%s", archive_error_string(ar));
      break;
    }
    if (strcmp(archive_entry_pathname(e), "anchor.xml") != 0) continue;
    member m;
    if ((rc = read_member(ar, e, &m, r->path)) == 0) {
      rc = cube_anchor_parse(&r->a, m.data, m.len, r->path);
      free(m.data);
    }
    break;
  }
  archive_read_free(ar);
  return rc;
}

int hpcdb_cube_read(hpcdb_experiment **out, const char *path) {
  *out = NULL;
  reader r;
  memset(&r, 0, sizeof r);
  r.path = path;
  HPCDB_TRY(read_anchor(&r));
  uint32_t nc = r.a.n_cnodes, nl = r.a.n_locations;
  int rc = hpcdb_experiment_new(&r.exp);
  r.kids_at = calloc((size_t)nc + 2, sizeof *r.kids_at);
  r.kids = malloc(((size_t)nc + 1) * sizeof *r.kids);
  r.order = malloc(((size_t)nc + 1) * sizeof *r.order);
  r.exc = malloc(((size_t)nc * nl + 1) * sizeof *r.exc);
  r.inc = malloc(((size_t)nc * nl + 1) * sizeof *r.inc);
  r.per_profile = calloc((size_t)nl + 1, sizeof *r.per_profile);
  if (rc == 0 && (!r.kids_at || !r.kids || !r.order || !r.exc || !r.inc || !r.per_profile))
    rc = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %u cnodes x %u locations", path, nc, nl);
  if (rc == 0) { /* children lists in document order */
    for (uint32_t c = 0; c < nc; c++)
      if (r.a.cnodes[c].parent != UINT32_MAX) r.kids_at[r.a.cnodes[c].parent + 1]++;
    for (uint32_t c = 0; c < nc; c++) r.kids_at[c + 1] += r.kids_at[c];
    uint32_t *fill = malloc(((size_t)nc + 1) * sizeof *fill);
    if (!fill) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    else {
      memcpy(fill, r.kids_at, (size_t)nc * sizeof *fill);
      for (uint32_t c = 0; c < nc; c++)
        if (r.a.cnodes[c].parent != UINT32_MAX) r.kids[fill[r.a.cnodes[c].parent]++] = c;
      free(fill);
    }
  }
  if (rc == 0) rc = build_model(&r);
  if (rc == 0) rc = read_metrics(&r);
  for (uint32_t p = 0; rc == 0 && p <= nl; p++)
    rc = hpcdb_profile_set_values(r.exp, p, r.per_profile[p].n, r.per_profile[p].ctx, r.per_profile[p].metric,
                                  r.per_profile[p].value);
  if (rc == 0) r.exp->origin = hpcdb_intern(r.exp, path);
  for (uint32_t p = 0; r.per_profile && p <= nl; p++) {
    free(r.per_profile[p].ctx);
    free(r.per_profile[p].metric);
    free(r.per_profile[p].value);
  }
  free(r.per_profile);
  free(r.kids_at);
  free(r.kids);
  free(r.order);
  free(r.exc);
  free(r.inc);
  cube_anchor_free(&r.a);
  if (rc < 0) {
    hpcdb_experiment_free(r.exp);
    return rc;
  }
  *out = r.exp;
  return 0;
}
