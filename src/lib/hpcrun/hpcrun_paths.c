/* SPDX-License-Identifier: BSD-3-Clause */
#include "hpcrun/hpcrun_paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/vec.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int hpcrun_list_profiles(hpcrun_path_list *out, const char *dir) { return hpcrun_list_files(out, dir, ".hpcrun"); }

int hpcrun_list_files(hpcrun_path_list *out, const char *dir, const char *suffix) {
  out->paths = NULL;
  out->n = 0;
  DIR *d = opendir(dir);
  if (!d) return hpcdb_fail(HPCDB_EIO, "%s: cannot open directory: %s", dir, strerror(errno));
  uint64_t cap = 0;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d))) {
    if (!ends_with(e->d_name, suffix)) continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *p = malloc(len);
    if (!p || VEC_RESERVE(&out->paths, &cap, out->n + 1) < 0) {
      free(p);
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory listing %s", dir);
      break;
    }
    snprintf(p, len, "%s/%s", dir, e->d_name);
    if (!hpcrun_is_file(p)) {
      free(p);
      continue;
    }
    out->paths[out->n++] = p;
  }
  closedir(d);
  if (rc < 0) {
    hpcrun_path_list_free(out);
    return rc;
  }
  if (out->n) qsort(out->paths, out->n, sizeof *out->paths, by_name);
  return 0;
}

void hpcrun_path_list_free(hpcrun_path_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->paths[i]);
  free(l->paths);
  l->paths = NULL;
  l->n = 0;
}

char *hpcrun_swap_suffix(const char *path, const char *from, const char *to) {
  if (!ends_with(path, from)) return NULL;
  size_t stem = strlen(path) - strlen(from);
  char *r = malloc(stem + strlen(to) + 1);
  if (!r) return NULL;
  memcpy(r, path, stem);
  strcpy(r + stem, to);
  return r;
}

int hpcrun_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int hpcrun_is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
