/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: broken-file manifests (bad_cases.h). */
#include "bad_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static char *trim(char *s) {
  while (*s == ' ') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n')) s[--n] = '\0';
  return s;
}

/* The width and byte order of a `u8`, `le16` … `be64` mutation; 0 for another op. */
static size_t int_width(const char *op, int *big_endian) {
  *big_endian = op[0] == 'b';
  if (!strcmp(op, "u8")) return 1;
  if ((op[0] == 'l' || op[0] == 'b') && op[1] == 'e') {
    int bits = atoi(op + 2);
    return bits == 16 || bits == 32 || bits == 64 ? (size_t)bits / 8 : 0;
  }
  return 0;
}

static int mutate(const char *path, const char *mutation) {
  uint8_t *data;
  size_t len;
  if (testlib_read_file(path, &data, &len) != 0) return -1;
  char op[16], arg1[64], arg2[64] = "";
  int n = sscanf(mutation, "%15s %63s %63s", op, arg1, arg2);
  unsigned long long off = strtoull(arg1, NULL, 0), v = strtoull(arg2, NULL, 0);
  int big_endian;
  size_t width = n == 3 ? int_width(op, &big_endian) : 0, hex = strlen(arg2) / 2;
  int rc = 0;
  if (n == 2 && !strcmp(op, "truncate") && off <= len) {
    len = (size_t)off;
  } else if (width && off <= len && width <= len - off) {
    for (size_t i = 0; i < width; i++) data[off + i] = (uint8_t)(v >> (8 * (big_endian ? width - 1 - i : i)));
  } else if (n == 3 && !strcmp(op, "bytes") && off <= len && hex <= len - off) {
    for (size_t i = 0; i < hex; i++) {
      unsigned byte = 0;
      sscanf(arg2 + 2 * i, "%2x", &byte);
      data[off + i] = (uint8_t)byte;
    }
  } else {
    rc = -1;
  }
  if (rc == 0) rc = testlib_write_file(path, data, len);
  free(data);
  return rc;
}

typedef struct found {
  const char *rule;
  int hit;
} found;

static void collect(void *user, const hpcdb_diagnostic *d) {
  found *f = user;
  if (d->severity == HPCDB_SEV_ERROR && !strcmp(d->rule, f->rule)) f->hit = 1;
}

static int check(const bad_target *t, const char *name, const char *dir, const char *rule, const char *read) {
  hpcdb_validation result = {0, 0};
  found hit = {rule, 0};
  int ok = 1, rc = t->validate(&result, dir, collect, &hit);
  if (rc < 0 || !hit.hit) {
    fprintf(stderr, "%s: the validator did not report %s (rc %d, %llu errors)\n", name, rule, rc,
            (unsigned long long)result.errors);
    ok = 0;
  }
  rc = t->read(dir);
  if (!strcmp(read, "fail") && (rc >= 0 || !strstr(hpcdb_last_error(), dir))) {
    fprintf(stderr, "%s: the reader accepted it (or did not name the file)\n", name);
    ok = 0;
  } else if (!strcmp(read, "ok") && rc < 0) {
    fprintf(stderr, "%s: the reader refused it: %s\n", name, hpcdb_last_error());
    ok = 0;
  }
  return ok;
}

int bad_cases_run(const char *manifest, const char *valid, const bad_target *target) {
  char valid_dir[4096]; /* valid may be testlib_tmpdir's buffer, which the cases reuse */
  snprintf(valid_dir, sizeof valid_dir, "%s", valid);
  FILE *f = fopen(manifest, "r");
  if (!f) return -1;
  char line[1024];
  int cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *field[5];
    int k = 0;
    for (char *s = strtok(line, "|"); s && k < 5; s = strtok(NULL, "|")) field[k++] = trim(s);
    if (k != 5) {
      fprintf(stderr, "bad manifest line: %s\n", line);
      CHECK(0);
      continue;
    }
    const char *dir = testlib_tmpdir(field[0]);
    char cmd[8400], path[4200];
    snprintf(cmd, sizeof cmd, "cp -r '%s'/. '%s' && chmod -R u+w '%s'", valid_dir, dir, dir);
    CHECK(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/%s", dir, field[1]);
    if (mutate(path, field[2]) != 0) {
      fprintf(stderr, "%s: cannot apply '%s'\n", field[0], field[2]);
      CHECK(0);
      continue;
    }
    CHECK(check(target, field[0], dir, field[3], field[4]));
    cases++;
  }
  fclose(f);
  return cases;
}
