/* SPDX-License-Identifier: BSD-3-Clause */
/* Draft a: the metric tables mapped to model ids (MetricDB ids for thread
 * profiles, partial 0 for the summary, views and other partials left out),
 * contexts written twice (PF i="X" holding C/S i="-X", and the entry point)
 * given the values the stored ones imply, and the ping-pong sample read whole:
 * ids, profiles, a value of each kind, inclusive values adding up. */
#include <math.h>
#include <string.h>

#include "older/drafta/drafta.h"
#include "testlib.h"

static const char xml[] =
    "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"4.0\"><Header n=\"t\"/><SecCallPathProfile i=\"0\" "
    "n=\"t\">"
    "<SecHeader><MetricTable>"
    "<Metric i=\"512\" n=\"T (s):PARTIAL:0 (I)\" t=\"inclusive\"><MetricFormula t=\"combine\" frm=\"sum($512, "
    "$512)\"/></Metric>"
    "<Metric i=\"256\" n=\"T (s):PARTIAL:0 (E)\" t=\"exclusive\"/>"
    "<Metric i=\"300\" n=\"T (s):PARTIAL:1 (I)\" t=\"inclusive\"/>"
    "<Metric i=\"767\" n=\"T (s):Sum (I)\" t=\"inclusive\"><MetricFormula t=\"view\" frm=\"$512\"/></Metric>"
    "</MetricTable><MetricDBTable><MetricDB i=\"2\" n=\"T (s) (I)\"/><MetricDB i=\"1\" n=\"T (s) "
    "(E)\"/></MetricDBTable>"
    "</SecHeader><SecCallPathProfileData/></SecCallPathProfile></HPCToolkitExperiment>\n";

static void metric_tables(void) {
  hpcdb_experiment *e;
  expxml_doc d;
  const expxml_options opt = {0, 1, 0, NULL, NULL};
  CHECK_RC(expxml_read_buffer(&e, xml, strlen(xml), "t.xml", &opt, &d));
  if (!e) return;
  drafta_metric_map map;
  CHECK_RC(drafta_build_metrics(e, &d, &map, "t.xml"));
  CHECK(e->n_metrics == 1 && !strcmp(e->metrics[0].name, "T (s)"));
  const hpcdb_metric *m = &e->metrics[0];
  CHECK(m->n_instances == 2 && m->n_summaries == 2);
  CHECK(!strcmp(e->scopes[m->instances[0].scope].name, "execution") && map.thread[2] == m->instances[0].prop_metric_id);
  CHECK(!strcmp(e->scopes[m->instances[1].scope].name, "function") && map.thread[1] == m->instances[1].prop_metric_id);
  CHECK(map.summary[512] == m->summaries[0].stat_metric_id && map.summary[256] == m->summaries[1].stat_metric_id);
  CHECK(!strcmp(m->summaries[0].formula, "$$") && m->summaries[0].combine == HPCDB_COMBINE_SUM);
  CHECK(map.summary[300] == HPCPROF1_DROP && map.summary[767] == HPCPROF1_DROP && map.thread[0] == HPCPROF1_DROP);
  int warned = 0;
  for (uint32_t i = 0; i < e->n_warnings; i++) warned |= strstr(e->warnings[i], "PARTIAL:1") != NULL;
  CHECK(warned);
  drafta_metric_map_free(&map);
  expxml_doc_free(&d);
  hpcdb_experiment_free(e);
}

static const char twice_xml[] =
    "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"4.0\"><Header n=\"t\"/><SecCallPathProfile i=\"0\" "
    "n=\"t\">"
    "<SecHeader><MetricTable/><MetricDBTable><MetricDB i=\"2\" n=\"T (I)\"/><MetricDB i=\"1\" n=\"T (E)\"/>"
    "</MetricDBTable></SecHeader><SecCallPathProfileData>"
    "<PF i=\"2\" n=\"a\" l=\"0\"><C i=\"-2\" l=\"0\" it=\"2\"><PF i=\"3\" n=\"b\" l=\"0\">"
    "<S i=\"4\" l=\"1\" it=\"4\"/><S i=\"-3\" l=\"0\" it=\"3\"/></PF></C>"
    "<S i=\"5\" l=\"2\" it=\"5\"/><S i=\"-5\" l=\"0\" it=\"5\"/><S i=\"-2\" l=\"0\" it=\"2\"/></PF>"
    "</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>\n";

