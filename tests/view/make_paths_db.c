/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes a small v4.0 database whose source files test where hpcdb view may
 * read: "src/ok.c" (copied, allowed), "src/../../secret.c" (a '..' escape),
 * "src/link.c" (the test makes it a symlink out of src/). Usage: make_paths_db DIR */
#include <stdio.h>

#include "one_metric_db.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  hpcdb_experiment *e;
  uint32_t k, ctx, files[3], entry;
  const char *paths[3] = {"src/ok.c", "src/../../secret.c", "src/link.c"};
  if (one_metric_db(&e, &entry) < 0) return 2;
  for (int i = 0; i < 3; i++) hpcdb_add_file(e, paths[i], HPCDB_FILE_COPIED, &files[i]);
  hpcdb_context c = {0};
  c.module = c.function = HPCDB_NONE, c.entry_point = HPCDB_ENTRY_MAIN; /* as the entry they go under */
  c.kind = HPCDB_CTX_NORMAL, c.relation = HPCDB_REL_CALL, c.lexical_type = HPCDB_LEX_LINE;
  uint32_t ids[3];
  for (uint32_t i = 0; i < 3; i++) {
    c.id = 2 + i, c.file = files[i], c.line = 1;
    hpcdb_add_context(e, &c, entry, &ctx);
    ids[i] = c.id;
  }
  hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &k);
  uint32_t cs[6] = {ids[0], ids[0], ids[1], ids[1], ids[2], ids[2]};
  uint16_t ms[6] = {0, 1, 0, 1, 0, 1};
  double vs[6] = {1, 1, 2, 2, 3, 3};
  int rc = hpcdb_profile_set_values(e, k, 6, cs, ms, vs);
  if (rc == 0) rc = hpcdb_hpctk4_write(e, argv[1], HPCDB_WRITE_FORCE);
  if (rc < 0) fprintf(stderr, "make_paths_db: %s\n", hpcdb_last_error());
  hpcdb_experiment_free(e);
  return rc < 0 ? 2 : 0;
}
