/* SPDX-License-Identifier: BSD-3-Clause */
/* The draft's is_call_srcline (lex_flags 0x8) in a conversion to v4.0: v4.0
 * defines only the three presence bits of a context's flags, and HPCToolkit's
 * reader refuses a context with any other ("unknown flag bits 0xa"). The
 * converted database must set none (checked as strictly as HPCToolkit does:
 * no reserved-bits diagnostic of any severity, no context read back with
 * them), and the draft's flag must be reported as lost, not dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draftb_write.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/hpctk4_write.h"
#include "random_experiment.h"
#include "testlib.h"

static void count_reserved(void *user, const hpcdb_diagnostic *d) {
  if (!strcmp(d->rule, "reserved-bits")) {
    fprintf(stderr, "%s: 0x%llx: %s\n", d->file, (unsigned long long)d->offset, d->detail);
    ++*(unsigned *)user;
  }
}

static void find_attribute_loss(void *user, const char *line) {
  if (strstr(line, "attribute")) *(int *)user = 1;
}

int main(void) {
  char dir[4096], v4[4096];
  snprintf(dir, sizeof dir, "%s", testlib_tmpdir("draftb-call-srcline"));
  snprintf(v4, sizeof v4, "%s", testlib_tmpdir("draftb-call-srcline-v4"));
  hpcdb_experiment *orig, *read = NULL, *back = NULL;
  CHECK_RC(random_experiment_with(&orig, 3, RANDOM_DRAFT_B));
  for (uint32_t i = 0; i < orig->n_files; i++) orig->files[i].flags = 0; /* their reserved bits: not the point here */
  unsigned marked = 0;
  for (uint32_t i = 1; i < orig->n_contexts; i++) {
    hpcdb_context *c = &orig->contexts[i];
    c->flags = 0;
    if (c->parent != 0 && c->file != HPCDB_NONE) c->flags = 0x08, marked++; /* is_call_srcline */
  }
  CHECK(marked > 0);
  CHECK(draftb_write(orig, dir, 0) == 0);
  CHECK_RC(hpcdb_read(&read, dir));
  for (uint32_t i = 1; read && i < read->n_contexts; i++) CHECK((read->contexts[i].flags & ~7u) == 0);
  CHECK_RC(hpcdb_hpctk4_write(read, v4, HPCDB_WRITE_FORCE));
  int reported = 0;
  CHECK(hpcdb_hpctk4_write_losses(read, find_attribute_loss, &reported) > 0 && reported);

  unsigned reserved = 0;
  hpcdb_validation r;
  CHECK_RC(hpcdb_validate(&r, v4, count_reserved, &reserved));
  CHECK(r.errors == 0 && reserved == 0);
  CHECK_RC(hpcdb_read(&back, v4));
  for (uint32_t i = 1; back && i < back->n_contexts; i++) CHECK((back->contexts[i].flags & ~7u) == 0);
  hpcdb_experiment_free(orig);
  hpcdb_experiment_free(read);
  hpcdb_experiment_free(back);
  return TEST_END();
}
