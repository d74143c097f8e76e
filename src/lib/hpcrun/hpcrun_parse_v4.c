/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a 04.00 measurement file: the footer first (it locates the
 * sections), then each section within its [start, end) range. Bytes between
 * sections and after a section's parsed content are kept raw. */
#include <string.h>

#include "hpcrun/hpcrun_parse.h"

static const char *const section_names[HPCRUN_N_SECTIONS] = {
    "header", "load map", "cct", "metric table", "id-tuple dictionary", "sparse values"};

static int read_footer(hpcrun_parser *p, hpcrun_file *f) {
  hpcdb_cursor *c = &p->c;
  if (c->len < HPCRUN_HEADER_LEN + HPCRUN_FOOTER_LEN)
    return hpcrun_parse_fail(p, HPCDB_ETRUNCATED, c->len, "footer",
                             "file of %llu bytes cannot hold the header and the %d-byte footer",
                             (unsigned long long)c->len, HPCRUN_FOOTER_LEN);
  uint64_t foot = c->len - HPCRUN_FOOTER_LEN;
  HPCRUN_PARSE_TRY(p, cursor_section(c, "footer", foot, HPCRUN_FOOTER_LEN));
  uint64_t v[13], magic;
  for (int i = 0; i < 13; i++) HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &v[i], "footer offset"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &magic, "footer magic"));
  if (magic != HPCRUN_FOOTER_MAGIC)
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, foot + 104, "footer-magic",
                             "footer magic is 0x%016llx, expected 0x%016llx (\"HPCRUNsm\")", (unsigned long long)magic,
                             (unsigned long long)HPCRUN_FOOTER_MAGIC);
  f->footer_start = v[12];
  if (f->footer_start != foot)
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, foot + 96, "footer-offset",
                             "footer says it starts at 0x%llx but it is the last %d bytes (0x%llx)",
                             (unsigned long long)f->footer_start, HPCRUN_FOOTER_LEN, (unsigned long long)foot);
  uint64_t prev_end = 0;
  for (int s = 0; s < HPCRUN_N_SECTIONS; s++) {
    hpcrun_section_layout *sec = &f->sections[s];
    sec->start = v[2 * s];
    sec->end = v[2 * s + 1];
    uint64_t at = foot + 16 * (uint64_t)s;
    if (s == HPCRUN_SEC_HEADER && sec->start != 0)
      return hpcrun_parse_fail(p, HPCDB_ECORRUPT, at, "section-order", "the header section starts at 0x%llx, not 0",
                               (unsigned long long)sec->start);
    if (sec->start < prev_end || sec->end < sec->start || sec->end > foot)
      return hpcrun_parse_fail(p, HPCDB_ECORRUPT, at, "section-order",
                               "%s section [0x%llx, 0x%llx) overlaps the previous one (ends 0x%llx) or "
                               "runs past the footer (0x%llx)",
                               section_names[s], (unsigned long long)sec->start, (unsigned long long)sec->end,
                               (unsigned long long)prev_end, (unsigned long long)foot);
    prev_end = sec->end;
  }
  return 0;
}

static int enter(hpcrun_parser *p, const hpcrun_file *f, int s) {
  const hpcrun_section_layout *sec = &f->sections[s];
  HPCRUN_PARSE_TRY(p, cursor_section(&p->c, section_names[s], sec->start, sec->end - sec->start));
  return 0;
}

/* Keeps what lies between the parsed end and the section end, and the gap up
 * to the next section (NULL when it is all zero, the usual padding). */
static int finish(hpcrun_parser *p, hpcrun_file *f, int s) {
  hpcrun_section_layout *sec = &f->sections[s];
  uint64_t next = s + 1 < HPCRUN_N_SECTIONS ? f->sections[s + 1].start : f->footer_start;
  const uint8_t *base = p->c.base;
  uint64_t slack = sec->end - p->c.pos;
  if (slack > UINT32_MAX)
    return hpcrun_parse_fail(p, HPCDB_EUNSUPPORTED, p->c.pos, "section-slack",
                             "%llu unparsed bytes at the end of the section", (unsigned long long)slack);
  sec->slack_len = (uint32_t)slack;
  if (slack && !(sec->slack = hpcrun_parse_copy_bytes(p, base + p->c.pos, slack)))
    return hpcrun_parse_note(p, HPCDB_ENOMEM);
  sec->gap_len = next - sec->end;
  sec->gap = NULL;
  for (uint64_t i = sec->end; i < next; i++)
    if (base[i]) {
      if (!(sec->gap = hpcrun_parse_copy_bytes(p, base + sec->end, sec->gap_len)))
        return hpcrun_parse_note(p, HPCDB_ENOMEM);
      break;
    }
  return 0;
}

