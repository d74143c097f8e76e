/* SPDX-License-Identifier: BSD-3-Clause */
/* Legacy databases from hand-laid bytes: metric-db headers and values
 * (order of columns, dropped columns, zero rows, damages), and a small
 * database directory read whole: metrics and scopes, the summary from inline
 * values, one profile per metric-db file by rank, a broken and a missing file
 * leaving empty profiles with warnings. */
#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "older/legacy/legacy.h"
#include "testlib.h"

/* A metric-db file: header then rows x cols doubles. */
static size_t metricdb(uint8_t *out, uint32_t rows, uint32_t cols, const double *v) {
  memcpy(out, "HPCPROF-metricdb__00.10b", 24);
  wr_be32(out + 24, rows);
  wr_be32(out + 28, cols);
  for (uint32_t i = 0; i < rows * cols; i++) wr_be64(out + 32 + 8 * i, f64_to_bits(v[i]));
  return 32 + 8 * (size_t)rows * cols;
}

static void header_and_values(void) {
  uint8_t b[256];
  const double v[] = {1, 2, 0, 0, 0, 0, 5, 0, 7};
  size_t n = metricdb(b, 3, 3, v);
  legacy_metricdb_header h;
  uint64_t trailing;
  CHECK_RC(legacy_metricdb_header_parse(&h, b, n, "m", &trailing));
  CHECK(h.n_nodes == 3 && h.n_metrics == 3 && h.data_offset == 32 && trailing == 0 && !strcmp(h.version, "00.10"));
  const uint16_t columns[3] = {4, 1, LEGACY_DROP}; /* column 0 -> id 4, 1 -> 1, 2 dropped */
  hpcdb_profile c;
  CHECK_RC(legacy_metricdb_values(&c, b, n, "m", &h, columns, 3));
  CHECK(c.n_ctxs == 2 && c.ctx_ids[0] == 1 && c.ctx_ids[1] == 3 && c.n_values == 3);
  CHECK(c.metric_ids[0] == 1 && c.values[0] == 2 && c.metric_ids[1] == 4 && c.values[1] == 1); /* sorted by id */
  CHECK(c.metric_ids[2] == 4 && c.values[2] == 5 && c.ctx_starts[2] == 3);
  legacy_csr_free(&c);
  CHECK_RC(legacy_metricdb_header_parse(&h, b, n + 8, "m", &trailing));
  CHECK(trailing == 8);
  CHECK(legacy_metricdb_header_parse(&h, b, n - 1, "m", &trailing) == HPCDB_ETRUNCATED);
  CHECK(strstr(hpcdb_last_error(), "m: metric-db: offset 0x20: size:"));
  CHECK(legacy_metricdb_header_parse(&h, b, 30, "m", &trailing) == HPCDB_ETRUNCATED);
  b[23] = 'l';
  CHECK(legacy_metricdb_header_parse(&h, b, n, "m", &trailing) == HPCDB_EUNSUPPORTED);
  b[23] = 'b';
  b[0] = 'X';
  CHECK(legacy_metricdb_header_parse(&h, b, n, "m", &trailing) == HPCDB_ENOTFORMAT);
  b[0] = 'H';
  wr_be32(b + 24, 0xFFFFFFFFu); /* a count that would need 100 GB */
  CHECK(legacy_metricdb_header_parse(&h, b, n, "m", &trailing) == HPCDB_ETRUNCATED);
  memcpy(b, "HPCPROF-metricdb__00.10b", 24); /* 4 billion rows of no metrics: nothing, at once */
  wr_be32(b + 24, 0xFFFFFFFEu);
  wr_be32(b + 28, 0);
  CHECK_RC(legacy_metricdb_header_parse(&h, b, 32, "m", &trailing));
  CHECK_RC(legacy_metricdb_values(&c, b, 32, "m", &h, columns, 3));
  CHECK(c.n_ctxs == 0 && c.n_values == 0);
  legacy_csr_free(&c);
  wr_be32(b + 24, 0); /* no rows of 2.9 billion metrics: no allocation by that count */
  wr_be32(b + 28, 0xae03002bu);
  CHECK_RC(legacy_metricdb_header_parse(&h, b, 32, "m", &trailing));
  CHECK_RC(legacy_metricdb_values(&c, b, 32, "m", &h, columns, 3));
  CHECK(c.n_ctxs == 0 && c.n_values == 0);
  legacy_csr_free(&c);
  const double nan[] = {0.0 / 0.0};
  n = metricdb(b, 1, 1, nan);
  CHECK_RC(legacy_metricdb_header_parse(&h, b, n, "m", &trailing));
  CHECK(legacy_metricdb_values(&c, b, n, "m", &h, columns, 3) == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "value-finite"));
}

