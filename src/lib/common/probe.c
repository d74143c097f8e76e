/* Small looks at a path for format detection. */
#include "common/probe.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

size_t probe_head(const char *path, uint8_t *buf, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t got = fread(buf, 1, n, f);
  fclose(f);
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
