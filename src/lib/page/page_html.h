/* The viewer's page as one file (hpcdb export --format html): index.html's
 * body with style.css inline, then what the caller adds (static sections),
 * then each module's source, the snapshot, and export_loader.js, which runs
 * the modules from Blob URLs with api_static.js in api.js's place. */
#ifndef HPCDB_PAGE_HTML_H
#define HPCDB_PAGE_HTML_H

#include <stdio.h>

#include "hpcdb/query.h"

/* Up to the end of index.html's body content. */
int page_html_begin(FILE *out);
/* The modules, the snapshot (page_snapshot_write's arguments) and the loader; closes the page. */
int page_html_end(FILE *out, hpcdb_query *q, const char *path, const char *metric);

#endif
