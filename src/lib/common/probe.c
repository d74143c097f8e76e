/* SPDX-License-Identifier: BSD-3-Clause */
/* Small looks at a path for format detection. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "common/probe.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

size_t probe_head(const char *path, uint8_t *buf, size_t n) {
  int fd = open(path, O_RDONLY | O_CLOEXEC); /* no stdio: nothing allocated, so no failure taken for "empty" */
  if (fd < 0) return 0;
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, buf + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  close(fd);
  return got;
}

int probe_contains(const uint8_t *buf, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(buf + i, needle, k) == 0) return 1;
  return 0;
}

int probe_file_in(const char *dir, const char *name, char *path, size_t size) {
  struct stat st;
  return (size_t)snprintf(path, size, "%s/%s", dir, name) < size && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
