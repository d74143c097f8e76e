/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view: opening the databases, the token, the address, and serving
 * until SIGINT or SIGTERM. */
#include "view.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measurements.h"
#include "server.h"

static int make_token(char out[33]) {
  unsigned char raw[16];
  if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) return -1;
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", raw[i]);
  return 0;
}

extern char **environ;

/* The desktop's browser on the URL, when there is a desktop (xdg-open; failure is not an error). */
static void open_browser(const char *url) {
  if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) return;
  signal(SIGCHLD, SIG_IGN); /* reaped by the system: no zombie while serving */
  pid_t pid;
  char *argv[] = {"xdg-open", (char *)(uintptr_t)url, NULL}; /* posix_spawn never writes argv's strings */
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnp(&pid, "xdg-open", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
}

static int open_db(view_db *db, const char *path, const char *metric) {
  db->path = path;
  db->metric = metric;
  if (view_is_measurements(path)) { /* served from its analysis; the page still names path */
    if (view_analyze_temp(path, &db->temp, &db->temp_db) < 0) return -1;
    path = db->temp_db;
  }
  /* one source per database: the tables' query, the timeline and the comparison share it */
  hpcdb_source *opened;
  int rc = hpcdb_source_open(&opened, path, NULL);
  if (rc == 0) rc = hpcdb_query_on(&db->q, opened);
  hpcdb_source_close(opened); /* the query's reference keeps it */
  if (rc < 0) goto fail;
  hpcdb_qcolumn c;
  if (metric && hpcdb_query_column(db->q, metric, &c) < 0) { /* --metric: refused before the page asks */
    fprintf(stderr, "hpcdb view: %s: --metric: %s\n", db->path, hpcdb_last_error());
    hpcdb_clear_error(); /* printed: view_run's caller prints nothing more */
    hpcdb_query_close(db->q);
    goto fail;
  }
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  if (hpcdb_metric_list_read(&db->metrics, e, path) < 0) { /* the page lists them in the experiment's order */
    fprintf(stderr, "hpcdb view: warning: %s\n", hpcdb_last_error());
    if (hpcdb_metric_list_read(&db->metrics, e, NULL) < 0) {
      hpcdb_query_close(db->q);
      goto fail;
    }
  }
  trace_mount_init(&db->trace, hpcdb_query_source(db->q));
  struct stat st;
  char src[PATH_MAX], real[PATH_MAX];
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && snprintf(src, sizeof src, "%s/src", path) < (int)sizeof src &&
      realpath(src, real))
    db->src_root = strdup(real);
  return 0;
fail:
  if (db->temp) view_remove_temp(db->temp);
  free(db->temp);
  free(db->temp_db);
  return -1;
}

static void close_dbs(view_server *s) {
  server_fini(s);
  for (int d = 0; d < s->n_dbs; d++) {
    hpcdb_metric_list_free(&s->dbs[d].metrics);
    hpcdb_query_close(s->dbs[d].q);
    trace_mount_fini(&s->dbs[d].trace);
    free(s->dbs[d].src_root);
    if (s->dbs[d].temp) view_remove_temp(s->dbs[d].temp);
    free(s->dbs[d].temp);
    free(s->dbs[d].temp_db);
  }
}

int view_run(const view_options *o) {
  view_server s = {0};
  server_init(&s);
  s.bind = o->bind ? o->bind : "127.0.0.1";
  for (int d = 0; d < o->n_paths; d++, s.n_dbs++)
    if (open_db(&s.dbs[d], o->paths[d], o->metrics[d]) < 0) {
      close_dbs(&s);
      return HPCDB_EIO;
    }
  if (make_token(s.token) < 0) {
    close_dbs(&s);
    return HPCDB_EIO;
  }
  /* SIGINT and SIGTERM are waited for here, not delivered to the server's thread */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);
  /* the timeline's index is built while the browser starts (its thread
   * inherits the signal mask); a database without trace.db waits for a
   * trace request instead */
  char trace_db[PATH_MAX];
  if (s.n_dbs && snprintf(trace_db, sizeof trace_db, "%s/trace.db", s.dbs[0].trace.path) < (int)sizeof trace_db &&
      access(trace_db, R_OK) == 0)
    trace_mount_start(&s.dbs[0].trace);
  int rc = -1;
  if (o->port >= 0) {
    s.port = (uint16_t)o->port;
    rc = server_start(&s);
  } else {
    for (int p = 8080; p < 8100 && rc < 0; p++) { /* the default port, or the next free one */
      s.port = (uint16_t)p;
      rc = server_start(&s);
    }
  }
  if (rc < 0) {
    fprintf(stderr, "hpcdb view: cannot listen on %s port %d\n", s.bind, o->port >= 0 ? o->port : 8080);
    close_dbs(&s);
    return HPCDB_EIO;
  }
  printf("hpcdb view: http://%s:%u/?token=%s\n", s.bind, s.port, s.token);
  printf("(from another machine: ssh -L %u:127.0.0.1:%u HOST, then open the same URL)\n", s.port, s.port);
  if (strcmp(s.bind, "127.0.0.1"))
    fprintf(stderr, "hpcdb view: warning: listening on %s: anyone who can reach it and has the token sees the data\n",
            s.bind);
  fflush(stdout);
  if (!o->no_browser) {
    char url[128];
    snprintf(url, sizeof url, "http://%s:%u/?token=%s", s.bind, s.port, s.token);
    open_browser(url);
  }
  int sig;
  sigwait(&stop, &sig);
  server_stop(&s);
  close_dbs(&s);
  return 0;
}
