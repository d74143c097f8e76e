/* SPDX-License-Identifier: BSD-3-Clause */
/* The pieces the 02.00 and 04.00 readers share: bounded integers, strings,
 * name/value lists, the load map and the metric table. */
#include "hpcrun/hpcrun_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hpcrun_parse_init(hpcrun_parser *p, const uint8_t *data, uint64_t len, const char *path, hpcdb_arena *arena) {
  memset(p, 0, sizeof *p);
  cursor_init(&p->c, data, len, path);
  p->arena = arena;
}

int hpcrun_parse_fail(hpcrun_parser *p, int status, uint64_t off, const char *rule, const char *fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  p->noted = 1;
  p->err_off = off;
  p->err_rule = rule;
  return hpcdb_fail_at(status, p->c.path, p->c.section, off, rule, "%s", detail);
}

int hpcrun_parse_note(hpcrun_parser *p, int status) {
  if (!p->noted) {
    p->noted = 1;
    p->err_off = p->c.pos;
    p->err_rule = status == HPCDB_ENOMEM ? "memory" : "bounds";
  }
  return status;
}

void hpcrun_parse_clear(hpcrun_parser *p) {
  p->noted = 0;
  p->err_off = 0;
  p->err_rule = NULL;
}

void hpcrun_parse_copy_error(const hpcrun_parser *p, hpcrun_parse_error *err) {
  if (!err) return;
  err->offset = p->err_off;
  err->rule = p->err_rule ? p->err_rule : "bounds";
}

int hpcrun_parse_map(hpcdb_mapped_file *m, const char *path, hpcrun_parse_error *err) {
  int rc = mapped_file_open(m, path);
  if (rc < 0 && err) {
    err->offset = 0;
    err->rule = "io";
  }
  return rc;
}

int hpcrun_parse_check_count(hpcrun_parser *p, uint64_t count, uint64_t min_size, const char *what) {
  uint64_t left = p->c.limit - p->c.pos;
  if (count > left / min_size)
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, p->c.pos, "count-bounds",
                             "%s: %llu entries of at least %llu bytes do not fit in the %llu bytes left", what,
                             (unsigned long long)count, (unsigned long long)min_size, (unsigned long long)left);
  return 0;
}

void *hpcrun_parse_alloc_filled(hpcrun_parser *p, uint64_t count, size_t size) {
  uint64_t total;
  if (!mul_ok(count, size, &total) || total > SIZE_MAX) return NULL;
  return arena_alloc(p->arena, (size_t)(total ? total : 1));
}

void *hpcrun_parse_alloc(hpcrun_parser *p, uint64_t count, size_t size) {
  void *r = hpcrun_parse_alloc_filled(p, count, size);
  if (r) memset(r, 0, (size_t)(count * size)); /* the product was checked */
  return r;
}

const uint8_t *hpcrun_parse_copy_bytes(hpcrun_parser *p, const uint8_t *src, uint64_t n) {
  uint8_t *r = hpcrun_parse_alloc(p, n, 1);
  if (r && n) memcpy(r, src, (size_t)n);
  return r;
}

int hpcrun_parse_u8(hpcrun_parser *p, uint8_t *v, const char *what) {
  HPCRUN_PARSE_TRY(p, cursor_u8(&p->c, v, what));
  return 0;
}
int hpcrun_parse_u16(hpcrun_parser *p, uint16_t *v, const char *what) {
  HPCRUN_PARSE_TRY(p, cursor_be16(&p->c, v, what));
  return 0;
}
int hpcrun_parse_u32(hpcrun_parser *p, uint32_t *v, const char *what) {
  HPCRUN_PARSE_TRY(p, cursor_be32(&p->c, v, what));
  return 0;
}
int hpcrun_parse_u64(hpcrun_parser *p, uint64_t *v, const char *what) {
  HPCRUN_PARSE_TRY(p, cursor_be64(&p->c, v, what));
  return 0;
}

