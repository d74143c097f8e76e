/* SPDX-License-Identifier: BSD-3-Clause */
/* What `hpcdb info` and `hpcdb validate` say about a structure file. */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "hpcstruct/hpcstruct_private.h"

void hpcdb_hpcstruct_write_info(FILE *out, const hpcdb_struct *s) {
  fprintf(out, "load modules: %u\n", s->n_modules);
  for (uint32_t i = 0; i < s->n_modules; i++) {
    const hpcdb_struct_module *m = &s->modules[i];
    uint32_t count[4] = {0, 0, 0, 0}, calls = 0, files = 0;
    const char *last_file = NULL;
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < m->n_scopes; k++) {
      const hpcdb_struct_scope *sc = &m->scopes[k];
      if (sc->kind < 4) count[sc->kind]++;
      calls += sc->is_call;
      if (sc->kind == HPCDB_SCOPE_PROCEDURE && sc->file != last_file) { /* procedures come file by file */
        files++;
        last_file = sc->file;
      }
    }
    for (uint32_t k = 0; k < m->n_ranges; k++) bytes += m->ranges[k].hi - m->ranges[k].lo;
    fprintf(out, "module %u: %s\n", i, m->name);
    fprintf(out, "  files with procedures: %u\n", files);
    fprintf(out, "  procedures:  %u\n", count[HPCDB_SCOPE_PROCEDURE]);
    fprintf(out, "  inlined:     %u\n", count[HPCDB_SCOPE_INLINED]);
    fprintf(out, "  loops:       %u\n", count[HPCDB_SCOPE_LOOP]);
    fprintf(out, "  statements:  %u (%u calls)\n", count[HPCDB_SCOPE_STATEMENT], calls);
    fprintf(out, "  address ranges: %u covering %llu bytes", m->n_ranges, (unsigned long long)bytes);
    if (m->n_ranges)
      fprintf(out, " in [0x%llx, 0x%llx)", (unsigned long long)m->ranges[0].lo,
              (unsigned long long)m->ranges[m->n_ranges - 1].hi);
    fputc('\n', out);
    if (m->n_shadowed) fprintf(out, "  ranges shadowed by earlier statements: %u\n", m->n_shadowed);
  }
}

int hpcdb_hpcstruct_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  result->errors = result->notes = 0;
  hpcdb_struct *s;
  int rc = hpcdb_hpcstruct_read(&s, path);
  if (rc == HPCDB_EIO || rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) {
    const hpcstruct_problem *pr = hpcstruct_last_problem();
    char detail[700];
    snprintf(detail, sizeof detail, "line %u: %s", pr->line, pr->detail);
    hpcdb_diagnostic d = {HPCDB_SEV_ERROR, path, pr->offset, pr->rule, detail};
    result->errors++;
    if (fn) fn(user, &d);
    return 0;
  }
  for (uint32_t i = 0; i < s->n_modules; i++) {
    if (!s->modules[i].n_shadowed) continue;
    char detail[600];
    snprintf(detail, sizeof detail,
             "load module %s: %u statement ranges share bytes with earlier statements (the first in the file keeps "
             "them, as hpcprof does)",
             s->modules[i].name, s->modules[i].n_shadowed);
    hpcdb_diagnostic d = {HPCDB_SEV_NOTE, path, 0, "shared-range", detail};
    result->notes++;
    if (fn) fn(user, &d);
  }
  hpcdb_hpcstruct_free(s);
  return 0;
}
