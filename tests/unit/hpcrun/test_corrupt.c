/* SPDX-License-Identifier: BSD-3-Clause */
/* Like libarchive's test_fuzz: the real samples with 1% of their bytes, or
 * just one or two, changed (seeded), 300 times each. Every damaged copy is either refused with
 * a message naming the file and an offset, or read; what is read serialises
 * back to exactly the damaged bytes, and maps into the model or fails cleanly. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_check.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_model.h"
#include "testlib.h"

static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static const char *const samples[] = {
    "hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0",
    "hpcrun/loops-cputime-t.m/testmeas-loops-000000-002-11ac0300-4974-0",
};

static void damage(uint8_t *copy, const uint8_t *orig, size_t len, int round) {
  memcpy(copy, orig, len);
  size_t n = round % 2 ? len / 100 + 1 : 1 + rnd() % 2;
  for (size_t k = 0; k < n; k++) copy[rnd() % len] = (uint8_t)rnd();
}

static int names_place(void) {
  const char *msg = hpcdb_last_error();
  return strstr(msg, "corrupt.") != NULL && strstr(msg, "offset 0x") != NULL;
}

static void profile(const uint8_t *orig, size_t len, int *accepted) {
  uint8_t *copy = malloc(len);
  for (int round = 0; round < 300; round++) {
    damage(copy, orig, len, round);
    hpcrun_file *f = NULL;
    if (hpcrun_file_parse(&f, copy, len, "corrupt.hpcrun", NULL) < 0) {
      CHECK(names_place());
      continue;
    }
    (*accepted)++;
    uint8_t *again = NULL;
    uint64_t again_len = 0;
    CHECK_RC(hpcrun_file_serialize(f, &again, &again_len));
    CHECK(again_len == len && memcmp(again, copy, len) == 0);
    free(again);
    hpcdb_validation res = {0, 0};
    hpcrun_check_profile(&res, "corrupt.hpcrun", f, NULL, NULL);
    hpcdb_experiment *exp = NULL;
    CHECK_RC(hpcdb_experiment_new(&exp));
    hpcrun_builder b;
    hpcrun_builder_init(&b, exp, 0);
    if (hpcrun_builder_add(&b, "corrupt.hpcrun", f, NULL, NULL, NULL) < 0)
      CHECK(strstr(hpcdb_last_error(), "corrupt.") != NULL);
    hpcrun_builder_free(&b);
    hpcdb_experiment_free(exp);
    hpcrun_file_free(f);
  }
  free(copy);
}

static void trace(const uint8_t *orig, size_t len, int *accepted) {
  uint8_t *copy = malloc(len);
  for (int round = 0; round < 300; round++) {
    damage(copy, orig, len, round);
    hpcrun_trace_file *t = NULL;
    if (hpcrun_trace_parse(&t, copy, len, "corrupt.hpctrace", NULL) < 0) {
      CHECK(names_place());
      continue;
    }
    (*accepted)++;
    uint8_t *again = NULL;
    uint64_t again_len = 0;
    CHECK_RC(hpcrun_trace_serialize(t, &again, &again_len));
    CHECK(again_len == len && memcmp(again, copy, len) == 0);
    free(again);
    hpcrun_trace_free(t);
  }
  free(copy);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("no sample data: skipped\n");
    return 77;
  }
  rng = 0x2545F4914F6CDD1Dull;
  int accepted = 0, accepted_traces = 0;
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    char path[4200];
    uint8_t *data;
    size_t len;
    snprintf(path, sizeof path, "%s.hpcrun", testlib_sample(samples[i]));
    CHECK(testlib_read_file(path, &data, &len) == 0);
    profile(data, len, &accepted);
    free(data);
    snprintf(path, sizeof path, "%s.hpctrace", testlib_sample(samples[i]));
    CHECK(testlib_read_file(path, &data, &len) == 0);
    trace(data, len, &accepted_traces);
    free(data);
  }
  printf("%d of 600 damaged profiles and %d of 600 damaged traces parsed\n", accepted, accepted_traces);
  return TEST_END();
}
