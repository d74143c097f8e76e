/* SPDX-License-Identifier: BSD-3-Clause */
/* Generates a synthetic hpcrun measurements directory (04.00 .hpcrun files
 * and 01.01 .hpctrace files, written by hpcdb's own hpcrun writer): T threads
 * (ranks of 4 threads), each with a calling-context tree of about C nodes of
 * depth up to D, most of it shared by all threads (the same call paths) and
 * the rest of its own, M metrics with sparse values (each frame has a value
 * of each metric with probability P), and S trace samples per thread. The
 * same arguments give the same files. The default P = 1/4 (one value per
 * frame on average) makes 64 threads x 10,000 contexts a 24 MB input, the
 * size of the synthetic measurements hpcprof's figures in BENCHMARKS.md came
 * from (4 metrics, depth 16, 1,000 samples).
 * A GPU run's shape: --kernels K makes K of the shared frames launch sites,
 * each with hpcrun's GPUKernl placeholder (the kernel's entry in a GPU binary
 * below it, and --pc N instruction samples hpcrun did not unwind) and its
 * GPUTrace placeholder; --streams G adds G GPU stream files whose trees hold
 * the launch paths down to GPUTrace and whose traces alternate kernels and
 * idleness (S samples each).
 * usage: gen_measurements [--threads T] [--contexts C] [--metrics M] [--density P]
 *                         [--depth D] [--shared F] [--samples S] [--seed N]
 *                         [--kernels K] [--pc N] [--streams G] -o DIR */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"

typedef struct options {
  uint32_t threads, contexts, metrics, depth, samples, kernels, pc, streams;
  double shared, density;
  uint64_t seed;
  const char *out;
} options;

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int parse(options *o, int argc, char **argv) {
  *o = (options){.threads = 16, .contexts = 10000, .metrics = 4, .depth = 16, .samples = 1000,
                 .shared = 0.8, .density = 0.25, .seed = 1};
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *a = argv[i], *v = argv[i + 1];
    if (!strcmp(a, "-o")) o->out = v;
    else if (!strcmp(a, "--threads")) o->threads = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--contexts")) o->contexts = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--metrics")) o->metrics = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--depth")) o->depth = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--samples")) o->samples = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--shared")) o->shared = strtod(v, NULL);
    else if (!strcmp(a, "--density")) o->density = strtod(v, NULL);
    else if (!strcmp(a, "--seed")) o->seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--kernels")) o->kernels = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--pc")) o->pc = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--streams")) o->streams = (uint32_t)strtoul(v, NULL, 10);
    else return -1;
  }
  if (argc % 2 == 0 || !o->out || !o->threads || o->contexts < 4 || !o->metrics || o->metrics > 1000 ||
      o->depth < 2 || o->shared < 0 || o->shared > 1 || !(o->density > 0) || o->density > 1 ||
      o->kernels > (uint32_t)(o->shared * (o->contexts - 3)) || o->pc > 100000)
    return -1;
  return 0;
}

static hpcrun_str str(const char *s) { return (hpcrun_str){s, (uint32_t)strlen(s)}; }

static uint64_t packed(const char name[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)name[i];
  return v;
}

/* The CCT of one thread: nodes 0..2 are the root and entry placeholders;
 * frame node k's parent is chosen among earlier frames within the depth. */
static int build_tree(hpcrun_file *f, const options *o, uint32_t thread, uint32_t *depth) {
  uint32_t n = o->contexts;
  hpcrun_cct_node *nodes = calloc(n, sizeof *nodes);
  if (!nodes) return -1;
  nodes[0] = (hpcrun_cct_node){.id = 2, .parent = 0, .lm_id = 0, .ip = packed("^Primary"), .flags = 1};
  nodes[1] = (hpcrun_cct_node){.id = 4, .parent = 2, .lm_id = 0, .ip = packed("NoActvty"), .flags = 1};
  nodes[2] = (hpcrun_cct_node){.id = 6, .parent = 2, .lm_id = 0,
                               .ip = packed(thread == 0 ? "| Main  " : "| Thread"), .flags = 1};
  depth[2] = 0;
  uint32_t n_shared = (uint32_t)(o->shared * (n - 3));
  uint64_t shared_rng = o->seed * 1000003u, own_rng = o->seed * 7919u + thread + 1;
  for (uint32_t k = 3; k < n; k++) {
    uint64_t *rng = k - 3 < n_shared ? &shared_rng : &own_rng;
    uint32_t parent = 2 + (uint32_t)(next_random(rng) % (k - 2));
    while (depth[parent] + 1 >= o->depth) parent = parent == 2 ? 2 : (nodes[parent].parent - 2) / 2;
    depth[k] = depth[parent] + 1;
    uint64_t ip = 0x1000 + (next_random(rng) % 0x100000);
    if (k - 3 >= n_shared) ip += 0x1000000ull * (thread + 1); /* this thread's own code */
    nodes[k] = (hpcrun_cct_node){.id = 2 * (k + 1), .parent = nodes[parent].id, .lm_id = 1, .ip = ip, .flags = 1};
  }
  f->t.nodes = nodes;
  f->t.n_nodes = n;
  return 0;
}

