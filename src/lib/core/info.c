/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_write_info: what `hpcdb info` prints. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"

static const char *scope_type_name(uint8_t t) {
  static const char *const names[] = {"custom", "point", "execution", "transitive"};
  return t < 4 ? names[t] : "unknown";
}

static const char *combine_name(uint8_t c) {
  static const char *const names[] = {"sum", "min", "max"};
  return c < 3 ? names[c] : "unknown";
}

/* The tree's context ids as a bit set (NULL when they are too sparse for
 * one: more than 64 possible ids per context); *max is the largest. */
static uint8_t *tree_id_bits(const hpcdb_experiment *exp, uint32_t *max) {
  *max = 0;
  for (uint32_t c = 0; c < exp->n_contexts; c++)
    if (exp->contexts[c].id > *max) *max = exp->contexts[c].id;
  if (*max / 64 > exp->n_contexts) return NULL;
  uint8_t *bits = calloc(*max / 8 + 1, 1);
  for (uint32_t c = 0; bits && c < exp->n_contexts; c++) {
    uint32_t id = exp->contexts[c].id;
    bits[id >> 3] |= (uint8_t)(1u << (id & 7));
  }
  return bits;
}

/* Context ids used by some profile or trace but not in the tree. Every
 * profile lists its context ids: the tree lookup is a bit test where it can
 * be. */
static uint64_t ids_only_in_values(const hpcdb_experiment *exp) {
  hpcdb_u64map seen = {0};
  uint64_t n = 0;
  uint32_t max;
  uint8_t *tree = tree_id_bits(exp, &max);
  for (uint32_t p = 0; p < exp->n_profiles; p++)
    for (uint32_t k = 0; k < exp->profiles[p].n_ctxs; k++) {
      uint32_t id = exp->profiles[p].ctx_ids[k];
      uint64_t dummy;
      int in_tree = tree ? id <= max && (tree[id >> 3] >> (id & 7)) & 1 : hpcdb_find_context(exp, id) != HPCDB_NONE;
      if (in_tree || u64map_get(&seen, id, &dummy)) continue;
      u64map_put(&seen, id, 1);
      n++;
    }
  u64map_free(&seen);
  free(tree);
  return n;
}

static void write_metrics(FILE *out, const hpcdb_experiment *exp) {
  fprintf(out, "metrics:     %u (propagation scopes:", exp->n_metrics);
  for (uint32_t s = 0; s < exp->n_scopes; s++)
    fprintf(out, " %s [%s]", exp->scopes[s].name ? exp->scopes[s].name : "?", scope_type_name(exp->scopes[s].type));
  fprintf(out, ")\n");
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    fprintf(out, "  %s%s\n    scopes:", m->name ? m->name : "(unnamed)",
            m->integer == HPCDB_INTEGER_SIGNED ? " (signed integer)"
            : m->integer                       ? " (unsigned integer)"
                                               : "");
    for (uint32_t k = 0; k < m->n_instances; k++)
      fprintf(out, " %s=#%u", exp->scopes[m->instances[k].scope].name, m->instances[k].prop_metric_id);
    fprintf(out, "\n");
    if (m->n_summaries) {
      fprintf(out, "    summaries:");
      for (uint32_t k = 0; k < m->n_summaries; k++) {
        const hpcdb_summary *s = &m->summaries[k];
        fprintf(out, " %s(%s)/%s=#%u", combine_name(s->combine), s->formula ? s->formula : "",
                exp->scopes[s->scope].name, s->stat_metric_id);
      }
      fprintf(out, "\n");
    }
  }
}

static void write_profiles(FILE *out, const hpcdb_experiment *exp) {
  uint32_t summaries = 0;
  for (uint32_t p = 0; p < exp->n_profiles; p++) summaries += (exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY) != 0;
  fprintf(out, "profiles:    %u (%u summary)\n", exp->n_profiles, summaries);
  for (uint32_t p = 0; p < exp->n_profiles && p < 20; p++) {
    char id[256];
    hpcdb_profile_identity(exp, &exp->profiles[p], id, sizeof id);
    fprintf(out, "  %-40s %10" PRIu64 " values\n", id, exp->profiles[p].n_values + exp->profiles[p].n_counted);
  }
  if (exp->n_profiles > 20) fprintf(out, "  ... and %u more\n", exp->n_profiles - 20);
}

static void write_traces(FILE *out, const hpcdb_experiment *exp) {
  if (!exp->has_traces) {
    fprintf(out, "traces:      none\n");
    return;
  }
  uint64_t samples = 0, lo = UINT64_MAX, hi = 0;
  for (uint32_t t = 0; t < exp->n_traces; t++) {
    const hpcdb_trace *tr = &exp->traces[t];
    samples += tr->n;
    if (tr->n && tr->timestamps[0] < lo) lo = tr->timestamps[0];
    if (tr->n && tr->timestamps[tr->n - 1] > hi) hi = tr->timestamps[tr->n - 1];
  }
  fprintf(out, "traces:      %u lines, %" PRIu64 " samples\n", exp->n_traces, samples);
  if (samples) fprintf(out, "time range:  %" PRIu64 " .. %" PRIu64 " ns (%.6f s)\n", lo, hi, (double)(hi - lo) * 1e-9);
  if (exp->trace_min || exp->trace_max)
    fprintf(out, "recorded:    %" PRIu64 " .. %" PRIu64 " ns\n", exp->trace_min, exp->trace_max);
}

int hpcdb_write_info(FILE *out, const hpcdb_experiment *exp) {
  uint32_t entries = 0;
  for (uint32_t c = 0; c < exp->n_contexts; c++) entries += exp->contexts[c].kind == HPCDB_CTX_ENTRY;
  fprintf(out, "format:      %s %u.%u\n", exp->format ? exp->format : "unknown", exp->version_major,
          exp->version_minor);
  fprintf(out, "title:       %s\n", exp->title ? exp->title : "");
  fprintf(out, "contexts:    %u in the tree (%u entry points), %" PRIu64 " more ids only in values\n",
          exp->n_contexts - 1, entries, ids_only_in_values(exp));
  fprintf(out, "structure:   %u load modules, %u source files, %u functions\n", exp->n_modules, exp->n_files,
          exp->n_functions);
  write_metrics(out, exp);
  write_profiles(out, exp);
  uint64_t nonzero = 0, counted = 0; /* counted values (HPCDB_READ_COUNTS) are non-zero ones */
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    counted += exp->profiles[p].n_counted;
    for (uint64_t v = 0; v < exp->profiles[p].n_values; v++) nonzero += exp->profiles[p].values[v] != 0;
  }
  fprintf(out, "values:      %" PRIu64 " stored, %" PRIu64 " non-zero\n", hpcdb_value_count(exp) + counted,
          nonzero + counted);
  write_traces(out, exp);
  return ferror(out) ? -5 : 0;
}
