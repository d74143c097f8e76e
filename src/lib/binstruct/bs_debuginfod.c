/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug files from the debuginfod servers DEBUGINFOD_URLS names, through
 * elfutils' client (libdebuginfod: its cache, DEBUGINFOD_CACHE_PATH and
 * DEBUGINFOD_TIMEOUT apply). The client brings libcurl and its TLS stack:
 * it is opened on first use, only when servers are named, not linked. */
#include <elfutils/debuginfod.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "binstruct/bs_debuginfod.h"
#include "common/lazy_lib.h"

#define DEBUGINFOD_SONAME "libdebuginfod.so.1"

typedef struct client_api { /* each one typed as the client's own declaration */
  __typeof__(debuginfod_begin) *begin;
  __typeof__(debuginfod_find_debuginfo) *find_debuginfo;
  __typeof__(debuginfod_end) *end;
} client_api;

static client_api api;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  static const lazy_sym syms[] = {{"debuginfod_begin", offsetof(client_api, begin)},
                                  {"debuginfod_find_debuginfo", offsetof(client_api, find_debuginfo)},
                                  {"debuginfod_end", offsetof(client_api, end)}};
  loaded = lazy_lib_open(DEBUGINFOD_SONAME, syms, sizeof syms / sizeof *syms, &api);
}

int bs_debuginfod_find(const char *build_id, char *path, size_t size) {
  const char *urls = getenv("DEBUGINFOD_URLS");
  if (!urls || !urls[0] || !build_id || !build_id[0]) return 0;
  pthread_once(&once, load);
  if (!loaded) return 0;
  debuginfod_client *c = api.begin();
  if (!c) return 0;
  char *found = NULL;
  int fd = api.find_debuginfo(c, (const unsigned char *)build_id, 0, &found); /* length 0: a hex string */
  api.end(c);
  if (fd >= 0) close(fd);
  int ok = fd >= 0 && found && (size_t)snprintf(path, size, "%s", found) < size;
  free(found);
  return ok;
}