/* GPU nodes after the frames of a thread (kernels: GPUKernl with the kernel
 * and its PC samples, and GPUTrace) or of a stream (GPUTrace only), under
 * launch sites spread over the shared frames; ids continue past the frames'.
 * trace_ids (streams) receives each GPUTrace instruction's id. */
static int add_gpu_nodes(hpcrun_file *f, const options *o, int kernels, uint32_t *trace_ids) {
  uint32_t per = (kernels ? 2 + o->pc : 0) + 2, n_shared = (uint32_t)(o->shared * (o->contexts - 3));
  uint64_t n = f->t.n_nodes + (uint64_t)o->kernels * per;
  hpcrun_cct_node *nodes = realloc(f->t.nodes, n * sizeof *nodes);
  if (!nodes) return -1;
  f->t.nodes = nodes;
  uint32_t id = 2 * (o->contexts + 1) + 1;
  uint64_t k = f->t.n_nodes;
  for (uint32_t s = 0; s < o->kernels; s++) {
    uint32_t site = nodes[3 + s * (n_shared / o->kernels)].id;
    uint64_t code = 0x1000 * (s + 1);
    if (kernels) {
      uint32_t ph = id;
      nodes[k++] = (hpcrun_cct_node){.id = id++, .parent = site, .lm_id = 0, .ip = packed("GPUKernl"), .flags = 1};
      nodes[k++] = (hpcrun_cct_node){.id = id++, .parent = ph, .lm_id = 2, .ip = code, .flags = 1};
      for (uint32_t p = 0; p < o->pc; p++) /* instruction samples: not unwound */
        nodes[k++] = (hpcrun_cct_node){.id = id++, .parent = ph, .lm_id = 2, .ip = code + 16 * (p + 1), .flags = 0};
    }
    uint32_t ph = id;
    nodes[k++] = (hpcrun_cct_node){.id = id++, .parent = site, .lm_id = 0, .ip = packed("GPUTrace"), .flags = 1};
    if (trace_ids) trace_ids[s] = id;
    nodes[k++] = (hpcrun_cct_node){.id = id++, .parent = ph, .lm_id = 2, .ip = code, .flags = 1};
  }
  f->t.n_nodes = k;
  return 0;
}

/* Sparse values: each frame has a value for a metric with probability P. */
static int build_values(hpcrun_file *f, const options *o, uint64_t *rng) {
  hpcrun_sparse *s = &f->sparse;
  uint64_t cap = (uint64_t)f->t.n_nodes * o->metrics;
  s->value_bits = malloc(cap * sizeof *s->value_bits);
  s->metric_ids = malloc(cap * sizeof *s->metric_ids);
  s->ctx_ids = malloc((f->t.n_nodes + 1) * sizeof *s->ctx_ids);
  s->ctx_starts = malloc((f->t.n_nodes + 1) * sizeof *s->ctx_starts);
  if (!s->value_bits || !s->metric_ids || !s->ctx_ids || !s->ctx_starts) return -1;
  uint64_t n = 0;
  uint32_t k = 0;
  /* Values sorted by node id: node ids grow with the node index. */
  for (uint64_t i = 3; i < f->t.n_nodes; i++) {
    uint64_t start = n;
    if (f->t.nodes[i].lm_id == 0) continue; /* placeholders hold no values */
    for (uint32_t m = 0; m < o->metrics; m++) {
      uint64_t r = next_random(rng);
      if ((double)(r & 0xffffff) >= o->density * 0x1000000) continue;
      double v = (double)(1 + (r >> 40) % 1000) * 1e-3;
      memcpy(&s->value_bits[n], &v, sizeof v);
      s->metric_ids[n++] = (uint16_t)m;
    }
    if (n > start) {
      s->ctx_ids[k] = f->t.nodes[i].id;
      s->ctx_starts[k++] = start;
    }
  }
  s->ctx_ids[k] = HPCRUN_SPARSE_SENTINEL;
  s->ctx_starts[k] = n;
  s->n_values = n;
  s->n_nz_ctxs = k;
  return 0;
}

