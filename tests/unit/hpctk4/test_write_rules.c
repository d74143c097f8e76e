/* SPDX-License-Identifier: BSD-3-Clause */
/* Every structural rule of the v4.0 specification, checked on the files the
 * writer makes from random models: alignment of every structure, arrays and
 * strings inside their sections, value blocks outside them with values before
 * indices and only padding between, sorted indices, the summary profile
 * first, statistic ids only in summary profiles, cct.db the transpose of the
 * non-summary profiles, trace lines 8-byte aligned and sorted, footers. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 300

typedef struct file {
  uint8_t *d;
  size_t n;
} file;

typedef struct sec {
  uint64_t off, size;
} sec;

static uint64_t seed_now;
static int fails;

#define RULE(cond, ...)                                                                  \
  do {                                                                                   \
    if (cond) testlib_passed++;                                                          \
    else {                                                                               \
      testlib_failed++;                                                                  \
      if (fails++ < 20) {                                                                \
        fprintf(stderr, "seed %llu: line %d: ", (unsigned long long)seed_now, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fputc('\n', stderr);                                                             \
      }                                                                                  \
    }                                                                                    \
  } while (0)

static int inside(sec s, uint64_t off, uint64_t n) { return off >= s.off && n <= s.size && off - s.off <= s.size - n; }

static int string_in(const file *f, sec s, uint64_t off) {
  if (!inside(s, off, 1)) return 0;
  return memchr(f->d + off, 0, (size_t)(s.off + s.size - off)) != NULL;
}

static sec section(const file *f, int i) { return (sec){rd_le64(f->d + 0x18 + 16 * i), rd_le64(f->d + 0x10 + 16 * i)}; }

static int common(const file *f, const char *format, int n_sections, const char *footer, sec *s) {
  if (f->n < 16 + 16 * (size_t)n_sections + 8) return 0;
  RULE(memcmp(f->d, "HPCTOOLKIT", 10) == 0 && memcmp(f->d + 10, format, 4) == 0, "%s magic", format);
  RULE(f->d[14] == 4 && f->d[15] == 0, "%s version", format);
  RULE(memcmp(f->d + f->n - 8, footer, 8) == 0, "%s footer", format);
  sec body = {0, f->n - 8};
  for (int i = 0; i < n_sections; i++) {
    s[i] = section(f, i);
    RULE(inside(body, s[i].off, s[i].size) && s[i].off >= 16 + 16 * (uint64_t)n_sections, "%s section %d bounds",
         format, i);
    if (!inside(body, s[i].off, s[i].size)) return 0;
  }
  return 1;
}

/* ---- meta.db ---- */

typedef struct meta_info {
  sec s[8];
  uint64_t modules, n_modules, files, n_files, functions, n_functions, scopes, n_scopes;
  uint8_t prop_or_stat[65536]; /* bit 0: a propMetricId, bit 1: a statMetricId */
  uint32_t max_id;
} meta_info;

static int entry_of(uint64_t p, uint64_t base, uint64_t n, uint64_t size) {
  return p >= base && p < base + n * size && (p - base) % size == 0;
}

