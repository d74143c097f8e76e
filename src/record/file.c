/* SPDX-License-Identifier: BSD-3-Clause */
/* One thread's measurement as an hpcrun 04.00 file, built as the in-memory
 * struct of src/lib/hpcrun and written by its writer (temporary + rename).
 * Layout as hpcrun writes it: header pairs, the load map (ids from 1, names
 * NUL-terminated), the tree with its placeholders, one metric per event,
 * the id-tuple dictionary and the values of the nodes that have any. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_outbuf.h"
#include "record.h"

REC_HIDDEN char rec_vdso_name[64]; /* its load-map name, relative to DIR as hpcrun writes it */

void rec_file_name(char *out, size_t n, int thread_id, const char *ext) {
  snprintf(out, n, "%s/%s-%06ld-%03d-%08x-%d-%d.%s", rec_proc.cfg.dir, rec_proc.exe_name,
           rec_proc.rank < 0 ? 0 : rec_proc.rank, thread_id, rec_proc.host_id, (int)rec_proc.pid, rec_proc.gen, ext);
}

/* After an exec the process id stays: the new image's files take the next
 * generation number. */
int rec_next_generation(void) {
  DIR *d = opendir(rec_proc.cfg.dir);
  if (!d) return 0;
  char key[32];
  snprintf(key, sizeof key, "-%08x-%d-", rec_proc.host_id, (int)rec_proc.pid);
  int gen = 0;
  for (struct dirent *e; (e = readdir(d));) {
    const char *p = strstr(e->d_name, key);
    if (!p) continue;
    int g = atoi(p + strlen(key));
    if (g + 1 > gen) gen = g + 1;
  }
  closedir(d);
  return gen;
}

/* The vdso has no file: its bytes go to DIR/vdso/<hash>.vdso, as hpcrun does,
 * so that analyze can read its symbols. */
void rec_save_vdso(void) {
  uintptr_t base = getauxval(AT_SYSINFO_EHDR);
  FILE *maps = base ? fopen("/proc/self/maps", "re") : NULL;
  if (!maps) return;
  uintptr_t lo = 0, hi = 0;
  char line[512];
  while (fgets(line, sizeof line, maps))
    if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) break;
  fclose(maps);
  if (lo != base || hi <= lo) return;
  uint64_t h = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  for (const uint8_t *p = (const uint8_t *)lo; p < (const uint8_t *)hi; p++) {
    h = (h ^ *p) * 0x100000001b3ull;
    h2 = (h2 ^ *p) * 0x100000001b3ull + 1;
  }
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/vdso", rec_proc.cfg.dir);
  mkdir(dir, 0755);
  snprintf(rec_vdso_name, sizeof rec_vdso_name, "vdso/%016llx%016llx.vdso", (unsigned long long)h,
           (unsigned long long)h2);
  char path[4300];
  snprintf(path, sizeof path, "%s/%s", rec_proc.cfg.dir, rec_vdso_name);
  struct stat st;
  if (stat(path, &st) == 0) return;
  if (hpcrun_write_bytes(path, (const uint8_t *)lo, hi - lo) < 0) rec_vdso_name[0] = '\0';
}

/* ---- building the struct ---- */

typedef struct builder {
  hpcrun_file f;
  hpcrun_nvpair pairs[32];
  char numbers[16][32];
  int n_numbers;
} builder;

static hpcrun_str str_of(const char *s) { return (hpcrun_str){s, (uint32_t)strlen(s)}; }

static void pair(builder *b, const char *name, const char *value) {
  b->pairs[b->f.header.n++] = (hpcrun_nvpair){str_of(name), str_of(value)};
}

static void pair_u64(builder *b, const char *name, uint64_t v) {
  char *s = b->numbers[b->n_numbers++];
  snprintf(s, 32, "%llu", (unsigned long long)v);
  pair(b, name, s);
}