static const char xml[] =
    "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"2.0\"><Header n=\"tiny\"/>\n"
    "<SecCallPathProfile i=\"0\" n=\"tiny\"><SecHeader><MetricTable>\n"
    "<Metric i=\"2\" n=\"T (us):Sum (I)\" t=\"inclusive\" partner=\"3\"/>\n"
    "<Metric i=\"3\" n=\"T (us):Sum (E)\" t=\"exclusive\" partner=\"2\"/>\n"
    "<Metric i=\"4\" n=\"T (us):Max (I)\" t=\"inclusive\"/><Metric i=\"5\" n=\"T (us):Mean (I)\" t=\"inclusive\"/>\n"
    "</MetricTable><MetricDBTable>\n"
    "<MetricDB i=\"0\" n=\"T (us) (I)\" t=\"inclusive\" partner=\"1\" db-id=\"0\" db-num-metrics=\"2\"/>\n"
    "<MetricDB i=\"1\" n=\"T (us) (E)\" t=\"exclusive\" partner=\"0\" db-id=\"1\" db-num-metrics=\"2\"/>\n"
    "</MetricDBTable><ProcedureTable><Procedure i=\"9\" n=\"main\"/></ProcedureTable></SecHeader>\n"
    "<SecCallPathProfileData><M n=\"2\" v=\"6\"/><PF i=\"2\" n=\"9\"><M n=\"2\" v=\"6\"/><M n=\"4\" v=\"4\"/>"
    "<M n=\"5\" v=\"3\"/><S i=\"3\" l=\"7\"><M n=\"3\" v=\"6\"/><M n=\"2\" v=\"6\"/></S></PF>\n"
    "</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>\n";

static int has_warning(const hpcdb_experiment *e, const char *text) {
  for (uint32_t i = 0; i < e->n_warnings; i++)
    if (strstr(e->warnings[i], text)) return 1;
  return 0;
}

static void database(void) {
  const char *dir = testlib_tmpdir("legacy-tiny");
  char path[4096];
  uint8_t b[256];
  snprintf(path, sizeof path, "%s/experiment.xml", dir);
  CHECK_RC(testlib_write_file(path, xml, strlen(xml)));
  const double rank0[] = {2, 0, 2, 0, 2, 2}, rank3[] = {4, 0, 4, 0, 4, 4};
  snprintf(path, sizeof path, "%s/1.tiny-000000-000-a8c00270-100-0.metric-db", dir);
  CHECK_RC(testlib_write_file(path, b, metricdb(b, 3, 2, rank0)));
  snprintf(path, sizeof path, "%s/1.tiny-000003-000-a8c00270-103-0.metric-db", dir);
  CHECK_RC(testlib_write_file(path, b, metricdb(b, 3, 2, rank3)));
  snprintf(path, sizeof path, "%s/1.tiny-000001-000-a8c00270-101-0.metric-db", dir);
  CHECK_RC(testlib_write_file(path, b, metricdb(b, 3, 2, rank0) - 4)); /* short: broken */
  hpcdb_experiment *e;
  CHECK_RC(legacy_read(&e, dir));
  if (!e) return;
  CHECK(!strcmp(e->title, "tiny") && e->version_major == 2 && e->n_metrics == 2);
  CHECK(!strcmp(e->metrics[0].name, "T (us)") && e->metrics[0].n_instances == 2 && e->metrics[0].n_summaries == 3);
  CHECK(!strcmp(e->metrics[1].name, "T (us):Mean") && e->metrics[1].n_summaries == 1);
  /* profiles: summary, ranks 0, 1 (broken), 3, then 2 (missing) */
  CHECK(e->n_profiles == 5 && (e->profiles[0].flags & HPCDB_PROFILE_SUMMARY));
  CHECK(e->profiles[1].n_values == 4 && e->profiles[2].n_values == 0 && e->profiles[3].n_values == 4);
  CHECK(e->profiles[4].n_values == 0 && e->profiles[4].ids[0].logical_id == 2);
  CHECK(e->profiles[3].ids[1].logical_id == 3 && e->profiles[3].ids[0].physical_id == 0xa8c00270u);
  CHECK(has_warning(e, "000001-000") && has_warning(e, "profile is left empty") && has_warning(e, "rank 2"));
  double x;
  uint16_t incl = e->metrics[0].instances[0].prop_metric_id, excl = e->metrics[0].instances[1].prop_metric_id;
  CHECK(hpcdb_profile_value(&e->profiles[3], 3, incl, &x) == 1 && x == 4);
  CHECK(hpcdb_profile_value(&e->profiles[3], 3, excl, &x) == 1 && x == 4);
  CHECK(hpcdb_profile_value(&e->profiles[3], 1, incl, &x) == 1 && x == 4); /* row 0: the entry point */
  CHECK(e->profiles[0].n_ctxs == 3 && e->profiles[0].n_values == 6);       /* 1 + 3 + 2 inline values */
  uint16_t max_id = e->metrics[0].summaries[2].stat_metric_id;
  CHECK(e->metrics[0].summaries[2].combine == HPCDB_COMBINE_MAX);
  CHECK(hpcdb_profile_value(&e->profiles[0], 2, max_id, &x) == 1 && x == 4);
  hpcdb_experiment_free(e);
  hpcdb_validation r;
  CHECK_RC(legacy_validate(&r, dir, NULL, NULL));
  CHECK(r.errors == 1 && r.notes == 1); /* the short file; the missing rank 2 */
}

int main(void) {
  header_and_values();
  database();
  return TEST_END();
}
