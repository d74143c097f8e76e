/* SPDX-License-Identifier: BSD-3-Clause */
/* A synthetic legacy HPCToolkit database of a chosen size, for the streaming
 * benchmark: experiment.xml (version 2.0, written as hpcprof 2017 wrote it:
 * one element a line, no indentation) with a deep calling-context tree of
 * PF/C/L/S frames carrying inline <M> summary statistics, and one
 * *.metric-db file per rank (dense inclusive/exclusive doubles per context).
 *
 *   gen_legacy_xml [--size BYTES] [--ranks N] [--seed S] -o DIR
 *
 * The tree: procedure frames call 1-3 procedures through call sites, hold
 * loops and statements; frames nest at most 48 deep. Every context has the
 * inclusive Sum/Mean/Min/Max, statements the exclusive ones too. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define N_PROCS 2000
#define N_FILES 200
#define N_MODULES 20
#define MAX_DEPTH 48
#define N_STATS 4

static const char *const stats[N_STATS] = {"Sum", "Mean", "Min", "Max"};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static unsigned below(unsigned n) { return (unsigned)(next_random() % n); }

typedef struct gen {
  FILE *xml;
  uint64_t target, written;
  uint32_t next_id;
  double *incl, *excl; /* per context id, for the metric-db files (grown as needed) */
  uint64_t cap;
} gen;

static void out(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(g->xml, fmt, ap);
  va_end(ap);
  if (n > 0) g->written += (uint64_t)n;
}

static uint32_t new_context(gen *g, double incl, double excl) {
  uint32_t id = g->next_id++;
  if (id >= g->cap) {
    uint64_t cap = g->cap ? g->cap * 2 : 1 << 16;
    g->incl = realloc(g->incl, cap * sizeof *g->incl);
    g->excl = realloc(g->excl, cap * sizeof *g->excl);
    if (!g->incl || !g->excl) {
      fprintf(stderr, "gen_legacy_xml: out of memory\n");
      exit(2);
    }
    memset(g->incl + g->cap, 0, (cap - g->cap) * sizeof *g->incl);
    memset(g->excl + g->cap, 0, (cap - g->cap) * sizeof *g->excl);
    g->cap = cap;
  }
  g->incl[id] = incl;
  g->excl[id] = excl;
  return id;
}

/* The summary statistics of a value over the ranks, as inline <M>s. */
static void values(gen *g, double v, int exclusive) {
  for (int s = 0; s < N_STATS; s++) {
    double x = s == 0 ? v * 4 : s == 1 ? v : s == 2 ? v * 0.9 : v * 1.1;
    out(g, "<M n=\"%d\" v=\"%g\"/>", 2 + 2 * s, x);
    if (exclusive) out(g, "<M n=\"%d\" v=\"%g\"/>", 3 + 2 * s, x);
  }
  out(g, "\n");
}

static void frame(gen *g, int depth, double cost);

/* Statements, loops and call sites of a procedure, sharing `cost`. */
static void body(gen *g, int depth, double cost, unsigned file, int in_loop) {
  unsigned parts = 2 + below(3);
  for (unsigned k = 0; k < parts; k++) {
    double share = cost / parts;
    unsigned kind = below(10);
    if (kind < 4 || depth >= MAX_DEPTH || g->written >= g->target) {
      uint32_t id = new_context(g, share, share);
      out(g, "<S i=\"%u\" s=\"%u\" l=\"%u\">\n", id, 10000 + below(90000), 1 + below(2000));
      values(g, share, 1);
      out(g, "</S>\n");
    } else if (kind < 6 && in_loop < 2) {
      uint32_t id = new_context(g, share, 0);
      out(g, "<L i=\"%u\" s=\"%u\" l=\"%u\" f=\"%u\">\n", id, 10000 + below(90000), 1 + below(2000), 100 + file);
      values(g, share, 0);
      body(g, depth, share, file, in_loop + 1);
      out(g, "</L>\n");
    } else {
      uint32_t id = new_context(g, share, 0);
      out(g, "<C i=\"%u\" s=\"%u\" l=\"%u\">\n", id, 10000 + below(90000), 1 + below(2000));
      values(g, share, 0);
      frame(g, depth + 1, share);
      out(g, "</C>\n");
    }
  }
}

static void frame(gen *g, int depth, double cost) {
  unsigned proc = below(N_PROCS), file = proc % N_FILES;
  uint32_t id = new_context(g, cost, 0);
  out(g, "<PF i=\"%u\" s=\"%u\" l=\"%u\" lm=\"%u\" f=\"%u\" n=\"%u\">\n", id, 1000 + proc, 1 + below(5000),
      10 + proc % N_MODULES, 100 + file, 1000 + proc);
  values(g, cost, 0);
  body(g, depth, cost, file, 0);
  out(g, "</PF>\n");
}

