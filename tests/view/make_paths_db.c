/* Writes a small v4.0 database whose source files test where hpcdb view may
 * read: "src/ok.c" (copied, allowed), "src/../../secret.c" (a '..' escape),
 * "src/link.c" (the test makes it a symlink out of src/). Usage: make_paths_db DIR */
#include <stdio.h>

#include "hpcdb/hpcdb.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  hpcdb_experiment *e;
  uint32_t point, exec, m, k, ctx, files[3];
  const char *paths[3] = {"src/ok.c", "src/../../secret.c", "src/link.c"};
  if (hpcdb_experiment_new(&e) < 0) return 2;
  hpcdb_scope sp = {"point", HPCDB_SCOPE_POINT, 0}, se = {"execution", HPCDB_SCOPE_EXECUTION, 0};
  hpcdb_add_scope(e, &sp, &point);
  hpcdb_add_scope(e, &se, &exec);
  hpcdb_add_metric(e, "time (sec)", &m);
  hpcdb_metric_add_instance(e, m, point, 0);
  hpcdb_metric_add_instance(e, m, exec, 1);
  hpcdb_summary s1 = {point, "$$", HPCDB_COMBINE_SUM, 0}, s2 = {exec, "$$", HPCDB_COMBINE_SUM, 1};
  hpcdb_metric_add_summary(e, m, &s1);
  hpcdb_metric_add_summary(e, m, &s2);
  for (int i = 0; i < 3; i++) hpcdb_add_file(e, paths[i], HPCDB_FILE_COPIED, &files[i]);
  hpcdb_context c = {0};
  c.id = 1, c.kind = HPCDB_CTX_ENTRY, c.entry_point = HPCDB_ENTRY_MAIN;
  c.function = c.file = c.module = HPCDB_NONE;
  uint32_t entry;
  hpcdb_add_context(e, &c, 0, &entry);
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