static int write_thread(const options *o, uint32_t thread, hpcrun_metric_desc *metrics, hpcrun_kind_entry *kinds,
                        uint32_t *depth) {
  hpcrun_file f;
  memset(&f, 0, sizeof f);
  memcpy(f.version, "04.00", 6);
  f.major = 4;
  char rank[16], tid[16], tmin[32], tmax[32];
  uint64_t t0 = 1700000000000000000ull + 1000000ull * thread, step = 1000000;
  snprintf(rank, sizeof rank, "%u", thread / 4);
  snprintf(tid, sizeof tid, "%u", thread % 4);
  snprintf(tmin, sizeof tmin, "%llu", (unsigned long long)t0);
  snprintf(tmax, sizeof tmax, "%llu", (unsigned long long)(t0 + step * (o->samples ? o->samples - 1 : 0)));
  hpcrun_nvpair pairs[] = {{str("program-name"), str("synthetic")}, {str("mpi-rank"), str(rank)},
                           {str("thread-id"), str(tid)},           {str("trace-min-time"), str(tmin)},
                           {str("trace-max-time"), str(tmax)}};
  f.header = (hpcrun_nvlist){5, pairs};
  hpcrun_lm_entry lm[2] = {{1, str("/opt/app/bin/synthetic"), 1}, {2, str("gpubins/0123456789abcdef.gpubin"), 1}};
  f.t.lm = lm;
  f.t.n_lm = o->kernels ? 2 : 1;
  f.t.metrics = metrics;
  f.t.n_metrics = o->metrics;
  f.t.metric_tail = 1;
  f.kinds = kinds;
  f.n_kinds = 8;
  hpcrun_id_elem ids[3] = {{1 | 1u << 14, 0x7f000001, 0},
                           {2 | 3u << 14, thread / 4, thread / 4},
                           {3 | 3u << 14, thread % 4, thread % 4}};
  f.sparse.ids = ids;
  f.sparse.n_ids = 3;
  uint64_t rng = o->seed * 31 + thread;
  int rc = -1;
  hpcrun_trace_file t;
  memset(&t, 0, sizeof t);
  if (build_tree(&f, o, thread, depth) < 0 || (o->kernels && add_gpu_nodes(&f, o, 1, NULL) < 0) ||
      build_values(&f, o, &rng) < 0)
    goto done;
  char path[4096];
  snprintf(path, sizeof path, "%s/synthetic-%06u-%03u-7f000001-1000-0.hpcrun", o->out, thread / 4, thread % 4);
  if (hpcrun_file_write(&f, path) < 0) goto done;
  memcpy(t.version, "01.01", 6);
  t.n = o->samples;
  t.times = malloc((t.n ? t.n : 1) * sizeof *t.times);
  t.cct_ids = malloc((t.n ? t.n : 1) * sizeof *t.cct_ids);
  if (!t.times || !t.cct_ids) goto done;
  for (uint64_t i = 0; i < t.n; i++) {
    t.times[i] = t0 + step * i;
    t.cct_ids[i] = f.t.nodes[3 + next_random(&rng) % (f.t.n_nodes - 3)].id;
  }
  snprintf(path, sizeof path, "%s/synthetic-%06u-%03u-7f000001-1000-0.hpctrace", o->out, thread / 4, thread % 4);
  rc = hpcrun_trace_write(&t, path);
done:
  free(t.times);
  free(t.cct_ids);
  free(f.t.nodes);
  free(f.sparse.value_bits);
  free(f.sparse.metric_ids);
  free(f.sparse.ctx_ids);
  free(f.sparse.ctx_starts);
  return rc;
}

/* A GPU stream: its tree holds the main thread's shared frames and the
 * GPUTrace paths under the launch sites; no values; its trace alternates
 * the kernels (in turn) and idleness. */
