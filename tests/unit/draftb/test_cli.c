/* SPDX-License-Identifier: BSD-3-Clause */
/* The hpcdb commands on a draft-b database (written by the test writer
 * from a random model): info, validate, dump (text and JSON), report,
 * export, convert (to v4.0 and to Cube), and diff against the conversion,
 * each exiting 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draftb_write.h"
#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

int main(void) {
  const char *build = getenv("HPCDB_BUILD_DIR");
  char dir[4096], out[4096], cmd[16384];
  snprintf(dir, sizeof dir, "%s", testlib_tmpdir("draftb-cli"));
  snprintf(out, sizeof out, "%s", testlib_tmpdir("draftb-cli-out"));
  hpcdb_experiment *e;
  CHECK_RC(random_experiment_with(&e, 11, RANDOM_DRAFT_B));
  CHECK(e && e->has_traces && draftb_write(e, dir, 0) == 0);
  hpcdb_experiment_free(e);
  static const char *const commands[] = {
      "info '%1$s'",
      "validate '%1$s'",
      "dump '%1$s'",
      "dump --json '%1$s'",
      "report '%1$s'",
      "report --view bottom-up --top 5 '%1$s'",
      "report --view profiles '%1$s'",
      "export --format html '%1$s' -o '%2$s/x.html'",
      "export --format speedscope '%1$s' -o '%2$s/x.json'",
      "convert '%1$s' '%2$s/v4'",
      "validate '%2$s/v4'",
      "diff '%1$s' '%2$s/v4'",
      "convert --to cube '%1$s' '%2$s/x.cubex'",
  };
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    int n = snprintf(cmd, sizeof cmd, "'%s/hpcdb' ", build ? build : ".");
    snprintf(cmd + n, sizeof cmd - (size_t)n, commands[i], dir, out);
    snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " > '%s/stdout' 2>&1", out);
    int rc = system(cmd);
    if (rc != 0) fprintf(stderr, "exit %d: %s\n", rc, cmd);
    CHECK(rc == 0);
  }
  return TEST_END();
}
