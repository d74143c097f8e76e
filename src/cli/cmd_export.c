/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb export: files other tools open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

/* The help, made from the exports' table (hpcdb_export_get): a new export is listed with its own words. */
static const char help_head[] =
    "NAME\n"
    "    hpcdb export - write an experiment in a format other tools open\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb export --format %s\n"
    "                 [--metric NAME] [--profile ID|PATTERN] [--force] PATH -o OUT\n"
    "    hpcdb export --list\n"
    "\n"
    "DESCRIPTION\n";
static const char help_tail[] =
    "    The output is written as it is produced, under a temporary name beside OUT\n"
    "    that becomes OUT only once the export is whole (on an error OUT is left as it\n"
    "    was); '-o -' writes to stdout.\n"
    "\n"
    "OPTIONS\n"
    "    --format F     %s\n"
    "    --metric NAME  the metric (%s); default the\n"
    "                   first time metric with a non-zero total, else the first metric\n"
    "                   with a non-zero total; the choice is said on stderr\n"
    "    --profile ID   %s only: one profile's values, by its identity as 'hpcdb info'\n"
    "                   prints it, or the sum of the profiles a pattern selects:\n"
    "                   rank=3, rank=0-7,thread=0 (any identity level, any case)\n"
    "    -o OUT         the output file ('-': standard output)\n"
    "    --force        replace an existing OUT\n"
    "    --list         the exports, one a line: name, the options it takes, what it\n"
    "                   reads of the experiment (no PATH then)\n"
    "    An option the format does not use is refused (exit 2).\n"
    "\n"
    "OUTPUT\n"
    "    An existing OUT is refused unless --force is given; a missing parent folder\n"
    "    is never created (both: exit 2, nothing written).\n"
    "\n"
    "EXIT STATUS\n"
    "    0 written, 2 failed (also when there is nothing to export: no non-zero value\n"
    "    of the metric, no trace samples; no file is left then)\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb export --format folded app.d -o app.folded && flamegraph.pl app.folded > app.svg\n"
    "    hpcdb export --format csv app.d -o app.csv\n";

/* The names of the exports that take (want 1) or do not take (want 0) the option bit, joined by sep
 * ("a, b or c" when last is " or "). */
static void names(char *buf, size_t size, unsigned bit, int want, const char *sep, const char *last) {
  const hpcdb_export_info *e, *pick[64];
  size_t n = 0, len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; (e = hpcdb_export_get(i)) && n < 64; i++)
    if (!bit || ((e->takes & bit) != 0) == want) pick[n++] = e;
  for (size_t k = 0; k < n && len < size; k++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", k == 0 ? "" : k + 1 == n ? last : sep, pick[k]->name);
}

/* One export's paragraph: its name at column 4, the words wrapped to 80 columns at column 12. */
static void paragraph(FILE *f, const hpcdb_export_info *e) {
  int col = fprintf(f, "    %s", e->name), gap = col < 12 ? 12 - col : 2;
  for (const char *w = e->help; *w; gap = 1) {
    int n = (int)strcspn(w, " ");
    if (gap == 1 && col + 1 + n > 80) {
      fputc('\n', f);
      col = fprintf(f, "%12s", ""), gap = 0;
    }
    col += fprintf(f, "%*s%.*s", gap, "", n, w);
    w += n;
    w += *w == ' ';
  }
  fputc('\n', f);
}

static char *make_help(void) {
  char *text = NULL, all[512], choices[512], metric[512], profile[512];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  names(all, sizeof all, 0, 1, "|", "|");
  names(choices, sizeof choices, 0, 1, ", ", " or ");
  names(metric, sizeof metric, HPCDB_EXPORT_TAKES_METRIC, 1, ", ", ", ");
  names(profile, sizeof profile, HPCDB_EXPORT_TAKES_PROFILE, 1, ", ", " or ");
  fprintf(f, help_head, all);
  const hpcdb_export_info *e;
  for (uint32_t i = 0; (e = hpcdb_export_get(i)); i++) paragraph(f, e);
  fprintf(f, help_tail, choices, metric, profile);
  fclose(f);
  return text;
}

