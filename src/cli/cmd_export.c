/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb export: files other tools open. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb export - write an experiment in one of six formats other tools open\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb export --format folded|csv|speedscope|chrome-trace|flamegraph|html\n"
    "                 [--metric NAME] [--profile ID|PATTERN] [--force] PATH -o OUT\n"
    "\n"
    "DESCRIPTION\n"
    "    folded  Brendan Gregg's folded stacks, 'frame;frame;frame value', one line per\n"
    "            context with exclusive cost of the metric, for flamegraph.pl,\n"
    "            speedscope and others. Values from the summary profile unless\n"
    "            --profile selects one. Values are kept to 12 significant digits of\n"
    "            the total (what is below is the noise of sums and differences);\n"
    "            lines whose value is zero at that precision, or negative, are left\n"
    "            out.\n"
    "    csv     every value in long form, header context,profile,metric,inclusive,\n"
    "            exclusive: the native context id, the profile index, the metric's\n"
    "            name, the inclusive (execution) and exclusive (function, else point)\n"
    "            values of each thread profile; for pandas and spreadsheets.\n"
    "    speedscope  speedscope's JSON file format: one sampled profile per rank/thread,\n"
    "            each calling path weighted by its own cost of the metric; the frames\n"
    "            are functions with their file and line (lines, loops and inlined\n"
    "            calls fold into their function).\n"
    "    chrome-trace  Trace Event Format JSON from the traces, for Perfetto and\n"
    "            chrome://tracing: one track per profile, nested slices rebuilt from\n"
    "            the sampled calling paths (consecutive samples in one context merge).\n"
    "    flamegraph  a self-contained interactive SVG flame graph: hover for name and\n"
    "            value, click a frame to zoom, the background to zoom out.\n"
    "    html    hpcdb view's page in one self-contained file that opens from disk with\n"
    "            no network and no server: the top-down, bottom-up and flat tables\n"
    "            (sort by any column, expand, search by regex, hot path, zoom, name\n"
    "            filters, %, CSV, light and dark), the distribution of a node over the\n"
    "            profiles, then the flame graph (its widest 20,000 frames) and, with\n"
    "            traces, a timeline. It holds a snapshot: every metric while nodes x\n"
    "            metrics stays under 1,000,000 (else the metric and the default one),\n"
    "            the heaviest 20,000 nodes of each view by each of them in turn, the\n"
    "            distributions of the heaviest top-down nodes (65,536 points in all).\n"
    "            Left out, and said so where asked: source files, formulas, each\n"
    "            profile's own tree, nodes and metrics past those limits (the status\n"
    "            line says what was cut).\n"
    "    The output is written as it is produced, under a temporary name beside OUT\n"
    "    that becomes OUT only once the export is whole (on an error OUT is left as it\n"
    "    was); '-o -' writes to stdout.\n"
    "\n"
    "OPTIONS\n"
    "    --format F     folded, csv, speedscope, chrome-trace, flamegraph or html\n"
    "    --metric NAME  the metric (folded, speedscope, flamegraph, html); default the\n"
    "                   first time metric with a non-zero total, else the first metric\n"
    "                   with a non-zero total; the choice is said on stderr\n"
    "    --profile ID   folded only: one profile's values, by its identity as 'hpcdb info'\n"
    "                   prints it, or the sum of the profiles a pattern selects:\n"
    "                   rank=3, rank=0-7,thread=0 (any identity level, any case)\n"
    "    -o OUT         the output file ('-': standard output)\n"
    "    --force        replace an existing OUT\n"
    "    An option the format does not use is refused (exit 2).\n"
    "\n"    "OUTPUT\n"
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

int cmd_export(int argc, char **argv) {
  cli_common c = {0};
  static const char *const formats[] = {"folded", "csv", "speedscope", "chrome-trace", "flamegraph", "html"};
  const char *out = NULL, *metric = NULL, *profile = NULL;
  int f_index = -1, force = 0;
  cli_opt opts[] = {{.names = "--format", .kind = CLI_CHOICE, .out = &f_index, .choices = "folded|csv|speedscope|chrome-trace|flamegraph|html"},
                    {.names = "--metric", .kind = CLI_STRING, .out = &metric},
                    {.names = "--profile", .kind = CLI_STRING, .out = &profile},
                    {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = NULL}};
  cli_spec spec = {.cmd = "export", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "PATH"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  if (f_index < 0 || !out) return cli_refuse(&spec, "need --format F and -o OUT");
  const char *format = formats[f_index], *path = spec.pos[0];
  if (profile && f_index != 0) return cli_refuse(&spec, "--profile is for --format folded");
  if (metric && (f_index == 1 || f_index == 3)) return cli_refuse(&spec, "--metric is not for --format csv or chrome-trace");
  char bad[300];
  if (profile && strchr(profile, '=') && hpcdb_profile_pattern_check(profile, bad, sizeof bad) < 0)
    return cli_refuse(&spec, bad);
  if (cli_output_check("export", out, force) != 0) return EXIT_FAILED;
  hpcdb_experiment *exp = NULL;
  hpcdb_source *src = NULL;
  int csv = !strcmp(format, "csv");
  /* folded stacks (of the summary) and the flame graph need the summary profile's values only */
  int summary = (!strcmp(format, "folded") && !profile) || !strcmp(format, "flamegraph");
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, summary ? HPCDB_READ_SUMMARY_ONLY : 0};
  /* CSV goes profile by profile through the source (a v4.0 database's from profile.db) */
  if (csv ? hpcdb_source_open(&src, path, NULL) < 0 : cli_read_opts(&exp, path, &ro) < 0) return cli_fail_last("export");
  if (src) cli_warnings(hpcdb_source_experiment(src));
  uint32_t selected = 0;
  for (uint32_t p = 0; profile && exp && p < exp->n_profiles; p++) selected += hpcdb_profile_matches(exp, &exp->profiles[p], profile);
  if (profile && !selected) {
    fprintf(stderr, "hpcdb export: no profile %s \"%s\" ('hpcdb report --view profiles' lists them)\n",
            strchr(profile, '=') ? "matches" : "has the identity", profile);
    hpcdb_experiment_free(exp);
    hpcdb_source_close(src);
    return EXIT_FAILED;
  }
  if (!metric && !csv && strcmp(format, "chrome-trace")) { /* say which metric the default is */
    uint32_t m;
    const char *why;
    if (hpcdb_default_metric(exp, &m, &why) == 0) {
      metric = exp->metrics[m].name;
      if (!c.quiet) fprintf(stderr, "hpcdb export: metric \"%s\": %s (--metric NAME to choose)\n", metric, why);
    }
  }
  cli_output o;
  if (cli_output_open(&o, "export", out) != 0) {
    hpcdb_experiment_free(exp);
    hpcdb_source_close(src);
    return EXIT_FAILED;
  }
  FILE *f = o.f;
  int rc = csv                            ? hpcdb_export_csv_source(f, src)
           : !strcmp(format, "speedscope")   ? hpcdb_export_speedscope(f, exp, metric)
           : !strcmp(format, "chrome-trace") ? hpcdb_export_chrome_trace(f, exp)
           : !strcmp(format, "flamegraph")   ? hpcdb_export_flamegraph(f, exp, metric)
           : !strcmp(format, "html")         ? hpcdb_export_html(f, exp, metric)
                                             : hpcdb_export_folded(f, exp, metric, profile);
  hpcdb_experiment_free(exp);
  hpcdb_source_close(src);
  if (rc < 0) {
    cli_fail_last("export");
    return cli_output_finish(&o, "export", 0);
  }
  return cli_output_finish(&o, "export", 1);
}
