/* A rank's run of a shared output file written around the page cache
 * (dist.h, dist_direct_*): cct.db, and a rank's thread blocks of profile.db
 * copied from its spill. Neither is read back from the file by the ranks:
 * copied into the page cache, as a buffered pwrite does, their bytes cost
 * the kernel a copy and fresh memory each (at 64 x 100k on one rank, 2.3x
 * the system time of hpcdb_analyze, which writes cct.db direct). The pages
 * wholly inside the run are this rank's alone, so they go out with O_DIRECT
 * from one aligned block; the partial pages at the run's two ends are shared
 * with the neighbouring runs and go through the page cache, where the
 * kernel merges the two ranks' bytes. A direct write and a buffered one
 * never meet in a page. */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common/big_alloc.h"
#include "common/error.h"
#include "common/failpoint.h"
#include "distributed/dist.h"

#define DIRECT_BLOCK ((uint64_t)4 << 20)
#define DIRECT_ALIGN ((uint64_t)4096)

static uint64_t align_up(uint64_t x) { return (x + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN; }

void dist_direct_open(dist_direct *w, int fd, const char *path, const char *name, uint64_t begin, uint64_t end) {
  memset(w, 0, sizeof *w);
  w->fd = fd;
  w->fd_direct = -1;
  w->name = name;
  w->next = begin;
  w->lo = align_up(begin);
  w->hi = end / DIRECT_ALIGN * DIRECT_ALIGN;
  w->block_at = w->lo;
  if (w->hi <= w->lo) return; /* no whole page: all through the page cache */
#ifdef O_DIRECT
  /* where the file system refuses direct writes, or memory is short: buffered, as before */
  if (!(w->block = big_alloc(DIRECT_BLOCK))) return;
  if ((w->fd_direct = open(path, O_WRONLY | O_DIRECT)) < 0) {
    big_free(w->block, DIRECT_BLOCK);
    w->block = NULL;
  }
#else
  (void)path;
#endif
}

/* The staged block to the disk; a file system that takes O_DIRECT at open
 * but refuses the write (EINVAL) gets it, and the rest, buffered. */
static int flush(dist_direct *w) {
  if (w->len == 0) return 0;
  failpoint();
  uint64_t done = 0;
  while (w->fd_direct >= 0 && done < w->len) {
    ssize_t k = pwrite(w->fd_direct, w->block + done, (size_t)(w->len - done), (off_t)(w->block_at + done));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EINVAL && done == 0) {
      close(w->fd_direct);
      w->fd_direct = -1;
      break;
    }
    if (k <= 0 || (uint64_t)k % DIRECT_ALIGN) /* a short direct write leaves no aligned rest to go on from */
      return hpcdb_fail(HPCDB_EIO, "%s: cannot write %llu bytes at %llu: %s", w->name,
                        (unsigned long long)(w->len - done), (unsigned long long)(w->block_at + done),
                        k < 0 ? strerror(errno) : "written in part");
    done += (uint64_t)k;
  }
  if (done < w->len) HPCDB_TRY(dist_pwrite(w->fd, w->name, w->block_at + done, w->block + done, w->len - done));
  w->block_at += w->len;
  w->len = 0;
  return 0;
}

/* Stages the bytes from where staging stands (w->block_at + w->len) up to to
 * (data NULL: zeros, the padding between blocks). */
static int stage(dist_direct *w, const uint8_t *data, uint64_t to) {
  while (w->block_at + w->len < to) {
    uint64_t n = to - (w->block_at + w->len), k = DIRECT_BLOCK - w->len < n ? DIRECT_BLOCK - w->len : n;
    if (data) {
      memcpy(w->block + w->len, data, (size_t)k);
      data += k;
    } else {
      memset(w->block + w->len, 0, (size_t)k);
    }
    w->len += k;
    if (w->len == DIRECT_BLOCK) HPCDB_TRY(flush(w));
  }
  return 0;
}

