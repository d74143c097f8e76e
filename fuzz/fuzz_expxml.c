/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: experiment.xml through the streaming parser, as the legacy
 * reader uses it (first problem fails) and as the validators use it
 * (problems reported, fresh ids for negative ones), then the legacy model
 * built from what it found (metrics, summary profile from inline values). */
#include <stddef.h>
#include <stdint.h>

#include "older/expxml/expxml.h"
#include "older/legacy/legacy.h"

static void ignore(void *user, uint64_t offset, const char *rule, const char *detail) {
  (void)user, (void)offset, (void)rule, (void)detail;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const expxml_options modes[2] = {{LEGACY_ENTRY_ID, 0, 0, NULL, NULL}, {0, 1, 100, ignore, NULL}};
  for (int m = 0; m < 2; m++) {
    hpcdb_experiment *exp;
    expxml_doc doc;
    if (expxml_read_buffer(&exp, (const char *)data, size, "fuzz/experiment.xml", &modes[m], &doc) != 0) continue;
    legacy_metric_map map = {NULL, NULL, 0};
    legacy_from_xml(exp, &doc, &map, "fuzz/experiment.xml");
    legacy_metric_map_free(&map);
    expxml_doc_free(&doc);
    hpcdb_experiment_free(exp);
  }
  return 0;
}
