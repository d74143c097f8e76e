/* SPDX-License-Identifier: BSD-3-Clause */
/* The database is made in a temporary directory beside the output, every
 * rank writing into the same files at offsets (pwrite), and renamed into
 * place by rank 0 when every rank's writes are complete and fsync'ed; a
 * failure removes it. An existing database (with --force) is swapped for the
 * new one in one step (atomic_dir.h); a directory holding anything else is
 * refused, as hpcdb_analyze refuses it. */
#define _GNU_SOURCE /* copy_file_range */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_dir.h"
#include "common/error.h"
#include "common/failpoint.h"
#include "distributed/dist.h"

static const char *const value_files[] = {"profile.db", "cct.db", "trace.db"};

int hpcdb_analyze_dist_temp(const char *output, char *buf, size_t size) {
  size_t n = strlen(output);
  while (n > 1 && output[n - 1] == '/') n--;
  if (n == 0 || (size_t)snprintf(buf, size, "%.*s.mpi-tmp", (int)n, output) >= size)
    return hpcdb_fail(HPCDB_EINVAL, "bad output directory name '%s'", output);
  return 0;
}

void hpcdb_analyze_dist_discard(const char *temp) { atomic_remove_tree(temp); }

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The directories of path that do not exist yet, then path. */
static int make_dirs(const char *path) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", p, strerror(errno));
    *s = '/';
  }
  if (mkdir(p, 0777) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", p, strerror(errno));
  return 0;
}

