/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

#include "common/dtoa.h"
#include "common/fixed_decimal.h"
#include "core/json_out.h"

#define COL_W 29 /* "  inclusive      %   exclusive" */

static void csv_text(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

/* A label cut to width characters at a word boundary, never mid-word: a
 * summary row "[N more, ...]" keeps its first clause ("[N more]"); a name is
 * cut before a space, '(', '<', ',' or '[' in its second half and marked '~'
 * (a name without such a place is cut hard, still marked). */
static void fit_label(char *label, size_t width, size_t indent) {
  size_t n = strlen(label);
  if (n <= width || width < indent + 4) return;
  char *text = label + indent;
  char *comma = strchr(text, ',');
  if (text[0] == '[' && label[n - 1] == ']' && comma && (size_t)(comma - label) + 1 <= width) {
    comma[0] = ']', comma[1] = '\0';
    return;
  }
  size_t cut = width - 1; /* room for the mark */
  for (size_t i = cut; i >= indent + (width - indent) / 2; i--)
    if (strchr(" (<,[", label[i])) {
      cut = i;
      break;
    }
  while (cut > indent + 1 && label[cut - 1] == ' ') cut--;
  label[cut] = '~';
  label[cut + 1] = '\0';
}

/* A value in CSV or JSON: an integer column's exact integer (ints non-NULL) with all its digits. */
static void put_number(FILE *out, const table *t, uint32_t c, double v, const uint64_t *ints) {
  char buf[32];
  uint8_t kind = t->d->cols[c].integer;
  v += 0.0; /* -0 becomes 0 */
  if (ints && kind)
    fwrite(buf, 1, kind == HPCDB_INTEGER_SIGNED ? fmt_i64(buf, (int64_t)ints[c]) : fmt_u64(buf, ints[c]), out);
  else if (t->o->json) json_number(out, v);
  else fprintf(out, "%.17g", v);
}

uint32_t table_default_columns(const hpcdb_report_options *o) {
  unsigned width = o->width ? o->width : 100, name = width * 2 / 5 > 30 ? width * 2 / 5 : 30;
  unsigned n = width > name + COL_W ? (width - name) / COL_W : 1;
  return n < 1 ? 1 : n > 3 ? 3 : n;
}

void table_begin(table *t, FILE *out, const report_data *d, const hpcdb_report_options *o, const char *what) {
  t->out = out;
  t->d = d;
  t->o = o;
  unsigned width = o->width ? o->width : 100;
  unsigned cols = COL_W * d->n_cols;
  t->name_width = width > cols + 20 ? width - cols : 20;
  t->rows = 0;
  t->longest = 0;
  if (o->json) {
    fputs("{\"view\":", out);
    json_string(out, what);
    fputs(",\"values\":", out);
    json_string(out, d->source);
    fputs(",\"metrics\":[", out);
    for (uint32_t c = 0; c < d->n_cols; c++) {
      fputs(c ? ",{\"name\":" : "{\"name\":", out);
      json_string(out, d->cols[c].name);
      fputs(",\"total\":", out);
      put_number(out, t, c, d->total[c], d->iinc ? d->itotal : NULL);
      fputc('}', out);
    }
    fputs("],\n\"rows\":[", out);
    return;
  }
  if (o->csv) {
    fputs("depth,context,name", out);
    for (uint32_t c = 0; c < d->n_cols; c++) {
      fputc(',', out);
      csv_text(out, d->cols[c].name);
      fputs(" inclusive,", out);
      csv_text(out, d->cols[c].name);
      fputs(" percent,", out);
      csv_text(out, d->cols[c].name);
      fputs(" exclusive", out);
    }
    fputc('\n', out);
    return;
  }
  fprintf(out, "%s; values: %s\n", what, d->source);
  if (d->why) fprintf(out, "metric: %s (%s; --metric NAME to choose)\n", d->cols[0].name, d->why);
  for (uint32_t c = 0; c < d->n_cols; c++) {
    char v[64];
    report_value(v, sizeof v, d->total[c], d->cols[c].seconds);
    if (d->cols[c].extreme)
      fprintf(out, "%s: a minimum or maximum over each subtree (no total, no share)\n", d->cols[c].name);
    else fprintf(out, "%s: total %s\n", d->cols[c].name, v);
  }
  fputc('\n', out);
  fprintf(out, "%-*s", (int)t->name_width, "");
  for (uint32_t c = 0; c < d->n_cols; c++) {
    char title[COL_W + 1];
    snprintf(title, sizeof title, "%s", d->cols[c].name);
    fprintf(out, "%*s", COL_W, title);
  }
  fputc('\n', out);
  fprintf(out, "%-*s", (int)t->name_width, "");
  for (uint32_t c = 0; c < d->n_cols; c++) fprintf(out, "%11s %6s %10s", "inclusive", "%", "exclusive");
  fputc('\n', out);
}

/* s into line at *at in a field of `width` characters, as printf's "%*s"
 * (right) or "%-*s" (left) writes it; line has room (table_row sees to it).
 * A row is written with one fwrite: its many small fields cost far less so. */
static void put_field(char *line, size_t *at, const char *s, size_t width, int left) {
  size_t n = strlen(s), chars = 0; /* UTF-8: a character per byte that is not a continuation byte */
  for (size_t i = 0; i < n; i++) chars += ((unsigned char)s[i] & 0xc0) != 0x80;
  size_t pad = width > chars ? width - chars : 0;
  if (!left) memset(line + *at, ' ', pad), *at += pad;
  memcpy(line + *at, s, n), *at += n;
  if (left) memset(line + *at, ' ', pad), *at += pad;
}

void table_row(table *t, unsigned depth, const char *name, long long id, const double *inc, const double *exc) {
  table_row_exact(t, depth, name, id, inc, exc, NULL, NULL);
}

void table_row_exact(table *t, unsigned depth, const char *name, long long id, const double *inc, const double *exc,
                     const uint64_t *iinc, const uint64_t *iexc) {
  FILE *out = t->out;
  const double *total = t->d->total;
  double shown_inc[REPORT_MAX_COLUMNS], shown_exc[REPORT_MAX_COLUMNS];
  for (uint32_t c = 0; c < t->d->n_cols; c++) { /* as a person reads them: an integer column's integers */
    uint8_t kind = t->d->cols[c].integer;
    shown_inc[c] = iinc && kind ? report_integer_double(iinc[c], kind) : inc[c];
    shown_exc[c] = !exc ? 0 : iexc && kind ? report_integer_double(iexc[c], kind) : exc[c];
  }
  if (!exc) iexc = NULL; /* no exclusive value: 0 in CSV and JSON */
  inc = shown_inc;
  if (t->o->json) {
    fprintf(out, "%s{\"depth\":%u,\"context\":", t->rows++ ? ",\n" : "\n", depth);
    if (id >= 0) fprintf(out, "%lld", id);
    else fputs("null", out);
    fputs(",\"name\":", out);
    json_string(out, name);
    fputs(",\"values\":[", out);
    for (uint32_t c = 0; c < t->d->n_cols; c++) {
      fputs(c ? ",{\"inclusive\":" : "{\"inclusive\":", out);
      put_number(out, t, c, inc[c], iinc);
      fputs(",\"exclusive\":", out);
      put_number(out, t, c, shown_exc[c], iexc);
      fputc('}', out);
    }
    fputs("]}", out);
    return;
  }
  if (t->o->csv) {
    fprintf(out, "%u,", depth);
    if (id >= 0) fprintf(out, "%lld", id);
    fputc(',', out);
    csv_text(out, name);
    for (uint32_t c = 0; c < t->d->n_cols; c++) {
      fputc(',', out);
      put_number(out, t, c, inc[c], iinc);
      fprintf(out, ",%.2f,", total[c] != 0 ? 100.0 * inc[c] / total[c] : 0);
      put_number(out, t, c, shown_exc[c], iexc);
    }
    fputc('\n', out);
    return;
  }
  /* two spaces a level up to a third of the name column; deeper rows stay there and say their depth */
  unsigned cap = t->name_width / 3;
  char label[1024]; /* the indent, then the name (cut as snprintf would) */
  size_t spaces = 2 * depth <= cap ? 2 * depth : cap & ~1u, n = strlen(name);
  memset(label, ' ', spaces);
  if (2 * depth > cap) spaces += (size_t)snprintf(label + spaces, 16, "%u> ", depth);
  if (n > sizeof label - 1 - spaces) n = sizeof label - 1 - spaces;
  memcpy(label + spaces, name, n);
  label[spaces + n] = '\0';
  int folded_row = name[0] == '[' && strstr(name, " more, "); /* "[N more]" is its short form, not a cut */
  if (!folded_row && spaces + n + 1 > t->longest) t->longest = (unsigned)(spaces + n + 1);
  fit_label(label, t->name_width - 1, spaces);
  /* the longest a row can be: the label's field, then per metric three values of under 64 characters each */
  size_t room = (t->name_width > sizeof label ? t->name_width : sizeof label) + (size_t)t->d->n_cols * 3 * 64 + 16;
  char stack_line[4096], *line = room <= sizeof stack_line ? stack_line : malloc(room);
  if (!line) return; /* the stream's error is the caller's: nothing written */
  size_t at = 0;
  if (t->o->color && depth == 0) memcpy(line, "\033[1m", 4), at = 4;
  put_field(line, &at, label, t->name_width, 1);
  for (uint32_t c = 0; c < t->d->n_cols; c++) {
    char a[64], b[64], p[64];
    report_value(a, sizeof a, inc[c], t->d->cols[c].seconds);
    if (exc) report_value(b, sizeof b, shown_exc[c], t->d->cols[c].seconds);
    else b[0] = '\0'; /* no exclusive value (a profile's total) */
    fmt_f1(p, sizeof p, total[c] != 0 ? 100.0 * inc[c] / total[c] : 0);
    put_field(line, &at, a, 11, 0);
    line[at++] = ' ';
    put_field(line, &at, t->d->cols[c].extreme ? "" : p, 5, 0);
    line[at++] = t->d->cols[c].extreme ? ' ' : '%', line[at++] = ' ';
    put_field(line, &at, b, 10, 0);
  }
  if (t->o->color && depth == 0) memcpy(line + at, "\033[0m", 4), at += 4;
  line[at++] = '\n';
  fwrite(line, 1, at, out);
  if (line != stack_line) free(line);
}

void table_end(table *t) {
  if (t->o->json) fputs("\n]}\n", t->out);
  if (!t->o->json && !t->o->csv && t->longest > t->name_width)
    fprintf(t->out, "\nnames cut to fit %u columns: --width %u shows them whole\n", t->o->width ? t->o->width : 100,
            (t->o->width ? t->o->width : 100) + (t->longest - t->name_width));
}
