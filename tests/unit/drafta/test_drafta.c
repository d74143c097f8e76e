/* Draft a: the metric tables mapped to model ids (MetricDB ids for thread
 * profiles, partial 0 for the summary, views and other partials left out),
 * and the ping-pong sample read whole: ids, profiles, a value of each kind. */
#include <string.h>

#include "drafta/drafta.h"
#include "testlib.h"

static const char xml[] =
    "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"4.0\"><Header n=\"t\"/><SecCallPathProfile i=\"0\" n=\"t\">"
    "<SecHeader><MetricTable>"
    "<Metric i=\"512\" n=\"T (s):PARTIAL:0 (I)\" t=\"inclusive\"><MetricFormula t=\"combine\" frm=\"sum($512, $512)\"/></Metric>"
    "<Metric i=\"256\" n=\"T (s):PARTIAL:0 (E)\" t=\"exclusive\"/>"
    "<Metric i=\"300\" n=\"T (s):PARTIAL:1 (I)\" t=\"inclusive\"/>"
    "<Metric i=\"767\" n=\"T (s):Sum (I)\" t=\"inclusive\"><MetricFormula t=\"view\" frm=\"$512\"/></Metric>"
    "</MetricTable><MetricDBTable><MetricDB i=\"2\" n=\"T (s) (I)\"/><MetricDB i=\"1\" n=\"T (s) (E)\"/></MetricDBTable>"
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
  for (uint32_t i = 0; i < e->n_attrs; i++) warned |= !strcmp(e->attrs[i].key, "warning") && strstr(e->attrs[i].value, "PARTIAL:1");
  CHECK(warned);
  drafta_metric_map_free(&map);
  expxml_doc_free(&d);
  hpcdb_experiment_free(e);
}

static void sample(void) {
  if (!testlib_have_samples()) return;
  hpcdb_experiment *e;
  CHECK_RC(hpcdb_drafta_read(&e, testlib_sample("hpctoolkit-2022/ping-pong-mpi")));
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
  hpcdb_experiment_free(e);
}

int main(void) {
  metric_tables();
  sample();
  return TEST_END();
}
