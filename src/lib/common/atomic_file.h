/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a file so that it appears whole or not at all: data goes to a
 * temporary file beside the target (`.NAME.hpcdb-tmp-PID.XXXXXX`, see
 * atomic_dir.h), is fsync'ed, and renamed over the target on commit. Abort
 * (or a failed write) removes the temporary file. */
#ifndef HPCDB_COMMON_ATOMIC_FILE_H
#define HPCDB_COMMON_ATOMIC_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct hpcdb_atomic_file {
  FILE *fp;
  char *buf; /* stdio's buffer: glibc ignores setvbuf's size unless it is given one */
  char *target;
  char *temp;
  uint64_t written;   /* bytes written so far = current offset */
  uint64_t writeback; /* the bytes before this are on their way to the disk */
  uint8_t *direct;    /* opened direct: the block being staged (aligned); NULL for a buffered file */
  size_t direct_len;  /* bytes staged in it: the file's bytes [written - direct_len, written) */
  uint8_t *patch;     /* a direct file: the pages being patched (aligned), made on first use */
  uint64_t kept;      /* patch's first page holds the file's page at offset kept - 1 (0: none) */
  int failed;
  int no_replace; /* commit fails with HPCDB_EEXIST rather than replace a file */
  int output;     /* a command's output: its directory is fsync'ed after the rename */
  int no_sync;    /* a cache its reader checks (a checksum): renamed without an fsync, which would
                     wait for the disk to hold what can be made again */
} hpcdb_atomic_file;

int atomic_file_open(hpcdb_atomic_file *f, const char *target);
/* A command's output: dead runs' temporaries of target are removed first,
 * without replace the commit never replaces a target that appeared
 * meanwhile (see atomic_dir.h), and the rename is made durable (the
 * directory fsync'ed). */
int atomic_file_open_output(hpcdb_atomic_file *f, const char *target, int replace);
/* The same for a large file written front to back (patched rarely, in few
 * places, with atomic_file_pwrite): its bytes go to the disk in blocks around
 * the page cache (O_DIRECT), so that writing it neither copies it into the
 * cache nor takes fresh memory for it, and the commit's fsync has little left
 * to wait for. Where the filesystem refuses direct writes, a buffered file. */
int atomic_file_open_direct(hpcdb_atomic_file *f, const char *target);
/* Makes an open file direct, as atomic_file_open_direct. */
int atomic_file_make_direct(hpcdb_atomic_file *f);
int atomic_file_write(hpcdb_atomic_file *f, const void *data, size_t n);
/* Writes zero bytes up to the next multiple of align. */
int atomic_file_pad(hpcdb_atomic_file *f, uint64_t align);
/* Writes at an absolute offset already written (for patching headers). In a
 * file opened direct, bytes already gone to the disk are patched by reading
 * back and writing again the pages they lie in. */
int atomic_file_pwrite(hpcdb_atomic_file *f, uint64_t off, const void *data, size_t n);
/* Starts the disk writing what was written so far (the commit's fsync then
 * waits for less): without waiting for a buffered file; a direct file's
 * blocks are with the device already, and this waits until the device's
 * cache has flushed them (fdatasync). A hint: errors are the commit's. */
void atomic_file_start_writeback(hpcdb_atomic_file *f);
int atomic_file_commit(hpcdb_atomic_file *f);
void atomic_file_abort(hpcdb_atomic_file *f);
/* Ends a file whose writing returned rc: commits it when rc is 0, else
 * removes its temporary; returns rc, or the commit's failure. */
int atomic_file_finish(hpcdb_atomic_file *f, int rc);
/* A whole file made in memory: written to a temporary and renamed into place
 * (direct: as atomic_file_open_direct). */
int atomic_file_write_whole(const char *target, const void *data, size_t n, int direct);

#endif
