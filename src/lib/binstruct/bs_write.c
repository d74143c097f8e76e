/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_binstruct_write: one binary to structure XML, compile unit by
 * compile unit (memory holds one unit's functions at a time), the functions
 * of a unit spread over worker threads, written in order by the caller's
 * thread. Code DWARF does not describe comes from the symbol tables. */
#include <dwarf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_code_procs.h"
#include "binstruct/bs_internal.h"
#include "binstruct/bs_names.h"
#include "common/error.h"
#include "common/pool.h"
#include "common/vec.h"
#include "hpcdb/binstruct.h"

enum { SYMBOL_BATCH = 1024, MAX_THREADS = POOL_MAX_THREADS };

/* Building the scope trees of one unit: workers 1..n-1 start at once, the
 * caller's thread joins in (as worker 0) when it has nothing else to do. */
typedef struct job {
  const bs_unit *u;
  const bs_binary *b;
  bs_decoder **decoders; /* one per worker; NULL entries: no loops */
  bs_proc *procs;
  atomic_uint_fast64_t next;
  atomic_int failed;
  int status;
  char message[512];
  pthread_mutex_t lock;
  pool workers;
} job;

static void work(void *arg, unsigned slot) {
  job *j = arg;
  for (;;) {
    uint64_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->u->n_funcs || atomic_load(&j->failed)) break;
    int rc = bs_build_proc(j->u, &j->u->funcs[i], j->b, j->decoders[slot], &j->procs[i]);
    if (rc < 0) {
      pthread_mutex_lock(&j->lock);
      if (!atomic_load(&j->failed)) {
        j->status = rc;
        snprintf(j->message, sizeof j->message, "%s", hpcdb_last_error());
      }
      atomic_store(&j->failed, 1);
      pthread_mutex_unlock(&j->lock);
      break;
    }
  }
}

typedef struct writer {
  const bs_binary *b;
  bs_xml x;
  bs_decoder *decoders[MAX_THREADS];
  unsigned threads;
  bs_range *covered; /* code DWARF or symbols describe */
  uint64_t n_covered, cap_covered;
  hpcdb_u64map entries; /* procedures written, by entry address */
  uint64_t *targets;    /* direct call targets seen (procedures to discover) */
  uint64_t n_targets, cap_targets;
  hpcdb_binstruct_stats stats;
  bs_symtab symtab; /* names DWARF functions as their symbols do */
} writer;

static int job_start(writer *wr, job *j, const bs_unit *u) {
  memset(j, 0, sizeof *j);
  j->u = u;
  j->b = wr->b;
  j->decoders = wr->decoders;
  j->procs = calloc(u->n_funcs ? u->n_funcs : 1, sizeof *j->procs);
  if (!j->procs) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  atomic_init(&j->next, 0);
  atomic_init(&j->failed, 0);
  pthread_mutex_init(&j->lock, NULL);
  unsigned n = wr->threads;
  if (n > u->n_funcs) n = (unsigned)u->n_funcs;
  pool_start(&j->workers, n, work, j);
  return 0;
}

/* The caller's thread works until the unit is done, then waits for the others. */
static int job_finish(job *j) {
  pool_finish(&j->workers);
  pthread_mutex_destroy(&j->lock);
  if (atomic_load(&j->failed)) return hpcdb_fail(j->status, "%s", j->message);
  return 0;
}

static void job_free(job *j) {
  for (uint64_t i = 0; j->procs && i < j->u->n_funcs; i++) bs_proc_free(&j->procs[i]);
  free(j->procs);
  j->procs = NULL;
}

typedef struct by_file {
  const char *file;
  uint64_t entry;
  uint64_t index;
} by_file;

static int by_file_cmp(const void *a, const void *b) {
  const by_file *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c) return c;
  if (x->entry != y->entry) return x->entry < y->entry ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Writes the built functions of u. in_file: the F to write them in (NULL:
 * one F per declaring file). */
