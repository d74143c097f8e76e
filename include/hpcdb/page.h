/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the viewer's page: the HTML, JavaScript and CSS that `hpcdb view`
 * serves and `hpcdb export --format html` writes into one file, built into
 * the library (src/lib/page/assets/). */
#ifndef HPCDB_PAGE_H
#define HPCDB_PAGE_H

#include "hpcdb/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of the page's file name ("index.html", "app.js",
 * "compare/main.js", ...): *data (static, followed by a 0 byte not counted in
 * *len) and *len. HPCDB_EINVAL for a name that is not one of them. */
HPCDB_API int hpcdb_page_asset(const char *name, const unsigned char **data, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
