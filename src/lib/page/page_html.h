/* SPDX-License-Identifier: BSD-3-Clause */
/* The viewer's page as one file (hpcdb export --format html): index.html's
 * body with style.css inline, each module's source, the snapshot and
 * export_loader.js (which runs the modules from Blob URLs with api_static.js
 * in api.js's place), then what the caller adds between begin and end
 * (static sections) in a <template> the loader draws once the page's own
 * first table is: a large flame graph does not hold it up. */
#ifndef HPCDB_PAGE_HTML_H
#define HPCDB_PAGE_HTML_H

#include <stdio.h>

#include "hpcdb/query.h"

/* Up to the loader (page_snapshot_write's arguments). */
int page_html_begin(FILE *out, hpcdb_query *q, const char *path, const char *metric);
/* Closes the page. */
int page_html_end(FILE *out);

#endif
