/* Test support: broken-file manifests (bad_cases.h). Mutations:
 * `truncate N`, `u8|be16|be32|be64 OFFSET VALUE` (big-endian, as the drafts). */
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

static int mutate(const char *path, const char *mutation) {
  uint8_t *data;
  size_t len;
  if (testlib_read_file(path, &data, &len) != 0) return -1;
  char op[16], arg1[64], arg2[64] = "";
  int n = sscanf(mutation, "%15s %63s %63s", op, arg1, arg2);
  unsigned long long off = strtoull(arg1, NULL, 0), v = strtoull(arg2, NULL, 0);
  size_t width = !strcmp(op, "u8") ? 1 : !strcmp(op, "be16") ? 2 : !strcmp(op, "be32") ? 4 : !strcmp(op, "be64") ? 8 : 0;
  int rc = 0;
  if (n == 2 && !strcmp(op, "truncate") && off <= len) len = (size_t)off;
  else if (n == 3 && width && off <= len && width <= len - off)
    for (size_t i = 0; i < width; i++) data[off + i] = (uint8_t)(v >> (8 * (width - 1 - i)));
  else rc = -1;
  if (rc == 0) rc = testlib_write_file(path, data, len);
  free(data);
  return rc;
}

int bad_cases_run(const char *manifest, const char *valid, bad_case_fn check) {
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
    CHECK(check(field[0], dir, field[3], field[4]));
    cases++;
  }
  fclose(f);
  return cases;
}