static int read_cct(hpcrun_parser *p, hpcrun_tables *t) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &t->n_nodes, "node count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, t->n_nodes, HPCRUN_V4_NODE_LEN, "cct"));
  t->nodes = hpcrun_parse_alloc_filled(p, t->n_nodes, sizeof *t->nodes); /* each node is written whole below */
  if (!t->nodes) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  t->nodes_off = p->c.pos;
  t->node_len = HPCRUN_V4_NODE_LEN;
  for (uint64_t i = 0; i < t->n_nodes; i++) {
    const uint8_t *b = cursor_take(&p->c, HPCRUN_V4_NODE_LEN, "cct node");
    if (!b) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
    t->nodes[i] = (hpcrun_cct_node){
        .id = rd_be32(b), .parent = rd_be32(b + 4), .lm_id = rd_be16(b + 8), .ip = rd_be64(b + 10), .flags = b[18]};
  }
  return 0;
}

/* 04.00 writers append the descriptor tail; the section end tells whether a
 * table has it: the variant that ends exactly there wins, else the tail. */
static int read_metrics(hpcrun_parser *p, hpcrun_file *f) {
  uint64_t start = p->c.pos;
  for (int tail = 1; tail >= 0; tail--) {
    hpcrun_tables t = f->t;
    if (hpcrun_parse_metric_table(p, &t, tail) == 0 && p->c.pos == p->c.limit) {
      f->t = t;
      return 0;
    }
    p->c.pos = start;
    hpcrun_parse_clear(p);
  }
  return hpcrun_parse_metric_table(p, &f->t, 1);
}

static int read_kinds(hpcrun_parser *p, hpcrun_file *f) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &f->n_kinds, "kind count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, f->n_kinds, 6, "id-tuple dictionary"));
  f->kinds = hpcrun_parse_alloc(p, f->n_kinds, sizeof *f->kinds);
  if (!f->kinds) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  for (uint16_t i = 0; i < f->n_kinds; i++) {
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &f->kinds[i].kind, "kind"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &f->kinds[i].name, "kind name"));
  }
  return 0;
}

static int read_values(hpcrun_parser *p, hpcrun_sparse *s) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &s->n_ids, "id tuple length"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, s->n_ids, 18, "id tuple"));
  s->ids = hpcrun_parse_alloc(p, s->n_ids, sizeof *s->ids);
  if (!s->ids) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  for (uint16_t i = 0; i < s->n_ids; i++) {
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &s->ids[i].kind, "id kind"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &s->ids[i].physical, "physical id"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &s->ids[i].logical, "logical id"));
  }
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &s->n_values, "value count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &s->n_nz_ctxs, "context count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, s->n_values, 10, "values"));
  s->values_off = p->c.pos;
  s->value_bits = hpcrun_parse_alloc(p, s->n_values, sizeof *s->value_bits);
  s->metric_ids = hpcrun_parse_alloc(p, s->n_values, sizeof *s->metric_ids);
  if (!s->value_bits || !s->metric_ids) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  for (uint64_t i = 0; i < s->n_values; i++) {
    const uint8_t *b = cursor_take(&p->c, 10, "value");
    if (!b) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
    s->value_bits[i] = rd_be64(b);
    s->metric_ids[i] = rd_be16(b + 8);
  }
  uint64_t n_pairs = (uint64_t)s->n_nz_ctxs + 1; /* + the sentinel pair */
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, n_pairs, 12, "context index"));
  s->ctxs_off = p->c.pos;
  s->ctx_ids = hpcrun_parse_alloc(p, n_pairs, sizeof *s->ctx_ids);
  s->ctx_starts = hpcrun_parse_alloc(p, n_pairs, sizeof *s->ctx_starts);
  if (!s->ctx_ids || !s->ctx_starts) return hpcrun_parse_note(p, HPCDB_ENOMEM);
  for (uint64_t i = 0; i < n_pairs; i++) {
    const uint8_t *b = cursor_take(&p->c, 12, "context index entry");
    if (!b) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
    s->ctx_ids[i] = rd_be32(b);
    s->ctx_starts[i] = rd_be64(b + 4);
  }
  return 0;
}

int hpcrun_parse_v4(hpcrun_parser *p, hpcrun_file *f) {
  HPCRUN_PARSE_TRY(p, read_footer(p, f));
  f->has_layout = 1;
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_HEADER));
  HPCRUN_PARSE_TRY(p, cursor_skip(&p->c, HPCRUN_HEADER_LEN));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_nvlist(p, &f->header, "header pairs"));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_HEADER));
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_LOADMAP));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_loadmap(p, &f->t));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_LOADMAP));
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_CCT));
  HPCRUN_PARSE_TRY(p, read_cct(p, &f->t));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_CCT));
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_METRICS));
  HPCRUN_PARSE_TRY(p, read_metrics(p, f));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_METRICS));
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_IDTUPLES));
  HPCRUN_PARSE_TRY(p, read_kinds(p, f));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_IDTUPLES));
  HPCRUN_PARSE_TRY(p, enter(p, f, HPCRUN_SEC_VALUES));
  HPCRUN_PARSE_TRY(p, read_values(p, &f->sparse));
  HPCRUN_PARSE_TRY(p, finish(p, f, HPCRUN_SEC_VALUES));
  return 0;
}
