/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes the viewer's page (the library's assets) as one self-contained file:
 * no network, no server; it opens from disk. */
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "page/page_assets.h"
#include "page/page_html.h"
#include "page/snapshot.h"

static const page_asset *need(const char *name) {
  const page_asset *a = page_asset_find(name);
  if (!a) hpcdb_fail(HPCDB_EUNSUPPORTED, "the page's file %s is not built into this library", name);
  return a;
}

/* Text inside a <script> or <style> element: "</tag" would end it, so it is
 * written "<\/tag" (the same text in a JS string, regular expression or comment). */
static void raw_text(FILE *out, const char *s, size_t len, const char *tag) {
  size_t t = strlen(tag), from = 0;
  for (size_t i = 0; i + 2 + t <= len; i++)
    if (s[i] == '<' && s[i + 1] == '/' && !strncasecmp(s + i + 2, tag, t)) {
      fwrite(s + from, 1, i + 1 - from, out);
      fputc('\\', out);
      from = i + 1;
    }
  fwrite(s + from, 1, len - from, out);
}

/* index.html split where the export changes it. */
typedef struct shell {
  const char *text, *head_end, *body, *body_end;
} shell;

static int split(shell *s) {
  const page_asset *a = need("index.html");
  if (!a) return HPCDB_EUNSUPPORTED;
  s->text = (const char *)a->data;
  s->head_end = strstr(s->text, "</head>");
  s->body = s->head_end ? strstr(s->head_end, "<body>") : NULL;
  s->body_end = s->body ? strstr(s->body, "</body>") : NULL;
  if (!s->body_end) return hpcdb_fail(HPCDB_EUNSUPPORTED, "the page's index.html has no </head>, <body> and </body>");
  return 0;
}

static int write_body(FILE *out, const shell *s) {
  const page_asset *css[] = {need("style.css"), need("export.css")};
  if (!css[0] || !css[1]) return HPCDB_EUNSUPPORTED;
  /* the head without the lines that load /assets/ from the server */
  for (const char *line = s->text, *next; line < s->head_end; line = next) {
    next = memchr(line, '\n', (size_t)(s->head_end - line));
    next = next ? next + 1 : s->head_end;
    const char *hit = strstr(line, "\"/assets/"); /* the asset ends with a 0 byte */
    if (!hit || hit >= next) fwrite(line, 1, (size_t)(next - line), out);
  }
  fputs("<style>\n", out);
  for (int k = 0; k < 2; k++) raw_text(out, (const char *)css[k]->data, css[k]->len, "style");
  fputs("</style>\n", out);
  fwrite(s->head_end, 1, (size_t)(s->body - s->head_end), out);
  fputs("<body class=\"export\">", out);
  const char *content = s->body + strlen("<body>");
  fwrite(content, 1, (size_t)(s->body_end - content), out);
  return 0;
}

/* The page's modules: the top folder's .js files but the server's api.js and the loader. */
static int is_module(const char *name) {
  size_t n = strlen(name);
  return !strchr(name, '/') && n > 3 && !strcmp(name + n - 3, ".js") && strcmp(name, "api.js") &&
         strcmp(name, "export_loader.js");
}

/* Each module's source, the snapshot and the loader. */
static int write_scripts(FILE *out, hpcdb_query *q, const char *path, const char *metric) {
  const page_asset *loader = need("export_loader.js");
  if (!loader) return HPCDB_EUNSUPPORTED;
  for (const page_asset *a = page_assets; a->name; a++) {
    if (!is_module(a->name)) continue;
    fprintf(out, "<script type=\"text/plain\" data-module=\"%s\">", a->name); /* asset names: no quotes or markup */
    raw_text(out, (const char *)a->data, a->len, "script");
    fputs("</script>\n", out);
  }
  fputs("<script type=\"application/json\" id=\"hpcdb-snapshot\">", out);
  HPCDB_TRY(page_snapshot_write(out, q, path, metric)); /* its strings escape < > & */
  fputs("</script>\n<script>\n", out);
  raw_text(out, (const char *)loader->data, loader->len, "script");
  fputs("</script>\n", out);
  return 0;
}

int page_html_begin(FILE *out, hpcdb_query *q, const char *path, const char *metric) {
  shell s;
  HPCDB_TRY(split(&s));
  HPCDB_TRY(write_body(out, &s));
  HPCDB_TRY(write_scripts(out, q, path, metric));
  fputs("<template id=\"static-sections\">\n", out);
  return 0;
}

int page_html_end(FILE *out) {
  shell s;
  HPCDB_TRY(split(&s));
  fputs("</template>\n", out);
  fputs(s.body_end, out);
  return 0;
}