static void meta_tables(const file *f, meta_info *m) {
  const uint8_t *d = f->d;
  sec *s = m->s;
  RULE(string_in(f, s[0], rd_le64(d + s[0].off)) && string_in(f, s[0], rd_le64(d + s[0].off + 8)), "general strings");
  uint64_t names = rd_le64(d + s[1].off), nk = d[s[1].off + 8];
  RULE(names % 8 == 0 && inside(s[1], names, 8 * nk), "id names array");
  for (uint64_t i = 0; i < nk && inside(s[1], names, 8 * nk); i++)
    RULE(string_in(f, s[1], rd_le64(d + names + 8 * i)), "id name string");
  const uint8_t *h = d + s[2].off;
  uint64_t metrics = rd_le64(h), nm = rd_le32(h + 8);
  m->scopes = rd_le64(h + 0x10);
  m->n_scopes = rd_le16(h + 0x18);
  RULE(h[0xc] == 32 && h[0xd] == 16 && h[0xe] == 24 && h[0x1a] == 16, "metric structure sizes");
  RULE(metrics % 8 == 0 && inside(s[2], metrics, 32 * nm), "metrics array");
  RULE(m->scopes % 8 == 0 && inside(s[2], m->scopes, 16 * m->n_scopes), "scopes array");
  for (uint64_t i = 0; i < m->n_scopes; i++) {
    const uint8_t *p = d + m->scopes + 16 * i;
    RULE(string_in(f, s[2], rd_le64(p)), "scope name");
    RULE(p[8] != 3 || p[9] < 16, "transitive scope propagation index < 16");
  }
  for (uint64_t i = 0; i < nm; i++) {
    const uint8_t *p = d + metrics + 32 * i;
    uint64_t insts = rd_le64(p + 8), sums = rd_le64(p + 0x10), ni = rd_le16(p + 0x18), ns = rd_le16(p + 0x1a);
    RULE(string_in(f, s[2], rd_le64(p)), "metric name");
    RULE(insts % 8 == 0 && inside(s[2], insts, 16 * ni), "scope instance array");
    RULE(sums % 8 == 0 && inside(s[2], sums, 24 * ns), "summary array");
    for (uint64_t k = 0; k < ni; k++) {
      RULE(entry_of(rd_le64(d + insts + 16 * k), m->scopes, m->n_scopes, 16), "instance scope pointer");
      m->prop_or_stat[rd_le16(d + insts + 16 * k + 8)] |= 1;
    }
    for (uint64_t k = 0; k < ns; k++) {
      const uint8_t *q = d + sums + 24 * k;
      RULE(entry_of(rd_le64(q), m->scopes, m->n_scopes, 16), "summary scope pointer");
      RULE(string_in(f, s[2], rd_le64(q + 8)), "formula string");
      m->prop_or_stat[rd_le16(q + 0x12)] |= 2;
    }
  }
  m->modules = rd_le64(d + s[5].off);
  m->n_modules = rd_le32(d + s[5].off + 8);
  m->files = rd_le64(d + s[6].off);
  m->n_files = rd_le32(d + s[6].off + 8);
  m->functions = rd_le64(d + s[7].off);
  m->n_functions = rd_le32(d + s[7].off + 8);
  RULE(m->modules % 8 == 0 && inside(s[5], m->modules, 16 * m->n_modules), "modules array");
  RULE(m->files % 8 == 0 && inside(s[6], m->files, 16 * m->n_files), "files array");
  RULE(m->functions % 8 == 0 && inside(s[7], m->functions, 40 * m->n_functions), "functions array");
  for (uint64_t i = 0; i < m->n_modules; i++)
    RULE(string_in(f, s[4], rd_le64(d + m->modules + 16 * i + 8)), "module path");
  for (uint64_t i = 0; i < m->n_files; i++) RULE(string_in(f, s[4], rd_le64(d + m->files + 16 * i + 8)), "file path");
  for (uint64_t i = 0; i < m->n_functions; i++) {
    const uint8_t *p = d + m->functions + 40 * i;
    uint64_t name = rd_le64(p), mod = rd_le64(p + 8), fil = rd_le64(p + 0x18);
    RULE(name || mod || fil, "function has a name, module or file");
    RULE(!name || string_in(f, s[4], name), "function name");
    RULE(!mod || entry_of(mod, m->modules, m->n_modules, 16), "function module");
    RULE(!fil || entry_of(fil, m->files, m->n_files, 16), "function file");
  }
}