static int write_built(writer *wr, const bs_unit *u, bs_proc *procs, const char *in_file, const char *suffix) {
  if (u->n_funcs == 0) return 0;
  by_file *order = malloc(u->n_funcs * sizeof *order);
  int rc = order ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < u->n_funcs && rc == 0; i++)
    order[i] = (by_file){in_file ? in_file : u->funcs[i].file, u->funcs[i].entry, i};
  if (rc == 0) qsort(order, u->n_funcs, sizeof *order, by_file_cmp);
  const char *open_file = NULL;
  for (uint64_t k = 0; k < u->n_funcs && rc == 0; k++) {
    /* one procedure per entry, as in hpcstruct's files: DWARF may describe the
     * same code twice (aliases, code shared by compile units); the first stays */
    uint64_t seen;
    if (u64map_get(&wr->entries, order[k].entry, &seen)) continue;
    if (u64map_put(&wr->entries, order[k].entry, 1) < 0) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      break;
    }
    if (!in_file && (!open_file || strcmp(open_file, order[k].file))) {
      if (open_file) rc = bs_xml_file_end(&wr->x);
      open_file = order[k].file;
      if (rc == 0) rc = bs_xml_file_begin(&wr->x, open_file);
    }
    bs_proc *p = &procs[order[k].index];
    if (rc == 0) rc = bs_xml_proc(&wr->x, p, suffix);
    for (uint64_t c = 0; rc == 0 && c < p->n_calls; c++) {
      rc = VEC_RESERVE(&wr->targets, &wr->cap_targets, wr->n_targets + 1);
      if (rc == 0) wr->targets[wr->n_targets++] = p->calls[c];
    }
    wr->stats.functions++;
    wr->stats.inlined_calls += u->funcs[order[k].index].n_inlines;
    wr->stats.loops += p->n_loops;
    wr->stats.irreducible_loops += p->n_irreducible;
  }
  if (rc == 0 && open_file) rc = bs_xml_file_end(&wr->x);
  free(order);
  return rc;
}

/* Builds and writes the functions of u. */
static int write_unit(writer *wr, const bs_unit *u, const char *in_file, const char *suffix) {
  if (u->n_funcs == 0) return 0;
  job j;
  int rc = job_start(wr, &j, u);
  if (rc < 0) return rc;
  rc = job_finish(&j);
  if (rc == 0) rc = write_built(wr, u, j.procs, in_file, suffix);
  job_free(&j);
  return rc;
}

/* The next compile unit with functions into u; *have = 0 after the last. */
static int next_unit(writer *wr, Dwarf_CU **cu, bs_unit *u, int *have) {
  Dwarf_Half version;
  uint8_t unit_type;
  Dwarf_Die cudie, subdie;
  *have = 0;
  int more;
  while ((more = dwarf_get_units(wr->b->dwarf, *cu, cu, &version, &unit_type, &cudie, &subdie)) == 0) {
    Dwarf_Die *die = unit_type == DW_UT_skeleton ? &subdie : &cudie;
    /* a unit read with a failed allocation libdw did not report: dwarf_tag would follow its NULL */
    HPCDB_TRY(bs_dwarf_out_of_memory("a unit"));
    int tag = dwarf_tag(die);
    if (tag == DW_TAG_invalid) HPCDB_TRY(bs_dwarf_out_of_memory("a unit"));
    if (tag != DW_TAG_compile_unit) continue;
    HPCDB_TRY(bs_dwarf_unit(u, die));
    HPCDB_TRY(bs_names_from_symbols(u, &wr->symtab));
    if (u->n_funcs == 0) continue;
    for (uint64_t i = 0; i < u->n_funcs; i++)
      for (uint32_t k = 0; k < u->funcs[i].n_ranges; k++) {
        HPCDB_TRY(VEC_RESERVE(&wr->covered, &wr->cap_covered, wr->n_covered + 1));
        wr->covered[wr->n_covered++] = u->ranges[u->funcs[i].first_range + k];
      }
    *have = 1;
    return 0;
  }
  return more < 0 ? bs_dwarf_out_of_memory("the units") : 0;
}

/* Compile units in a pipeline: while the workers build unit k's scope trees,
 * this thread reads unit k+1's DWARF (libdw is only used from here); while
 * they build unit k+1, it writes unit k. */
static int write_dwarf(writer *wr, bs_unit *first) {
  bs_unit second;
  memset(&second, 0, sizeof second);
  bs_unit *units[2] = {first, &second};
  job jobs[2];
  Dwarf_CU *cu = NULL;
  int have, cur = 0;
  int rc = next_unit(wr, &cu, units[0], &have);
  if (rc == 0 && have) rc = job_start(wr, &jobs[0], units[0]);
  while (rc == 0 && have) {
    int have_next = 0;
    int parsed = next_unit(wr, &cu, units[1 - cur], &have_next);
    rc = job_finish(&jobs[cur]);
    if (rc == 0) rc = parsed;
    if (rc == 0 && have_next) rc = job_start(wr, &jobs[1 - cur], units[1 - cur]);
    else have_next = 0;
    int wrote = rc == 0 ? write_built(wr, units[cur], jobs[cur].procs, NULL, NULL) : 0;
    job_free(&jobs[cur]);
    if (wrote < 0 && have_next) { /* the next unit's workers must end before we leave */
      job_finish(&jobs[1 - cur]);
      job_free(&jobs[1 - cur]);
    }
    if (rc == 0) rc = wrote;
    have = have_next;
    cur = 1 - cur;
  }
  bs_unit_free(&second);
  return rc;
}

