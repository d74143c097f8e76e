/* SPDX-License-Identifier: BSD-3-Clause */
/* Where a legacy database's files are: experiment.xml, and the metric-db
 * files named PROGRAM-RANK-THREAD-HOSTID-PID-GENERATION.metric-db (hpcrun's
 * naming, kept by hpcprof; the leading "1." is hpcprof's own prefix). */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/vec.h"
#include "older/legacy/legacy.h"

int legacy_paths(const char *path, char *dir, size_t dir_size, char *xml, size_t xml_size) {
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  if (S_ISDIR(st.st_mode)) {
    if ((size_t)snprintf(dir, dir_size, "%s", path) >= dir_size ||
        (size_t)snprintf(xml, xml_size, "%s/experiment.xml", path) >= xml_size)
      return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", path);
    return 0;
  }
  if ((size_t)snprintf(xml, xml_size, "%s", path) >= xml_size ||
      (size_t)snprintf(dir, dir_size, "%s", path) >= dir_size)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", path);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, dir_size, ".");
  else if (slash == dir) dir[1] = '\0';
  else *slash = '\0';
  return 0;
}

/* Splits "...-RANK-THREAD-HOST-PID-GEN.suffix" from the right. */
static void identity_of(legacy_profile_file *f) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", f->name);
  char *dot = strrchr(buf, '.');
  if (dot) *dot = '\0';
  char *part[5];
  for (int k = 4; k >= 0; k--) {
    char *dash = strrchr(buf, '-');
    if (!dash) return;
    part[k] = dash + 1;
    *dash = '\0';
  }
  char *end0, *end1, *end2;
  long long rank = strtoll(part[0], &end0, 10), thread = strtoll(part[1], &end1, 10);
  unsigned long long host = strtoull(part[2], &end2, 16);
  if (*end0 || *end1 || *end2 || end0 == part[0] || end1 == part[1] || end2 == part[2] || rank < 0 || thread < 0 ||
      rank > UINT32_MAX || thread > UINT32_MAX)
    return;
  f->rank = rank;
  f->thread = thread;
  f->host = host;
  f->named = 1;
}

static int by_identity(const void *a, const void *b) {
  const legacy_profile_file *x = a, *y = b;
  if (x->named != y->named) return x->named ? -1 : 1;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
  return strcmp(x->name, y->name);
}

void legacy_files_free(legacy_profile_file *files, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) free(files[i].name);
  free(files);
}

int legacy_list_files(legacy_profile_file **out, uint32_t *n, const char *dir, const char *glob) {
  *out = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return hpcdb_fail(HPCDB_EIO, "%s: cannot list the directory", dir);
  legacy_profile_file *files = NULL;
  uint64_t count = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; rc == 0 && (e = readdir(d));) {
    if (fnmatch(glob, e->d_name, FNM_PERIOD) != 0) continue;
    if (count == UINT32_MAX || VEC_RESERVE(&files, &cap, count + 1) < 0) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      break;
    }
    legacy_profile_file *f = &files[count];
    memset(f, 0, sizeof *f);
    if (!(f->name = strdup(e->d_name))) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      break;
    }
    count++;
    identity_of(f);
  }
  closedir(d);
  if (rc < 0) {
    legacy_files_free(files, (uint32_t)count);
    return rc;
  }
  if (count) qsort(files, count, sizeof *files, by_identity);
  *out = files;
  *n = (uint32_t)count;
  return 0;
}
