/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view: the browser viewer (the server is src/view). */
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "view/view.h"

static const char help[] =
    "NAME\n"
    "    hpcdb view - explore an experiment in the browser\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb view [--port N] [--bind ADDR] [--no-browser] [--metric M[=M2]] PATH [PATH2]\n"
    "\n"
    "DESCRIPTION\n"
    "    Serves a page that shows PATH's calling-context tree top-down, bottom-up and\n"
    "    flat, with inclusive and exclusive values of any metric or formula, each\n"
    "    node's spread over the profiles, and its source lines. A v4.0 database is\n"
    "    queried in place (memory-mapped, never loaded whole). A measurements directory\n"
    "    is analyzed first (as hpcdb analyze does) into a database in a temporary\n"
    "    directory under TMPDIR (default /tmp), served from there and removed when the\n"
    "    server stops. Other formats are read.\n"
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
    "    --metric M     the metric the page opens on (default: the time metric with\n"
    "                   the largest total, CPU time before GPU operations), and the\n"
    "                   one Compare A and B compares (PATH2 takes the same metric,\n"
    "                   or one documented as the same, as hpcdb compare does)\n"
    "    --metric M=M2  M of PATH against M2 of PATH2 (e.g. an HPCToolkit database\n"
    "                   against a Score-P file: --metric \"CPUTIME (sec)=time\")\n"
    "\n"
    "EXIT STATUS\n"
    "    0 stopped by a signal, 2 unreadable PATH or bad options\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb view app.d\n"
    "    hpcdb view --port 9000 run.cubex\n"
    "    hpcdb view --metric \"CPUTIME (sec)=time\" app.d scorep.cubex\n";

int cmd_view(int argc, char **argv) {
  cli_common c = {0};
  view_options o = {0};
  unsigned long long port = 0;
  const char *metric = NULL;
  cli_opt opts[] = {{.names = "--port", .kind = CLI_UINT, .out = &port, .min = 0, .max = 65535},
                    {.names = "--bind", .kind = CLI_STRING, .out = &o.bind},
                    {.names = "--no-browser", .kind = CLI_FLAG, .out = &o.no_browser},
                    {.names = "--metric", .kind = CLI_STRING, .out = &metric},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "view", .help = help, .opts = opts, .min_pos = 1, .max_pos = 2, .pos_names = "PATH [PATH2]"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  o.port = cli_seen(&spec, "--port") ? (int)port : -1;
  for (unsigned k = 0; k < spec.n_pos; k++) o.paths[o.n_paths++] = spec.pos[k];
  char left[1024];
  const char *eq = metric ? strchr(metric, '=') : NULL;
  o.metrics[0] = metric;
  if (eq && o.n_paths == 2) { /* M=M2: one metric per side, as hpcdb compare --metric */
    if ((size_t)(eq - metric) >= sizeof left)
      return cli_refuse(&spec, "--metric: the first name is longer than 1023 characters");
    snprintf(left, sizeof left, "%.*s", (int)(eq - metric), metric);
    o.metrics[0] = left, o.metrics[1] = eq + 1;
  }
  int rc = view_run(&o);
  if (rc < 0 && !*hpcdb_last_error()) return EXIT_FAILED; /* view_run printed why */
  return rc < 0 ? cli_fail_last("view") : EXIT_OK;
}
