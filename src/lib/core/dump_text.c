/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_dump_text: the whole content, human-readable, with raw ids. */
#include <inttypes.h>
#include <stdlib.h>

#include "common/dtoa.h"
#include "common/error.h"
#include "core/paths.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "model/model_build.h"

/* Depth-first with an explicit stack; children pushed reversed so they
 * print in the tree's order. */
static void dump_tree(FILE *out, const hpcdb_experiment *exp) {
  uint32_t *stack = malloc(((size_t)exp->n_contexts + 1) * sizeof *stack);
  unsigned *depth = malloc(((size_t)exp->n_contexts + 1) * sizeof *depth);
  char label[2048];
  size_t n = 0;
  if (stack && depth) {
    stack[n] = 0;
    depth[n++] = 0;
  }
  while (n > 0) {
    uint32_t c = stack[--n];
    unsigned d = depth[n];
    if (c != 0) {
      context_label(exp, &exp->contexts[c], label, sizeof label);
      fprintf(out, "%*s#%u %s (flags 0x%x, propagation 0x%x)\n", 2 * d, "", exp->contexts[c].id, label,
              exp->contexts[c].flags, exp->contexts[c].propagation);
    }
    size_t first = n;
    for (uint32_t k = exp->contexts[c].first_child; k != HPCDB_NONE; k = exp->contexts[k].next_sibling) {
      stack[n] = k;
      depth[n++] = d + 1;
    }
    for (size_t i = first, j = n; i + 1 < j; i++, j--) {
      uint32_t t = stack[i];
      stack[i] = stack[j - 1];
      stack[j - 1] = t;
    }
  }
  free(stack);
  free(depth);
}

int hpcdb_dump_text(FILE *out, const hpcdb_experiment *exp) {
  hpcdb_write_info(out, exp);
  fprintf(out, "\ndescription: %s\n", exp->description ? exp->description : "");
  for (uint32_t i = 0; i < exp->n_attrs; i++)
    fprintf(out, "attribute %s = %s\n", exp->attrs[i].key, exp->attrs[i].value);
  for (uint32_t i = 0; i < exp->n_kind_names; i++) fprintf(out, "kind %u: %s\n", i, exp->kind_names[i]);
  for (uint32_t i = 0; i < exp->n_modules; i++)
    fprintf(out, "module %u: %s (flags 0x%x)\n", i, exp->modules[i].path, exp->modules[i].flags);
  for (uint32_t i = 0; i < exp->n_files; i++)
    fprintf(out, "file %u: %s%s\n", i, exp->files[i].path, exp->files[i].flags & HPCDB_FILE_COPIED ? " (copied)" : "");
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    fprintf(out, "function %u: %s", i, f->name ? f->name : "<unnamed>");
    if (f->module != HPCDB_NONE) fprintf(out, " in %s+0x%" PRIx64, exp->modules[f->module].path, f->offset);
    if (f->file != HPCDB_NONE) fprintf(out, " at %s:%u", exp->files[f->file].path, f->line);
    fprintf(out, "\n");
  }
  fprintf(out, "\ncontext tree:\n");
  dump_tree(out, exp);
  uint8_t *kinds[2] = {model_integer_kinds(exp, 0), model_integer_kinds(exp, 1)};
  if (!kinds[0] || !kinds[1]) {
    free(kinds[0]), free(kinds[1]);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    const uint8_t *kind = kinds[(pr->flags & HPCDB_PROFILE_SUMMARY) != 0];
    const uint64_t *ints = model_integers(exp, p);
    char id[256];
    hpcdb_profile_identity(exp, pr, id, sizeof id);
    fprintf(out, "\nprofile %u: %s (flags 0x%x), %" PRIu64 " values\n", p, id, pr->flags, pr->n_values);
    for (uint32_t k = 0; k < pr->n_ctxs; k++) {
      fprintf(out, "  ctx %u:", pr->ctx_ids[k]);
      for (uint64_t v = pr->ctx_starts[k]; v < pr->ctx_starts[k + 1]; v++) {
        char text[DTOA_BUF + 1];
        if (!kind[pr->metric_ids[v]]) { /* as ever */
          fprintf(out, " %u=%.17g", pr->metric_ids[v], pr->values[v]);
          continue;
        }
        text[model_value_text(text, ints, pr->values[v], v, kind[pr->metric_ids[v]])] = '\0';
        fprintf(out, " %u=%s", pr->metric_ids[v], text); /* an integer metric's exact integer */
      }
      fprintf(out, "\n");
    }
  }
  free(kinds[0]), free(kinds[1]);
  for (uint32_t t = 0; t < exp->n_traces; t++) {
    const hpcdb_trace *tr = &exp->traces[t];
    fprintf(out, "\ntrace of profile %u: %" PRIu64 " samples\n", tr->profile, tr->n);
    for (uint64_t k = 0; k < tr->n; k++) fprintf(out, "  %" PRIu64 " ctx %u\n", tr->timestamps[k], tr->ctx_ids[k]);
  }
  return ferror(out) ? HPCDB_EIO : 0;
}
