/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "common/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/failpoint.h"

int read_at(int fd, uint8_t *buf, uint64_t len, uint64_t off, const char *path) {
  uint64_t done = 0;
  while (done < len) {
    ssize_t n = pread(fd, buf + done, (size_t)(len - done), (off_t)(off + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return hpcdb_fail(HPCDB_EIO, "%s: read failed: %s", path, n < 0 ? strerror(errno) : "short read");
    done += (uint64_t)n;
  }
  return 0;
}

int write_at(int fd, const uint8_t *buf, uint64_t len, uint64_t off, const char *path) {
  uint64_t done = 0;
  while (done < len) {
    ssize_t n = pwrite(fd, buf + done, (size_t)(len - done), (off_t)(off + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return hpcdb_fail(HPCDB_EIO, "%s: write failed: %s", path, n < 0 ? strerror(errno) : "nothing written");
    done += (uint64_t)n;
  }
  return 0;
}

int mapped_file_open(hpcdb_mapped_file *out, const char *path) {
  memset(out, 0, sizeof *out);
  out->fd = -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return hpcdb_fail(HPCDB_EIO, "%s: cannot stat: %s", path, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return hpcdb_fail(HPCDB_EIO, "%s: not a regular file", path);
  }
  out->len = (uint64_t)st.st_size;
  if (out->len == 0) {
    close(fd);
    return 0;
  }
  void *p = mmap(NULL, (size_t)out->len, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p != MAP_FAILED) {
    out->data = out->owned = p;
    out->is_mapped = 1;
    out->fd = fd;
    failpoint_mapped(path);
    return 0;
  }
  uint8_t *buf = malloc((size_t)out->len);
  if (!buf) {
    close(fd);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: cannot allocate %llu bytes", path, (unsigned long long)out->len);
  }
  int rc = read_at(fd, buf, out->len, 0, path);
  close(fd);
  if (rc < 0) {
    free(buf);
    return rc;
  }
  out->data = out->owned = buf;
  return 0;
}

void mapped_file_close(hpcdb_mapped_file *f) {
  if (!f || !f->data) return;
  if (f->is_mapped) {
    munmap(f->owned, (size_t)f->len);
    if (f->fd >= 0) close(f->fd);
  } else {
    free(f->owned);
  }
  f->data = f->owned = NULL;
  f->len = 0;
  f->fd = -1;
}

int mapped_file_check_whole(const hpcdb_mapped_file *f, const char *path) {
  struct stat st;
  if (!f->data || !f->is_mapped || f->fd < 0) return 0; /* a copy in memory: nothing can change it */
  if (fstat(f->fd, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot stat: %s", path, strerror(errno));
  if ((uint64_t)st.st_size >= f->len) return 0;
  return hpcdb_fail(HPCDB_ETRUNCATED, "%s: cut short while it was read (%llu bytes left of %llu)", path,
                    (unsigned long long)st.st_size, (unsigned long long)f->len);
}

int mapped_file_finish(hpcdb_mapped_file *f, const char *path, int rc) {
  if (rc == 0) rc = mapped_file_check_whole(f, path);
  mapped_file_close(f);
  return rc;
}

void mapped_file_advise_sequential(const hpcdb_mapped_file *f) {
  if (f->data && f->is_mapped) madvise(f->owned, (size_t)f->len, MADV_SEQUENTIAL);
}

void mapped_file_release(const hpcdb_mapped_file *f, uint64_t off, uint64_t len) {
  if (!f->data || !f->is_mapped || off >= f->len) return;
  if (len > f->len - off) len = f->len - off;
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t start = (off + page - 1) / page * page, end = (off + len) / page * page;
  if (end > start) madvise((uint8_t *)f->owned + start, (size_t)(end - start), MADV_DONTNEED);
}
