/* hpcdb analyze: hpcrun measurements to a v4.0 database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "process.h"

static const char help[] =
    "NAME\n"
    "    hpcdb analyze - turn hpcrun measurements into an HPCToolkit v4.0 database\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb analyze [-j N] [--stats] [--strict] [--force] [--quiet]\n"
    "                  [--struct FILE|DIR]... [--replace-path OLD=NEW]... [--ignore-structs]\n"
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
    "    -j N         worker threads (default 1); the database is the same for every N\n"
    "    --stats      also write count, sum of squares, min and max (hpcprof --stats)\n"
    "    --strict     fail on the first unreadable measurement file\n"
    "    --force      replace an existing database\n"
    "    --quiet      no summary line\n"
    "    --struct P   a structure file, or a directory of *.hpcstruct files (repeatable;\n"
    "                 -S P is the same)\n"
    "    --replace-path OLD=NEW  a binary recorded under the directory OLD is looked for\n"
    "                 under NEW (repeatable; -R is the same, as hpcprof -R); a structure\n"
    "                 file naming the binary's new path describes it too\n"
    "    --ignore-structs  no program structure: every frame an instruction context\n"
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

static void print_warning(void *user, const char *message) {
  fprintf(stderr, "hpcdb analyze: warning: %s\n", message);
}

static int analyze_main(int argc, char **argv, const char **structs, const char **replace) {
  hpcdb_analyze_options opt = {.threads = 1};
  const char *in = NULL, *out = NULL;
  int quiet = 0;
  opt.structs = structs;
  opt.replace_paths = replace;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(help, stdout);
      return 0;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(a, "-j") && i + 1 < argc) {
      opt.threads = (unsigned)strtoul(argv[++i], NULL, 10);
    } else if (!strncmp(a, "-j", 2) && a[2]) {
      opt.threads = (unsigned)strtoul(a + 2, NULL, 10);
    } else if (!strcmp(a, "--stats")) {
      opt.all_stats = 1;
    } else if (!strcmp(a, "--strict")) {
      opt.strict = 1;
    } else if (!strcmp(a, "--force")) {
      opt.write_flags |= HPCDB_WRITE_FORCE;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if ((!strcmp(a, "--struct") || !strcmp(a, "-S")) && i + 1 < argc) {
      structs[opt.n_structs++] = argv[++i];
    } else if ((!strcmp(a, "--replace-path") || !strcmp(a, "-R")) && i + 1 < argc && strchr(argv[i + 1], '=')) {
      replace[opt.n_replace_paths++] = argv[++i];
    } else if (!strcmp(a, "--ignore-structs")) {
      opt.ignore_structs = 1;
    } else if (a[0] == '-' || in) {
      fprintf(stderr, "hpcdb analyze: unexpected argument '%s' (see --help)\n", a);
      return 2;
    } else {
      in = a;
    }
  }
  if (!in || !out) {
    fprintf(stderr, "hpcdb analyze: need MEASUREMENTS and -o DB (see --help)\n");
    return 2;
  }
  hpcdb_experiment *exp;
  hpcdb_analyze_result res;
  opt.output = out;
  process_tune_allocator();
  if (hpcdb_analyze(&exp, in, &opt, print_warning, NULL, &res) < 0) {
    fprintf(stderr, "hpcdb analyze: %s\n", hpcdb_last_error());
    return 2;
  }
  hpcdb_experiment_free(exp);
  if (!quiet)
    fprintf(stderr, "hpcdb analyze: %u profiles (%u skipped), %u traces, %u contexts, %llu values -> %s\n",
            res.profiles_read, res.profiles_skipped, res.traces_read, res.contexts,
            (unsigned long long)res.values, out);
  return 0;
}

int cmd_analyze(int argc, char **argv) {
  const char **structs = calloc((size_t)argc + 1, sizeof *structs); /* the --struct paths */
  const char **replace = calloc((size_t)argc + 1, sizeof *replace); /* the --replace-path rules */
  int rc = structs && replace ? analyze_main(argc, argv, structs, replace) : 2;
  free(structs);
  free(replace);
  return rc;
}