static void header(builder *b, const rec_thread *t) {
  static char host[16], rank[24];
  snprintf(host, sizeof host, "%08x", rec_proc.host_id);
  snprintf(rank, sizeof rank, "%ld", rec_proc.rank < 0 ? 0 : rec_proc.rank);
  const char *path = getenv("PATH");
  pair(b, "program-name", rec_proc.exe_name);
  pair(b, "program-path", rec_proc.exe);
  pair(b, "env-path", path ? path : "");
  pair(b, "job-id", rec_proc.job_id);
  pair(b, "mpi-rank", rank);
  pair_u64(b, "thread-id", (uint64_t)t->id);
  pair(b, "host-id", host);
  pair_u64(b, "process-id", (uint64_t)rec_proc.pid);
  pair_u64(b, "trace-min-time", t->trace.min_time);
  pair_u64(b, "trace-max-time", t->trace.max_time);
  pair(b, "trace-disorder", "0");
  /* what the profiler could not attribute (hpcdb's own keys; readers ignore them) */
  uint64_t taken = 0;
  for (int e = 0; e < rec_proc.cfg.n_events; e++) taken += t->samples[e];
  pair_u64(b, "hpcdb-record-samples", taken);
  pair_u64(b, "hpcdb-record-samples-dropped", t->dropped);
  pair_u64(b, "hpcdb-record-samples-partial", t->partial);
  pair_u64(b, "hpcdb-record-unwind-failures", t->unwind_failed);
  pair_u64(b, "hpcdb-record-frame-pointer-recoveries", t->fp_recovered);
  pair_u64(b, "hpcdb-record-cct-bytes", t->cct.nodes.mapped_bytes);
}

static void describe(char *out, size_t n, const rec_event *e) {
  if (e->kind != REC_EV_PERF)
    snprintf(out, n, "%s: sampled every %.6g s of %s time", e->name, (double)e->period / 1e9,
             e->kind == REC_EV_CPUTIME ? "the thread's CPU" : "wall-clock");
  else if (e->freq) snprintf(out, n, "%s: sampled about %llu times per second", e->name, (unsigned long long)e->freq);
  else snprintf(out, n, "%s: sampled every %llu events", e->name, (unsigned long long)e->period);
}

static int metrics(builder *b, const rec_thread *t, char descriptions[][160]) {
  hpcrun_tables *tab = &b->f.t;
  tab->metric_tail = 1;
  tab->n_metrics = (uint32_t)rec_proc.cfg.n_events;
  tab->metrics = calloc(tab->n_metrics, sizeof *tab->metrics);
  if (!tab->metrics) return -1;
  for (uint32_t i = 0; i < tab->n_metrics; i++) {
    const rec_event *e = &rec_proc.cfg.events[i];
    describe(descriptions[i], 160, e);
    hpcrun_metric_desc *m = &tab->metrics[i];
    m->name = str_of(e->name);
    m->description = str_of(descriptions[i]);
    m->flags[HPCRUN_MFLAG_TYPE] = 1; /* raw */
    m->flags[HPCRUN_MFLAG_VALFMT] = e->kind == REC_EV_PERF ? HPCRUN_VALFMT_INT : HPCRUN_VALFMT_REAL;
    m->flags[HPCRUN_MFLAG_SHOW] = 1;
    m->flags[HPCRUN_MFLAG_SHOWPERCENT] = 1;
    /* the values are final (seconds, events): a reader that scales by the
     * period must leave them as they are; the sampling period is described */
    m->period = 1;
    m->formula = m->format = str_of("");
    m->is_frequency = e->kind == REC_EV_PERF && e->freq ? 1 : 0;
    m->num_samples = t->samples[i];
  }
  return 0;
}

static int loadmap(builder *b, const uint8_t *used) {
  hpcrun_tables *tab = &b->f.t;
  uint32_t n = rec_loadmap_count();
  tab->n_lm = n;
  tab->lm = calloc(n ? n : 1, sizeof *tab->lm);
  if (!tab->lm) return -1;
  for (uint32_t i = 0; i < n; i++) {
    const rec_module *m = rec_loadmap_module((uint16_t)(i + 1));
    /* the length counts no NUL, as in hpcrun's own files */
    tab->lm[i] = (hpcrun_lm_entry){(uint16_t)(i + 1), {m->path, (uint32_t)strlen(m->path)}, used[i + 1] ? 1u : 0u};
  }
  return 0;
}

