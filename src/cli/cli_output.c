/* SPDX-License-Identifier: BSD-3-Clause */
/* A command's -o FILE: written under a temporary name beside FILE and
 * renamed over it only once whole, so that a failed or interrupted export
 * leaves FILE as it was (absent, or the previous one); the next run removes
 * a killed run's temporary. A FILE that is a device or a pipe (/dev/null, a
 * FIFO) is written in place: it is not a file to replace, and renaming over
 * it would replace the device. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus_guard.h"
#include "cli_util.h"
#include "hpcdb/hpcdb.h"

/* A character device or a FIFO: written in place, never replaced. */
static int is_stream(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

int cli_output_check(const char *cmd, const char *path, int force) {
  struct stat st;
  if (!strcmp(path, "-") || is_stream(path)) return 0;
  if (!force && lstat(path, &st) == 0) {
    fprintf(stderr, "hpcdb %s: %s: exists (--force to replace it)\n", cmd, path);
    return EXIT_FAILED;
  }
  char *dir = strdup(path);
  if (!dir) return cli_fail(cmd, "out of memory");
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0'; /* "out.d/" names out.d */
  char *slash = strrchr(dir, '/');
  int ok = 1;
  if (slash) {
    slash[slash == dir ? 1 : 0] = '\0';
    ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (!ok) fprintf(stderr, "hpcdb %s: %s: the folder %s does not exist (folders are not created)\n", cmd, path, dir);
  }
  free(dir);
  return ok ? 0 : EXIT_FAILED;
}

int cli_output_open(cli_output *o, const char *cmd, const char *path) {
  memset(o, 0, sizeof *o);
  if (!strcmp(path, "-")) {
    o->f = stdout;
    return 0;
  }
  if (is_stream(path)) {
    if (!(o->f = fopen(path, "w"))) {
      fprintf(stderr, "hpcdb %s: %s: %s\n", cmd, path, strerror(errno));
      return EXIT_FAILED;
    }
    o->path = path;
    return 0;
  }
  /* hidden and named as the library's temporaries: .NAME.hpcdb-tmp-PID.XXXXXX; those of killed runs removed */
  hpcdb_remove_leftovers(path);
  const char *slash = strrchr(path, '/');
  int dir_len = slash ? (int)(slash - path + 1) : 0;
  size_t n = strlen(path) + 48;
  if (!(o->temp = malloc(n))) return cli_fail(cmd, "out of memory");
  snprintf(o->temp, n, "%.*s.%s.hpcdb-tmp-%ld.XXXXXX", dir_len, path, path + dir_len, (long)getpid());
  int fd = mkstemp(o->temp);
  if (fd < 0) {
    fprintf(stderr, "hpcdb %s: %s: cannot create a temporary file beside it: %s\n", cmd, path, strerror(errno));
    free(o->temp);
    o->temp = NULL;
    return EXIT_FAILED;
  }
  bus_guard_temporary(o->temp);
  mode_t mask = umask(0); /* mkstemp makes 0600: give the mode fopen would */
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  if (!(o->f = fdopen(fd, "w"))) {
    int e = errno;
    close(fd);
    bus_guard_temporary(NULL);
    unlink(o->temp);
    free(o->temp);
    o->temp = NULL;
    return cli_fail(cmd, strerror(e)); /* e.g. "Cannot allocate memory" */
  }
  o->path = path;
  return 0;
}

int cli_output_finish(cli_output *o, const char *cmd, int ok) {
  if (!o->temp) { /* stdout, or a device or pipe written in place */
    int closed = o->f == stdout || fclose(o->f) == 0;
    memset(o, 0, sizeof *o);
    return ok && closed ? 0 : EXIT_FAILED;
  }
  int closed = fclose(o->f) == 0;
  if (ok && !closed) fprintf(stderr, "hpcdb %s: %s: write failed: %s\n", cmd, o->path, strerror(errno));
  if (ok && closed && rename(o->temp, o->path) != 0) {
    fprintf(stderr, "hpcdb %s: %s: cannot rename the temporary file into place: %s\n", cmd, o->path, strerror(errno));
    closed = 0;
  }
  if (!ok || !closed) unlink(o->temp);
  bus_guard_temporary(NULL);
  free(o->temp);
  memset(o, 0, sizeof *o);
  return ok && closed ? 0 : EXIT_FAILED;
}
