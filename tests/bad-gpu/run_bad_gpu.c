/* SPDX-License-Identifier: BSD-3-Clause */
/* Damaged GPU measurements: each case copies the CUDA sample's directory,
 * damages one file as cases.txt says, analyzes the directory and checks the
 * verdict: the same database as the undamaged sample (GPU binaries are not
 * needed without structure files), the damaged file alone skipped with a
 * warning naming it and saying why, a warning without a skip (a trace that
 * cannot be read: the profile stays, as with hpcprof), or a plain read.
 *
 * cases.txt: `name target verdict mutation[,mutation...] [message fragment]`
 *   (for reads: label=TEXT, samples=N, kind=NAME or scopes=METRIC:s1,s2 the database must have)
 *   mutations: set8|set16|set32|set64:OFF:VALUE (big-endian), truncate:LEN,
 *   remove (the file), remove-dir (its directory). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hpcdb/analysis.h"
#include "core/paths.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define SAMPLE "hpcrun/loops-cuda-nvidia-t.m"
#define STEM "testmeas-loops-cuda-000000-"
#define HOST "-590a0502-3293-0"

static const struct {
  const char *name, *file;
} targets[] = {
    {"cpu", STEM "000" HOST ".hpcrun"},
    {"stream", STEM "500" HOST ".hpcrun"},
    {"stream-trace", STEM "500" HOST ".hpctrace"},
    {"gpubin", "gpubins/1165a3eeddeea5ea3616d1cdbc6faa59.gpubin"},
};

static const char *const files[] = {
    STEM "000" HOST ".hpcrun", STEM "000" HOST ".hpctrace", STEM "500" HOST ".hpcrun",
    STEM "500" HOST ".hpctrace", "gpubins/1165a3eeddeea5ea3616d1cdbc6faa59.gpubin",
    "vdso/a7a970da56e92ffb2891d64fd6421d57.vdso",
};

typedef struct warnings {
  char text[8][1400];
  int n;
} warnings;

static void on_warning(void *user, const char *message) {
  warnings *w = user;
  if (w->n < 8) snprintf(w->text[w->n++], sizeof w->text[0], "%s", message);
}

/* What a read database must have (cases.txt: label=, samples=, kind=). */
static int has(const hpcdb_experiment *e, const char *what) {
  if (!strncmp(what, "label=", 6)) {
    char label[2048];
    for (uint32_t i = 1; i < e->n_contexts; i++) {
      context_label(e, &e->contexts[i], label, sizeof label);
      if (!strcmp(label, what + 6)) return 1;
    }
    return 0;
  }
  if (!strncmp(what, "samples=", 8)) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < e->n_traces; i++) n += e->traces[i].n;
    return n == strtoull(what + 8, NULL, 10);
  }
  if (!strncmp(what, "scopes=", 7)) { /* scopes=METRIC:scope,scope,... in the metric's order */
    const char *colon = strrchr(what, ':');
    for (uint32_t m = 0; colon && m < e->n_metrics; m++) {
      const hpcdb_metric *mt = &e->metrics[m];
      if (strlen(mt->name) != (size_t)(colon - what - 7) || strncmp(mt->name, what + 7, (size_t)(colon - what - 7)))
        continue;
      char list[256] = "";
      for (uint32_t k = 0; k < mt->n_instances; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? "," : "",
                 e->scopes[mt->instances[k].scope].name);
      return !strcmp(list, colon + 1) && mt->n_summaries == mt->n_instances;
    }
    return 0;
  }
  if (!strncmp(what, "kind=", 5)) {
    for (uint32_t k = 0; k < e->n_kind_names; k++)
      if (e->kind_names[k] && !strcmp(e->kind_names[k], what + 5)) return 1;
    return 0;
  }
  return 0;
}

static int mutate(uint8_t *data, size_t *len, char *spec) {
  char *op = strtok(spec, ":"), *a = strtok(NULL, ":"), *b = strtok(NULL, ":");
  if (!op || !a) return -1;
  uint64_t off = strtoull(a, NULL, 0);
  if (strcmp(op, "truncate") == 0) {
    if (off > *len) return -1;
    *len = (size_t)off;
    return 0;
  }
  unsigned width = !strcmp(op, "set8") ? 1 : !strcmp(op, "set16") ? 2 : !strcmp(op, "set32") ? 4 : !strcmp(op, "set64") ? 8 : 0;
  if (!width || !b || off > *len || (uint64_t)width > *len - off) return -1;
  uint64_t val = strtoull(b, NULL, 0);
  for (unsigned i = 0; i < width; i++) data[off + i] = (uint8_t)(val >> (8 * (width - 1 - i)));
  return 0;
}

/* A fresh copy of the sample in dir. */
static int copy_sample(const char *dir) {
  char path[4400];
  for (const char *sub = "gpubins"; sub; sub = strcmp(sub, "gpubins") ? NULL : "vdso") {
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    if (mkdir(path, 0755) != 0) return -1;
  }
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char from[4400];
    snprintf(from, sizeof from, "%s/%s", testlib_sample(SAMPLE), files[i]);
    uint8_t *d;
    size_t n;
    if (testlib_read_file(from, &d, &n) != 0) return -1;
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    int rc = testlib_write_file(path, d, n);
    free(d);
    if (rc != 0) return -1;
  }
  return 0;
}

