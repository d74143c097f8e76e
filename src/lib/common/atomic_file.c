/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "common/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_dir.h"
#include "common/big_alloc.h"
#include "common/error.h"
#include "common/failpoint.h"

/* Large writes go past stdio anyway; this sizes the many small ones (headers, index pairs, padding). */
#define ATOMIC_FILE_BUFFER (1u << 20)
/* Writing back starts every so many bytes, so that the disk works while the
 * file is made and the fsync at the end finds little left to do. */
#define WRITEBACK_STEP (8u << 20)
/* A direct file goes out in blocks of this size from one staging buffer;
 * the last block is written whole (its tail zeros, DIRECT_ALIGN-aligned)
 * and cut back to the file's size. */
#define DIRECT_BLOCK (4u << 20)
#define DIRECT_ALIGN 4096u
/* Patches to bytes of a direct file already on the disk go through a buffer
 * of this size (a multiple of DIRECT_ALIGN). */
#define PATCH_PIECE (1u << 20)

int atomic_file_open(hpcdb_atomic_file *f, const char *target) {
  memset(f, 0, sizeof *f);
  size_t n = strlen(target);
  f->target = malloc(n + 1);
  f->temp = atomic_temp_template(target);
  if (!f->target || !f->temp) {
    free(f->target);
    free(f->temp);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", target);
  }
  memcpy(f->target, target, n + 1);
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
    int e = errno;
    close(fd);
    unlink(f->temp);
    free(f->target);
    free(f->temp);
    memset(f, 0, sizeof *f);
    return hpcdb_fail(e == ENOMEM ? HPCDB_ENOMEM : HPCDB_EIO, "%s: cannot open: %s", target, strerror(e));
  }
  f->buf = malloc(ATOMIC_FILE_BUFFER);
  if (f->buf) setvbuf(f->fp, f->buf, _IOFBF, ATOMIC_FILE_BUFFER); /* else stdio's own, smaller one */
  return 0;
}

int atomic_file_open_output(hpcdb_atomic_file *f, const char *target, int replace) {
  atomic_clean_leftovers(target);
  HPCDB_TRY(atomic_file_open(f, target));
  f->no_replace = !replace;
  f->output = 1;
  return 0;
}

int atomic_file_open_direct(hpcdb_atomic_file *f, const char *target) {
  HPCDB_TRY(atomic_file_open(f, target));
  return atomic_file_make_direct(f);
}

int atomic_file_make_direct(hpcdb_atomic_file *f) {
#ifdef O_DIRECT
  int fd = fileno(f->fp), flags = fcntl(fd, F_GETFL);
  if (flags < 0 || !(f->direct = big_alloc(DIRECT_BLOCK))) return 0; /* buffered, as any other file */
  if (fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) {
    big_free(f->direct, DIRECT_BLOCK);
    f->direct = NULL;
  }
#endif
  return 0;
}

/* len bytes at file offset at, read or written whole through the fd (of a
 * direct file: buf, at and len DIRECT_ALIGN-aligned). A filesystem that
 * accepts O_DIRECT but refuses the transfer itself (EINVAL) gets the rest of
 * the file buffered. */
static int transfer(hpcdb_atomic_file *f, uint8_t *buf, size_t len, uint64_t at, int write) {
  int fd = fileno(f->fp);
#ifdef O_DIRECT
  int buffered = 0;
#endif
  for (size_t done = 0; done < len;) {
    ssize_t n = write ? pwrite(fd, buf + done, len - done, (off_t)(at + done))
                      : pread(fd, buf + done, len - done, (off_t)(at + done));
    if (n < 0 && errno == EINTR) continue;
#ifdef O_DIRECT
    int flags;
    if (n < 0 && errno == EINVAL && !buffered && (flags = fcntl(fd, F_GETFL)) >= 0 &&
        fcntl(fd, F_SETFL, flags & ~O_DIRECT) == 0) {
      buffered = 1;
      continue;
    }
#endif
    if (n <= 0) {
      f->failed = 1;
      return hpcdb_fail(HPCDB_EIO, "%s: %s failed: %s", f->target, write ? "write" : "read back",
                        n < 0 ? strerror(errno) : "no progress");
    }
    done += (size_t)n;
  }
  return 0;
}

