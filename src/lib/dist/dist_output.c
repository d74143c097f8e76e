/* The database is made in a temporary directory beside the output, every
 * rank writing into the same files at offsets (pwrite), and renamed into
 * place when every rank has succeeded; a failure removes it. Over an
 * existing database (with --force) or into a directory that holds other
 * files, the files are renamed in one by one, as hpcdb_analyze replaces them. */
#define _GNU_SOURCE /* copy_file_range */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/dist.h"
#include "common/error.h"

static const char *const value_files[] = {"profile.db", "cct.db", "trace.db"};

int hpcdb_analyze_dist_temp(const char *output, char *buf, size_t size) {
  size_t n = strlen(output);
  while (n > 1 && output[n - 1] == '/') n--;
  if (n == 0 || (size_t)snprintf(buf, size, "%.*s.mpi-tmp", (int)n, output) >= size)
    return hpcdb_fail(HPCDB_EINVAL, "bad output directory name '%s'", output);
  return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void hpcdb_analyze_dist_discard(const char *temp) { nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

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
    if (mkdir(p, 0777) != 0 && errno != EEXIST) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", p, strerror(errno));
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
  }
  hpcdb_analyze_dist_discard(d->temp); /* a run that was killed left it */
  HPCDB_TRY(make_dirs(d->temp));
  for (int i = 0; i < 3; i++) {
    HPCDB_TRY(in_dir(path, d->temp, value_files[i]));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create: %s", path, strerror(errno));
    close(fd);
  }
  return 0;
}

static int open_value_file(dist_run *d, int i, int *fd) {
  char path[PATH_MAX];
  HPCDB_TRY(in_dir(path, d->temp, value_files[i]));
  if ((*fd = open(path, i == 0 ? O_RDWR : O_WRONLY)) < 0) /* profile.db's values are read back */ return hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", path, strerror(errno));
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
  int rc = fsync(*fd) != 0 || close(*fd) != 0 ? hpcdb_fail(HPCDB_EIO, "%s: cannot write: %s", name, strerror(errno)) : 0;
  *fd = -1;
  return rc;
}

/* Rank 0: the files one by one into an existing directory. */
static int move_files(dist_run *d) {
  static const char *const names[] = {"profile.db", "cct.db", "meta.db", "trace.db", "metrics/default.yaml"};
  char from[PATH_MAX], to[PATH_MAX];
  HPCDB_TRY(in_dir(to, d->opt->output, "metrics"));
  if (mkdir(to, 0777) != 0 && errno != EEXIST) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", to, strerror(errno));
  for (int i = 0; i < 5; i++) {
    HPCDB_TRY(in_dir(from, d->temp, names[i]));
    HPCDB_TRY(in_dir(to, d->opt->output, names[i]));
    if (!exists(from)) { /* no traces: a replaced database must not keep its old ones */
      if (exists(to) && remove(to) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot remove: %s", to, strerror(errno));
      continue;
    }
    if (rename(from, to) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot rename to %s: %s", from, to, strerror(errno));
  }
  hpcdb_analyze_dist_discard(d->temp);
  return 0;
}

int dist_output_commit(dist_run *d) {
  int rc = close_file(&d->fd_prof, "profile.db");
  if (rc == 0) rc = close_file(&d->fd_cct, "cct.db");
  if (rc == 0) rc = close_file(&d->fd_trace, "trace.db");
  HPCDB_TRY(dist_agree(d, rc));
  if (d->rank == 0 && rename(d->temp, d->opt->output) != 0) {
    if (errno == ENOTEMPTY || errno == EEXIST)
      rc = move_files(d);
    else
      rc = hpcdb_fail(HPCDB_EIO, "%s: cannot rename to %s: %s", d->temp, d->opt->output, strerror(errno));
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
  if (d->rank == 0 && d->temp[0]) hpcdb_analyze_dist_discard(d->temp);
}
