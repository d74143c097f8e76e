/* SPDX-License-Identifier: BSD-3-Clause */
/* Looking up the page's files by name (only the names built in: no file system). */
#include <string.h>

#include "common/error.h"
#include "hpcdb/page.h"
#include "page/page_assets.h"

const page_asset *page_asset_find(const char *name) {
  for (const page_asset *a = page_assets; name && a->name; a++)
    if (!strcmp(a->name, name)) return a;
  return NULL;
}

int hpcdb_page_asset(const char *name, const unsigned char **data, size_t *len) {
  const page_asset *a = page_asset_find(name);
  if (!a) return hpcdb_fail(HPCDB_EINVAL, "no page file \"%s\"", name ? name : "");
  *data = a->data;
  *len = a->len;
  return 0;
}