static void header(gen *g) {
  out(g, "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"2.0\">\n<Header n=\"synthetic\">\n<Info/>\n</Header>\n");
  out(g, "<SecCallPathProfile i=\"0\" n=\"synthetic\">\n<SecHeader>\n<MetricTable>\n");
  for (int s = 0; s < N_STATS; s++)
    for (int e = 0; e < 2; e++)
      out(g, "<Metric i=\"%d\" n=\"CPUTIME (usec):%s (%c)\" v=\"derived-incr\" t=\"%s\" partner=\"%d\" show=\"1\" show-percent=\"1\">\n"
             "<MetricFormula t=\"finalize\" frm=\"$%d\"/>\n<Info><NV n=\"units\" v=\"events\"/></Info>\n</Metric>\n",
          2 + 2 * s + e, stats[s], e ? 'E' : 'I', e ? "exclusive" : "inclusive", 2 + 2 * s + !e, 2 + 2 * s + e);
  out(g, "</MetricTable>\n<MetricDBTable>\n");
  out(g, "<MetricDB i=\"0\" n=\"CPUTIME (usec) (I)\" t=\"inclusive\" partner=\"1\" db-glob=\"*.metric-db\" db-id=\"0\" "
         "db-num-metrics=\"2\" db-header-sz=\"24\"/>\n");
  out(g, "<MetricDB i=\"1\" n=\"CPUTIME (usec) (E)\" t=\"exclusive\" partner=\"0\" db-glob=\"*.metric-db\" db-id=\"1\" "
         "db-num-metrics=\"2\" db-header-sz=\"24\"/>\n</MetricDBTable>\n<LoadModuleTable>\n");
  for (int m = 0; m < N_MODULES; m++) out(g, "<LoadModule i=\"%d\" n=\"/usr/lib/libsynthetic%d.so\"/>\n", 10 + m, m);
  out(g, "</LoadModuleTable>\n<FileTable>\n");
  for (int f = 0; f < N_FILES; f++) out(g, "<File i=\"%d\" n=\"./src/file%d.c\"/>\n", 100 + f, f);
  out(g, "</FileTable>\n<ProcedureTable>\n");
  for (int p = 0; p < N_PROCS; p++) out(g, "<Procedure i=\"%d\" n=\"procedure_%d\"/>\n", 1000 + p, p);
  out(g, "</ProcedureTable>\n<Info/>\n</SecHeader>\n<SecCallPathProfileData>\n");
}

static int write_metricdb(const gen *g, const char *dir, int rank) {
  char path[4096];
  snprintf(path, sizeof path, "%s/1.synthetic-%06d-000-a8c00270-%d-0.metric-db", dir, rank, 1000 + rank);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  uint32_t rows = g->next_id - 1; /* ids 1..next_id-1 */
  uint8_t head[32];
  memcpy(head, "HPCPROF-metricdb__00.10b", 24);
  for (int k = 0; k < 4; k++) head[24 + k] = (uint8_t)(rows >> (24 - 8 * k)), head[28 + k] = (uint8_t)(2 >> (24 - 8 * k));
  fwrite(head, 1, sizeof head, f);
  for (uint32_t id = 1; id <= rows; id++) {
    double v[2] = {g->incl[id] * (1 + 0.01 * rank), g->excl[id] * (1 + 0.01 * rank)};
    for (int m = 0; m < 2; m++) {
      uint64_t bits;
      memcpy(&bits, &v[m], sizeof bits);
      uint8_t be[8];
      for (int k = 0; k < 8; k++) be[k] = (uint8_t)(bits >> (56 - 8 * k));
      fwrite(be, 1, 8, f);
    }
  }
  return fclose(f);
}

int main(int argc, char **argv) {
  uint64_t size = 64ull << 20;
  int ranks = 2;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--size") && i + 1 < argc) size = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--ranks") && i + 1 < argc) ranks = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 10) | 1;
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) dir = argv[++i];
    else {
      fprintf(stderr, "usage: gen_legacy_xml [--size BYTES] [--ranks N] [--seed S] -o DIR\n");
      return 2;
    }
  }
  if (!dir) return fprintf(stderr, "gen_legacy_xml: -o DIR is required\n"), 2;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return perror(dir), 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/experiment.xml", dir);
  gen g = {fopen(path, "w"), size, 0, 1, NULL, NULL, 0};
  if (!g.xml) return perror(path), 2;
  header(&g);
  new_context(&g, 1e6, 0); /* id 1: the root, row 0 of the metric-db files */
  out(&g, "<M n=\"2\" v=\"%g\"/>\n", 4e6);
  while (g.written < g.target) frame(&g, 0, 1e6);
  out(&g, "</SecCallPathProfileData>\n</SecCallPathProfile>\n</HPCToolkitExperiment>\n");
  if (fclose(g.xml) != 0) return perror(path), 2;
  for (int r = 0; r < ranks; r++)
    if (write_metricdb(&g, dir, r) != 0) return perror(dir), 2;
  printf("%s: %llu bytes, %u contexts, %d metric-db files\n", path, (unsigned long long)g.written, g.next_id - 2, ranks);
  return 0;
}