int dist_direct_write(dist_direct *w, uint64_t off, const void *data, uint64_t n) {
  const uint8_t *p = data;
  uint64_t end = off + n;
  if (off < w->next)
    return hpcdb_fail(HPCDB_EINVAL, "%s: write at %llu behind the run's %llu", w->name, (unsigned long long)off,
                      (unsigned long long)w->next);
  w->next = end;
  if (!w->block) return dist_pwrite(w->fd, w->name, off, data, n); /* all buffered */
  if (off < w->lo) { /* the head page, shared with the run before */
    uint64_t k = (end < w->lo ? end : w->lo) - off;
    HPCDB_TRY(dist_pwrite(w->fd, w->name, off, p, k));
    off += k;
    p += k;
  }
  if (off < w->hi && off < end) { /* whole pages */
    uint64_t to = end < w->hi ? end : w->hi;
    HPCDB_TRY(stage(w, NULL, off));
    HPCDB_TRY(stage(w, p, to));
    p += to - off;
    off = to;
  }
  if (off < end) { /* the tail page, shared with the run after */
    HPCDB_TRY(stage(w, NULL, w->hi));
    HPCDB_TRY(dist_pwrite(w->fd, w->name, off, p, end - off));
  }
  return 0;
}

/* n bytes of from at from_off into the file's [off, off + n) through the
 * page cache (the run's partial pages), a page at a time. */
static int copy_buffered(dist_direct *w, int from, const char *from_name, uint64_t from_off, uint64_t off, uint64_t n) {
  uint8_t page[DIRECT_ALIGN];
  for (uint64_t done = 0; done < n;) {
    uint64_t k = n - done < sizeof page ? n - done : sizeof page;
    HPCDB_TRY(dist_pread(from, from_name, from_off + done, page, k));
    HPCDB_TRY(dist_pwrite(w->fd, w->name, off + done, page, k));
    done += k;
  }
  return 0;
}

int dist_direct_copy(dist_direct *w, int from, const char *from_name, uint64_t from_off, uint64_t off, uint64_t n) {
  uint64_t end = off + n;
  if (off < w->next)
    return hpcdb_fail(HPCDB_EINVAL, "%s: copy to %llu behind the run's %llu", w->name, (unsigned long long)off,
                      (unsigned long long)w->next);
  w->next = end;
  if (!w->block) return dist_copy(from, from_off, w->fd, off, n);
  if (off < w->lo) {
    uint64_t k = (end < w->lo ? end : w->lo) - off;
    HPCDB_TRY(copy_buffered(w, from, from_name, from_off, off, k));
    off += k;
    from_off += k;
  }
  if (off < w->hi && off < end) { /* read straight into the block */
    uint64_t to = end < w->hi ? end : w->hi;
    HPCDB_TRY(stage(w, NULL, off));
    while (off < to) {
      uint64_t k = DIRECT_BLOCK - w->len < to - off ? DIRECT_BLOCK - w->len : to - off;
      HPCDB_TRY(dist_pread(from, from_name, from_off, w->block + w->len, k));
      w->len += k;
      off += k;
      from_off += k;
      if (w->len == DIRECT_BLOCK) HPCDB_TRY(flush(w));
    }
  }
  if (off < end) {
    HPCDB_TRY(stage(w, NULL, w->hi));
    HPCDB_TRY(copy_buffered(w, from, from_name, from_off, off, end - off));
  }
  return 0;
}

int dist_direct_finish(dist_direct *w) {
  int rc = 0;
  if (w->block) rc = stage(w, NULL, w->hi); /* the run's last padding, on to its tail page */
  if (rc == 0 && w->block) rc = flush(w);
  dist_direct_close(w);
  return rc;
}

void dist_direct_close(dist_direct *w) {
  if (w->fd_direct >= 0) close(w->fd_direct);
  if (w->block) big_free(w->block, DIRECT_BLOCK);
  w->fd_direct = -1;
  w->block = NULL;
}