/* Walks a children array; returns 0 on a structural error. */
static int meta_children(const file *f, meta_info *m, uint64_t p, uint64_t size, uint8_t *seen_ids, int depth) {
  sec ctx = m->s[3];
  if (size == 0) {
    RULE(p == 0, "empty children array has pointer 0");
    return 1;
  }
  RULE(p % 8 == 0 && inside(ctx, p, size), "children array in the context section");
  if (!(p % 8 == 0 && inside(ctx, p, size)) || depth > 10000) return 0;
  for (uint64_t at = p; at < p + size;) {
    if (p + size - at < 32) {
      RULE(0, "context overruns its array");
      return 0;
    }
    const uint8_t *c = f->d + at;
    uint8_t flags = c[0x14], words = c[0x17];
    uint32_t id = rd_le32(c + 0x10);
    unsigned need = (flags & 1) + (flags & 2 ? 2 : 0) + (flags & 4 ? 2 : 0);
    RULE(words == need, "nFlexWords %u matches flags 0x%x", words, flags);
    if (p + size - at < 32 + 8 * (uint64_t)words || id >= (1u << 20)) {
      RULE(0, "flex overruns, or id %u too large for this test", id);
      return 0;
    }
    RULE(id > 0 && !seen_ids[id], "context id %u positive and unique", id);
    if (id > m->max_id) m->max_id = id;
    seen_ids[id] = 1;
    const uint8_t *w = c + 0x20;
    if (flags & 1) {
      RULE(entry_of(rd_le64(w), m->functions, m->n_functions, 40), "pFunction");
      w += 8;
    }
    if (flags & 2) {
      RULE(entry_of(rd_le64(w), m->files, m->n_files, 16), "pFile");
      w += 16;
    }
    if (flags & 4) RULE(entry_of(rd_le64(w), m->modules, m->n_modules, 16), "pModule");
    if (!meta_children(f, m, rd_le64(c + 8), rd_le64(c), seen_ids, depth + 1)) return 0;
    at += 32 + 8 * (uint64_t)words;
  }
  return 1;
}

static int check_meta(const file *f, meta_info *m) {
  if (!common(f, "meta", 8, "_meta.db", m->s)) {
    RULE(0, "meta.db header");
    return 0;
  }
  for (int i = 0; i < 8; i++) RULE(m->s[i].off % 8 == 0, "section %d aligned", i);
  meta_tables(f, m);
  const uint8_t *h = f->d + m->s[3].off;
  uint64_t entries = rd_le64(h), ne = rd_le16(h + 8);
  RULE(h[10] == 32, "szEntryPoint");
  RULE(ne ? entries % 8 == 0 && inside(m->s[3], entries, 32 * ne) : entries == 0, "entry points array");
  if (ne && !inside(m->s[3], entries, 32 * ne)) return 0;
  uint8_t *seen = calloc(1u << 20, 1);
  for (uint64_t i = 0; i < ne; i++) {
    const uint8_t *e = f->d + entries + 32 * i;
    uint32_t id = rd_le32(e + 0x10);
    RULE(id > 0 && id < (1u << 20) && !seen[id], "entry id");
    if (id < (1u << 20)) seen[id] = 1;
    if (id > m->max_id) m->max_id = id;
    RULE(string_in(f, m->s[4], rd_le64(e + 0x18)), "entry pretty name");
    meta_children(f, m, rd_le64(e + 8), rd_le64(e), seen, 0);
  }
  free(seen);
  return 1;
}

/* ---- profile.db ---- */

typedef struct prof_info {
  uint32_t n_profiles;
  uint8_t *summary;
  uint64_t nonsummary_values;
} prof_info;