static int nomem(hpcrun_parser *p) { return hpcrun_parse_fail(p, HPCDB_ENOMEM, p->c.pos, "memory", "out of memory"); }

int hpcrun_parse_str(hpcrun_parser *p, hpcrun_str *s, const char *what) {
  uint32_t n;
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &n, what));
  const uint8_t *b = cursor_take(&p->c, n, what);
  if (!b) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
  char *copy = arena_strndup(p->arena, (const char *)b, n);
  if (!copy) return nomem(p);
  s->s = copy;
  s->len = n;
  return 0;
}

int hpcrun_parse_nvlist(hpcrun_parser *p, hpcrun_nvlist *l, const char *what) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &l->n, what));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, l->n, 8, what));
  l->items = hpcrun_parse_alloc(p, l->n, sizeof *l->items);
  if (!l->items) return nomem(p);
  for (uint32_t i = 0; i < l->n; i++) {
    HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &l->items[i].name, "pair name"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &l->items[i].value, "pair value"));
  }
  return 0;
}

int hpcrun_parse_loadmap(hpcrun_parser *p, hpcrun_tables *t) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &t->n_lm, "load module count"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_check_count(p, t->n_lm, 14, "load map"));
  t->lm = hpcrun_parse_alloc(p, t->n_lm, sizeof *t->lm);
  if (!t->lm) return nomem(p);
  for (uint32_t i = 0; i < t->n_lm; i++) {
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &t->lm[i].id, "load module id"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &t->lm[i].name, "load module name"));
    HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &t->lm[i].flags, "load module flags"));
  }
  return 0;
}

static int metric_desc(hpcrun_parser *p, hpcrun_metric_desc *m, int with_tail) {
  HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &m->name, "metric name"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &m->description, "metric description"));
  const uint8_t *flags = cursor_take(&p->c, sizeof m->flags, "metric flags");
  if (!flags) return hpcrun_parse_note(p, HPCDB_ETRUNCATED);
  memcpy(m->flags, flags, sizeof m->flags);
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &m->period, "metric period"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &m->formula, "metric formula"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_str(p, &m->format, "metric format"));
  if (!with_tail) return 0;
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &m->is_frequency, "is-frequency"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u16(p, &m->is_multiplexed, "is-multiplexed"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &m->threshold_bits, "threshold mean"));
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u64(p, &m->num_samples, "sample count"));
  return 0;
}

int hpcrun_parse_metric_table(hpcrun_parser *p, hpcrun_tables *t, int with_tail) {
  t->metric_tail = with_tail;
  HPCRUN_PARSE_TRY(p, hpcrun_parse_u32(p, &t->n_metrics, "metric count"));
  HPCRUN_PARSE_TRY(
      p, hpcrun_parse_check_count(p, t->n_metrics, 40 + (with_tail ? HPCRUN_METRIC_TAIL_LEN : 0), "metric table"));
  t->metrics = hpcrun_parse_alloc(p, t->n_metrics, sizeof *t->metrics);
  if (!t->metrics) return nomem(p);
  for (uint32_t i = 0; i < t->n_metrics; i++) HPCRUN_PARSE_TRY(p, metric_desc(p, &t->metrics[i], with_tail));
  return 0;
}

double hpcrun_metric_value(const hpcrun_metric_desc *m, uint64_t bits) {
  if (m && m->flags[HPCRUN_MFLAG_VALFMT] == HPCRUN_VALFMT_INT) return (double)bits;
  return bits_to_f64(bits);
}

double hpcrun_metric_sampled_value(const hpcrun_metric_desc *m, uint64_t bits) {
  return hpcrun_metric_value(m, bits) * (double)m->period;
}

uint64_t hpcrun_node_lm_field(const hpcrun_file *f, const hpcrun_tables *t) {
  int lush = f->major != 4 && t->node_len > 4 + 4 + 2 + 8 + 8 * (uint64_t)t->n_metrics;
  return lush ? 12 : 8;
}
