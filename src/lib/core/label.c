/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_context_label: the words the canonical dump and diff use for a
 * context, for bindings that match contexts the same way. */
#include "core/paths.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"

size_t hpcdb_context_label(const hpcdb_experiment *exp, uint32_t index, char *buf, size_t size) {
  if (size) buf[0] = '\0';
  if (index >= exp->n_contexts) return 0;
  return context_label(exp, &exp->contexts[index], buf, size);
}