static int list(void) {
  static const char *const reads[] = {"the summary's values", "every value and the traces",
                                      "every profile's values, one at a time"};
  const hpcdb_export_info *e;
  for (uint32_t i = 0; (e = hpcdb_export_get(i)); i++)
    printf("%-13s %-9s %-10s %s\n", e->name, e->takes & HPCDB_EXPORT_TAKES_METRIC ? "--metric" : "",
           e->takes & HPCDB_EXPORT_TAKES_PROFILE ? "--profile" : "", reads[e->reads]);
  return EXIT_OK;
}

static void say_metric(void *user, const char *metric, const char *why) {
  if (!*(const int *)user) fprintf(stderr, "hpcdb export: metric \"%s\": %s (--metric NAME to choose)\n", metric, why);
}

static int run(const cli_spec *spec, const cli_common *c, int f_index, hpcdb_export_options o, const char *out,
               int force) {
  (void)c;
  const hpcdb_export_info *e = f_index >= 0 ? hpcdb_export_get((uint32_t)f_index) : NULL;
  char why[300], bad[300];
  if (!e || !out) return cli_refuse(spec, "need --format F and -o OUT");
  const char *unused = o.profile && !(e->takes & HPCDB_EXPORT_TAKES_PROFILE) ? "--profile"
                       : o.metric && !(e->takes & HPCDB_EXPORT_TAKES_METRIC) ? "--metric"
                                                                             : NULL;
  if (unused) {
    snprintf(why, sizeof why, "%s is not for --format %s", unused, e->name);
    return cli_refuse(spec, why);
  }
  if (o.profile && strchr(o.profile, '=') && hpcdb_profile_pattern_check(o.profile, bad, sizeof bad) < 0)
    return cli_refuse(spec, bad);
  if (cli_output_check("export", out, force) != 0) return EXIT_FAILED;
  hpcdb_read_options ro;
  hpcdb_export_read_options(e, &o, &ro);
  hpcdb_source *src;
  if (hpcdb_source_open(&src, spec->pos[0], &ro) < 0) return cli_fail_last("export");
  const hpcdb_experiment *exp = hpcdb_source_experiment(src);
  cli_warnings(exp);
  uint32_t selected = 0;
  for (uint32_t p = 0; o.profile && p < exp->n_profiles; p++)
    if (hpcdb_profile_matches(exp, &exp->profiles[p], o.profile)) selected++;
  if (o.profile && !selected) {
    fprintf(stderr, "hpcdb export: no profile %s \"%s\" ('hpcdb report --view profiles' lists them)\n",
            strchr(o.profile, '=') ? "matches" : "has the identity", o.profile);
    hpcdb_source_close(src);
    return EXIT_FAILED;
  }
  cli_output w;
  if (cli_output_open(&w, "export", out) != 0) {
    hpcdb_source_close(src);
    return EXIT_FAILED;
  }
  int rc = hpcdb_export(w.f, src, e->name, &o);
  hpcdb_source_close(src);
  if (rc < 0) {
    cli_fail_last("export");
    return cli_output_finish(&w, "export", 0);
  }
  return cli_output_finish(&w, "export", 1);
}

int cmd_export(int argc, char **argv) {
  cli_common c = {0};
  char *help = make_help(), choices[512];
  if (!help) return cli_fail_last("export");
  names(choices, sizeof choices, 0, 1, "|", "|");
  const char *out = NULL, *metric = NULL, *profile = NULL;
  int f_index = -1, force = 0, listing = 0;
  cli_opt opts[] = {{.names = "--format", .kind = CLI_CHOICE, .out = &f_index, .choices = choices},
                    {.names = "--metric", .kind = CLI_STRING, .out = &metric},
                    {.names = "--profile", .kind = CLI_STRING, .out = &profile},
                    {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = "--list", .kind = CLI_FLAG, .out = &listing},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "export", .help = help, .opts = opts, .max_pos = 1, .pos_names = "PATH"};
  int rc = cli_parse(&spec, argc, argv, &c);
  if (rc == CLI_GO_ON && listing) rc = argc == 2 ? list() : cli_refuse(&spec, "--list takes no other argument");
  else if (rc == CLI_GO_ON && spec.n_pos == 0) rc = cli_refuse(&spec, "need PATH");
  else if (rc == CLI_GO_ON)
    rc = run(&spec, &c, f_index,
             (hpcdb_export_options){HPCDB_EXPORT_OPTIONS_VERSION, metric, profile, say_metric, &c.quiet}, out, force);
  free(help);
  return rc;
}
