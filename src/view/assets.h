/* The page's files, built into the binary (view_assets.c is generated from
 * src/view/assets/ by embed_assets.cmake at build time). */
#ifndef HPCDB_VIEW_ASSETS_H
#define HPCDB_VIEW_ASSETS_H

#include <stddef.h>

typedef struct view_asset {
  const char *name; /* "index.html", "app.js", ... */
  const unsigned char *data;
  size_t len;
} view_asset;

extern const view_asset view_assets[]; /* ends with a NULL name */

#endif
