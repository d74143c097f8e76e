/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb convert: any readable format to a v4.0 database or a .cubex file. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"

static const char help[] =
    "NAME\n"
    "    hpcdb convert - write a file or database as a v4.0 database or a Cube file\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb convert [--to WRITER] [--compress] [--force] [--strict] SRC DST\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads SRC in any format hpcdb reads and writes it to DST as an HPCToolkit v4.0\n"
    "    database directory (meta.db, profile.db, cct.db, and trace.db when there are\n"
    "    traces), or with --to cube as a Cube v4 file (.cubex) that CubeLib, the Cube\n"
    "    GUI and pycubexr read; a directory of hpcrun measurements is analyzed as\n"
    "    'hpcdb analyze' does.\n"
    "    The source's metrics/ taxonomy and src/ tree are copied along; when the\n"
    "    source has no metrics/default.yaml, one listing every metric is written. Each file\n"
    "    is written to a temporary name and renamed when complete: a failed conversion\n"
    "    leaves no partial database, and SRC is never modified. Converting a v4.0\n"
    "    database re-writes it; doing so twice gives byte-identical files (the same\n"
    "    holds for Cube files). docs/mapping.md describes how contexts, profiles and\n"
    "    metrics map to Cube's cnodes, locations and metrics.\n"
    "\n"
    "    What the source holds that v4.0 has no place for (e.g. free attributes, labels\n"
    "    of contexts) is listed as warnings; --strict refuses such a conversion instead.\n"
    "\n"
    "OPTIONS\n"
    "    --to WRITER  the format to write, by its writer's name as 'hpcdb formats' lists\n"
    "                 them: v4 (the default), cube\n"
    "    --compress   with a writer that compresses (cube: the values as ZCUBEX.DATA,\n"
    "                 zlib per row)\n"
    "    --force      replace an existing database or file at DST\n"
    "    --strict     refuse (exit 1) when the conversion would lose something\n"
    "\n"
    "OUTPUT\n"
    "    An existing DST is refused unless --force is given; a missing parent folder\n"
    "    is never created (both: exit 2, nothing written).\n"
    "\n"

    "EXIT STATUS\n"
    "    0 written, 1 refused because the conversion would lose data, 2 failed\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb convert old-database upgraded.d\n"
    "    hpcdb convert --force app.d app-copy.d\n"
    "    hpcdb convert --to cube --compress database app.cubex\n"
    "    hpcdb convert profile.cubex profile.d\n";

static void print_loss(void *user, const char *line) { fprintf(stderr, "hpcdb convert: warning: %s\n", line); }

/* The writers' names joined by sep; those that compress (HPCDB_FORMAT_COMPRESSES) only, with compressing. */
static void writers(char *buf, size_t size, const char *sep, int compressing) {
  hpcdb_format_info f;
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; hpcdb_format_get(i, &f) == 0 && len < size; i++)
    if (f.writer && (!compressing || (f.caps & HPCDB_FORMAT_COMPRESSES)))
      len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? sep : "", f.writer);
}

/* The n-th writer, in the order the formats are listed (that of the --to choices). */
static const char *nth_writer(int n) {
  hpcdb_format_info f;
  for (uint32_t i = 0; hpcdb_format_get(i, &f) == 0; i++)
    if (f.writer && n-- == 0) return f.writer;
  return NULL;
}

int cmd_convert(int argc, char **argv) {
  cli_common c = {0};
  int strict = 0, compress = 0, force = 0, to = -1;
  char choices[256], compressing[256], why[300];
  writers(choices, sizeof choices, "|", 0);
  cli_opt opts[] = {{.names = "--to", .kind = CLI_CHOICE, .out = &to, .choices = choices},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = "--strict", .kind = CLI_FLAG, .out = &strict},
                    {.names = "--compress", .kind = CLI_FLAG, .out = &compress},
                    {.names = NULL}};
  cli_spec spec = {
      .cmd = "convert", .help = help, .opts = opts, .min_pos = 2, .max_pos = 2, .pos_names = "SRC and DST"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  const char *writer = to < 0 ? "v4" : nth_writer(to);
  hpcdb_format_info f = {0};
  for (uint32_t i = 0; hpcdb_format_get(i, &f) == 0 && !(f.writer && !strcmp(f.writer, writer)); i++) continue;
  if (compress && !(f.caps & HPCDB_FORMAT_COMPRESSES)) {
    writers(compressing, sizeof compressing, " or ", 1);
    snprintf(why, sizeof why, "--compress is for --to %s", compressing);
    return cli_refuse(&spec, why);
  }
  int v4 = !strcmp(writer, "v4");
  const char *src = spec.pos[0], *dst = spec.pos[1];
  unsigned flags = force ? HPCDB_WRITE_FORCE : 0;
  if (cli_output_check("convert", dst, force) != 0) return EXIT_FAILED;
  hpcdb_format format;
  if (hpcdb_detect(&format, src) < 0) return cli_fail_last("convert");
  if (format == HPCDB_FORMAT_HPCRUN_DIR && v4) { /* measurements become a database the way analyze does it */
    hpcdb_analyze_options opt = {.threads = 1, .strict = strict, .write_flags = flags, .output = dst};
    hpcdb_experiment *exp;
    if (hpcdb_analyze(&exp, src, &opt, NULL, NULL, NULL) < 0) return cli_fail_last("convert");
    hpcdb_experiment_free(exp);
    return EXIT_OK;
  }
  hpcdb_experiment *exp;
  if (cli_read(&exp, src) < 0) return cli_fail_last("convert");
  hpcdb_line_fn warn = c.quiet ? NULL : print_loss;
  uint64_t losses = hpcdb_write_losses(writer, exp, warn, NULL);
  if (losses && strict) {
    hpcdb_experiment_free(exp);
    fprintf(stderr, "hpcdb convert: refused: %llu kinds of data would be lost (--strict)\n",
            (unsigned long long)losses);
    return EXIT_INVALID;
  }
  int rc = hpcdb_write(writer, exp, dst, flags | (compress ? HPCDB_WRITE_COMPRESS : 0));
  hpcdb_experiment_free(exp);
  if (rc < 0) return cli_fail_last("convert");
  if (c.verbose) fprintf(stderr, "hpcdb convert: wrote %s\n", dst);
  return EXIT_OK;
}
