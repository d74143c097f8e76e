/* SPDX-License-Identifier: BSD-3-Clause */
/* Detection does not depend on the order of the format list: every sample
 * file and directory (and every file inside a sample directory) is detected
 * as the same kind with the list reversed and shuffled 50 times. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/formats.h"
#include "testlib.h"

static unsigned checked;

static void check_path(const char *path) {
  uint8_t head[4096];
  format_probe p;
  if (format_probe_of(&p, path, head, sizeof head) < 0) return;
  size_t n;
  const format_desc *const *list = format_list(&n);
  const format_desc *order[64];
  if (n > 64) n = 64;
  hpcdb_format want = format_detect_in(list, n, &p);
  for (size_t i = 0; i < n; i++) order[i] = list[n - 1 - i];
  int same = format_detect_in(order, n, &p) == want;
  for (int round = 0; round < 50 && same; round++) {
    for (size_t i = n; i-- > 1;) {
      size_t j = (size_t)rand() % (i + 1);
      const format_desc *t = order[i];
      order[i] = order[j], order[j] = t;
    }
    same = format_detect_in(order, n, &p) == want;
  }
  if (!same) fprintf(stderr, "%s: detected as %s in one order, otherwise in another\n", path, hpcdb_format_name(want));
  CHECK(same);
  checked++;
}

/* path, and what it holds down to depth levels. */
static void walk(const char *path, int depth) {
  check_path(path);
  DIR *d = depth > 0 ? opendir(path) : NULL;
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char *child;
    if (asprintf(&child, "%s/%s", path, e->d_name) < 0) break;
    walk(child, depth - 1);
    free(child);
  }
  closedir(d);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  srand(39);
  walk(testlib_sample(""), 3);
  printf("%u paths detected the same in 52 orders\n", checked);
  CHECK(checked > 40);
  return TEST_END();
}