static uint32_t child_of(const hpcdb_experiment *e, uint32_t parent_id, uint32_t nth) {
  uint32_t c = e->contexts[hpcdb_find_context(e, parent_id)].first_child;
  while (c != HPCDB_NONE && nth--) c = e->contexts[c].next_sibling;
  return c == HPCDB_NONE ? 0 : e->contexts[c].id;
}

/* A PF i="X" holding C/S i="-X": only that one, first, element is the same
 * context; its values and those of the entry point come from the stored ones. */
static void written_twice(void) {
  hpcdb_experiment *e;
  expxml_doc d;
  const expxml_options opt = {0, 1, 0, NULL, NULL};
  CHECK_RC(expxml_read_buffer(&e, twice_xml, strlen(twice_xml), "t.xml", &opt, &d));
  if (!e) return;
  CHECK(d.n_mirrors == 2 && d.mirrors[0].trace_id == 2 &&
        d.mirrors[1].trace_id == 3); /* not -5 in 2, nor a second -2 */
  drafta_metric_map map;
  CHECK_RC(drafta_build_metrics(e, &d, &map, "t.xml"));
  uint16_t ex = map.thread[2], fn = map.thread[1];
  uint32_t entry = e->contexts[e->contexts[0].first_child].id, c2 = child_of(e, 2, 0), s3 = child_of(e, 3, 1);
  /* profile 0 consistent; profile 1: the outer value below its other children's */
  uint32_t ctx[] = {0, 2, 2, 3, 3, 4, 4, 5, 5, 0, 2, 5};
  uint16_t met[] = {ex, ex, fn, ex, fn, ex, fn, ex, fn, ex, ex, ex};
  double val[] = {10, 10, 4, 6, 6, 2, 2, 4, 4, 10, 3, 4};
  uint32_t p0, p1;
  CHECK_RC(hpcdb_add_profile(e, 0, 0, NULL, 0, &p0));
  CHECK_RC(hpcdb_add_profile(e, 0, 0, NULL, 0, &p1));
  CHECK_RC(hpcdb_profile_set_values(e, p0, 9, ctx, met, val));
  CHECK_RC(hpcdb_profile_set_values(e, p1, 3, ctx + 9, met + 9, val + 9));
  uint64_t ts[] = {1, 2, 3, 4, 5};
  uint32_t ids[] = {3, 4, 2, 5, 0};
  CHECK_RC(hpcdb_add_trace(e, p0, 5, ts, ids, NULL));
  CHECK_RC(drafta_fill_mirrors(e, d.mirrors, d.n_mirrors, "t.xml"));
  double x;
  const hpcdb_profile *p = &e->profiles[p0];
  CHECK(hpcdb_profile_value(p, entry, ex, &x) && x == 10 && !hpcdb_profile_value(p, entry, fn, &x));
  CHECK(hpcdb_profile_value(p, c2, ex, &x) && x == 6 && !hpcdb_profile_value(p, c2, fn, &x)); /* 10 - 4; 6 - 6 */
  CHECK(hpcdb_profile_value(p, s3, ex, &x) && x == 4 && hpcdb_profile_value(p, s3, fn, &x) && x == 4);
  CHECK(!hpcdb_profile_value(p, child_of(e, 2, 2), ex, &x) && !hpcdb_profile_value(p, child_of(e, 2, 3), ex, &x));
  p = &e->profiles[p1];
  CHECK(hpcdb_profile_value(p, entry, ex, &x) && x == 10 && !hpcdb_profile_value(p, c2, ex, &x));
  const uint32_t *t = e->traces[0].ctx_ids;
  CHECK(t[0] == s3 && t[1] == 4 && t[2] == c2 && t[3] == 5 && t[4] == 0);
  int warned = 0;
  for (uint32_t i = 0; i < e->n_warnings; i++) warned |= strstr(e->warnings[i], "1 values") != NULL;
  CHECK(warned);
  drafta_metric_map_free(&map);
  expxml_doc_free(&d);
  hpcdb_experiment_free(e);
}

