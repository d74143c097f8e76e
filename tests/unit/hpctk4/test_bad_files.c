/* Every case of tests/bad/hpctk4/cases.txt: a copy of a real database with
 * one file mutated must be rejected by hpcdb validate with the named rule
 * (as an error), and by the reader with an error unless the case says the
 * reader does not look there. No case may crash or hang (the suite also runs
 * under AddressSanitizer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define SOURCE "hpcrun/expected/small.nostruct.d"

typedef struct found {
  const char *rule;
  int hit;
} found;

static void collect(void *user, const hpcdb_diagnostic *d) {
  found *f = user;
  if (d->severity == HPCDB_SEV_ERROR && !strcmp(d->rule, f->rule)) f->hit = 1;
}

static char *trim(char *s) {
  while (*s == ' ') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n')) s[--n] = '\0';
  return s;
}

/* Applies "op offset value" to the file at path. */
static int mutate(const char *path, const char *mutation) {
  uint8_t *data;
  size_t len;
  if (testlib_read_file(path, &data, &len) != 0) return -1;
  char op[16], arg1[64], arg2[64] = "";
  int n = sscanf(mutation, "%15s %63s %63s", op, arg1, arg2);
  unsigned long long off = strtoull(arg1, NULL, 0), v = strtoull(arg2, NULL, 0);
  int rc = 0;
  if (n == 2 && !strcmp(op, "truncate")) {
    if (off > len) rc = -1;
    else len = (size_t)off;
  } else if (n == 3 && !strcmp(op, "bytes")) {
    size_t k = strlen(arg2) / 2;
    if (off + k > len) rc = -1;
    for (size_t i = 0; rc == 0 && i < k; i++) {
      unsigned byte;
      sscanf(arg2 + 2 * i, "%2x", &byte);
      data[off + i] = (uint8_t)byte;
    }
  } else if (n == 3 && (!strcmp(op, "u8") || !strcmp(op, "le16") || !strcmp(op, "le32") || !strcmp(op, "le64"))) {
    size_t width = op[0] == 'u' ? 1 : (size_t)atoi(op + 2) / 8;
    if (off + width > len) rc = -1;
    for (size_t i = 0; rc == 0 && i < width; i++) data[off + i] = (uint8_t)(v >> (8 * i));
  } else {
    rc = -1;
  }
  if (rc == 0) rc = testlib_write_file(path, data, len);
  free(data);
  return rc;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  const char *src = getenv("HPCDB_SOURCE_DIR");
  char manifest[4096];
  snprintf(manifest, sizeof manifest, "%s/tests/bad/hpctk4/cases.txt", src ? src : ".");
  FILE *f = fopen(manifest, "r");
  CHECK(f != NULL);
  if (!f) return TEST_END();
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
    const char *name = field[0], *file = field[1], *mutation = field[2], *rule = field[3], *read = field[4];
    const char *dir = testlib_tmpdir(name);
    char cmd[8192], path[4200];
    snprintf(cmd, sizeof cmd, "cp -r '%s'/. '%s' && chmod -R u+w '%s'", testlib_sample(SOURCE), dir, dir);
    CHECK(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (mutate(path, mutation) != 0) {
      fprintf(stderr, "%s: cannot apply '%s'\n", name, mutation);
      CHECK(0);
      continue;
    }
    hpcdb_validation result;
    found hit = {rule, 0};
    int rc = hpcdb_validate(&result, dir, collect, &hit);
    if (rc < 0 || !hit.hit) fprintf(stderr, "%s: validate did not report %s (rc %d, %llu errors)\n", name, rule, rc, (unsigned long long)result.errors);
    CHECK(rc == 0 && hit.hit);
    hpcdb_experiment *exp = NULL;
    rc = hpcdb_hpctk4_read(&exp, dir);
    if (!strcmp(read, "fail")) {
      if (rc >= 0) fprintf(stderr, "%s: the reader accepted it\n", name);
      CHECK(rc < 0 && strlen(hpcdb_last_error()) > 0);
    } else if (!strcmp(read, "ok")) {
      if (rc < 0) fprintf(stderr, "%s: the reader refused it: %s\n", name, hpcdb_last_error());
      CHECK(rc == 0);
    }
    hpcdb_experiment_free(exp);
    cases++;
  }
  fclose(f);
  printf("%d cases\n", cases);
  CHECK(cases >= 40);
  return TEST_END();
}
