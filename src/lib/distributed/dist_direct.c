/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's run of a shared output file written around the page cache
 * (dist.h, dist_direct_*): cct.db, and a rank's thread blocks of profile.db
 * copied from its spill. Neither is read back from the file by the ranks:
 * copied into the page cache, as a buffered pwrite does, their bytes cost
 * the kernel a copy and fresh memory each (at 64 x 100k on one rank, its
 * writes took 2.3x the kernel time of hpcdb_analyze's for the same bytes;
 * hpcdb_analyze writes cct.db direct). The pages wholly inside the run are
 * this rank's alone, so they go out with O_DIRECT from one aligned block;
 * the partial pages at the run's two ends are shared with the neighbouring
 * runs and go through the page cache, where the kernel merges the two ranks'
 * bytes. A direct write and a buffered one never meet in a page. */
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

/* Where a run's bytes come from: memory (data), a file (fd at off), or
 * neither: zeros, the padding between blocks. */
typedef struct source {
  const uint8_t *data;
  int fd;
  const char *name;
  uint64_t off;
} source;

static const source zeros = {NULL, -1, NULL, 0};

/* The source's next k bytes into dst. */
static int take(source *s, uint8_t *dst, uint64_t k) {
  if (s->data) {
    memcpy(dst, s->data, (size_t)k);
    s->data += k;
  } else if (s->fd >= 0) {
    HPCDB_TRY(dist_pread(s->fd, s->name, s->off, dst, k));
    s->off += k;
  } else {
    memset(dst, 0, (size_t)k);
  }
  return 0;
}

/* The source's next k bytes to the file's [off, off + k) through the page cache. */
static int to_cache(dist_direct *w, source *s, uint64_t off, uint64_t k) {
  if (s->data) {
    HPCDB_TRY(dist_pwrite(w->fd, w->name, off, s->data, k));
    s->data += k;
  } else {
    HPCDB_TRY(dist_copy(s->fd, s->off, w->fd, off, k));
    s->off += k;
  }
  return 0;
}

/* Stages the source's bytes from where staging stands (w->block_at + w->len) up to to. */
static int stage(dist_direct *w, source *s, uint64_t to) {
  while (w->block_at + w->len < to) {
    uint64_t n = to - (w->block_at + w->len), k = DIRECT_BLOCK - w->len < n ? DIRECT_BLOCK - w->len : n;
    HPCDB_TRY(take(s, w->block + w->len, k));
    w->len += k;
    if (w->len == DIRECT_BLOCK) HPCDB_TRY(flush(w));
  }
  return 0;
}

/* The source's n bytes to the run's [off, off + n): the partial page at
 * each end through the page cache, the whole pages staged. */
static int put(dist_direct *w, source *s, uint64_t off, uint64_t n) {
  uint64_t end = off + n;
  if (off < w->next)
    return hpcdb_fail(HPCDB_EINVAL, "%s: write at %llu behind the run's %llu", w->name, (unsigned long long)off,
                      (unsigned long long)w->next);
  w->next = end;
  if (!w->block) return to_cache(w, s, off, n); /* all buffered */
  source z = zeros;
  if (off < w->lo) { /* the head page, shared with the run before */
    uint64_t k = (end < w->lo ? end : w->lo) - off;
    HPCDB_TRY(to_cache(w, s, off, k));
    off += k;
  }
  if (off < w->hi && off < end) { /* whole pages */
    uint64_t to = end < w->hi ? end : w->hi;
    HPCDB_TRY(stage(w, &z, off));
    HPCDB_TRY(stage(w, s, to));
    off = to;
  }
  if (off < end) { /* the tail page, shared with the run after */
    HPCDB_TRY(stage(w, &z, w->hi));
    HPCDB_TRY(to_cache(w, s, off, end - off));
  }
  return 0;
}

int dist_direct_write(dist_direct *w, uint64_t off, const void *data, uint64_t n) {
  source s = {data, -1, NULL, 0};
  return put(w, &s, off, n);
}

int dist_direct_copy(dist_direct *w, int from, const char *from_name, uint64_t from_off, uint64_t off, uint64_t n) {
  source s = {NULL, from, from_name, from_off};
  return put(w, &s, off, n);
}

int dist_direct_finish(dist_direct *w) {
  int rc = 0;
  source z = zeros;
  if (w->block) rc = stage(w, &z, w->hi); /* the run's last padding, on to its tail page */
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