static int range_cmp(const void *a, const void *b) {
  const bs_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Does [lo, hi) overlap code DWARF describes? (covered sorted, merged) */
static int is_covered(const writer *wr, uint64_t lo, uint64_t hi) {
  uint64_t a = 0, b = wr->n_covered; /* first range with lo >= hi */
  while (a < b) {
    uint64_t mid = a + (b - a) / 2;
    if (wr->covered[mid].lo < hi) a = mid + 1;
    else b = mid;
  }
  return a > 0 && wr->covered[a - 1].hi > lo;
}

static void merge_covered(writer *wr) {
  if (wr->n_covered > 1) qsort(wr->covered, wr->n_covered, sizeof *wr->covered, range_cmp);
  uint64_t w = 0;
  for (uint64_t i = 0; i < wr->n_covered; i++) {
    if (w && wr->covered[i].lo <= wr->covered[w - 1].hi) {
      if (wr->covered[i].hi > wr->covered[w - 1].hi) wr->covered[w - 1].hi = wr->covered[i].hi;
    } else {
      wr->covered[w++] = wr->covered[i];
    }
  }
  wr->n_covered = w;
}

static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Start of the first known procedure after addr (covered sorted, merged). */
static uint64_t next_known(const writer *wr, uint64_t addr) {
  uint64_t a = 0, b = wr->n_covered; /* first range with lo > addr */
  while (a < b) {
    uint64_t mid = a + (b - a) / 2;
    if (wr->covered[mid].lo <= addr) a = mid + 1;
    else b = mid;
  }
  return a < wr->n_covered ? wr->covered[a].lo : UINT64_MAX;
}

/* Procedures known only as call targets, as hpcstruct finds them: named
 * "<unknown procedure> 0xADDR" (link name targADDR), reaching as far as their
 * code does. What they call is found in the next round. */
static int write_discovered(writer *wr, bs_unit *u, const char *file, const char *suffix, int *opened) {
  for (int round = 0; round < 64 && wr->n_targets; round++) {
    merge_covered(wr);
    qsort(wr->targets, wr->n_targets, sizeof *wr->targets, u64_cmp);
    uint64_t *cand = wr->targets, n = wr->n_targets;
    wr->targets = NULL;
    wr->n_targets = wr->cap_targets = 0;
    bs_unit_reset(u);
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
      uint64_t t = cand[i];
      if ((i && cand[i - 1] == t) || is_covered(wr, t, t + 1)) continue;
      uint64_t limit = next_known(wr, t);
      for (uint64_t k = i + 1; k < n; k++)
        if (cand[k] != t) {
          if (cand[k] < limit) limit = cand[k];
          break;
        }
      uint32_t first = (uint32_t)u->n_ranges;
      int64_t nr = bs_reachable_ranges(u, wr->b, wr->decoders[0], t, limit);
      if (nr <= 0) {
        rc = (int)nr;
        continue;
      }
      char name[64], link[64];
      bs_unknown_proc_names(t, name, link);
      rc = VEC_RESERVE(&u->funcs, &u->cap_funcs, u->n_funcs + 1);
      if (rc < 0) break;
      const char *nm = bs_intern(u, name), *ln = bs_intern(u, link);
      if (!nm || !ln) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      u->funcs[u->n_funcs++] = (bs_func){nm, ln, file, 0, t, first, (uint32_t)nr, 0, 0};
    }
    free(cand);
    if (rc < 0) return rc;
    if (u->n_funcs == 0) break;
    for (uint64_t i = 0; i < u->n_ranges; i++) {
      HPCDB_TRY(VEC_RESERVE(&wr->covered, &wr->cap_covered, wr->n_covered + 1));
      wr->covered[wr->n_covered++] = u->ranges[i];
    }
    if (!*opened) {
      HPCDB_TRY(bs_xml_file_begin(&wr->x, file));
      *opened = 1;
    }
    HPCDB_TRY(write_unit(wr, u, file, suffix));
  }
  return 0;
}

