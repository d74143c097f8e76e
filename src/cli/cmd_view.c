/* hpcdb view: the browser viewer (the server is src/view). */
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "view/view.h"

static const char help[] =
    "NAME\n"
    "    hpcdb view - explore an experiment in the browser\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb view [--port N] [--bind ADDR] [--no-browser] PATH [PATH2]\n"
    "\n"
    "DESCRIPTION\n"
    "    Serves a page that shows PATH's calling-context tree top-down, bottom-up and\n"
    "    flat, with inclusive and exclusive values of any metric or formula, each\n"
    "    node's spread over the profiles, and its source lines. A v4.0 database is\n"
    "    queried in place (memory-mapped, never loaded whole); other formats are read.\n"
    "\n"
    "    It prints the URL to open, with a random token:\n"
    "        hpcdb view: http://127.0.0.1:8080/?token=...\n"
    "    From another machine, forward the port first: ssh -L 8080:127.0.0.1:8080 HOST.\n"
    "    Requests without the token (in the URL, then a cookie), or whose Host is not\n"
    "    this address, are refused. Stop it with Ctrl-C.\n"
    "\n"
    "OPTIONS\n"
    "    --port N       the port (default 8080, or the next free one; 0: any free port)\n"
    "    --bind ADDR    the IPv4 address to listen on (default 127.0.0.1; others warn)\n"
    "    --no-browser   do not open the URL in the desktop's browser (xdg-open; only\n"
    "                   tried when DISPLAY or WAYLAND_DISPLAY is set)\n"
    "\n"
    "EXIT STATUS\n"
    "    0 stopped by a signal, 2 unreadable PATH or bad options\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb view app.d\n"
    "    hpcdb view --port 9000 run.cubex\n";

int cmd_view(int argc, char **argv) {
  cli_common c = {0};
  view_options o = {0};
  o.port = -1;
  for (int i = 1; i < argc; i++) {
    int done = 0, status;
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (cli_common_option(a, help, &c, &done, &status)) {
      if (done) return status;
    } else if (!strcmp(a, "--port") && v) {
      char *end;
      long p = strtol(argv[++i], &end, 10);
      if (*end || end == v || p < 0 || p > 65535) return cli_fail("view", "--port takes a number from 0 to 65535");
      o.port = (int)p;
    } else if (!strcmp(a, "--bind") && v) {
      o.bind = argv[++i];
    } else if (!strcmp(a, "--no-browser")) {
      o.no_browser = 1;
    } else if (a[0] == '-' || o.n_paths == 2) {
      return cli_usage("view", a);
    } else {
      o.paths[o.n_paths++] = a;
    }
  }
  if (o.n_paths == 0) return cli_fail("view", "no PATH given (see 'hpcdb view --help')");
  int rc = view_run(&o);
  return rc < 0 ? cli_fail_last("view") : EXIT_OK;
}
