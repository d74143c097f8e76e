/* SPDX-License-Identifier: BSD-3-Clause */
/* Measurements directories for hpcdb view: see measurements.h. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "measurements.h"

#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hpcdb/analysis.h"
#include "hpcdb/hpcdb.h"

int view_is_measurements(const char *path) {
  hpcdb_format f;
  return hpcdb_detect(&f, path) == 0 && f == HPCDB_FORMAT_HPCRUN_DIR;
}

static void warn(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "hpcdb view: warning: %s\n", message);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

void view_remove_temp(const char *temp) { nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "analyzing: N of M files" on stderr, at most once a second and at the end. */
static void progress(void *user, uint64_t done, uint64_t total) {
  double *last = user, t = now();
  if (done < total && t - *last < 1.0) return;
  *last = t;
  fprintf(stderr, "hpcdb view: analyzing: %llu of %llu measurement files\n", (unsigned long long)done,
          (unsigned long long)total);
}

/* The analysis, in a child process: Ctrl-C (or SIGTERM) meanwhile stops it and
 * lets the caller remove the temporary; its memory is the child's, not the server's. */
static int analyze_in_child(const char *path, const char *db) {
  sigset_t wait, old;
  sigemptyset(&wait);
  sigaddset(&wait, SIGINT);
  sigaddset(&wait, SIGTERM);
  sigaddset(&wait, SIGCHLD);
  sigprocmask(SIG_BLOCK, &wait, &old);
  pid_t pid = fork();
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double last = now();
    hpcdb_analyze_options opt = {.threads = cores > 1 ? (unsigned)(cores < 8 ? cores : 8) : 1,
                                 .output = db,
                                 .progress = progress,
                                 .progress_user = &last};
    hpcdb_analyze_result res = {0};
    hpcdb_experiment *exp = NULL;
    int rc = hpcdb_analyze(&exp, path, &opt, warn, NULL, &res);
    if (rc < 0) fprintf(stderr, "hpcdb view: %s: %s\n", path, hpcdb_last_error());
    else
      fprintf(stderr, "hpcdb view: %u profiles read (%u skipped), %u traces, %u contexts\n", res.profiles_read,
              res.profiles_skipped, res.traces_read, res.contexts);
    _exit(rc < 0 ? 1 : 0);
  }
  int rc = HPCDB_EIO, sig = 0, status = 0;
  if (pid < 0) fprintf(stderr, "hpcdb view: cannot start the analysis of %s\n", path);
  else {
    sigwait(&wait, &sig);
    if (sig != SIGCHLD) {
      kill(pid, SIGKILL);
      fprintf(stderr, "hpcdb view: the analysis of %s was interrupted\n", path);
    }
    waitpid(pid, &status, 0);
    if (sig == SIGCHLD && WIFEXITED(status) && WEXITSTATUS(status) == 0) rc = 0;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (rc < 0) hpcdb_clear_error(); /* the reason is on stderr already */
  return rc;
}

int view_analyze_temp(const char *path, char **temp, char **db) {
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
  size_t n = strlen(tmpdir) + sizeof "/hpcdb-view-XXXXXX/db";
  *temp = malloc(n);
  *db = malloc(n);
  if (!*temp || !*db) {
    free(*temp), free(*db);
    fprintf(stderr, "hpcdb view: out of memory\n");
    hpcdb_clear_error();
    return HPCDB_ENOMEM;
  }
  snprintf(*temp, n, "%s/hpcdb-view-XXXXXX", tmpdir);
  if (!mkdtemp(*temp)) {
    fprintf(stderr, "hpcdb view: %s: cannot make a temporary directory for the analysis\n", *temp);
    free(*temp), free(*db);
    hpcdb_clear_error();
    return HPCDB_EIO;
  }
  snprintf(*db, n, "%s/db", *temp);
  fprintf(stderr, "hpcdb view: analyzing the measurements %s into %s ...\n", path, *db);
  double t0 = now();
  int rc = analyze_in_child(path, *db);
  if (rc < 0) {
    view_remove_temp(*temp);
    free(*temp), free(*db);
    return rc;
  }
  fprintf(stderr, "hpcdb view: analyzed in %.1f s\n", now() - t0);
  return 0;
}
