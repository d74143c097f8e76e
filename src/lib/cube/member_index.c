/* SPDX-License-Identifier: BSD-3-Clause */
/* Where each member of a plain (uncompressed) .cubex lies, found by walking
 * the tar headers once with pread, so that one metric can be read without
 * passing through the members before it. Only the simple layout Cube
 * writers use is indexed: ustar / v7 headers of regular files with octal or
 * base-256 sizes and checksums that are right (or CubeW 4.8's, 32 low). Any
 * other header (pax, GNU long names, links, ...) or a compressed file leaves
 * the index empty, and readers stream the archive through libarchive. A
 * member's bytes are then read where they lie, through a read-only mapping
 * (no copy; the pages stay the page cache's). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/big_alloc.h"
#include "common/error.h"
#include "common/failpoint.h"
#include "cube/cube.h"

#define BLOCK 512u

/* The header's checksum is right (1), or CubeW 4.8's, 32 below (2); 0 otherwise. */
static int checksum_ok(const uint8_t *h) {
  unsigned sum = 0, stored = 0, i;
  for (i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? ' ' : h[i];
  for (i = 148; i < 156 && h[i] == ' '; i++) {}
  unsigned digits = 0;
  for (; i < 156 && h[i] >= '0' && h[i] <= '7'; i++, digits++) stored = stored << 3 | (unsigned)(h[i] - '0');
  return digits == 0 ? 0 : stored == sum ? 1 : stored + 32 == sum ? 2 : 0;
}

/* The size field: octal or base-256; UINT64_MAX when it is neither. */
static uint64_t size_of(const uint8_t *h) {
  uint64_t v = 0;
  if (h[124] & 0x80) {
    if (h[124] != 0x80 || h[125] || h[126] || h[127]) return UINT64_MAX;
    for (int i = 128; i < 136; i++) v = v << 8 | h[i];
    return v;
  }
  int i = 124, digits = 0;
  while (i < 136 && h[i] == ' ') i++;
  for (; i < 136 && h[i] >= '0' && h[i] <= '7'; i++, digits++) v = v << 3 | (uint64_t)(h[i] - '0');
  return digits && (i == 136 || h[i] == 0 || h[i] == ' ') ? v : UINT64_MAX;
}

static int read_at(int fd, uint64_t at, void *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(at + got));
    if (r <= 0) return 0;
    got += (size_t)r;
  }
  return 1;
}

/* Walks the headers; 1 when every member could be placed, 0 otherwise. */
static int walk(cube_member_index *x) {
  uint8_t h[BLOCK];
  static const uint8_t zero[BLOCK];
  size_t cap = 0;
  for (uint64_t at = 0; x->file_size >= BLOCK && at <= x->file_size - BLOCK;) {
    if (!read_at(x->fd, at, h, BLOCK)) return 0;
    if (!memcmp(h, zero, BLOCK)) return 1; /* the end of the archive */
    uint8_t type = h[156];
    uint64_t size = size_of(h);
    int sum = checksum_ok(h);
    x->mended += sum == 2;
    if (!sum || (type != '0' && type != 0) || size == UINT64_MAX || size > x->file_size - at - BLOCK) return 0;
    if (!h[345] || memcmp(h + 257, "ustar", 5) != 0) { /* no ustar prefix in use: the name is h[0..100) */
      if (x->n == cap) {
        cap = cap ? 2 * cap : 16;
        cube_indexed_member *e = realloc(x->members, cap * sizeof *e);
        if (!e) return 0;
        x->members = e;
      }
      cube_indexed_member *e = &x->members[x->n++];
      memcpy(e->name, h, 100);
      e->name[100] = 0;
      e->offset = at + BLOCK;
      e->size = size;
    } else {
      return 0; /* a long name split over prefix and name: not a Cube member hpcdb looks up by id */
    }
    at += BLOCK + (size + BLOCK - 1) / BLOCK * BLOCK; /* within the file + 511: size was checked */
  }
  return 1;
}

