/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing measurement files from the in-memory struct. A file that was read
 * keeps its layout (section slack and padding bytes as read), so real files
 * come back byte-identical; a struct built in memory (has_layout == 0) gets
 * the canonical layout: each 04.00 section on the next 1024-byte boundary,
 * zero padding. */
#include <stdio.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "hpcrun/hpcrun_outbuf.h"

static void put_nvlist(hpcrun_outbuf *b, const hpcrun_nvlist *l) {
  hpcrun_out_u32(b, l->n);
  for (uint32_t i = 0; i < l->n; i++) {
    hpcrun_out_str(b, &l->items[i].name);
    hpcrun_out_str(b, &l->items[i].value);
  }
}

static void put_loadmap(hpcrun_outbuf *b, const hpcrun_tables *t) {
  hpcrun_out_u32(b, t->n_lm);
  for (uint32_t i = 0; i < t->n_lm; i++) {
    hpcrun_out_u16(b, t->lm[i].id);
    hpcrun_out_str(b, &t->lm[i].name);
    hpcrun_out_u64(b, t->lm[i].flags);
  }
}

static void put_metrics(hpcrun_outbuf *b, const hpcrun_tables *t) {
  hpcrun_out_u32(b, t->n_metrics);
  for (uint32_t i = 0; i < t->n_metrics; i++) {
    const hpcrun_metric_desc *m = &t->metrics[i];
    hpcrun_out_str(b, &m->name);
    hpcrun_out_str(b, &m->description);
    hpcrun_out_bytes(b, m->flags, sizeof m->flags);
    hpcrun_out_u64(b, m->period);
    hpcrun_out_str(b, &m->formula);
    hpcrun_out_str(b, &m->format);
    if (t->metric_tail) {
      hpcrun_out_u16(b, m->is_frequency);
      hpcrun_out_u16(b, m->is_multiplexed);
      hpcrun_out_u64(b, m->threshold_bits);
      hpcrun_out_u64(b, m->num_samples);
    }
  }
}

static void put_v4_cct(hpcrun_outbuf *b, const hpcrun_tables *t) {
  hpcrun_out_u64(b, t->n_nodes);
  for (uint64_t i = 0; i < t->n_nodes; i++) {
    const hpcrun_cct_node *n = &t->nodes[i];
    hpcrun_out_u32(b, n->id);
    hpcrun_out_u32(b, n->parent);
    hpcrun_out_u16(b, n->lm_id);
    hpcrun_out_u64(b, n->ip);
    hpcrun_out_u8(b, n->flags);
  }
}

static void put_kinds(hpcrun_outbuf *b, const hpcrun_file *f) {
  hpcrun_out_u16(b, f->n_kinds);
  for (uint16_t i = 0; i < f->n_kinds; i++) {
    hpcrun_out_u16(b, f->kinds[i].kind);
    hpcrun_out_str(b, &f->kinds[i].name);
  }
}

static void put_sparse(hpcrun_outbuf *b, const hpcrun_sparse *s) {
  hpcrun_out_u16(b, s->n_ids);
  for (uint16_t i = 0; i < s->n_ids; i++) {
    hpcrun_out_u16(b, s->ids[i].kind);
    hpcrun_out_u64(b, s->ids[i].physical);
    hpcrun_out_u64(b, s->ids[i].logical);
  }
  hpcrun_out_u64(b, s->n_values);
  hpcrun_out_u32(b, s->n_nz_ctxs);
  for (uint64_t i = 0; i < s->n_values; i++) {
    hpcrun_out_u64(b, s->value_bits[i]);
    hpcrun_out_u16(b, s->metric_ids[i]);
  }
  for (uint64_t i = 0; i <= s->n_nz_ctxs; i++) {
    hpcrun_out_u32(b, s->ctx_ids[i]);
    hpcrun_out_u64(b, s->ctx_starts[i]);
  }
}