static int write_symbols(writer *wr, bs_unit *u, const char *base) {
  bs_code_procs procs;
  HPCDB_TRY(bs_code_procs_read(wr->b, wr->decoders[0], &procs));
  merge_covered(wr);
  char file[4096], suffix[4096];
  snprintf(file, sizeof file, "[%s]", base);
  snprintf(suffix, sizeof suffix, " [%s]", base);
  int no_dwarf = !wr->b->dwarf, opened = 0, rc = 0;
  bs_unit_reset(u);
  for (size_t i = 0; i <= procs.n && rc == 0; i++) {
    if (u->n_funcs == SYMBOL_BATCH || (i == procs.n && u->n_funcs)) {
      if (!opened) rc = bs_xml_file_begin(&wr->x, file), opened = 1;
      if (rc == 0) rc = write_unit(wr, u, file, no_dwarf ? suffix : NULL);
      bs_unit_reset(u);
    }
    if (i == procs.n || rc < 0) break;
    const bs_range *r = &procs.ranges[procs.procs[i].first_range];
    if (r->hi > r->lo && !is_covered(wr, r->lo, r->hi)) rc = bs_code_proc_add(u, &procs, i, file);
  }
  for (size_t i = 0; i < procs.n && rc == 0; i++) {
    const bs_code_proc *p = &procs.procs[i];
    for (uint32_t k = 0; k < p->n_ranges && rc == 0; k++) {
      rc = VEC_RESERVE(&wr->covered, &wr->cap_covered, wr->n_covered + 1);
      if (rc == 0) wr->covered[wr->n_covered++] = procs.ranges[p->first_range + k];
    }
  }
  bs_code_procs_free(&procs);
  if (rc == 0 && wr->decoders[0]) rc = write_discovered(wr, u, file, no_dwarf ? suffix : NULL, &opened);
  if (rc == 0 && opened) rc = bs_xml_file_end(&wr->x);
  return rc;
}

int hpcdb_binstruct_write(const char *binary_path, FILE *out, const hpcdb_binstruct_options *opt) {
  HPCDB_CHECK_OPTIONS(opt, HPCDB_BINSTRUCT_OPTIONS_VERSION, "hpcdb_binstruct_options");
  hpcdb_binstruct_options defaults = HPCDB_BINSTRUCT_OPTIONS_INIT;
  if (!opt) opt = &defaults;
  if (!binary_path || !out) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_binstruct_write: no binary or output");
  bs_binary b;
  HPCDB_TRY(bs_binary_open(&b, binary_path, opt->debug_root));
  writer wr;
  memset(&wr, 0, sizeof wr);
  wr.b = &b;
  wr.x.out = out;
  wr.threads = opt->threads < 1 ? 1 : opt->threads > MAX_THREADS ? MAX_THREADS : opt->threads;
  int rc = 0;
  for (unsigned t = 0; t < wr.threads && !opt->no_loops && bs_decoder_supported(b.machine); t++)
    if (!(wr.decoders[t] = bs_decoder_new(b.machine))) { /* loops left out silently would be a wrong answer */
      rc = HPCDB_EIO;                                    /* the message is set */
      break;
    }
  wr.stats.has_dwarf = b.dwarf != NULL;
  wr.stats.has_loops = wr.decoders[0] != NULL;
  snprintf(wr.stats.debug_file, sizeof wr.stats.debug_file, "%s", b.debug_path);
  const char *slash = strrchr(binary_path, '/');
  char base[256]; /* the binary's name; a compressed one's without the compressor's suffix */
  snprintf(base, sizeof base, "%s", slash ? slash + 1 : binary_path);
  char *dot = b.image ? strrchr(base, '.') : NULL;
  if (dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".gz") || !strcmp(dot, ".bz2"))) *dot = '\0';
  bs_unit u;
  memset(&u, 0, sizeof u);
  unsigned undemangled = bs_demangle_failures();
  if (rc == 0) rc = bs_xml_begin(&wr.x, opt->lm_name ? opt->lm_name : binary_path);
  if (rc == 0 && b.dwarf) rc = bs_symtab_load(&wr.symtab, &b);
  if (rc == 0 && b.dwarf) rc = write_dwarf(&wr, &u);
  if (rc == 0) rc = write_symbols(&wr, &u, base);
  if (rc == 0) rc = bs_xml_end(&wr.x);
  if (rc == 0 && bs_demangle_failures() != undemangled) /* mangled names would be a wrong answer */
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory demangling names");
  if (rc < 0) rc = hpcdb_fail_wrap(rc, "%s", binary_path);
  else if (opt->stats) *opt->stats = wr.stats;
  bs_unit_free(&u);
  bs_symtab_free(&wr.symtab);
  free(wr.covered);
  free(wr.targets);
  u64map_free(&wr.entries);
  for (unsigned t = 0; t < wr.threads; t++) bs_decoder_free(wr.decoders[t]);
  bs_binary_close(&b);
  return rc;
}
