#define _GNU_SOURCE
#include "common/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

/* Large writes go past stdio anyway; this sizes the many small ones (headers, index pairs, padding). */
#define ATOMIC_FILE_BUFFER (1u << 20)
/* Writing back starts every so many bytes, so that the disk works while the
 * file is made and the fsync at the end finds little left to do. */
#define WRITEBACK_STEP (8u << 20)

int atomic_file_open(hpcdb_atomic_file *f, const char *target) {
  memset(f, 0, sizeof *f);
  size_t n = strlen(target);
  f->target = malloc(n + 1);
  f->temp = malloc(n + 16);
  if (!f->target || !f->temp) {
    free(f->target);
    free(f->temp);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", target);
  }
  memcpy(f->target, target, n + 1);
  snprintf(f->temp, n + 16, "%s.tmp-XXXXXX", target);
  int fd = mkstemp(f->temp);
  if (fd < 0) {
    int e = errno;
    free(f->target);
    free(f->temp);
    memset(f, 0, sizeof *f);
    return hpcdb_fail(HPCDB_EIO, "%s: cannot create temporary file: %s", target, strerror(e));
  }
  /* mkstemp creates 0600; give the file the mode open(2) would have. */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  f->fp = fdopen(fd, "wb");
  if (!f->fp) {
    close(fd);
    unlink(f->temp);
    free(f->target);
    free(f->temp);
    memset(f, 0, sizeof *f);
    return hpcdb_fail(HPCDB_EIO, "%s: fdopen failed", target);
  }
  f->buf = malloc(ATOMIC_FILE_BUFFER);
  if (f->buf) setvbuf(f->fp, f->buf, _IOFBF, ATOMIC_FILE_BUFFER); /* else stdio's own, smaller one */
  return 0;
}

int atomic_file_write(hpcdb_atomic_file *f, const void *data, size_t n) {
  if (f->failed) return HPCDB_EIO;
  if (n && fwrite(data, 1, n, f->fp) != n) {
    f->failed = 1;
    return hpcdb_fail(HPCDB_EIO, "%s: write failed: %s", f->temp, strerror(errno));
  }
  f->written += n;
#ifdef SYNC_FILE_RANGE_WRITE
  /* The bytes before the last buffer's worth have reached the kernel. */
  if (f->written >= f->writeback + WRITEBACK_STEP + ATOMIC_FILE_BUFFER) {
    uint64_t to = f->written - ATOMIC_FILE_BUFFER;
    (void)sync_file_range(fileno(f->fp), (off_t)f->writeback, (off_t)(to - f->writeback), SYNC_FILE_RANGE_WRITE);
    f->writeback = to;
  }
#endif
  return 0;
}

int atomic_file_pad(hpcdb_atomic_file *f, uint64_t align) {
  static const uint8_t zeros[64];
  uint64_t rem = f->written % align;
  if (rem == 0) return 0;
  uint64_t need = align - rem;
  while (need > 0) {
    size_t chunk = need > sizeof zeros ? sizeof zeros : (size_t)need;
    int rc = atomic_file_write(f, zeros, chunk);
    if (rc < 0) return rc;
    need -= chunk;
  }
  return 0;
}

int atomic_file_pwrite(hpcdb_atomic_file *f, uint64_t off, const void *data, size_t n) {
  if (f->failed) return HPCDB_EIO;
  if (fflush(f->fp) != 0 || pwrite(fileno(f->fp), data, n, (off_t)off) != (ssize_t)n) {
    f->failed = 1;
    return hpcdb_fail(HPCDB_EIO, "%s: write failed: %s", f->temp, strerror(errno));
  }
  return 0;
}

void atomic_file_start_writeback(hpcdb_atomic_file *f) {
  if (f->failed || fflush(f->fp) != 0) return; /* a failed flush fails the commit's too */
#ifdef SYNC_FILE_RANGE_WRITE
  sync_file_range(fileno(f->fp), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

static void release(hpcdb_atomic_file *f) {
  free(f->buf); /* the stream is closed by now */
  free(f->target);
  free(f->temp);
  memset(f, 0, sizeof *f);
}

int atomic_file_commit(hpcdb_atomic_file *f) {
  int rc = 0;
  if (f->failed) rc = HPCDB_EIO;
  if (rc == 0 && fflush(f->fp) != 0) rc = hpcdb_fail(HPCDB_EIO, "%s: flush failed: %s", f->temp, strerror(errno));
  if (rc == 0 && fsync(fileno(f->fp)) != 0) rc = hpcdb_fail(HPCDB_EIO, "%s: fsync failed: %s", f->temp, strerror(errno));
  if (fclose(f->fp) != 0 && rc == 0) rc = hpcdb_fail(HPCDB_EIO, "%s: close failed: %s", f->temp, strerror(errno));
  f->fp = NULL;
  if (rc == 0 && rename(f->temp, f->target) != 0)
    rc = hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", f->target, strerror(errno));
  if (rc != 0) unlink(f->temp);
  release(f);
  return rc;
}

void atomic_file_abort(hpcdb_atomic_file *f) {
  if (!f || !f->temp) return;
  if (f->fp) fclose(f->fp);
  unlink(f->temp);
  release(f);
}
