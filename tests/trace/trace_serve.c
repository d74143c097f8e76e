/* SPDX-License-Identifier: BSD-3-Clause */
/* A test server for the trace view until it is registered with hpcdb view's
 * own: the routes through src/view/trace_mount.c (the registration a server
 * makes) and the page files of src/lib/page/assets/trace/, on 127.0.0.1 only.
 * Usage: trace_serve ASSETS_DIR DB; prints "http://127.0.0.1:PORT/" and
 * serves until its stdin closes. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_mount.h"

static trace_mount mount;
static const char *assets;

/* Only these names are served from the assets directory: no path from the
 * request reaches the file system. */
static int asset(const char *url, char **body, size_t *len, const char **type) {
  static const char *const files[][2] = {
      {"/", "index.html"},         {"/trace.js", "trace.js"},     {"/trace.css", "trace.css"},   {"/main.js", "main.js"},
      {"/tile.js", "tile.js"},     {"/history.js", "history.js"}, {"/labels.js", "labels.js"},   {"/palette.js", "palette.js"},
      {"/picture.js", "picture.js"}, {"/pointer.js", "pointer.js"}, {"/lanes.js", "lanes.js"},   {"/depths.js", "depths.js"},
      {"/gpu.js", "gpu.js"},         {"/requests.js", "requests.js"}, {"/save.js", "save.js"},
      {"/link.js", "../link.js"}}; /* the tree page's too */
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    if (strcmp(url, files[i][0])) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", assets, files[i][1]);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    *body = malloc(n > 0 ? (size_t)n : 1);
    *len = *body && fread(*body, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    const char *ext = strrchr(files[i][1], '.');
    *type = !strcmp(ext, ".js") ? "text/javascript" : !strcmp(ext, ".css") ? "text/css" : "text/html; charset=utf-8";
    return 1;
  }
  return 0;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state) {
  (void)cls, (void)version, (void)data, (void)size, (void)state;
  if (!strncmp(url, "/api/trace/", 11) && strcmp(method, "GET")) url = "/not-get";
  if (!strncmp(url, "/api/trace/", 11)) return trace_mount_serve(&mount, conn, url);
  char *body = NULL;
  size_t len = 0;
  const char *type = "application/json";
  unsigned status = strcmp(method, "GET") ? 405 : asset(url, &body, &len, &type) ? 200 : 404;
  if (status != 200) {
    free(body);
    body = strdup("{\"error\":\"not found\"}");
    len = strlen(body);
    type = "application/json";
  }
  struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
  MHD_add_response_header(resp, "Content-Type", type);
  MHD_add_response_header(resp, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(conn, status, resp);
  MHD_destroy_response(resp);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  assets = argv[1];
  hpcdb_source *src;
  if (hpcdb_source_open(&src, argv[2], NULL) < 0) {
    fprintf(stderr, "trace_serve: %s\n", hpcdb_last_error());
    return 2;
  }
  trace_mount_init(&mount, src);
  trace_mount_start(&mount); /* as hpcdb view does: the index is built while the page loads */
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer, NULL,
                                          MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_END);
  if (!d) return 2;
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  printf("http://127.0.0.1:%u/\n", info ? info->port : 0);
  fflush(stdout);
  while (getchar() != EOF) continue;
  MHD_stop_daemon(d);
  trace_mount_fini(&mount);
  hpcdb_source_close(src);
  return 0;
}
