#include "report/table.h"

#include <stdlib.h>
#include <string.h>

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

void table_begin(table *t, FILE *out, const report_data *d, const hpcdb_report_options *o, const char *what) {
  t->out = out;
  t->d = d;
  t->o = o;
  unsigned width = o->width ? o->width : 100;
  unsigned cols = COL_W * d->n_cols;
  t->name_width = width > cols + 20 ? width - cols : 20;
  t->rows = 0;
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
      json_number(out, d->total[c]);
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
    fprintf(out, "%s: total %s\n", d->cols[c].name, v);
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
  size_t n = strlen(s), pad = width > n ? width - n : 0;
  if (!left) memset(line + *at, ' ', pad), *at += pad;
  memcpy(line + *at, s, n), *at += n;
  if (left) memset(line + *at, ' ', pad), *at += pad;
}

void table_row(table *t, unsigned depth, const char *name, long long id, const double *inc, const double *exc) {
  FILE *out = t->out;
  if (t->o->json) {
    fprintf(out, "%s{\"depth\":%u,\"context\":", t->rows++ ? ",\n" : "\n", depth);
    if (id >= 0) fprintf(out, "%lld", id);
    else fputs("null", out);
    fputs(",\"name\":", out);
    json_string(out, name);
    fputs(",\"values\":[", out);
    for (uint32_t c = 0; c < t->d->n_cols; c++) {
      fputs(c ? ",{\"inclusive\":" : "{\"inclusive\":", out);
      json_number(out, inc[c]);
      fputs(",\"exclusive\":", out);
      json_number(out, exc[c]);
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
      double pct = t->d->total[c] != 0 ? 100.0 * inc[c] / t->d->total[c] : 0;
      fprintf(out, ",%.17g,%.2f,%.17g", inc[c], pct, exc[c]);
    }
    fputc('\n', out);
    return;
  }
  unsigned indent = depth > 20 ? 20 : depth;
  if (2 * indent + 12 > t->name_width) indent = t->name_width > 12 ? (t->name_width - 12) / 2 : 0; /* room for the name */
  char label[512]; /* the indent, then the name (cut as snprintf would) */
  size_t spaces = 2 * indent, n = strlen(name);
  if (n > sizeof label - 1 - spaces) n = sizeof label - 1 - spaces;
  memset(label, ' ', spaces);
  memcpy(label + spaces, name, n);
  label[spaces + n] = '\0';
  fit_label(label, t->name_width - 1, 2 * indent);
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
    report_value(b, sizeof b, exc[c], t->d->cols[c].seconds);
    fmt_f1(p, sizeof p, t->d->total[c] != 0 ? 100.0 * inc[c] / t->d->total[c] : 0);
    put_field(line, &at, a, 11, 0);
    line[at++] = ' ';
    put_field(line, &at, p, 5, 0);
    line[at++] = '%', line[at++] = ' ';
    put_field(line, &at, b, 10, 0);
  }
  if (t->o->color && depth == 0) memcpy(line + at, "\033[0m", 4), at += 4;
  line[at++] = '\n';
  fwrite(line, 1, at, out);
  if (line != stack_line) free(line);
}

void table_end(table *t) {
  if (t->o->json) fputs("\n]}\n", t->out);
}
