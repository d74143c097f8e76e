/* SPDX-License-Identifier: BSD-3-Clause */
/* The list of format descriptors: every value of the public hpcdb_format
 * enum but UNKNOWN is answered for by exactly one descriptor, under the name
 * hpcdb_format_name gives; a descriptor's capabilities say which of its
 * functions it has; each claims its own sample (file or directory) and no
 * other descriptor claims it first; written files are detected as what wrote
 * them. */
#include <string.h>

#include "core/formats.h"
#include "hpcdb/cube.h"
#include "testlib.h"

static void check_list(void) {
  size_t n;
  const format_desc *const *list = format_list(&n);
  for (int kind = HPCDB_FORMAT_UNKNOWN + 1; kind <= HPCDB_FORMAT_HPCSTRUCT; kind++) {
    int owners = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < list[i]->n_kinds; k++)
        if (list[i]->kinds[k].id == (hpcdb_format)kind) {
          owners++;
          CHECK(strcmp(list[i]->kinds[k].name, hpcdb_format_name((hpcdb_format)kind)) == 0);
        }
    CHECK(owners == 1);
  }
  CHECK(format_lookup(HPCDB_FORMAT_UNKNOWN, NULL) == NULL);
  CHECK(strcmp(hpcdb_format_name(HPCDB_FORMAT_UNKNOWN), "unknown") == 0);
  for (size_t i = 0; i < n; i++) {
    const format_desc *d = list[i];
    CHECK(d->name && d->n_kinds > 0 && d->detect);
    CHECK(!(d->caps & FORMAT_READS) == !d->read);
    CHECK(!(d->caps & FORMAT_WRITES) == !d->write);
    CHECK(!d->write == !d->writer && !d->write == !d->losses); /* a writer has a name and says what it drops */
    CHECK(!(d->caps & FORMAT_VALIDATES) == !d->validate);
    CHECK(!(d->caps & FORMAT_READS_PART) || (d->caps & FORMAT_READS));
  }
}

/* The kind the first claiming descriptor gives path, as hpcdb_detect. */
static void check_sample(const char *rel, hpcdb_format want) {
  const char *path = testlib_sample(rel);
  hpcdb_format got;
  CHECK_RC(hpcdb_detect(&got, path));
  if (got != want) fprintf(stderr, "%s: detected %s, not %s\n", rel, hpcdb_format_name(got), hpcdb_format_name(want));
  CHECK(got == want);
}

int main(void) {
  check_list();
  /* a short file of no known bytes is nobody's */
  const char *dir = testlib_tmpdir("formats");
  char path[4096];
  snprintf(path, sizeof path, "%s/plain.txt", dir);
  CHECK_RC(testlib_write_file(path, "hello\n", 6));
  hpcdb_format f;
  CHECK(hpcdb_detect(&f, path) == HPCDB_ENOTFORMAT && f == HPCDB_FORMAT_UNKNOWN);
  CHECK(hpcdb_detect(&f, dir) == HPCDB_ENOTFORMAT && f == HPCDB_FORMAT_UNKNOWN);
  if (!testlib_have_samples()) {
    printf("sample data absent (HPCDB_SAMPLE_DATA): the list checked, the samples' detection skipped\n");
    return TEST_END();
  }
  check_sample("hpctoolkit-v4/ping-pong-mpi", HPCDB_FORMAT_HPCTK4_DIR);
  check_sample("hpctoolkit-v4/ping-pong-mpi/meta.db", HPCDB_FORMAT_HPCTK4_META);
  check_sample("hpctoolkit-v4/ping-pong-mpi/profile.db", HPCDB_FORMAT_HPCTK4_PROFILE);
  check_sample("hpctoolkit-v4/ping-pong-mpi/cct.db", HPCDB_FORMAT_HPCTK4_CCT);
  check_sample("hpctoolkit-v4/ping-pong-mpi/trace.db", HPCDB_FORMAT_HPCTK4_TRACE);
  check_sample("hpctoolkit-2022/ping-pong-mpi", HPCDB_FORMAT_DRAFT_A);
  check_sample("hpctoolkit-2022/ping-pong-mpi/experiment.xml", HPCDB_FORMAT_DRAFT_A);
  check_sample("hpctoolkit-legacy/cpi-mpi", HPCDB_FORMAT_LEGACY_XML);
  check_sample("hpctoolkit-legacy/cpi-mpi/experiment.xml", HPCDB_FORMAT_LEGACY_XML);
  check_sample("hpcrun/small.m", HPCDB_FORMAT_HPCRUN_DIR);
  check_sample("cube/time.p4.cubex", HPCDB_FORMAT_CUBE);
  check_sample("cube/zcubex-mm.x100.cubex", HPCDB_FORMAT_CUBE);
  check_sample("hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0.hpcrun", HPCDB_FORMAT_HPCRUN);
  check_sample("hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0.hpctrace", HPCDB_FORMAT_HPCTRACE);
  check_sample("hpcrun/small.m/structs/testmeas-small.hpcstruct", HPCDB_FORMAT_HPCSTRUCT);
  /* what the descriptors write is detected as theirs */
  hpcdb_experiment *e = NULL;
  CHECK_RC(hpcdb_read(&e, testlib_sample("hpctoolkit-v4/cpi-mpi")));
  const format_desc *cube = format_lookup(HPCDB_FORMAT_CUBE, NULL), *v4 = format_lookup(HPCDB_FORMAT_HPCTK4_DIR, NULL);
  snprintf(path, sizeof path, "%s/cpi.cubex", dir);
  if (e && cube && cube->write(e, path, HPCDB_WRITE_FORCE) == 0)
    CHECK(hpcdb_detect(&f, path) == 0 && f == HPCDB_FORMAT_CUBE);
  else CHECK(!"the cube descriptor writes");
  snprintf(path, sizeof path, "%s/cpi.d", dir);
  if (e && v4 && v4->write(e, path, HPCDB_WRITE_FORCE) == 0)
    CHECK(hpcdb_detect(&f, path) == 0 && f == HPCDB_FORMAT_HPCTK4_DIR);
  else CHECK(!"the v4.0 descriptor writes");
  hpcdb_experiment_free(e);
  return TEST_END();
}
