/* SPDX-License-Identifier: BSD-3-Clause */
/* Routes run under a SIGBUS guard (guard.c): a database file shortened
 * under the server gives an error answer, not a dead server. */
#ifndef HPCDB_VIEW_GUARD_H
#define HPCDB_VIEW_GUARD_H

#include "routes.h"

int guard_install(void);
/* run(r), or -2 when it was stopped by SIGBUS (then r's answer is not set). */
int guard_run(route_fn run, request *r);

#endif