static int in_dir(char *buf, const char *dir, const char *name) {
  if ((size_t)snprintf(buf, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
    return hpcdb_fail(HPCDB_EINVAL, "%s/%s: path too long", dir, name);
  return 0;
}

/* The run writing a temporary directory: "HOST PID" in this file, so that
 * a second run writing the same output does not take over a live one's. */
#define OWNER ".hpcdb-mpi-owner"

/* 0: nobody's (no owner, or a dead one); 1: this process's; 2: another live run's. */
static int owner_of(const char *temp) {
  char path[PATH_MAX], host[256] = "", mine[256] = "";
  long pid = 0;
  if (in_dir(path, temp, OWNER) < 0) return 0;
  FILE *f = fopen(path, "r");
  if (!f) return 0; /* none: a killed run's leftover */
  int n = fscanf(f, "%255s %ld", host, &pid);
  fclose(f);
  if (n != 2 || pid <= 0 || gethostname(mine, sizeof mine - 1) != 0) return 0;
  if (strcmp(host, mine) != 0) return 2; /* another machine's run: whether it lives cannot be told */
  if (pid == (long)getpid()) return 1;
  return kill((pid_t)pid, 0) == 0 || errno == EPERM ? 2 : 0;
}

static int claim(const char *temp) {
  char path[PATH_MAX], host[256] = "";
  HPCDB_TRY(in_dir(path, temp, OWNER));
  gethostname(host, sizeof host - 1);
  FILE *f = fopen(path, "w");
  if (!f || fprintf(f, "%s %ld\n", host[0] ? host : "?", (long)getpid()) < 0 || fclose(f) != 0)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot write: %s", path, strerror(errno));
  return 0;
}

/* Rank 0: the output may be written, and the temporary directory with empty value files. */
static int prepare(dist_run *d) {
  const char *out = d->opt->output;
  char path[PATH_MAX];
  struct stat st;
  if (stat(out, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return hpcdb_fail(HPCDB_EIO, "%s: not a directory", out);
    HPCDB_TRY(in_dir(path, out, "meta.db"));
    if (!(d->opt->write_flags & HPCDB_WRITE_FORCE) && exists(path))
      return hpcdb_fail(HPCDB_EEXIST, "%s: a database is already there (force to replace it)", out);
    if (!exists(path) && atomic_dir_holds_anything(out) != 0)
      return hpcdb_fail(HPCDB_EEXIST, "%s: a directory that is not a database is there: not replaced", out);
  }
  if (owner_of(d->temp) == 2)
    return hpcdb_fail(HPCDB_EEXIST, "%s: another hpcdb-mpi run is writing it (in %s; remove that if none is)", out,
                      d->temp);
  hpcdb_analyze_dist_discard(d->temp); /* a run that was killed left it */
  HPCDB_TRY(make_dirs(d->temp));
  HPCDB_TRY(claim(d->temp));
  for (int i = 0; i < 3; i++) {
    HPCDB_TRY(in_dir(path, d->temp, value_files[i]));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create: %s", path, strerror(errno));
    close(fd);
  }
  return 0;
}

int dist_value_path(const dist_run *d, const char *name, char *path) { return in_dir(path, d->temp, name); }

static int open_value_file(dist_run *d, int i, int *fd) {
  char path[PATH_MAX];
  HPCDB_TRY(in_dir(path, d->temp, value_files[i]));
  if ((*fd = open(path, i == 0 ? O_RDWR : O_WRONLY)) < 0) /* profile.db's values are read back */
    return hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", path, strerror(errno));
  return 0;
}

int dist_output_open(dist_run *d) {
  int rc = hpcdb_analyze_dist_temp(d->opt->output, d->temp, sizeof d->temp);
  if (rc == 0 && d->rank == 0) rc = prepare(d);
  HPCDB_TRY(dist_agree(d, rc));
  rc = open_value_file(d, 0, &d->fd_prof);
  if (rc == 0) rc = open_value_file(d, 1, &d->fd_cct);
  if (rc == 0) rc = open_value_file(d, 2, &d->fd_trace);
  return dist_agree(d, rc);
}

int dist_pwrite(int fd, const char *name, uint64_t off, const void *data, uint64_t n) {
  failpoint();
  const uint8_t *p = data;
  for (uint64_t done = 0; done < n;) {
    ssize_t k = pwrite(fd, p + done, (size_t)(n - done), (off_t)(off + done));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot write %llu bytes at %llu: %s", name, (unsigned long long)(n - done),
                        (unsigned long long)(off + done), k < 0 ? strerror(errno) : "nothing written");
    done += (uint64_t)k;
  }
  return 0;
}

static int spill_path(const dist_run *d, char *path) {
  char name[32];
  snprintf(name, sizeof name, "spill.%d", d->rank);
  return in_dir(path, d->temp, name);
}

int dist_spill_open(dist_run *d) {
  char path[PATH_MAX];
  HPCDB_TRY(spill_path(d, path));
  if ((d->fd_spill = open(path, O_RDWR | O_CREAT | O_TRUNC, 0666)) < 0)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot create: %s", path, strerror(errno));
  return 0;
}

int dist_spill_close(dist_run *d) {
  char path[PATH_MAX];
  close(d->fd_spill);
  d->fd_spill = -1;
  HPCDB_TRY(spill_path(d, path));
  return remove(path) == 0 ? 0 : hpcdb_fail(HPCDB_EIO, "%s: cannot remove: %s", path, strerror(errno));
}

int dist_pread(int fd, const char *name, uint64_t off, void *data, uint64_t n) {
  uint8_t *p = data;
  for (uint64_t done = 0; done < n;) {
    ssize_t k = pread(fd, p + done, (size_t)(n - done), (off_t)(off + done));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot read %llu bytes at %llu: %s", name, (unsigned long long)(n - done),
                        (unsigned long long)(off + done), k < 0 ? strerror(errno) : "end of file");
    done += (uint64_t)k;
  }
  return 0;
}

int dist_copy(int from, uint64_t off_from, int to, uint64_t off_to, uint64_t n) {
  loff_t a = (loff_t)off_from, b = (loff_t)off_to;
  while (n > 0) { /* in the kernel */
    ssize_t k = copy_file_range(from, &a, to, &b, (size_t)(n < ((uint64_t)1 << 30) ? n : (uint64_t)1 << 30), 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break; /* not here (another file system, an old kernel): by hand */
    n -= (uint64_t)k;
  }
  static uint8_t buf[1 << 20];
  while (n > 0) {
    uint64_t k = n < sizeof buf ? n : sizeof buf;
    HPCDB_TRY(dist_pread(from, "spill", (uint64_t)a, buf, k));
    HPCDB_TRY(dist_pwrite(to, "profile.db", (uint64_t)b, buf, k));
    a += (loff_t)k;
    b += (loff_t)k;
    n -= k;
  }
  return 0;
}

static int close_file(int *fd, const char *name) {
  if (*fd < 0) return 0;
  int rc =
      fsync(*fd) != 0 || close(*fd) != 0 ? hpcdb_fail(HPCDB_EIO, "%s: cannot write: %s", name, strerror(errno)) : 0;
  *fd = -1;
  return rc;
}

int dist_output_commit(dist_run *d) {
  int rc = close_file(&d->fd_prof, "profile.db");
  if (rc == 0) rc = close_file(&d->fd_cct, "cct.db");
  if (rc == 0) rc = close_file(&d->fd_trace, "trace.db");
  HPCDB_TRY(dist_agree(d, rc)); /* every rank's writes are on the disk */
  char owner[PATH_MAX];
  if (d->rank == 0 && in_dir(owner, d->temp, OWNER) == 0) unlink(owner); /* not part of the database */
  if (d->rank == 0) {
    hpcdb_atomic_dir out = {strdup(d->opt->output), strdup(d->temp), (d->opt->write_flags & HPCDB_WRITE_FORCE) != 0};
    if (!out.target || !out.temp) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    else if (d->opt->openmp_raw) rc = atomic_dir_commit(&out);
    else /* as hpcdb_analyze: the OpenMP regions placed before anything appears under the output's name */
      rc = analysis_openmp_commit(&out, d->opt->threads, d->opt->write_flags);
    atomic_dir_abort(&out);
  }
  return dist_agree(d, rc);
}

void dist_output_abort(dist_run *d) {
  int *fds[] = {&d->fd_prof, &d->fd_cct, &d->fd_trace, &d->fd_spill};
  for (int i = 0; i < 4; i++)
    if (*fds[i] >= 0) {
      close(*fds[i]);
      *fds[i] = -1;
    }
  if (d->rank == 0 && d->temp[0] && owner_of(d->temp) != 2) /* never another run's */
    hpcdb_analyze_dist_discard(d->temp);
}