static int damage(const char *victim, char *muts) {
  if (!strcmp(muts, "remove")) return unlink(victim);
  if (!strcmp(muts, "remove-dir")) {
    char dir[4400];
    snprintf(dir, sizeof dir, "%s", victim);
    *strrchr(dir, '/') = '\0';
    return unlink(victim) == 0 ? rmdir(dir) : -1;
  }
  uint8_t *data;
  size_t len;
  if (testlib_read_file(victim, &data, &len) != 0) return -1;
  int rc = 0;
  for (char *m = muts, *next; m && rc == 0; m = next) {
    next = strchr(m, ',');
    if (next) *next++ = '\0';
    rc = mutate(data, &len, m);
  }
  if (rc == 0) rc = testlib_write_file(victim, data, len);
  free(data);
  return rc;
}

static void run_case(const char *root, char *line, const hpcdb_experiment *good, int *cases) {
  char *name = strtok(line, " \t\n");
  if (!name || name[0] == '#') return;
  char *tname = strtok(NULL, " \t"), *verdict = strtok(NULL, " \t\n"), *muts = strtok(NULL, " \t\n");
  char *why = strtok(NULL, "\n");
  while (why && (*why == ' ' || *why == '\t')) why++;
  CHECK(tname && verdict && muts);
  if (!tname || !verdict || !muts) return;
  const char *file = NULL;
  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
    if (!strcmp(targets[i].name, tname)) file = targets[i].file;
  CHECK(file != NULL);
  if (!file) return;
  char dir[4200], victim[4400];
  snprintf(dir, sizeof dir, "%s/%s", root, name);
  CHECK(mkdir(dir, 0755) == 0 && copy_sample(dir) == 0);
  snprintf(victim, sizeof victim, "%s/%s", dir, file);
  int damaged = damage(victim, muts) == 0;
  CHECK(damaged);
  if (!damaged) fprintf(stderr, "%s: bad mutation %s\n", name, muts);
  printf("%s (%s, %s)\n", name, tname, verdict);

  warnings w = {0};
  hpcdb_analyze_options opt = {0};
  opt.ignore_structs = 1; /* the copies carry no structs/ */
  hpcdb_analyze_result res;
  hpcdb_experiment *exp = NULL;
  int rc = hpcdb_analyze(&exp, dir, &opt, on_warning, &w, &res);
  for (int i = 0; i < w.n; i++) printf("  warning: %s\n", w.text[i]);
  CHECK(rc == 0 && exp != NULL);
  if (rc < 0) fprintf(stderr, "%s: analyze failed: %s\n", name, hpcdb_last_error());
  int named = 0, said = 0;
  for (int i = 0; i < w.n; i++) {
    named |= strstr(w.text[i], victim) != NULL;
    said |= why && strstr(w.text[i], why) != NULL;
  }
  if (!strcmp(verdict, "same")) {
    uint64_t n = 1;
    CHECK(exp && hpcdb_diff(&n, good, exp, NULL, NULL, NULL) == 0 && n == 0 && res.profiles_skipped == 0);
    if (n) fprintf(stderr, "%s: %llu differences from the undamaged sample\n", name, (unsigned long long)n);
  } else if (!strcmp(verdict, "skips")) {
    CHECK(res.profiles_skipped == 1 && res.profiles_read == 1 && named && (!why || said));
    if (!(named && (!why || said))) fprintf(stderr, "%s: no warning naming %s with \"%s\"\n", name, victim, why);
  } else if (!strcmp(verdict, "warns")) {
    CHECK(res.profiles_skipped == 0 && res.profiles_read == 2 && named && (!why || said));
    if (!named) fprintf(stderr, "%s: no warning naming %s\n", name, victim);
  } else {
    CHECK(!strcmp(verdict, "reads") && res.profiles_skipped == 0 && res.profiles_read == 2);
    CHECK(exp && (!why || has(exp, why)));
    if (exp && why && !has(exp, why)) fprintf(stderr, "%s: the database lacks %s\n", name, why);
  }
  hpcdb_experiment_free(exp);
  (*cases)++;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  char probe[4400];
  snprintf(probe, sizeof probe, "%s/%s", testlib_sample(SAMPLE), files[0]);
  if (!testlib_have_samples() || access(probe, R_OK) != 0) {
    printf("no CUDA sample (%s): skipped\n", SAMPLE);
    return 77;
  }
  FILE *f = fopen(argv[1], "r");
  CHECK(f != NULL);
  if (!f) return TEST_END();
  hpcdb_experiment *good = NULL;
  hpcdb_analyze_options opt = {0};
  opt.ignore_structs = 1; /* the copies carry no structs/ */
  CHECK_RC(hpcdb_analyze(&good, testlib_sample(SAMPLE), &opt, NULL, NULL, NULL));
  const char *root = testlib_tmpdir("bad-gpu");
  char line[1024];
  int cases = 0;
  while (good && fgets(line, sizeof line, f)) run_case(root, line, good, &cases);
  fclose(f);
  hpcdb_experiment_free(good);
  CHECK(cases >= 10);
  printf("%d cases\n", cases);
  return TEST_END();
}
