/* SPDX-License-Identifier: BSD-3-Clause */
/* A database's source file, found where it is allowed to be: the copy in
 * the database's src/ (whatever symlinks say, the resolved file must lie
 * inside src/), else the path the measurement recorded. The request names
 * only a file number; the path comes from the database and is checked here
 * (no ".." components, no escape from src/ through a symlink). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "routes.h"

#define SOURCE_MAX (16u << 20)

static int has_dotdot(const char *p) {
  for (const char *s = p; (s = strstr(s, "..")); s += 2)
    if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0')) return 1;
  return 0;
}

/* The whole of a regular file of at most SOURCE_MAX bytes, or NULL. */
static char *slurp(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *buf = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= SOURCE_MAX &&
      (buf = malloc((size_t)st.st_size + 1))) {
    ssize_t n = read(fd, buf, (size_t)st.st_size);
    if (n < 0) {
      free(buf);
      buf = NULL;
    } else {
      buf[n] = '\0';
      *len = (size_t)n;
    }
  }
  close(fd);
  return buf;
}

/* root/rel when it resolves to a file inside root. */
static char *inside(const char *root, const char *rel, size_t *len) {
  char joined[PATH_MAX], real[PATH_MAX];
  while (*rel == '/') rel++;
  if (snprintf(joined, sizeof joined, "%s/%s", root, rel) >= (int)sizeof joined) return NULL;
  if (!realpath(joined, real)) return NULL;
  size_t n = strlen(root);
  if (strncmp(real, root, n) != 0 || real[n] != '/') return NULL; /* a symlink out of src/ */
  return slurp(real, len);
}

char *view_source_text(const view_db *db, uint32_t file, size_t *len, const char **why) {
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  const char *p = e->files[file].path;
  *len = 0;
  if (!p || !*p || p[0] == '[') {
    *why = "no source file is recorded for this context";
    return NULL;
  }
  if (has_dotdot(p)) {
    *why = "the recorded path has '..' components: not served";
    return NULL;
  }
  char *text = NULL;
  if (db->src_root) {
    const char *base = strrchr(p, '/');
    if (!strncmp(p, "src/", 4)) text = inside(db->src_root, p + 4, len); /* v4.0: copies as src/<recorded path> */
    if (!text) text = inside(db->src_root, p, len);
    if (!text && base) text = inside(db->src_root, base + 1, len);
  }
  if (!text && p[0] == '/') text = slurp(p, len); /* the path the measurement recorded */
  if (!text) *why = "not available: neither in the database's src/ nor at the recorded path";
  return text;
}
