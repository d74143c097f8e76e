/* SPDX-License-Identifier: BSD-3-Clause */
/* Read-only memory-mapped files (or a heap copy where mmap is not possible). */
#ifndef HPCDB_COMMON_MAPPED_FILE_H
#define HPCDB_COMMON_MAPPED_FILE_H

#include <stdint.h>

typedef struct hpcdb_mapped_file {
  const uint8_t *data;
  void *owned; /* the same bytes, as close releases them (data is their read-only view) */
  uint64_t len;
  int is_mapped; /* 1: munmap on close, 0: free */
  int fd;        /* kept while mapped, to tell whether the file shrank (-1: none) */
} hpcdb_mapped_file;

/* Maps path; an empty file gives data == NULL, len == 0. */
int mapped_file_open(hpcdb_mapped_file *out, const char *path);
void mapped_file_close(hpcdb_mapped_file *f);
/* Whether the file is still as long as when it was mapped. A file cut short
 * under its mapping reads as zeros from the cut to the end of that page (and
 * faults past it: src/cli/bus_guard.c), so what was parsed from it must not
 * be trusted: 0, or HPCDB_ETRUNCATED naming path. */
int mapped_file_check_whole(const hpcdb_mapped_file *f, const char *path);
/* Ends the reading of a mapped file that returned rc: when rc is 0, the file
 * is checked whole (above); closes it; returns rc or the check's failure. */
int mapped_file_finish(hpcdb_mapped_file *f, const char *path, int rc);
/* Tells the kernel the file is about to be read sequentially. */
void mapped_file_advise_sequential(const hpcdb_mapped_file *f);

/* Lets the kernel drop the pages wholly inside [off, off + len) from this
 * process (they stay in the page cache and come back if read again): keeps
 * the resident size of a long sequential pass small. */
void mapped_file_release(const hpcdb_mapped_file *f, uint64_t off, uint64_t len);

/* Exactly len bytes at off of the file open as fd into buf (pread); 0, or
 * HPCDB_EIO naming path. */
int read_at(int fd, uint8_t *buf, uint64_t len, uint64_t off, const char *path);
/* The same for writing len bytes of buf at off (pwrite). */
int write_at(int fd, const uint8_t *buf, uint64_t len, uint64_t off, const char *path);

#endif
