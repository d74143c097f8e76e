/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs LLVMFuzzerTestOneInput on every file of the given directories (the
 * committed corpus), so a compiler without libFuzzer still replays it. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  LLVMFuzzerTestOneInput(buf, got);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  int files = 0;
  for (int i = 1; i < argc; i++) {
    DIR *d = opendir(argv[i]);
    if (!d) {
      if (replay_file(argv[i]) == 0) files++;
      continue;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      struct stat st;
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && replay_file(path) == 0) files++;
    }
    closedir(d);
  }
  printf("replayed %d inputs\n", files);
  return files > 0 ? 0 : 1;
}
