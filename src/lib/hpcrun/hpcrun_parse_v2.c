/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a 02.00 / 03.00 measurement file: header pairs, then epochs until
 * the end of the file, each with its metric table, load map and a CCT whose
 * nodes carry one 8-byte value per metric (dense). */
#include <string.h>

#include "hpcrun/hpcrun_parse.h"

static int read_cct(hpcrun_parser *p, hpcrun_epoch *e) {
  hpcrun_tables *t = &e->t;
  int lush = (e->flags & HPCRUN_EPOCH_LOGICAL_UNWIND) != 0;
  t->node_len = 4u + 4 + 2 + 8 + (lush ? 4u + 16 : 0u) + 8 * (uint64_t)t->n_metrics;
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &t->n_nodes, "node count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, t->n_nodes, t->node_len, "cct"));
  t->nodes = hpcrun_parse_alloc(p, t->n_nodes, sizeof *t->nodes);
  e->values = hpcrun_parse_alloc(p, t->n_nodes * t->n_metrics, sizeof *e->values);
  if (!t->nodes || !e->values) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  t->nodes_off = p->c.pos;
  for (uint64_t i = 0; i < t->n_nodes; i++) {
    hpcrun_cct_node *n = &t->nodes[i];
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &n->id, "node id"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &n->parent, "parent id"));
    if (lush) HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &n->lush_assoc, "lush association"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &n->lm_id, "load module id"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &n->ip, "ip"));
    if (lush) {
      HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &n->lip[0], "lip"));
      HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &n->lip[1], "lip"));
    }
    uint64_t *v = e->values + i * t->n_metrics;
    for (uint32_t m = 0; m < t->n_metrics; m++) HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &v[m], "metric value"));
  }
  return 0;
}

static int read_tables(hpcrun_parser *p, hpcrun_epoch *e, int with_tail) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_metric_table(p, &e->t, with_tail));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_loadmap(p, &e->t));
  HPCRUN_PARSE_TRY(p, read_cct(p, e));
  return 0;
}

static int at_epoch_boundary(const hpcrun_parser *p) {
  const hpcdb_cursor *c = &p->c;
  return c->pos == c->len || (c->len - c->pos >= 8 && memcmp(c->base + c->pos, HPCRUN_EPOCH_TAG, 8) == 0);
}

/* Whether the descriptors carry the 2018 tail is not in the version string:
 * the variant whose epoch ends exactly at the end of the file or at the next
 * "EPOCH___" tag wins; else one that parses the whole epoch (what follows is
 * then reported); else the one that read further reports its error. */
static int read_epoch_body(hpcrun_parser *p, hpcrun_epoch *e) {
  uint64_t start = p->c.pos;
  uint64_t reached[2] = {0, 0};
  int parsed[2] = {0, 0};
  hpcrun_epoch base = *e;
  for (int tail = 1; tail >= 0; tail--) {
    *e = base;
    p->c.pos = start;
    hpcrun_parse_clear(p);
    int rc = read_tables(p, e, tail);
    if (rc == 0 && at_epoch_boundary(p)) return 0;
    parsed[tail] = rc == 0;
    reached[tail] = rc == 0 ? p->c.pos : p->err_off;
  }
  int tail = parsed[1] || (!parsed[0] && reached[1] >= reached[0]);
  *e = base;
  p->c.pos = start;
  hpcrun_parse_clear(p);
  return read_tables(p, e, tail);
}

static int read_epoch(hpcrun_parser *p, hpcrun_epoch *e) {
  e->offset = p->c.pos;
  if (p->c.len - p->c.pos < 8)
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, e->offset, "epoch-tag",
                             "%llu trailing bytes where an epoch or the end of the file should be",
                             (unsigned long long)(p->c.len - p->c.pos));
  const uint8_t *tag = cursor_take(&p->c, 8, "epoch tag");
  if (!tag) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
  if (memcmp(tag, HPCRUN_EPOCH_TAG, 8) != 0)
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, e->offset, "epoch-tag",
                             "expected \"EPOCH___\" (or the end of the file)");
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &e->flags, "epoch flags"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &e->granularity, "measurement granularity"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &e->ra_to_callsite, "ra-to-callsite offset"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_nvlist(p, &e->nvps, "epoch pairs"));
  return read_epoch_body(p, e);
}

int hpcrun_parse_v2(hpcrun_parser *p, hpcrun_file *f) {
  p->c.section = "header";
  HPCRUN_PARSE_TRY(p, cursor_skip(&p->c, HPCRUN_HEADER_LEN));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_nvlist(p, &f->header, "header pairs"));
  p->c.section = "epoch";
  /* An epoch needs at least its 28-byte header and three counts. */
  uint64_t cap = (p->c.len - p->c.pos) / 44;
  uint64_t n_cap = 0;
  while (p->c.pos < p->c.len) {
    if (f->n_epochs == n_cap) {
      uint64_t grow = n_cap ? 2 * n_cap : 4;
      if (grow > cap + 1) grow = cap + 1;
      if (grow <= n_cap)
        return hpcrun_parse_fail(p, HPCDB_ECORRUPT, p->c.pos, "epoch-count", "more epochs than bytes allow");
      hpcrun_epoch *bigger = hpcrun_parse_alloc(p, grow, sizeof *bigger);
      if (!bigger) return hpcrun_parse_note(p, HPCDB_ENOMEM);
      if (f->n_epochs) memcpy(bigger, f->epochs, f->n_epochs * sizeof *bigger);
      f->epochs = bigger;
      n_cap = grow;
    }
    hpcrun_epoch *e = &f->epochs[f->n_epochs];
    memset(e, 0, sizeof *e);
    HPCRUN_PARSE_TRY(p, read_epoch(p, e));
    f->n_epochs++;
  }
  return 0;
}