/* In every profile, no context holds less (inclusive) than its children. */
static int adds_up(const hpcdb_experiment *e) {
  const hpcdb_metric *m = &e->metrics[0];
  int ok = 1;
  for (uint32_t pi = 0; pi < e->n_profiles; pi++) {
    const hpcdb_profile *p = &e->profiles[pi];
    uint16_t ex = pi == 0 ? m->summaries[0].stat_metric_id : m->instances[0].prop_metric_id;
    for (uint32_t c = 0; c < e->n_contexts; c++) {
      double self, x, sum = 0;
      hpcdb_profile_value(p, e->contexts[c].id, ex, &self);
      for (uint32_t k = e->contexts[c].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) {
        hpcdb_profile_value(p, e->contexts[k].id, ex, &x);
        sum += x;
      }
      if (self + 1e-12 < sum) {
        fprintf(stderr, "profile %u: context %u holds %g, its children %g\n", pi, e->contexts[c].id, self, sum);
        ok = 0;
      }
    }
  }
  return ok;
}

static void sample(void) {
  if (!testlib_have_samples()) return;
  hpcdb_experiment *e;
  CHECK_RC(drafta_read(&e, testlib_sample("hpctoolkit-2022/ping-pong-mpi")));
  if (!e) return;
  CHECK(!strcmp(e->title, "ping-pong") && e->version_major == 4 && e->n_profiles == 3 && e->n_traces == 2);
  CHECK(e->n_kind_names == 8 && !strcmp(e->kind_names[2], "RANK") && !strcmp(e->kind_names[7], "CORE"));
  /* XML ids kept (PF i="3" is main), negative ones got fresh ids above cct.db's context count */
  uint32_t main_ctx = hpcdb_find_context(e, 3);
  CHECK(main_ctx != HPCDB_NONE && !strcmp(e->functions[e->contexts[main_ctx].function].name, "main"));
  CHECK(e->functions[e->contexts[main_ctx].function].offset == 0x4011d2);
  uint32_t fresh = 0;
  for (uint32_t i = 1; i < e->n_contexts; i++) fresh += e->contexts[i].id >= 0x75;
  CHECK(fresh == 27); /* 26 negative ids and the entry point */
  const hpcdb_metric *m = &e->metrics[0];
  double x;
  CHECK(hpcdb_profile_value(&e->profiles[0], 0, m->summaries[0].stat_metric_id, &x) == 1 && x > 0);
  CHECK(hpcdb_profile_value(&e->profiles[1], 0, m->instances[0].prop_metric_id, &x) == 1 && x > 0);
  CHECK(!strcmp(e->scopes[m->instances[0].scope].name, "execution") && adds_up(e));
  /* C i="-112" inside PF i="112": 112's inclusive 5.41 ms, all spent in its callee */
  uint32_t c112 = child_of(e, 112, 0);
  CHECK(hpcdb_profile_value(&e->profiles[0], c112, m->summaries[0].stat_metric_id, &x) && fabs(x - 0.00541) < 1e-12);
  CHECK(!hpcdb_profile_value(&e->profiles[0], c112, m->summaries[1].stat_metric_id, &x));
  /* S i="-113" inside PF i="113": the statement holds 113's exclusive cost, and rank 0's sample of 113 */
  uint32_t s113 = child_of(e, 113, 0);
  CHECK(hpcdb_profile_value(&e->profiles[2], s113, m->instances[1].prop_metric_id, &x) && fabs(x - 0.00541) < 1e-12);
  uint32_t at113 = 0, still113 = 0;
  for (uint64_t k = 0; k < e->traces[1].n; k++) {
    at113 += e->traces[1].timestamps[k] == 1642362974540355000ull && e->traces[1].ctx_ids[k] == s113;
    still113 += e->traces[1].ctx_ids[k] == 113;
  }
  CHECK(e->traces[1].profile == 2 && at113 == 1 && still113 == 0);
  hpcdb_experiment_free(e);
}

int main(void) {
  metric_tables();
  written_twice();
  sample();
  return TEST_END();
}
