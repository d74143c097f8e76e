/* SPDX-License-Identifier: BSD-3-Clause */
/* The page's files (src/lib/page/assets/), built into the library:
 * page_assets.c is generated from them by embed_assets.cmake at build time. */
#ifndef HPCDB_PAGE_ASSETS_H
#define HPCDB_PAGE_ASSETS_H

#include <stddef.h>

typedef struct page_asset {
  const char *name;          /* "index.html", "app.js", "compare/main.js", ... */
  const unsigned char *data; /* len bytes, then a 0 byte */
  size_t len;
} page_asset;

extern const page_asset page_assets[]; /* ends with a NULL name */

/* The asset of that name, or NULL. */
const page_asset *page_asset_find(const char *name);

#endif
