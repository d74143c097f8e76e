/* SPDX-License-Identifier: BSD-3-Clause */
/* The source handle: the one place where a path is chosen to be read lazily
 * (a v4.0 directory mapped, a Cube file through its member reader) or
 * loaded whole, and the reference count the query, trace and comparison
 * objects made from it share. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/model_build.h"
#include "query/query_internal.h"

static hpcdb_source *source_new(void) {
  hpcdb_source *s = calloc(1, sizeof *s);
  if (!s) {
    hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    return NULL;
  }
  atomic_init(&s->refs, 1);
  s->format = HPCDB_FORMAT_UNKNOWN;
  return s;
}

static void source_free(hpcdb_source *s) {
  if (s->q.ops && s->q.ops->close) s->q.ops->close(s->q.impl);
  free(s->path);
  free(s);
}

/* The formats read lazily: their own query source answers each request from
 * the files; every other format is read into the model whole. This table is
 * the one place that choice is made (the formats' registry lives below the
 * query layer and cannot point up to it). */
static const struct {
  hpcdb_format format;
  int (*open)(hpcdb_source *out, const char *path);
} lazy_sources[] = {
    {HPCDB_FORMAT_HPCTK4_DIR, query_source_db},
    {HPCDB_FORMAT_CUBE, query_source_cube},
};

static int open_loaded(hpcdb_source *s, const char *path, const hpcdb_read_options *load) {
  hpcdb_experiment *exp;
  int rc = hpcdb_read_opts(&exp, path, load);
  if (rc == 0 && (rc = query_source_model(&s->q, exp, exp)) < 0) hpcdb_experiment_free(exp);
  s->extra.profile = query_source_model_profile;
  return rc;
}

int hpcdb_source_open(hpcdb_source **out, const char *path, const hpcdb_read_options *load) {
  *out = NULL;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  hpcdb_source *s = source_new();
  if (!s) return HPCDB_ENOMEM;
  s->format = f;
  int rc = (s->path = strdup(path)) ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  size_t k = 0, n = sizeof lazy_sources / sizeof *lazy_sources;
  while (k < n && lazy_sources[k].format != f) k++;
  if (rc == 0) rc = k < n ? lazy_sources[k].open(s, path) : open_loaded(s, path, load);
  if (rc < 0) {
    source_free(s);
    return rc;
  }
  *out = s;
  return 0;
}

int hpcdb_source_from_experiment(hpcdb_source **out, const hpcdb_experiment *exp) {
  *out = NULL;
  hpcdb_source *s = source_new();
  if (!s) return HPCDB_ENOMEM;
  int rc = query_source_model(&s->q, exp, NULL);
  if (rc < 0) {
    free(s);
    return rc;
  }
  s->extra.profile = query_source_model_profile;
  *out = s;
  return 0;
}

int query_source_adopt(hpcdb_source **out, const hpcdb_qsource *src) {
  *out = NULL;
  hpcdb_source *s = source_new();
  if (!s) {
    if (src->ops->close) src->ops->close(src->impl);
    return HPCDB_ENOMEM;
  }
  s->q = *src;
  *out = s;
  return 0;
}

hpcdb_source *hpcdb_source_ref(hpcdb_source *s) {
  if (s) atomic_fetch_add(&s->refs, 1);
  return s;
}

void hpcdb_source_close(hpcdb_source *s) {
  if (s && atomic_fetch_sub(&s->refs, 1) == 1) source_free(s);
}

const hpcdb_experiment *hpcdb_source_experiment(const hpcdb_source *s) { return s->q.exp; }
const char *hpcdb_source_kind(const hpcdb_source *s) { return s->q.ops->name; }
const char *hpcdb_source_path(const hpcdb_source *s) { return s->path; }
int hpcdb_source_is_lazy(const hpcdb_source *s) { return s->extra.lazy; }

int hpcdb_source_load(hpcdb_source *s, const hpcdb_read_options *ro, const hpcdb_experiment **exp,
                      hpcdb_experiment **owned) {
  *owned = NULL;
  *exp = s->q.exp;
  if (!s->extra.lazy) return 0;
  HPCDB_TRY(hpcdb_read_opts(owned, s->path, ro));
  *exp = *owned;
  return 0;
}

int hpcdb_source_profile(hpcdb_source *s, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  memset(out, 0, sizeof *out);
  *ints = NULL;
  if (profile >= s->q.exp->n_profiles)
    return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist (%u profiles)", profile, s->q.exp->n_profiles);
  if (!s->extra.profile) return hpcdb_fail(HPCDB_EUNSUPPORTED, "a %s source gives no profile's values", s->q.ops->name);
  return s->extra.profile(s->q.impl, profile, out, ints);
}

/* A copy of the value arrays (the caller frees them as any profile's). */
int query_model_profile(const hpcdb_experiment *e, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  const hpcdb_profile *p = &e->profiles[profile];
  size_t nc = p->n_ctxs, nv = (size_t)p->n_values;
  out->ctx_ids = malloc((nc + 1) * sizeof *out->ctx_ids);
  out->ctx_starts = malloc((nc + 1) * sizeof *out->ctx_starts);
  out->metric_ids = malloc((nv + 1) * sizeof *out->metric_ids);
  out->values = malloc((nv + 1) * sizeof *out->values);
  if (!out->ctx_ids || !out->ctx_starts || !out->metric_ids || !out->values) {
    hpcdb_profile_clear_values(out);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a profile of %zu values", nv);
  }
  out->n_ctxs = p->n_ctxs;
  out->n_values = p->n_values;
  if (nc) {
    memcpy(out->ctx_ids, p->ctx_ids, nc * sizeof *out->ctx_ids);
    memcpy(out->ctx_starts, p->ctx_starts, (nc + 1) * sizeof *out->ctx_starts);
  } else {
    out->ctx_starts[0] = 0;
  }
  if (nv) {
    memcpy(out->metric_ids, p->metric_ids, nv * sizeof *out->metric_ids);
    memcpy(out->values, p->values, nv * sizeof *out->values);
  }
  *ints = model_integers(e, profile);
  return 0;
}