static void check_profile(const file *f, const meta_info *m, prof_info *pi) {
  sec s[2];
  if (!common(f, "prof", 2, "_prof.db", s)) {
    RULE(0, "profile.db header");
    return;
  }
  RULE(s[0].off % 8 == 0 && s[1].off % 8 == 0, "sections aligned");
  const uint8_t *d = f->d;
  uint64_t arr = rd_le64(d + s[0].off);
  uint32_t n = rd_le32(d + s[0].off + 8);
  RULE(d[s[0].off + 12] == 48, "szProfile 48");
  RULE(arr % 8 == 0 && inside(s[0], arr, 48 * (uint64_t)n), "profiles array");
  if (!inside(s[0], arr, 48 * (uint64_t)n)) return;
  pi->n_profiles = n;
  pi->summary = calloc(n ? n : 1, 1);
  uint64_t last_end = s[1].off + s[1].size;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *p = d + arr + 48 * (uint64_t)i;
    uint64_t nv = rd_le64(p), pv = rd_le64(p + 8), pc = rd_le64(p + 0x18), tup = rd_le64(p + 0x20);
    uint32_t nc = rd_le32(p + 0x10), flags = rd_le32(p + 0x28);
    pi->summary[i] = flags & 1;
    if (i == 0) RULE((flags & 1) && tup == 0, "canonical summary first with pIdTuple 0");
    if (i > 0) {
      RULE(tup % 8 == 0 && inside(s[1], tup, 8), "id tuple in its section");
      if (inside(s[1], tup, 8)) RULE(inside(s[1], tup, 8 + 16 * (uint64_t)rd_le16(d + tup)), "id tuple length");
    }
    RULE(pv % 2 == 0 && pc % 4 == 0 && pv + 10 * nv <= pc && pc - (pv + 10 * nv) < 4,
         "values then indices, padding only");
    RULE(pv >= last_end && pc + 12 * (uint64_t)nc <= f->n - 8, "value block outside the sections");
    if (!(pv + 10 * nv <= pc && pc + 12 * (uint64_t)nc <= f->n - 8)) continue;
    for (uint32_t k = 0; k < nc; k++) {
      const uint8_t *x = d + pc + 12 * (uint64_t)k;
      uint64_t start = rd_le64(x + 4), end = k + 1 < nc ? rd_le64(x + 16) : nv;
      RULE(k == 0 ? start == 0 : rd_le32(x) > rd_le32(x - 12), "context indices sorted");
      RULE(start <= end && end <= nv, "context slice bounds");
      for (uint64_t v = start; v < end && end <= nv; v++) {
        uint16_t id = rd_le16(d + pv + 10 * v);
        RULE(v == start || id > rd_le16(d + pv + 10 * (v - 1)), "metric ids sorted in a context");
        RULE(m->prop_or_stat[id] & ((flags & 1) ? 2 : 1), "metric id %u of the right kind (summary %u)", id, flags & 1);
      }
      RULE(rd_le32(x) <= m->max_id || rd_le32(x) >= 1000, "context id known or an instruction-like extra");
    }
    if (!(flags & 1)) pi->nonsummary_values += nv;
    last_end = pc + 12 * (uint64_t)nc;
  }
}

static void check_cct(const file *f, const prof_info *pi) {
  sec s[1];
  if (!common(f, "ctxt", 1, "__ctx.db", s)) {
    RULE(0, "cct.db header");
    return;
  }
  const uint8_t *d = f->d;
  uint64_t arr = rd_le64(d + s[0].off), total = 0;
  uint32_t n = rd_le32(d + s[0].off + 8);
  RULE(s[0].off % 8 == 0 && d[s[0].off + 12] == 32, "section aligned, szCtx 32");
  RULE(arr % 8 == 0 && inside(s[0], arr, 32 * (uint64_t)n), "contexts array");
  if (!inside(s[0], arr, 32 * (uint64_t)n)) return;
  for (uint32_t c = 0; c < n; c++) {
    const uint8_t *p = d + arr + 32 * (uint64_t)c;
    uint64_t nv = rd_le64(p), pv = rd_le64(p + 8), pm = rd_le64(p + 0x18);
    uint16_t nm = rd_le16(p + 0x10);
    total += nv;
    RULE(pv % 4 == 0 && pm % 2 == 0 && pv + 12 * nv <= pm && pm - (pv + 12 * nv) < 2, "values then indices");
    RULE(pv >= s[0].off + s[0].size && pm + 10 * (uint64_t)nm <= f->n - 8, "block outside the section");
    if (!(pv + 12 * nv <= pm && pm + 10 * (uint64_t)nm <= f->n - 8)) continue;
    for (uint16_t k = 0; k < nm; k++) {
      const uint8_t *x = d + pm + 10 * (uint64_t)k;
      uint64_t start = rd_le64(x + 2), end = k + 1 < nm ? rd_le64(x + 12) : nv;
      RULE(k == 0 ? start == 0 : rd_le16(x) > rd_le16(x - 10), "metric indices sorted");
      RULE(start < end && end <= nv, "metric slice non-empty and bounded");
      for (uint64_t v = start; v < end && end <= nv; v++) {
        uint32_t prof = rd_le32(d + pv + 12 * v);
        RULE(prof < pi->n_profiles && !pi->summary[prof], "profIndex %u of a non-summary profile", prof);
        RULE(v == start || prof > rd_le32(d + pv + 12 * (v - 1)), "profiles sorted in a metric");
      }
    }
  }
  RULE(total == pi->nonsummary_values, "cct.db holds every non-summary value once");
}

