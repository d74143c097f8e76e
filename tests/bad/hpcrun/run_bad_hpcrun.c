/* SPDX-License-Identifier: BSD-3-Clause */
/* Broken measurement files, made at test time by mutating copies of the real
 * samples as cases.txt says, each of which must be rejected: the validator
 * reports an error with the expected rule, naming the file and an offset, and
 * hpcdb_hpcrun_read fails (or reads, where the manifest says the damage does
 * not stop a reader) with a message naming the file. The analysis (strict)
 * of a measurement directory holding the damaged pair fails the same way
 * where the reader must, and never reads out of bounds (ASan build).
 *
 * cases.txt: one case a line, `name target read rule mutation[,mutation...]`
 *   target: small | small-trace | loops (the .hpcrun or .hpctrace to damage;
 *           the sample's profile and trace are both copied, so pairs check)
 *   read:   fails | reads
 *   mutations: set8|set16|set32|set64:OFF:VALUE (big-endian), truncate:LEN
 *   (numbers in C syntax; OFF/LEN may be end-N). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/analysis.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef struct target {
  const char *name, *sample, *suffix;
} target;

static const target targets[] = {
    {"small", "hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0", ".hpcrun"},
    {"small-trace", "hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0", ".hpctrace"},
    {"loops", "hpcrun/loops-cputime-t.m/testmeas-loops-000000-001-11ac0300-4974-0", ".hpcrun"},
};

typedef struct seen {
  const char *rule;
  const char *file;
  int matched;
  int errors;
} seen;

static void on_diag(void *user, const hpcdb_diagnostic *d) {
  seen *s = user;
  if (d->severity != HPCDB_SEV_ERROR) return;
  s->errors++;
  if (strcmp(d->rule, s->rule) == 0 && strcmp(d->file, s->file) == 0) {
    if (!s->matched)
      printf("  %s: offset 0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, d->rule,
             d->detail);
    s->matched = 1;
  }
}

static int number(const char *s, uint64_t len, uint64_t *out) {
  char *end;
  if (strncmp(s, "end-", 4) == 0) {
    uint64_t back = strtoull(s + 4, &end, 0);
    if (*end || back > len) return 0;
    *out = len - back;
    return 1;
  }
  *out = strtoull(s, &end, 0);
  return *end == '\0';
}

static int mutate(uint8_t *data, size_t *len, char *spec) {
  char *op = strtok(spec, ":"), *a = strtok(NULL, ":"), *b = strtok(NULL, ":");
  uint64_t off, val;
  if (!op || !a || !number(a, *len, &off)) return -1;
  if (strcmp(op, "truncate") == 0) {
    if (off > *len) return -1;
    *len = (size_t)off;
    return 0;
  }
  unsigned width = strcmp(op, "set8") == 0    ? 1
              : strcmp(op, "set16") == 0 ? 2
              : strcmp(op, "set32") == 0 ? 4
              : strcmp(op, "set64") == 0 ? 8
                                         : 0;
  if (!width || !b || !number(b, *len, &val) || off > *len || (uint64_t)width > *len - off)
    return -1;
  for (unsigned i = 0; i < width; i++) data[off + i] = (uint8_t)(val >> (8 * (width - 1 - i)));
  return 0;
}

static int copy(const char *from, const char *to) {
  uint8_t *d;
  size_t n;
  if (testlib_read_file(from, &d, &n) != 0) return -1;
  int rc = testlib_write_file(to, d, n);
  free(d);
  return rc;
}

static void run_case(const char *dir, char *line, int *cases) {
  char *name = strtok(line, " \t"), *tname = strtok(NULL, " \t"), *expect = strtok(NULL, " \t");
  char *rule = strtok(NULL, " \t"), *muts = strtok(NULL, " \t\n");
  if (!name || name[0] == '#') return;
  CHECK(tname && expect && rule && muts);
  if (!muts) return;
  const target *t = NULL;
  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
    if (strcmp(targets[i].name, tname) == 0) t = &targets[i];
  CHECK(t != NULL);
  if (!t) return;
  printf("%s (%s, expect %s, read %s)\n", name, tname, rule, expect);
  char cdir[4200], base[4300], profile[4400], trace[4400], victim[4400];
  snprintf(cdir, sizeof cdir, "%s/%s", dir, name); /* the pair alone: a measurement directory */
  CHECK(mkdir(cdir, 0755) == 0);
  snprintf(base, sizeof base, "%s/%s", cdir, strrchr(t->sample, '/') + 1);
  snprintf(profile, sizeof profile, "%s.hpcrun", base);
  snprintf(trace, sizeof trace, "%s.hpctrace", base);
  snprintf(victim, sizeof victim, "%s%s", base, t->suffix);
  char src[4400];
  snprintf(src, sizeof src, "%s.hpcrun", testlib_sample(t->sample));
  CHECK(copy(src, profile) == 0);
  snprintf(src, sizeof src, "%s.hpctrace", testlib_sample(t->sample));
  CHECK(copy(src, trace) == 0);
  uint8_t *data;
  size_t len;
  CHECK(testlib_read_file(victim, &data, &len) == 0);
  for (char *m = muts, *next; m; m = next) {
    next = strchr(m, ',');
    if (next) *next++ = '\0';
    int ok = mutate(data, &len, m) == 0;
    CHECK(ok);
    if (!ok) fprintf(stderr, "%s: bad mutation\n", name);
  }
  CHECK(testlib_write_file(victim, data, len) == 0);
  free(data);

  hpcdb_validation res;
  seen s = {rule, victim, 0, 0};
  CHECK_RC(hpcdb_hpcrun_validate(&res, victim, on_diag, &s));
  CHECK(res.errors > 0 && s.matched);
  if (!s.matched)
    fprintf(stderr, "%s: no \"%s\" error for %s (%d errors)\n", name, rule, victim, s.errors);

  hpcdb_experiment *exp = NULL;
  int rc = hpcdb_hpcrun_read(&exp, victim);
  if (strcmp(expect, "fails") == 0) {
    CHECK(rc < 0 && exp == NULL && strstr(hpcdb_last_error(), dir) != NULL &&
          strstr(hpcdb_last_error(), "offset 0x") != NULL);
    if (rc < 0)
      printf("  read: %s\n", hpcdb_last_error());
    else
      fprintf(stderr, "%s: read did not fail\n", name);
  } else {
    CHECK(rc == 0 && exp != NULL);
  }
  hpcdb_experiment_free(exp);

  exp = NULL;
  hpcdb_analyze_options opt = {.strict = 1};
  rc = hpcdb_analyze(&exp, cdir, &opt, NULL, NULL, NULL);
  /* a damaged trace too (strict does not skip it), but for samples at nodes the profile lacks, which the
   * analysis drops as hpcprof does */
  if (strcmp(expect, "fails") == 0 && strcmp(rule, "trace-cct-exists") != 0) {
    CHECK(rc < 0 && strstr(hpcdb_last_error(), cdir) != NULL);
    if (rc < 0)
      printf("  analyze: %s\n", hpcdb_last_error());
    else
      fprintf(stderr, "%s: analyze did not fail\n", name);
  }
  hpcdb_experiment_free(exp);
  (*cases)++;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  if (!testlib_have_samples()) {
    printf("no sample data: skipped\n");
    return 77;
  }
  FILE *f = fopen(argv[1], "r");
  CHECK(f != NULL);
  if (!f) return TEST_END();
  const char *dir = testlib_tmpdir("bad-hpcrun");
  char line[1024];
  int cases = 0;
  while (fgets(line, sizeof line, f)) run_case(dir, line, &cases);
  fclose(f);
  CHECK(cases >= 25);
  printf("%d cases\n", cases);
  return TEST_END();
}