/* The patch buffer, made on first use (NULL when out of memory). */
static uint8_t *patch_buffer(hpcdb_atomic_file *f) {
  if (!f->patch) f->patch = big_alloc(PATCH_PIECE);
  return f->patch;
}

/* Keeps a copy of the file's page at offset at (a multiple of DIRECT_ALIGN)
 * at the start of the patch buffer. */
static void keep_page(hpcdb_atomic_file *f, const uint8_t *page, uint64_t at) {
  if (page != f->patch) memmove(f->patch, page, DIRECT_ALIGN);
  f->kept = at + 1;
}

/* The staged block's first len bytes at their offset (len: direct_len, or
 * the last block's rounded up). */
static int write_block(hpcdb_atomic_file *f, size_t len) {
  if (f->written == f->direct_len && len >= DIRECT_ALIGN && patch_buffer(f)) keep_page(f, f->direct, 0);
  HPCDB_TRY(transfer(f, f->direct, len, f->written - f->direct_len, 1));
  f->direct_len = 0;
  return 0;
}

static int write_direct(hpcdb_atomic_file *f, const uint8_t *data, size_t n) {
  while (n > 0) {
    size_t room = DIRECT_BLOCK - f->direct_len, k = n < room ? n : room;
    memcpy(f->direct + f->direct_len, data, k);
    f->direct_len += k;
    f->written += k;
    data += k;
    n -= k;
    if (f->direct_len == DIRECT_BLOCK) HPCDB_TRY(write_block(f, DIRECT_BLOCK));
  }
  return 0;
}