static int write_stream(const options *o, uint32_t stream, hpcrun_kind_entry *kinds, uint32_t *depth) {
  hpcrun_file f;
  memset(&f, 0, sizeof f);
  memcpy(f.version, "04.00", 6);
  f.major = 4;
  char tid[16];
  snprintf(tid, sizeof tid, "%u", 500 + stream);
  hpcrun_nvpair pairs[] = {{str("program-name"), str("synthetic")}, {str("mpi-rank"), str("0")}, {str("thread-id"), str(tid)}};
  f.header = (hpcrun_nvlist){3, pairs};
  hpcrun_lm_entry lm[2] = {{1, str("/opt/app/bin/synthetic"), 1}, {2, str("gpubins/0123456789abcdef.gpubin"), 1}};
  f.t.lm = lm;
  f.t.n_lm = 2;
  f.kinds = kinds;
  f.n_kinds = 8;
  hpcrun_id_elem ids[3] = {{1 | 1u << 14, 0x7f000001, 0}, {5 | 3u << 14, 1, 1}, {6 | 3u << 14, stream, stream}};
  f.sparse.ids = ids;
  f.sparse.n_ids = 3;
  uint32_t *trace_ids = calloc(o->kernels + 1, sizeof *trace_ids);
  hpcrun_trace_file t;
  memset(&t, 0, sizeof t);
  int rc = -1;
  if (!trace_ids || build_tree(&f, o, 0, depth) < 0) goto done;
  f.t.n_nodes = 3 + (uint32_t)(o->shared * (o->contexts - 3)); /* the shared frames */
  if (add_gpu_nodes(&f, o, 0, trace_ids) < 0) goto done;
  uint32_t sentinel = HPCRUN_SPARSE_SENTINEL;
  uint64_t start = 0;
  f.sparse.ctx_ids = &sentinel;
  f.sparse.ctx_starts = &start;
  char path[4096];
  snprintf(path, sizeof path, "%s/synthetic-000000-%03u-7f000001-1000-0.hpcrun", o->out, 500 + stream);
  if (hpcrun_file_write(&f, path) < 0) goto done;
  memcpy(t.version, "01.01", 6);
  t.n = o->samples;
  t.times = malloc((t.n ? t.n : 1) * sizeof *t.times);
  t.cct_ids = malloc((t.n ? t.n : 1) * sizeof *t.cct_ids);
  if (!t.times || !t.cct_ids) goto done;
  uint64_t t0 = 1700000000000000000ull + 777 * stream;
  for (uint64_t i = 0; i < t.n; i++) {
    t.times[i] = t0 + 1000000 * i;
    t.cct_ids[i] = i % 2 ? 4 /* NoActvty */ : trace_ids[(i / 2 + stream) % o->kernels];
  }
  snprintf(path, sizeof path, "%s/synthetic-000000-%03u-7f000001-1000-0.hpctrace", o->out, 500 + stream);
  rc = hpcrun_trace_write(&t, path);
done:
  free(trace_ids);
  free(t.times);
  free(t.cct_ids);
  free(f.t.nodes);
  return rc;
}

int main(int argc, char **argv) {
  options o;
  if (parse(&o, argc, argv) < 0) {
    fprintf(stderr, "usage: gen_measurements [--threads T] [--contexts C] [--metrics M] [--density P] [--depth D] "
                    "[--shared F] [--samples S] [--seed N] [--kernels K] [--pc N] [--streams G] -o DIR\n");
    return 2;
  }
  if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
    perror(o.out);
    return 2;
  }
  static const char *const kind_names[8] = {"SUMMARY", "NODE", "RANK", "THREAD",
                                            "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};
  hpcrun_kind_entry kinds[8];
  for (uint16_t k = 0; k < 8; k++) kinds[k] = (hpcrun_kind_entry){k, str(kind_names[k])};
  hpcrun_metric_desc *metrics = calloc(o.metrics, sizeof *metrics);
  char (*names)[32] = calloc(o.metrics, sizeof *names);
  uint32_t *depth = calloc(o.contexts, sizeof *depth);
  if (!metrics || !names || !depth) return 2;
  for (uint32_t m = 0; m < o.metrics; m++) {
    snprintf(names[m], sizeof names[m], "METRIC%u (events)", m);
    metrics[m].name = str(names[m]);
    metrics[m].description = str(names[m]);
    metrics[m].flags[0] = 1;                      /* raw */
    metrics[m].flags[2] = HPCRUN_VALFMT_REAL;     /* values are doubles */
    metrics[m].flags[6] = metrics[m].flags[7] = 1;
    metrics[m].period = 1;
    metrics[m].formula = metrics[m].format = str("");
  }
  for (uint32_t t = 0; t < o.threads; t++)
    if (write_thread(&o, t, metrics, kinds, depth) < 0) {
      fprintf(stderr, "gen_measurements: %s\n", hpcdb_last_error());
      return 2;
    }
  for (uint32_t g = 0; g < o.streams && o.kernels; g++)
    if (write_stream(&o, g, kinds, depth) < 0) {
      fprintf(stderr, "gen_measurements: %s\n", hpcdb_last_error());
      return 2;
    }
  free(metrics);
  free(names);
  free(depth);
  return 0;
}
