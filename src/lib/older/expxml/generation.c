/* SPDX-License-Identifier: BSD-3-Clause */
/* Which experiment.xml generation a file (or a database directory's
 * experiment.xml) is, from its first bytes. */
#include "common/probe.h"
#include "older/expxml/expxml.h"

int expxml_generation(const format_probe *p) {
  uint8_t buf[4096];
  const uint8_t *head = p->head;
  size_t n = p->n;
  if (p->is_dir) {
    char xml[4096];
    if (!probe_file_in(p->path, "experiment.xml", xml, sizeof xml)) return 0;
    n = probe_head(xml, buf, sizeof buf);
    head = buf;
  }
  if (!probe_contains(head, n, "HPCToolkitExperiment")) return 0;
  return probe_contains(head, n, "version=\"4.0\"") ? 4 : 2;
}