/* The last, partial block; the zeros after the file's end are cut off. */
static int finish_direct(hpcdb_atomic_file *f) {
  size_t len = (f->direct_len + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
  memset(f->direct + f->direct_len, 0, len - f->direct_len);
  HPCDB_TRY(write_block(f, len));
  if (ftruncate(fileno(f->fp), (off_t)f->written) != 0) {
    f->failed = 1;
    return hpcdb_fail(HPCDB_EIO, "%s: cannot set its size: %s", f->target, strerror(errno));
  }
  return 0;
}

int atomic_file_write(hpcdb_atomic_file *f, const void *data, size_t n) {
  failpoint();
  if (f->failed) return HPCDB_EIO;
  if (f->direct) return write_direct(f, data, n);
  if (n && fwrite(data, 1, n, f->fp) != n) {
    f->failed = 1;
    return hpcdb_fail(HPCDB_EIO, "%s: write failed: %s", f->target, strerror(errno));
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

/* Patches [off, off + n) of a direct file on the disk (before the staged
 * block), a piece at a time through the patch buffer: the pages the patch
 * covers only in part are read back first, unless the buffer kept the page
 * (the file's first, or the last one patched: the next patch often starts
 * there), since reading one waits for the disk, and behind an fsync. */
static int patch_disk(hpcdb_atomic_file *f, uint64_t off, const uint8_t *data, uint64_t n) {
  if (!patch_buffer(f)) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory patching the file", f->target);
  uint64_t end = off + n, last = (end + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
  for (uint64_t at = off / DIRECT_ALIGN * DIRECT_ALIGN; at < end; at += PATCH_PIECE) {
    uint64_t to = last - at < PATCH_PIECE ? last : at + PATCH_PIECE;
    uint64_t lo = at > off ? at : off, hi = to < end ? to : end;
    int need_first = lo > at || (hi < to && to - at == DIRECT_ALIGN), need_last = hi < to && to - at > DIRECT_ALIGN;
    if (need_first && f->kept != at + 1) HPCDB_TRY(transfer(f, f->patch, DIRECT_ALIGN, at, 0));
    if (need_last) HPCDB_TRY(transfer(f, f->patch + (to - at - DIRECT_ALIGN), DIRECT_ALIGN, to - DIRECT_ALIGN, 0));
    memcpy(f->patch + (lo - at), data + (lo - off), (size_t)(hi - lo));
    f->kept = 0; /* written over, or kept again below */
    HPCDB_TRY(transfer(f, f->patch, (size_t)(to - at), at, 1));
    keep_page(f, f->patch + (to - at - DIRECT_ALIGN), to - DIRECT_ALIGN);
  }
  return 0;
}

/* A direct file: the bytes still staged are patched in the block, the ones
 * before it on the disk. */
static int pwrite_direct(hpcdb_atomic_file *f, uint64_t off, const uint8_t *data, uint64_t n) {
  uint64_t staged = f->written - f->direct_len;
  if (off + n > staged) {
    uint64_t from = off > staged ? off : staged;
    memcpy(f->direct + (from - staged), data + (from - off), (size_t)(off + n - from));
    n = from - off;
  }
  return n ? patch_disk(f, off, data, n) : 0;
}

int atomic_file_pwrite(hpcdb_atomic_file *f, uint64_t off, const void *data, size_t n) {
  failpoint();
  if (f->failed) return HPCDB_EIO;
  if (off > f->written || n > f->written - off)
    return hpcdb_fail(HPCDB_EINVAL, "%s: patch of %zu bytes at %llu is past the %llu bytes written", f->target, n,
                      (unsigned long long)off, (unsigned long long)f->written);
  if (f->direct) return pwrite_direct(f, off, data, n);
  if (fflush(f->fp) != 0 || pwrite(fileno(f->fp), data, n, (off_t)off) != (ssize_t)n) {
    f->failed = 1;
    return hpcdb_fail(HPCDB_EIO, "%s: write failed: %s", f->target, strerror(errno));
  }
  return 0;
}

void atomic_file_start_writeback(hpcdb_atomic_file *f) {
  if (f->direct) { /* its blocks are with the device already: have it keep them (a volatile cache) */
    if (!f->failed) (void)fdatasync(fileno(f->fp));
    return;
  }
  if (f->failed || fflush(f->fp) != 0) return; /* a failed flush fails the commit's too */
#ifdef SYNC_FILE_RANGE_WRITE
  sync_file_range(fileno(f->fp), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

static void release(hpcdb_atomic_file *f) {
  free(f->buf); /* the stream is closed by now */
  big_free(f->direct, DIRECT_BLOCK);
  big_free(f->patch, PATCH_PIECE);
  free(f->target);
  free(f->temp);
  memset(f, 0, sizeof *f);
}

int atomic_file_commit(hpcdb_atomic_file *f) {
  int rc = 0;
  if (f->failed) rc = HPCDB_EIO;
  if (rc == 0 && f->direct) rc = finish_direct(f);
  if (rc == 0 && fflush(f->fp) != 0) rc = hpcdb_fail(HPCDB_EIO, "%s: flush failed: %s", f->target, strerror(errno));
  if (rc == 0 && !f->no_sync && fsync(fileno(f->fp)) != 0)
    rc = hpcdb_fail(HPCDB_EIO, "%s: fsync failed: %s", f->target, strerror(errno));
  if (fclose(f->fp) != 0 && rc == 0) rc = hpcdb_fail(HPCDB_EIO, "%s: close failed: %s", f->target, strerror(errno));
  f->fp = NULL;
  if (rc == 0) rc = atomic_rename(f->temp, f->target, !f->no_replace);
  if (rc == 0 && f->output) rc = atomic_sync_parent(f->target); /* the rename itself made durable */
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

int atomic_file_finish(hpcdb_atomic_file *f, int rc) {
  if (rc == 0) return atomic_file_commit(f);
  atomic_file_abort(f);
  return rc;
}

int atomic_file_write_whole(const char *target, const void *data, size_t n, int direct) {
  hpcdb_atomic_file f;
  HPCDB_TRY(direct ? atomic_file_open_direct(&f, target) : atomic_file_open(&f, target));
  return atomic_file_finish(&f, atomic_file_write(&f, data, n));
}
