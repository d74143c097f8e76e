/* SPDX-License-Identifier: BSD-3-Clause */
/* What an experiment says about itself: the format it came from, where it
 * was read, its recorded trace range, a metric's description and how its
 * values combine, a profile's counted values, how its context ids map to the
 * source's. Readers and the analysis set these through here instead of
 * writing the fields. */
#include "common/error.h"
#include "hpcdb/model.h"
#include "model/model_build.h"
#include "model/model_private.h"

static int intern_into(hpcdb_experiment *exp, const char **dst, const char *s) {
  const char *copy = hpcdb_intern(exp, s);
  if (s && !copy) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  *dst = copy;
  return 0;
}

int hpcdb_set_format(hpcdb_experiment *exp, const char *format, uint8_t major, uint8_t minor) {
  HPCDB_TRY(intern_into(exp, &exp->format, format));
  exp->version_major = major;
  exp->version_minor = minor;
  return 0;
}

int hpcdb_set_origin(hpcdb_experiment *exp, const char *path) { return intern_into(exp, &exp->origin, path); }

void hpcdb_set_trace_range(hpcdb_experiment *exp, uint64_t min, uint64_t max) {
  exp->trace_min = min;
  exp->trace_max = max;
}

void hpcdb_set_has_traces(hpcdb_experiment *exp) { exp->has_traces = 1; }

static int metric_exists(const hpcdb_experiment *exp, uint32_t metric) {
  return metric < exp->n_metrics ? 0 : hpcdb_fail(HPCDB_EINVAL, "metric %u does not exist", metric);
}

int hpcdb_metric_describe(hpcdb_experiment *exp, uint32_t metric, const char *description, const char *unit) {
  HPCDB_TRY(metric_exists(exp, metric));
  HPCDB_TRY(intern_into(exp, &exp->metrics[metric].description, description));
  return intern_into(exp, &exp->metrics[metric].unit, unit);
}

int hpcdb_metric_set_combine(hpcdb_experiment *exp, uint32_t metric, uint8_t integer, uint8_t execution_combine) {
  HPCDB_TRY(metric_exists(exp, metric));
  exp->metrics[metric].integer = integer;
  exp->metrics[metric].execution_combine = execution_combine;
  return 0;
}

int hpcdb_profile_set_counted(hpcdb_experiment *exp, uint32_t profile, uint64_t n_counted) {
  if (profile >= exp->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  exp->profiles[profile].n_counted = n_counted;
  return 0;
}

void model_set_native_offset(hpcdb_experiment *exp, uint32_t offset) { exp->priv->native_offset = offset; }

void model_set_synthetic_entry(hpcdb_experiment *exp, uint32_t ctx_id) { exp->priv->synthetic_entry = ctx_id; }

uint32_t model_native_offset(const hpcdb_experiment *exp, uint32_t *synthetic) {
  *synthetic = exp->priv->synthetic_entry;
  return exp->priv->native_offset;
}
