/* SPDX-License-Identifier: BSD-3-Clause */
#include "cli_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"

int cli_common_option(const char *arg, const char *help, cli_common *c, int *done, int *status) {
  if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
    fputs(help, stdout);
    *done = 1;
    *status = EXIT_OK;
    return 1;
  }
  if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) return c->quiet = 1;
  if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) return c->verbose = 1;
  return 0;
}

int cli_usage(const char *cmd, const char *arg) {
  fprintf(stderr, "hpcdb %s: unexpected argument '%s' (see 'hpcdb %s --help')\n", cmd, arg, cmd);
  return EXIT_FAILED;
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

int cli_terminal(void) {
  const char *force = getenv("HPCDB_TERMINAL");
  if (force && (!strcmp(force, "0") || !strcmp(force, "1"))) return force[0] == '1';
  return isatty(STDOUT_FILENO);
}

unsigned cli_terminal_width(void) {
  const char *env = getenv("COLUMNS");
  char *end;
  unsigned long n = env && *env ? strtoul(env, &end, 10) : 0;
  if (!env || !*env || *end) n = 0;
  struct winsize ws;
  if (!n && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) n = ws.ws_col;
  if (!n) n = 100;
  return n < 40 ? 40 : n > 10000 ? 10000 : (unsigned)n;
}
