/* SPDX-License-Identifier: BSD-3-Clause */
/* Generates a structure file (hpcstruct's XML) for the synthetic program of
 * gen_measurements: its code is the shared range [0x1000, 0x101000) and each
 * thread's own range at 0x1000000 × (thread + 1) + [0x1000, 0x101000).
 * Every 4 KiB of it is a procedure: a prologue line, a loop (with a loop
 * nested in it) of lines every 128 bytes, an inlined call with its own line
 * and an epilogue line; so every frame of the measurements gets a function,
 * loops, maybe an inlined call, and a line.
 * usage: gen_struct [--threads T] [--module PATH] -o FILE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void procedure(FILE *f, uint64_t base, unsigned id, unsigned *next) {
  unsigned line = 10 * id + 1;
  fprintf(f, "<P i=\"%u\" n=\"proc_%u\" l=\"%u\" v=\"{[0x%llx-0x%llx)}\">\n", (*next)++, id, line,
          (unsigned long long)base, (unsigned long long)base + 1);
  fprintf(f, "<S i=\"%u\" l=\"%u\" v=\"{[0x%llx-0x%llx)}\"/>\n", (*next)++, line, (unsigned long long)base,
          (unsigned long long)base + 0x100);
  fprintf(f, "<L i=\"%u\" l=\"%u\" f=\"app.c\" v=\"{[0x%llx-0x%llx)}\">\n", (*next)++, line + 1,
          (unsigned long long)base + 0x100, (unsigned long long)base + 0x101);
  for (uint64_t a = 0x100; a < 0xc00; a += 0x80) {
    if (a == 0x400) {
      fprintf(f, "<L i=\"%u\" l=\"%u\" f=\"app.c\" v=\"{[0x%llx-0x%llx)}\">\n", (*next)++, line + 3,
              (unsigned long long)(base + a), (unsigned long long)(base + a + 1));
    }
    fprintf(f, "<S i=\"%u\" l=\"%u\" v=\"{[0x%llx-0x%llx)}\"/>\n", (*next)++, line + 2 + (unsigned)(a >> 9),
            (unsigned long long)(base + a), (unsigned long long)(base + a + 0x80));
    if (a == 0x780) fputs("</L>\n", f);
  }
  fputs("</L>\n", f);
  fprintf(f, "<A i=\"%u\" l=\"%u\" f=\"app.c\" n=\"\">\n", (*next)++, line + 7);
  fprintf(f, "<A i=\"%u\" l=\"3\" f=\"lib.h\" n=\"inlined_%u\" v=\"{}\">\n", (*next)++, id % 64);
  fprintf(f, "<S i=\"%u\" l=\"4\" v=\"{[0x%llx-0x%llx)}\"/>\n</A>\n</A>\n", (*next)++,
          (unsigned long long)base + 0xc00, (unsigned long long)base + 0xe00);
  fprintf(f, "<S i=\"%u\" l=\"%u\" v=\"{[0x%llx-0x%llx)}\"/>\n</P>\n", (*next)++, line + 8,
          (unsigned long long)base + 0xe00, (unsigned long long)base + 0x1000);
}

int main(int argc, char **argv) {
  unsigned threads = 16;
  const char *module = "/opt/app/bin/synthetic", *out = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--threads")) threads = (unsigned)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--module")) module = argv[i + 1];
    else if (!strcmp(argv[i], "-o")) out = argv[i + 1];
    else out = NULL, i = argc;
  }
  if (!out || argc % 2 == 0) {
    fprintf(stderr, "usage: gen_struct [--threads T] [--module PATH] -o FILE\n");
    return 2;
  }
  FILE *f = fopen(out, "w");
  if (!f) {
    perror(out);
    return 2;
  }
  fprintf(f, "<?xml version=\"1.0\"?>\n<HPCToolkitStructure i=\"0\" version=\"4.9\" n=\"\">\n"
             "<LM i=\"1\" n=\"%s\" has-calls=\"0\" v=\"{}\">\n<F i=\"2\" n=\"app.c\">\n", module);
  unsigned next = 3, id = 0;
  for (unsigned region = 0; region <= threads; region++) {
    uint64_t start = region == 0 ? 0x1000 : 0x1000000ull * region + 0x1000;
    for (uint64_t base = start; base < start + 0x100000; base += 0x1000) procedure(f, base, id++, &next);
  }
  fputs("</F>\n</LM>\n</HPCToolkitStructure>\n", f);
  return fclose(f) == 0 ? 0 : 2;
}
