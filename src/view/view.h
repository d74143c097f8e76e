/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view: the browser viewer's server (a program-side module: public
 * API only). cmd_view.c parses the command line and calls view_run. */
#ifndef HPCDB_VIEW_VIEW_H
#define HPCDB_VIEW_VIEW_H

#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"

typedef struct view_options {
  const char *paths[2]; /* DB [DB2] */
  int n_paths;
  int port;               /* -1: 8080, or the next free one; 0: any free port */
  const char *bind;       /* default 127.0.0.1 */
  int no_browser;         /* do not start a browser (it is only tried with a display) */
  const char *metrics[2]; /* --metric MA[=MB]: PATH's first metric, and the comparison's pair; NULL: the default */
} view_options;

/* Opens the databases, serves until interrupted; prints the URL (with the
 * token) and the ssh -L hint on stdout. 0, or a negative hpcdb_status with
 * the reason in hpcdb_last_error(), or printed on stderr when that is empty. */
int view_run(const view_options *o);

#endif