static void check_trace(const file *f, const prof_info *pi) {
  sec s[1];
  if (!common(f, "trce", 1, "trace.db", s)) {
    RULE(0, "trace.db header");
    return;
  }
  const uint8_t *d = f->d;
  uint64_t arr = rd_le64(d + s[0].off), lo = rd_le64(d + s[0].off + 0x10), hi = rd_le64(d + s[0].off + 0x18);
  uint32_t n = rd_le32(d + s[0].off + 8);
  RULE(d[s[0].off + 12] == 24 && arr % 8 == 0 && inside(s[0], arr, 24 * (uint64_t)n), "traces array");
  if (!inside(s[0], arr, 24 * (uint64_t)n)) return;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *p = d + arr + 24 * (uint64_t)i;
    uint64_t a = rd_le64(p + 8), b = rd_le64(p + 16);
    RULE(rd_le32(p) < pi->n_profiles, "trace profIndex");
    RULE(a % 8 == 0 && a <= b && (b - a) % 12 == 0 && a >= s[0].off + s[0].size && b <= f->n - 8,
         "trace line placement");
    if (!(a <= b && b <= f->n - 8)) continue;
    for (uint64_t e = a; e < b; e += 12) {
      uint64_t t = rd_le64(d + e);
      RULE(t >= lo && t <= hi, "timestamp within min/max");
      if (e > a) {
        RULE(t >= rd_le64(d + e - 12), "timestamps sorted");
        RULE(rd_le32(d + e + 8) || rd_le32(d + e - 4), "no two consecutive ctxId 0");
      }
    }
  }
}

static file load(const char *dir, const char *name) {
  char path[4096];
  file f = {NULL, 0};
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (testlib_read_file(path, &f.d, &f.n) != 0) f.d = NULL;
  return f;
}

int main(void) {
  const char *dir = testlib_tmpdir("write_rules");
  meta_info *m = malloc(sizeof *m);
  for (uint64_t seed = 0; seed <= SEEDS && m; seed++) {
    hpcdb_experiment *e;
    seed_now = seed;
    if (seed == 0) /* the empty experiment: no tables, no tree, no profiles */
      CHECK_RC(hpcdb_experiment_new(&e));
    else CHECK_RC(random_experiment(&e, seed));
    if (!e) continue;
    CHECK_RC(hpcdb_hpctk4_write(e, dir, HPCDB_WRITE_FORCE));
    memset(m, 0, sizeof *m);
    prof_info pi = {0, NULL, 0};
    file meta = load(dir, "meta.db"), prof = load(dir, "profile.db"), cct = load(dir, "cct.db"),
         tr = load(dir, "trace.db");
    CHECK(meta.d && prof.d && cct.d);
    if (meta.d && check_meta(&meta, m) && prof.d) {
      check_profile(&prof, m, &pi);
      if (cct.d && pi.summary) check_cct(&cct, &pi);
      if (e->has_traces) CHECK(tr.d != NULL);
      if (tr.d && e->has_traces && pi.summary) check_trace(&tr, &pi);
    }
    free(pi.summary);
    free(meta.d);
    free(prof.d);
    free(cct.d);
    free(tr.d);
    hpcdb_experiment_free(e);
  }
  free(m);
  return TEST_END();
}