static void put_section(hpcrun_outbuf *b, const hpcrun_file *f, int s, uint64_t *start, uint64_t *end) {
  *start = b->len;
  switch (s) {
  case HPCRUN_SEC_HEADER:
    hpcrun_out_bytes(b, HPCRUN_MAGIC, HPCRUN_MAGIC_LEN);
    hpcrun_out_bytes(b, "04.00b", 6);
    put_nvlist(b, &f->header);
    break;
  case HPCRUN_SEC_LOADMAP: put_loadmap(b, &f->t); break;
  case HPCRUN_SEC_CCT: put_v4_cct(b, &f->t); break;
  case HPCRUN_SEC_METRICS: put_metrics(b, &f->t); break;
  case HPCRUN_SEC_IDTUPLES: put_kinds(b, f); break;
  default: put_sparse(b, &f->sparse); break;
  }
  const hpcrun_section_layout *sec = &f->sections[s];
  if (f->has_layout) hpcrun_out_bytes(b, sec->slack, sec->slack_len);
  *end = b->len;
  if (!f->has_layout)
    hpcrun_out_zeros(b, (HPCRUN_SECTION_ALIGN - b->len % HPCRUN_SECTION_ALIGN) % HPCRUN_SECTION_ALIGN);
  else if (sec->gap) hpcrun_out_bytes(b, sec->gap, sec->gap_len);
  else hpcrun_out_zeros(b, sec->gap_len);
}

static void put_v4(hpcrun_outbuf *b, const hpcrun_file *f) {
  uint64_t off[2 * HPCRUN_N_SECTIONS];
  for (int s = 0; s < HPCRUN_N_SECTIONS; s++) put_section(b, f, s, &off[2 * s], &off[2 * s + 1]);
  uint64_t footer = b->len;
  for (int i = 0; i < 2 * HPCRUN_N_SECTIONS; i++) hpcrun_out_u64(b, off[i]);
  hpcrun_out_u64(b, footer);
  hpcrun_out_u64(b, HPCRUN_FOOTER_MAGIC);
}

static void put_v2(hpcrun_outbuf *b, const hpcrun_file *f) {
  hpcrun_out_bytes(b, HPCRUN_MAGIC, HPCRUN_MAGIC_LEN);
  char version[8];
  snprintf(version, sizeof version, "%02u.00b", (unsigned)f->major);
  hpcrun_out_bytes(b, version, 6);
  put_nvlist(b, &f->header);
  for (uint32_t i = 0; i < f->n_epochs; i++) {
    const hpcrun_epoch *e = &f->epochs[i];
    int lush = (e->flags & HPCRUN_EPOCH_LOGICAL_UNWIND) != 0;
    hpcrun_out_bytes(b, HPCRUN_EPOCH_TAG, 8);
    hpcrun_out_u64(b, e->flags);
    hpcrun_out_u64(b, e->granularity);
    hpcrun_out_u32(b, e->ra_to_callsite);
    put_nvlist(b, &e->nvps);
    put_metrics(b, &e->t);
    put_loadmap(b, &e->t);
    hpcrun_out_u64(b, e->t.n_nodes);
    for (uint64_t k = 0; k < e->t.n_nodes; k++) {
      const hpcrun_cct_node *n = &e->t.nodes[k];
      hpcrun_out_u32(b, n->id);
      hpcrun_out_u32(b, n->parent);
      if (lush) hpcrun_out_u32(b, n->lush_assoc);
      hpcrun_out_u16(b, n->lm_id);
      hpcrun_out_u64(b, n->ip);
      if (lush) {
        hpcrun_out_u64(b, n->lip[0]);
        hpcrun_out_u64(b, n->lip[1]);
      }
      for (uint32_t m = 0; m < e->t.n_metrics; m++) hpcrun_out_u64(b, e->values[k * e->t.n_metrics + m]);
    }
  }
}

int hpcrun_file_serialize(const hpcrun_file *f, uint8_t **out, uint64_t *len) {
  *out = NULL;
  *len = 0;
  if (!(f->major >= 2 && f->major <= 4 && f->minor == 0))
    return hpcdb_fail(HPCDB_EINVAL, "hpcrun writer: version %u.%u is not 2.0, 3.0 or 4.0", f->major, f->minor);
  hpcrun_outbuf b = {0};
  if (f->major == 4) put_v4(&b, f);
  else put_v2(&b, f);
  if (b.failed) {
    free(b.data);
    return hpcdb_fail(HPCDB_ENOMEM, "hpcrun writer: out of memory");
  }
  *out = b.data;
  *len = b.len;
  return 0;
}

int hpcrun_write_bytes(const char *path, const uint8_t *data, uint64_t len) {
  return atomic_file_write_whole(path, data, (size_t)len, 0);
}

int hpcrun_file_write(const hpcrun_file *f, const char *path) {
  uint8_t *data;
  uint64_t len;
  HPCDB_TRY(hpcrun_file_serialize(f, &data, &len));
  int rc = hpcrun_write_bytes(path, data, len);
  free(data);
  return rc;
}
