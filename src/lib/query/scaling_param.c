/* SPDX-License-Identifier: BSD-3-Clause */
/* Where a scaling study's parameter comes from: a run's identity (how many
 * ranks, threads, profiles it has), or the folder names of a Cube file set
 * laid out as Extra-P reads one (docs/compare.md, "Scaling studies"). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "hpcdb/common.h"
#include "hpcdb/compare.h"
#include "hpcdb/model.h"

static int kind_of(const hpcdb_experiment *e, const char *name) {
  for (uint32_t k = 0; k < e->n_kind_names; k++)
    if (e->kind_names[k] && !strcmp(e->kind_names[k], name)) return (int)k;
  return -1;
}

/* Distinct values of kind `k` over the profiles, or per value of kind `per` the largest count. */
static uint64_t distinct(const hpcdb_experiment *e, int k, int per) {
  hpcdb_u64map seen = {0}, counts = {0};
  uint64_t n = 0, most = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    uint64_t value = UINT64_MAX, group = 0, have;
    for (uint16_t i = 0; i < pr->n_ids; i++) {
      if (pr->ids[i].kind == k) value = pr->ids[i].logical_id;
      if (per >= 0 && pr->ids[i].kind == per) group = pr->ids[i].logical_id;
    }
    if (value == UINT64_MAX) continue;
    uint64_t key = hash_u64(value) ^ hash_u64(group + 0x77);
    if (u64map_get(&seen, key, &have)) continue;
    u64map_put(&seen, key, 1);
    uint64_t c = 0;
    u64map_get(&counts, group, &c);
    u64map_put(&counts, group, ++c);
    if (c > most) most = c;
    n++;
  }
  u64map_free(&seen);
  u64map_free(&counts);
  return per >= 0 ? most : n;
}

int hpcdb_run_parameter(double *out, const hpcdb_experiment *e, const char *name) {
  if (!strcmp(name, "profiles")) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < e->n_profiles; p++) n += !(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY);
    *out = n;
    return 0;
  }
  int rank = kind_of(e, "RANK"), thread = kind_of(e, "THREAD");
  if (!strcmp(name, "ranks")) {
    uint64_t n = rank >= 0 ? distinct(e, rank, -1) : 0;
    *out = n ? (double)n : 1; /* no RANK in the identities: one process */
    return 0;
  }
  if (!strcmp(name, "threads")) {
    uint64_t n = thread >= 0 ? distinct(e, thread, rank) : 0;
    *out = n ? (double)n : 1;
    return 0;
  }
  return hpcdb_fail(HPCDB_EINVAL, "no parameter \"%s\" in a run's identity (ranks, threads, profiles)", name);
}

/* NAME followed by a number in an Extra-P folder name ("mm.p8.r1", "x16y1z1"):
 * at the start or after '.', ',' or a digit. 1 and *value when found. */
static int folder_value(const char *folder, const char *name, double *value) {
  size_t len = strlen(name);
  for (const char *s = folder; (s = strstr(s, name)) != NULL; s++) {
    int boundary = s == folder || s[-1] == '.' || s[-1] == ',' || isdigit((unsigned char)s[-1]);
    if (!boundary || !isdigit((unsigned char)s[len])) continue;
    *value = strtod(s + len, NULL); /* "p8.r1" reads 8: strtod stops at ".r" */
    return 1;
  }
  return 0;
}

typedef struct entry {
  char *path;
  double value;
} entry;

static int cmp_entry(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->value != y->value) return x->value < y->value ? -1 : 1;
  return strcmp(x->path, y->path);
}

static int add_cubes(entry **list, uint32_t *n, uint32_t *cap, const char *folder, double value) {
  DIR *d = opendir(folder);
  if (!d) return 0;
  struct dirent *de;
  int rc = 0;
  while (rc == 0 && (de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 6, ".cubex") != 0) continue;
    if (*n == *cap) {
      uint32_t c = *cap ? *cap * 2 : 16;
      entry *l = realloc(*list, c * sizeof *l);
      if (!l) {
        rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory listing %s", folder);
        break;
      }
      *list = l, *cap = c;
    }
    char *path = malloc(strlen(folder) + len + 2);
    if (!path) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory listing %s", folder);
      break;
    }
    strcpy(path, folder);
    strcat(path, "/");
    strcat(path, de->d_name);
    (*list)[(*n)++] = (entry){path, value};
  }
  closedir(d);
  return rc;
}

int hpcdb_extrap_folder(char ***paths, double **values, uint32_t *n_out, const char *dir, const char *name) {
  *paths = NULL, *values = NULL, *n_out = 0;
  DIR *d = opendir(dir);
  if (!d) return hpcdb_fail(HPCDB_EIO, "%s: cannot open the folder", dir);
  entry *list = NULL;
  uint32_t n = 0, cap = 0;
  int rc = 0;
  struct dirent *de;
  char sub[4096];
  while (rc == 0 && (de = readdir(d)) != NULL) {
    double value;
    struct stat st;
    if (de->d_name[0] == '.' || !folder_value(de->d_name, name, &value)) continue;
    if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name) >= sizeof sub) continue;
    if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    rc = add_cubes(&list, &n, &cap, sub, value);
  }
  closedir(d);
  if (rc == 0 && n == 0)
    rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no subfolder named for parameter \"%s\" (as mm.%s8.r1) holding .cubex files",
                    dir, name, name);
  double *v = rc == 0 ? malloc(n * sizeof *v) : NULL;
  char **p = rc == 0 ? malloc(n * sizeof *p) : NULL;
  if (rc == 0 && (!v || !p)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory listing %s", dir);
  if (rc < 0) {
    for (uint32_t i = 0; i < n; i++) free(list[i].path);
    free(list), free(v), free(p);
    return rc;
  }
  qsort(list, n, sizeof *list, cmp_entry);
  for (uint32_t i = 0; i < n; i++) p[i] = list[i].path, v[i] = list[i].value;
  free(list);
  *paths = p, *values = v, *n_out = n;
  return 0;
}
