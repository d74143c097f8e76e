#include "cli_util.h"

#include <string.h>

#include "hpcdb/hpcdb.h"

int cli_common_option(const char *arg, const char *help, cli_common *c, int *done, int *status) {
  if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
    fputs(help, stdout);
    *done = 1;
    *status = EXIT_OK;
    return 1;
  }
  if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
    c->quiet = 1;
    return 1;
  }
  if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) {
    c->verbose = 1;
    return 1;
  }
  return 0;
}

int cli_fail(const char *cmd, const char *message) {
  fprintf(stderr, "hpcdb %s: %s\n", cmd, message);
  return EXIT_FAILED;
}

int cli_fail_last(const char *cmd) { return cli_fail(cmd, hpcdb_last_error()); }

int cli_read(hpcdb_experiment **out, const char *path) { return cli_read_opts(out, path, NULL); }

int cli_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options) {
  int rc = hpcdb_read_opts(out, path, options);
  if (rc == 0) cli_warnings(*out);
  return rc;
}

void cli_warnings(const hpcdb_experiment *exp) {
  for (uint32_t i = 0; i < exp->n_warnings; i++) fprintf(stderr, "hpcdb: warning: %s\n", exp->warnings[i]);
}

int cli_usage(const char *cmd, const char *arg) {
  fprintf(stderr, "hpcdb %s: unexpected argument '%s' (see 'hpcdb %s --help')\n", cmd, arg, cmd);
  return EXIT_FAILED;
}