static int tree_and_values(builder *b, const rec_thread *t, uint8_t *used) {
  const rec_cct *c = &t->cct;
  uint32_t n = __atomic_load_n(&c->nodes.count, __ATOMIC_ACQUIRE);
  hpcrun_tables *tab = &b->f.t;
  hpcrun_sparse *s = &b->f.sparse;
  uint32_t nm = (uint32_t)rec_proc.cfg.n_events;
  tab->n_nodes = n;
  tab->nodes = calloc(n, sizeof *tab->nodes);
  s->value_bits = calloc((size_t)n * nm + 1, sizeof *s->value_bits);
  s->metric_ids = calloc((size_t)n * nm + 1, sizeof *s->metric_ids);
  s->ctx_ids = calloc((size_t)n + 1, sizeof *s->ctx_ids);
  s->ctx_starts = calloc((size_t)n + 1, sizeof *s->ctx_starts);
  if (!tab->nodes || !s->value_bits || !s->metric_ids || !s->ctx_ids || !s->ctx_starts) return -1;
  for (uint32_t i = 0; i < n; i++) {
    const rec_node *node = rec_cct_node(c, i);
    tab->nodes[i] = (hpcrun_cct_node){.id = i + 1,
                                      .parent = node->parent == REC_NO_NODE ? 0 : node->parent + 1,
                                      .lm_id = node->lm,
                                      .ip = node->offset,
                                      .flags = 1};
    used[node->lm] = 1;
    uint64_t start = s->n_values;
    for (uint32_t m = 0; m < nm; m++)
      if (node->values[m]) {
        s->value_bits[s->n_values] = node->values[m];
        s->metric_ids[s->n_values++] = (uint16_t)m;
      }
    if (s->n_values > start) {
      s->ctx_ids[s->n_nz_ctxs] = i + 1;
      s->ctx_starts[s->n_nz_ctxs++] = start;
    }
  }
  s->ctx_ids[s->n_nz_ctxs] = HPCRUN_SPARSE_SENTINEL;
  s->ctx_starts[s->n_nz_ctxs] = s->n_values;
  return 0;
}

static const char *const kind_names[] = {"SUMMARY",   "NODE",       "RANK",      "THREAD",
                                         "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};

/* NODE (host id; logical id generated by the analysis), RANK when MPI, CORE
 * and THREAD (logical only), as hpcrun writes them. */
static void identity(builder *b, const rec_thread *t, hpcrun_kind_entry *kinds, hpcrun_id_elem *ids) {
  for (uint16_t k = 0; k < 8; k++) kinds[k] = (hpcrun_kind_entry){k, str_of(kind_names[k])};
  b->f.n_kinds = 8;
  b->f.kinds = kinds;
  uint16_t n = 0;
  ids[n++] = (hpcrun_id_elem){1 | HPCRUN_IDS_LOGIC_LOCAL << 14, rec_proc.host_id, 0};
  if (rec_proc.rank >= 0)
    ids[n++] = (hpcrun_id_elem){2 | HPCRUN_IDS_LOGIC_ONLY << 14, (uint64_t)rec_proc.rank, (uint64_t)rec_proc.rank};
  ids[n++] = (hpcrun_id_elem){7 | HPCRUN_IDS_LOGIC_ONLY << 14, (uint64_t)t->core, (uint64_t)t->core};
  ids[n++] = (hpcrun_id_elem){3 | HPCRUN_IDS_LOGIC_ONLY << 14, (uint64_t)t->id, (uint64_t)t->id};
  b->f.sparse.n_ids = n;
  b->f.sparse.ids = ids;
}

int rec_write_profile(rec_thread *t) {
  builder b;
  memset(&b, 0, sizeof b);
  memcpy(b.f.version, "04.00", 6);
  b.f.major = 4;
  b.f.header.items = b.pairs;
  hpcrun_kind_entry kinds[8];
  hpcrun_id_elem ids[4];
  char descriptions[REC_MAX_EVENTS][160];
  uint8_t *used = calloc(65536, 1);
  char path[4400];
  rec_file_name(path, sizeof path, t->id, "hpcrun");
  int rc = -1;
  if (used && tree_and_values(&b, t, used) == 0 && loadmap(&b, used) == 0 && metrics(&b, t, descriptions) == 0) {
    header(&b, t);
    identity(&b, t, kinds, ids);
    rc = hpcrun_file_write(&b.f, path);
    if (rc < 0) rec_warn("cannot write the measurement file", hpcdb_last_error());
  } else {
    rec_warn("out of memory writing", path);
  }
  free(used);
  free(b.f.t.nodes);
  free(b.f.t.lm);
  free(b.f.t.metrics);
  free(b.f.sparse.value_bits);
  free(b.f.sparse.metric_ids);
  free(b.f.sparse.ctx_ids);
  free(b.f.sparse.ctx_starts);
  return rc;
}
