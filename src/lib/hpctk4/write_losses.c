/* SPDX-License-Identifier: BSD-3-Clause */
/* What a v4.0 database cannot hold of a model, so that a conversion can say
 * so instead of dropping it silently. */
#include <stdio.h>
#include <string.h>

#include "hpcdb/hpctk4_write.h"
#include "model/format.h"
#include "model/model_build.h"

typedef struct counts {
  uint64_t described, labelled, entry_located, line_without_file, offset_without_module;
} counts;

static void count_contexts(const hpcdb_experiment *exp, counts *c) {
  for (uint32_t i = 1; i < exp->n_contexts; i++) {
    const hpcdb_context *x = &exp->contexts[i];
    if (x->kind == HPCDB_CTX_ENTRY) {
      /* an entry point is an id, a type and a name: nothing else is stored */
      c->entry_located += x->function != HPCDB_NONE || x->file != HPCDB_NONE || x->module != HPCDB_NONE ||
                          x->relation || x->lexical_type || x->flags || x->propagation || x->line || x->offset;
      continue;
    }
    c->labelled += x->name != NULL;
    c->line_without_file += x->file == HPCDB_NONE && x->line != 0;
    c->offset_without_module += x->module == HPCDB_NONE && x->offset != 0;
  }
}

uint64_t hpcdb_hpctk4_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user) {
  counts c = {0};
  uint64_t attrs = 0;
  for (uint32_t i = 0; i < exp->n_attrs; i++) /* the v4.0 reader's record of nCtxs is written back */
    attrs += !(exp->attrs[i].key && strcmp(exp->attrs[i].key, "hpctk4.cct.nCtxs") == 0);
  for (uint32_t i = 0; i < exp->n_metrics; i++)
    c.described += exp->metrics[i].description != NULL || exp->metrics[i].unit != NULL;
  count_contexts(exp, &c);
  uint64_t kinds = 0;
  kinds += format_loss(fn, user, attrs, "attribute(s) (key = value) have no place in v4.0");
  kinds += format_loss(fn, user, c.described, "metric description(s) or unit(s) have no place in v4.0");
  kinds += format_loss(fn, user, c.labelled, "label(s) of non-entry contexts have no place in v4.0");
  kinds += format_loss(fn, user, c.entry_located,
                       "entry point(s) carry a location, relation, lexical type, flags or propagation bits; "
                       "v4.0 keeps only their id, type and name");
  kinds += format_loss(fn, user, c.line_without_file, "context line number(s) without a source file are not stored");
  kinds += format_loss(fn, user, c.offset_without_module, "context offset(s) without a load module are not stored");
  kinds += format_loss(fn, user, model_rounded_integers(exp),
                       "integer metric value(s) beyond a double's 53 bits are rounded (v4.0 stores every value as a "
                       "double; Cube, CSV and dumps keep them exact)");
  return kinds;
}