int cube_member_index_build(cube_member_index *x, const char *path) {
  memset(x, 0, sizeof *x);
  x->fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (x->fd < 0 || fstat(x->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    cube_member_index_free(x);
    return 0;
  }
  x->file_size = (uint64_t)st.st_size;
  uint8_t head[2];
  if (!read_at(x->fd, 0, head, 2) || (head[0] == 0x1f && head[1] == 0x8b) || !walk(x)) {
    free(x->members); /* compressed, or a layout left to libarchive */
    x->members = NULL;
    x->n = 0;
  }
  return 0;
}

const cube_indexed_member *cube_member_find(const cube_member_index *x, const char *name) {
  for (uint32_t i = 0; i < x->n; i++)
    if (!strcmp(x->members[i].name, name)) return &x->members[i];
  return NULL;
}

int cube_member_metric_id(const char *name, const char *suffix, unsigned long *id) {
  size_t n = strlen(name), k = strlen(suffix);
  if (n <= k || strcmp(name + n - k, suffix) != 0) return 0;
  char *end;
  *id = strtoul(name, &end, 10);
  return end == name + n - k;
}

int cube_member_read(const cube_member_index *x, uint64_t at, void *buf, size_t n) {
  return read_at(x->fd, at, buf, n);
}

int cube_member_readv(const cube_member_index *x, uint64_t at, struct iovec *iov, int n) {
  while (n > 0) {
    ssize_t r = preadv(x->fd, iov, n, (off_t)at);
    if (r <= 0) return 0;
    at += (uint64_t)r;
    for (; n > 0 && (size_t)r >= iov->iov_len; n--, iov++) r -= (ssize_t)iov->iov_len;
    if (n > 0) { /* a short read: the rest of this buffer next */
      iov->iov_base = (uint8_t *)iov->iov_base + r;
      iov->iov_len -= (size_t)r;
    }
  }
  return 1;
}

void cube_member_index_free(cube_member_index *x) {
  if (x->fd >= 0) close(x->fd);
  free(x->members);
  memset(x, 0, sizeof *x);
  x->fd = -1;
}

int cube_member_view_open(const cube_member_index *x, uint64_t offset, uint64_t size, cube_member_view *v) {
  static const uint8_t empty[1];
  memset(v, 0, sizeof *v);
  v->data = empty;
  struct stat st; /* the file may have shrunk since it was indexed: touching a mapping beyond its end would fault */
  if (fstat(x->fd, &st) < 0 || (uint64_t)st.st_size < offset || (uint64_t)st.st_size - offset < size) return 0;
  if (size == 0) return 1;
  if (size > SIZE_MAX - 65536) return hpcdb_fail(HPCDB_ENOMEM, "a %llu-byte member", (unsigned long long)size);
  long page = sysconf(_SC_PAGESIZE);
  uint64_t start = page > 0 ? offset / (uint64_t)page * (uint64_t)page : offset;
  v->base_len = (size_t)(offset - start + size);
  v->base = page > 0 ? mmap(NULL, v->base_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, x->fd, (off_t)start) : MAP_FAILED;
  if (v->base != MAP_FAILED) {
    v->mapped = 1;
    v->data = (const uint8_t *)v->base + (offset - start);
    v->len = (size_t)size;
    failpoint_mapped("cube-member");
    return 1;
  }
  v->base = malloc((size_t)size); /* a file that cannot be mapped: a copy */
  if (!v->base) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a %llu-byte member", (unsigned long long)size);
  if (!read_at(x->fd, offset, v->base, (size_t)size)) {
    cube_member_view_close(v);
    return 0;
  }
  v->data = v->base;
  v->len = (size_t)size;
  return 1;
}

void cube_member_view_close(cube_member_view *v) {
  if (v->mapped) munmap(v->base, v->base_len);
  else free(v->base);
  memset(v, 0, sizeof *v);
}

/* Below this big_alloc's memory gets no huge-page advice (common/huge_pages.c),
 * and a copy would gain nothing over the mapping. */
#define LOAD_MIN ((uint64_t)4 << 20)

int cube_member_view_load(const cube_member_index *x, uint64_t offset, uint64_t size, cube_member_view *v) {
  void *copy = size >= LOAD_MIN && size <= SIZE_MAX ? big_alloc((size_t)size) : NULL;
  if (!copy) return cube_member_view_open(x, offset, size, v);        /* small, or no memory for a copy */
  *v = (cube_member_view){copy, (size_t)size, copy, (size_t)size, 1}; /* big_free is the view's munmap */
  if (read_at(x->fd, offset, copy, (size_t)size)) return 1;
  cube_member_view_close(v);
  return 0; /* the file no longer holds them */
}
