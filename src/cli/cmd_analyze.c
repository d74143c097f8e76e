/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb analyze: hpcrun measurements to a v4.0 database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "hpcdb/hpcdb.h"
#include "process.h"

static const char help[] =
    "NAME\n"
    "    hpcdb analyze - turn hpcrun measurements into an HPCToolkit v4.0 database\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb analyze [-j N] [--stats] [--strict] [--force] [--quiet]\n"
    "                  [--struct FILE|DIR]... [--replace-path OLD=NEW]... [--ignore-structs]\n"
    "                  [--openmp regions|raw]\n"
    "                  MEASUREMENTS -o DB\n"
    "\n"
    "DESCRIPTION\n"
    "    Reads every *.hpcrun file (04.00, and 02.00/03.00 with their epochs) of the\n"
    "    MEASUREMENTS directory and the *.hpctrace file beside each, and writes the\n"
    "    database HPCToolkit's hpcprof would: the threads' calling-context trees unified\n"
    "    into one (the same calling path is the same context),\n"
    "    each metric propagated per thread in the scopes point, function, lex_aware and\n"
    "    execution, summary statistics over threads in the canonical summary profile,\n"
    "    profile.db, its transpose cct.db, trace.db when traces exist, and\n"
    "    metrics/default.yaml.\n"
    "\n"
    "    Program structure: a load module that a structure file describes (hpcstruct's\n"
    "    XML, or hpcdb struct's: MEASUREMENTS/structs/*.hpcstruct, and those given with\n"
    "    --struct, as hpcprof -S) gets, for every frame in it, the function, the loops,\n"
    "    the inlined calls (with their call-site lines) and the source line around the\n"
    "    instruction; values move from the instructions to those contexts exactly as\n"
    "    hpcprof moves them. A module no structure file describes is analyzed from its\n"
    "    binary, where the measurement recorded it (or --replace-path puts it), as\n"
    "    hpcdb struct would. A structure file that cannot be read, or a binary that is\n"
    "    missing or cannot be analyzed, is a warning naming it; those frames are\n"
    "    instruction contexts (load module + offset), as with hpcprof --ignore-structs.\n"
    "    Kernel frames get function names from MEASUREMENTS/kernel_symbols/.\n"
    "    GPU runs (CUDA, ROCm): each kernel is a <gpu kernel> context under its launch\n"
    "    site with the kernel's code (gpubins/) below it; each GPU stream is a profile\n"
    "    (GPUCONTEXT/GPUSTREAM) with its trace.\n"
    "\n"
    "    A measurement file that cannot be read is skipped with a warning naming it (one\n"
    "    crashed thread must not lose a whole run); --strict makes it an error. The\n"
    "    database is written through temporary files: a failed run leaves none behind.\n"
    "\n"
    "OPTIONS\n"
    "    -o DB        the database directory to write (required)\n"
    "    -j N         worker threads (default 1, at least 1); the database is the same\n"
    "                 for every N\n"
    "    --stats      also write count, sum of squares, min and max (hpcprof --stats)\n"
    "    --strict     fail on the first unreadable measurement file\n"
    "    --force      replace an existing database\n"
    "    --struct P   a structure file, or a directory of *.hpcstruct files (repeatable;\n"
    "                 -S P is the same)\n"
    "    --replace-path OLD=NEW  a binary recorded under the directory OLD is looked for\n"
    "                 under NEW (repeatable; -R is the same, as hpcprof -R); a structure\n"
    "                 file naming the binary's new path describes it too\n"
    "    --ignore-structs  no program structure: every frame an instruction context\n"
    "                 (not with --struct)\n"
    "    --openmp M   'regions' (default): each OpenMP worker thread's part of a parallel\n"
    "                 region goes where the master thread entered the region (its\n"
    "                 GOMP_parallel or __kmpc_fork_call), or under '<omp parallel region X>'\n"
    "                 below the thread's root when the master entered it from several\n"
    "                 places; 'raw': each thread's tree as measured, as hpcprof writes it\n"
    "    --quiet, -q  no summary line\n"
    "\n"
    "OUTPUT\n"
    "    An existing DB is refused unless --force is given; a missing parent folder\n"
    "    is never created (both: exit 2, nothing written).\n"
    "\n"

    "ENVIRONMENT\n"
    "    GLIBC_TUNABLES  without glibc.malloc.hugetlb in it, hpcdb analyze starts itself again\n"
    "                 with glibc.malloc.hugetlb=1 added: its heap in huge pages (set it to run\n"
    "                 hpcdb analyze under a tool that does not follow exec)\n"
    "\n"
    "EXIT STATUS\n"
    "    0 written, 2 failed (nothing written)\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb analyze hpctoolkit-app-measurements -o app.d\n"
    "    hpcdb analyze -j 2 --stats meas.m -o meas.d --force\n"
    "    hpcdb analyze --struct app.hpcstruct meas.m -o meas.d\n";

static void print_warning(void *user, const char *message) { fprintf(stderr, "hpcdb analyze: warning: %s\n", message); }

int cmd_analyze(int argc, char **argv) {
  hpcdb_analyze_options opt = {.threads = 1};
  cli_common c = {0};
  cli_list structs = {0}, replace = {0};
  unsigned long long threads = 1;
  const char *out = NULL;
  int force = 0, openmp = 0;
  cli_opt opts[] = {
      {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
      {.names = "-j|--jobs", .kind = CLI_UINT, .out = &threads, .min = 1, .max = 4096},
      {.names = "--stats", .kind = CLI_FLAG, .out = &opt.all_stats},
      {.names = "--strict", .kind = CLI_FLAG, .out = &opt.strict},
      {.names = "--force", .kind = CLI_FLAG, .out = &force},
      {.names = "-S|--struct", .kind = CLI_LIST, .out = &structs},
      {.names = "-R|--replace-path", .kind = CLI_LIST, .out = &replace},
      {.names = "--ignore-structs", .kind = CLI_FLAG, .out = &opt.ignore_structs, .conflicts = "--struct"},
      {.names = "--openmp", .kind = CLI_CHOICE, .out = &openmp, .choices = "regions|raw"},
      {.names = NULL}};
  cli_spec spec = {
      .cmd = "analyze", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "MEASUREMENTS"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  if (!out) return cli_refuse(&spec, "need -o DB");
  for (unsigned i = 0; i < replace.n; i++)
    if (!strchr(replace.v[i], '=') || replace.v[i][0] == '=') return cli_refuse(&spec, "--replace-path takes OLD=NEW");
  if (cli_output_check("analyze", out, force) != 0) return EXIT_FAILED;
  const char *in = spec.pos[0];
  opt.threads = (unsigned)threads;
  opt.structs = structs.v;
  opt.n_structs = structs.n;
  opt.replace_paths = replace.v;
  opt.n_replace_paths = replace.n;
  opt.write_flags = force ? HPCDB_WRITE_FORCE : 0;
  opt.output = out;
  opt.openmp_raw = openmp == 1;
  hpcdb_experiment *exp;
  hpcdb_analyze_result res;
  process_tune_allocator();
  if (hpcdb_analyze(&exp, in, &opt, print_warning, NULL, &res) < 0) return cli_fail_last("analyze");
  hpcdb_experiment_free(exp);
  if (!c.quiet)
    fprintf(stderr, "hpcdb analyze: %u profiles (%u skipped), %u traces, %u contexts, %llu values -> %s\n",
            res.profiles_read, res.profiles_skipped, res.traces_read, res.contexts, (unsigned long long)res.values,
            out);
  return EXIT_OK;
}
