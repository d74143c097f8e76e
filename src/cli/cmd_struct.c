/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb struct: structure files (HPCToolkit's .hpcstruct XML) for binaries. */
#include <unistd.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_args.h"
#include "hpcdb/binstruct.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/hpcrun.h"
#include "struct_child.h"

static const char help[] =
    "NAME\n"
    "    hpcdb struct - write the program structure of binaries, as hpcstruct does\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb struct [OPTIONS] BINARY [-o FILE.hpcstruct] [--force]\n"
    "    hpcdb struct [OPTIONS] [--strict] MEASUREMENTS\n"
    "\n"
    "DESCRIPTION\n"
    "    Writes HPCToolkit's structure XML (the .hpcstruct files hpcprof and\n"
    "    hpcdb analyze read) for an ELF executable or shared library: its source files,\n"
    "    procedures (with link names), inlined calls (alien scopes with their call\n"
    "    sites), loops and statements, with address ranges.\n"
    "\n"
    "    Functions, inlined calls and line tables come from DWARF (in the binary, or a\n"
    "    split debug file found by build id under /usr/lib/debug/.build-id/, by\n"
    "    .gnu_debuglink, or from the debuginfod servers DEBUGINFOD_URLS names). Code\n"
    "    DWARF does not describe, and binaries without DWARF, get procedures from the\n"
    "    ELF symbol tables (.symtab, else .dynsym) and from the unwind tables\n"
    "    (.eh_frame, .debug_frame: '<unknown procedure> 0xADDR' for a function without\n"
    "    a symbol, as hpcstruct names those it finds), line 0; in a binary without any\n"
    "    DWARF their names carry ' [BINARY]' as hpcstruct's do. The binaries without\n"
    "    any line information are named on stderr.\n"
    "\n"
    "    Loops come from the machine code (x86-64 and aarch64, through Capstone):\n"
    "    each function's control-flow graph, dominators, natural loops from back edges\n"
    "    (loops entered at more than one block are counted as irreducible); a loop is\n"
    "    named by the line of its exit test when its header ends in it (test-first\n"
    "    loops, as hpcstruct names them), else by its back-edge branch (rotated loops,\n"
    "    whose test is at the bottom). Other machines get functions and lines only;\n"
    "    CUDA binaries (gpubins/) their kernels from the symbol table only, placed as\n"
    "    hpcstruct places them. C++ and Rust names are demangled as c++filt and rustfilt\n"
    "    print them (GCC's clone suffixes as [clone .constprop.0]), gfortran's module\n"
    "    procedures named mod::proc; the linkage name is kept in ln.\n"
    "\n"
    "    With a MEASUREMENTS directory (hpcrun output), every binary named in the load\n"
    "    maps of its .hpcrun files, and every file in its gpubins/, gets a structure file\n"
    "    in MEASUREMENTS/structs/ (named after the binary), which hpcdb analyze then\n"
    "    uses. Binaries that no longer exist, or were modified after the newest .hpcrun\n"
    "    file, are skipped with a warning. Results are cached by build id and content\n"
    "    hash, so the same binaries cost nothing the second time. Every file is\n"
    "    written to a temporary and renamed. A measurement file that cannot be read is\n"
    "    skipped with a warning naming it, as hpcdb analyze skips it (--strict: an\n"
    "    error); none readable is an error.\n"
    "\n"
    "OPTIONS\n"
    "    -o FILE        output for a BINARY (default: BINARY's name + .hpcstruct in the\n"
    "                   current directory; '-' for standard output)\n"
    "    -j N           worker threads over functions (default 1, at least 1)\n"
    "    --cache DIR    the cache directory (default for MEASUREMENTS:\n"
    "                   $XDG_CACHE_HOME/hpcdb/structs or ~/.cache/hpcdb/structs; a\n"
    "                   BINARY is cached only when this is given)\n"
    "    --no-cache     neither read nor write a cache (not with --cache)\n"
    "    --name NAME    the load module's name in the file (default: BINARY's absolute path)\n"
    "    --debug-root DIR  where split debug files live (default /usr/lib/debug)\n"
    "    --no-loops     functions, inlined calls and lines only (no disassembly)\n"
    "    --verbose      what was found, per binary, on stderr\n"
    "    --quiet        no summary line\n"
    "    --strict       MEASUREMENTS: fail on the first unreadable measurement file\n"
    "    --force        BINARY: replace an existing FILE\n"
    "\n"
    "OUTPUT\n"
    "    For a BINARY, an existing FILE is refused unless --force is given; a missing\n"
    "    parent folder is never created (both: exit 2). MEASUREMENTS/structs/ is\n"
    "    hpcdb's own: its files are rewritten.\n"
    "\n"
    "EXIT STATUS\n"
    "    0 written, 2 failed (a failed file is not left behind)\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb struct -j 2 ./app -o app.hpcstruct\n"
    "    hpcdb struct /usr/lib/x86_64-linux-gnu/libm.so.6 -o - | head\n"
    "    hpcdb struct app-measurements && hpcdb analyze app-measurements -o app.d\n";

typedef struct run {
  hpcdb_binstruct_options opt;
  const char *cache;
  int verbose, quiet, strict;
  unsigned written, cached, skipped;
  char **names; /* structure files written in this run (two binaries may share a name) */
  unsigned n_names;
  char no_lines[4096]; /* binaries without any line information, comma-separated */
  time_t measured;     /* the newest measurement file's modification time */
} run;

static void report(const run *r, const char *bin, const char *out, int from_cache) {
  const hpcdb_binstruct_stats *s = r->opt.stats;
  if (!r->verbose) return;
  if (from_cache) {
    fprintf(stderr, "hpcdb struct: %s -> %s (from the cache)\n", bin, out);
    return;
  }
  fprintf(stderr,
          "hpcdb struct: %s -> %s: %llu functions, %llu inlined calls, %llu loops (%llu "
          "irreducible); %s%s%s\n",
          bin, out, s->functions, s->inlined_calls, s->loops, s->irreducible_loops,
          s->has_dwarf ? "DWARF" : "symbols only", s->debug_file[0] ? " from " : "", s->debug_file);
  if (!s->has_loops)
    fprintf(stderr, "hpcdb struct: %s: no machine-code decoder (Capstone missing or without this machine): no loops\n",
            bin);
}

static const char *base_name(const char *p);

/* One binary's structure, made in a child process (struct_child.h); the message of a failure in why. */
static int one(run *r, const char *bin, const char *out, char *why, size_t why_len) {
  int from_cache = 0;
  int rc = struct_in_child(bin, out, r->cache, &r->opt, &from_cache, why, why_len);
  if (rc < 0) return rc;
  report(r, bin, out, from_cache);
  size_t used = strlen(r->no_lines);
  if (!from_cache && !r->opt.stats->has_dwarf && used + 2 < sizeof r->no_lines)
    snprintf(r->no_lines + used, sizeof r->no_lines - used, "%s%s", used ? ", " : "", base_name(bin));
  if (from_cache) r->cached++;
  else r->written++;
  return 0;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* One binary of a measurement: a missing one is a warning, not a failure. */
/* MEASUREMENTS/structs/NAME.hpcstruct, NAME-2... when another binary of
 * this run had the name (analyze goes by the load module inside, not the file name). */
static int out_name(run *r, const char *meas, const char *lm_name, char *out, size_t size) {
  for (unsigned k = 1;; k++) {
    if (k == 1) snprintf(out, size, "%s/structs/%s.hpcstruct", meas, base_name(lm_name));
    else snprintf(out, size, "%s/structs/%s-%u.hpcstruct", meas, base_name(lm_name), k);
    unsigned i = 0;
    while (i < r->n_names && strcmp(r->names[i], out)) i++;
    if (i == r->n_names) break;
  }
  char **grown = realloc(r->names, (r->n_names + 1) * sizeof *grown);
  char *copy = strdup(out);
  if (!grown || !copy) {
    free(copy);
    if (grown) r->names = grown;
    return -1;
  }
  r->names = grown;
  r->names[r->n_names++] = copy;
  return 0;
}

static int meas_one(run *r, const char *meas, const char *bin, const char *lm_name, int outside) {
  char out[4096];
  if (!is_file(bin)) {
    fprintf(stderr, "hpcdb struct: warning: %s: not found, no structure for it\n", bin);
    r->skipped++;
    return 0;
  }
  /* load maps record no build id: a binary of the system changed after the run is not
   * the one measured (copies the measurement carries, vdso/ and gpubins/, are) */
  struct stat st;
  if (outside && r->measured && stat(bin, &st) == 0 && st.st_mtime > r->measured) {
    fprintf(stderr, "hpcdb struct: warning: %s: changed after the measurement, no structure for it\n", bin);
    r->skipped++;
    return 0;
  }
  if (out_name(r, meas, lm_name, out, sizeof out) < 0) return cli_fail("struct", "out of memory");
  r->opt.lm_name = lm_name;
  char why[2048];
  if (one(r, bin, out, why, sizeof why) < 0) {
    fprintf(stderr, "hpcdb struct: warning: %s: %s\n", bin, why);
    r->skipped++;
  }
  return 0;
}

static int is_hpcrun(const struct dirent *e) {
  size_t len = strlen(e->d_name);
  return len > 7 && !strcmp(e->d_name + len - 7, ".hpcrun");
}

/* The load modules of every readable .hpcrun file, each path once, in file order. As analyze
 * does, a file that cannot be read is skipped with a warning (--strict: an error). */
static int measured_modules(run *r, const char *meas, char ***paths, unsigned *n) {
  struct dirent **files;
  int n_files = scandir(meas, &files, is_hpcrun, alphasort);
  if (n_files < 0) return cli_fail("struct", "cannot list the measurement directory");
  int rc = 0, n_read = 0;
  for (int f = 0; f < n_files; f++) {
    char p[4096];
    struct stat st;
    hpcdb_experiment *exp;
    snprintf(p, sizeof p, "%s/%s", meas, files[f]->d_name);
    if (rc == 0 && stat(p, &st) == 0 && st.st_mtime > r->measured) r->measured = st.st_mtime;
    if (rc != 0 || hpcdb_hpcrun_read(&exp, p) < 0) {
      if (rc == 0 && r->strict) rc = cli_fail_last("struct");
      else if (rc == 0) fprintf(stderr, "hpcdb struct: warning: skipped %s: %s\n", p, hpcdb_last_error());
      free(files[f]);
      continue;
    }
    n_read++;
    for (uint32_t i = 0; i < exp->n_modules && rc == 0; i++) {
      const char *m = exp->modules[i].path;
      unsigned k = 0;
      while (k < *n && strcmp((*paths)[k], m ? m : "")) k++;
      if (k < *n) continue;
      char **grown = realloc(*paths, (*n + 1) * sizeof *grown);
      if (grown) *paths = grown;
      if (!grown || !(grown[*n] = strdup(m ? m : ""))) rc = cli_fail("struct", "out of memory");
      else (*n)++;
    }
    hpcdb_experiment_free(exp);
    free(files[f]);
  }
  free(files);
  if (rc == 0 && n_read == 0) {
    fprintf(stderr, "hpcdb struct: %s: none of the %d measurement files could be read\n", meas, n_files);
    rc = EXIT_FAILED;
  }
  return rc;
}

/* Which binaries had no line information at all: their functions stay without file and line. */
static void no_lines_note(const run *r) {
  if (r->quiet || !r->no_lines[0]) return;
  fprintf(stderr,
          "hpcdb struct: no line information (no DWARF in the binary, under --debug-root, by .gnu_debuglink or from "
          "the debuginfod servers of DEBUGINFOD_URLS) for: %s\n",
          r->no_lines);
}

static int struct_measurements(run *r, const char *meas) {
  char **modules = NULL;
  unsigned n_modules = 0;
  int rc = measured_modules(r, meas, &modules, &n_modules);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/structs", meas);
  if (rc == 0 && !is_dir(dir) && mkdir(dir, 0777) != 0) rc = cli_fail("struct", "cannot create MEASUREMENTS/structs");
  for (uint32_t i = 0; i < n_modules && rc == 0; i++) {
    const char *p = modules[i];
    /* [vdso], <kernel> ..., and newer hpcrun's kernel_symbols/vmlinux.HASH: the kernel's symbol table */
    if (!p || !p[0] || p[0] == '[' || p[0] == '<' || !strncmp(p, "kernel_symbols/", 15)) continue;
    char bin[4096];
    if (p[0] == '/') snprintf(bin, sizeof bin, "%s", p);
    else snprintf(bin, sizeof bin, "%s/%s", meas, p); /* carried in the measurement (vdso/) */
    /* a GPU binary recorded where the measurement was taken: its copy in gpubins/,
     * named by the recorded path, as hpcstruct names it */
    int outside = p[0] == '/';
    if (!is_file(bin) && strstr(p, "/gpubins/")) {
      snprintf(bin, sizeof bin, "%s/gpubins/%s", meas, base_name(p));
      outside = 0;
    }
    meas_one(r, meas, bin, p, outside);
  }
  for (unsigned i = 0; i < n_modules; i++) free(modules[i]);
  free(modules);
  if (rc != 0) return rc;
  snprintf(dir, sizeof dir, "%s/gpubins", meas);
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char bin[4096], done[4096];
      snprintf(bin, sizeof bin, "%s/%s", dir, e->d_name);
      snprintf(done, sizeof done, "%s/structs/%s.hpcstruct", meas, e->d_name);
      unsigned k = 0; /* already written under its recorded name */
      while (k < r->n_names && strcmp(r->names[k], done)) k++;
      if (k == r->n_names) meas_one(r, meas, bin, bin, 0);
    }
    closedir(d);
  }
  if (!r->quiet)
    fprintf(stderr, "hpcdb struct: %s/structs: %u written, %u from the cache, %u skipped\n", meas, r->written,
            r->cached, r->skipped);
  no_lines_note(r);
  for (unsigned i = 0; i < r->n_names; i++) free(r->names[i]);
  free(r->names);
  return EXIT_OK;
}

static const char *default_cache(char *buf, size_t size) {
  const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (x && x[0]) snprintf(buf, size, "%s/hpcdb/structs", x);
  else if (home && home[0]) snprintf(buf, size, "%s/.cache/hpcdb/structs", home);
  else return NULL;
  return buf;
}

int cmd_struct(int argc, char **argv) {
  hpcdb_binstruct_stats stats;
  run r;
  memset(&r, 0, sizeof r);
  r.opt.stats = &stats;
  cli_common c = {0};
  const char *out = NULL, *name = NULL;
  unsigned long long threads = 1;
  int no_cache = 0, force = 0;
  cli_opt opts[] = {{.names = "-o|--output", .kind = CLI_STRING, .out = &out},
                    {.names = "-j|--jobs", .kind = CLI_UINT, .out = &threads, .min = 1, .max = 4096},
                    {.names = "--cache", .kind = CLI_STRING, .out = &r.cache},
                    {.names = "--no-cache", .kind = CLI_FLAG, .out = &no_cache, .conflicts = "--cache"},
                    {.names = "--name", .kind = CLI_STRING, .out = &name},
                    {.names = "--debug-root", .kind = CLI_STRING, .out = &r.opt.debug_root},
                    {.names = "--no-loops", .kind = CLI_FLAG, .out = &r.opt.no_loops},
                    {.names = "--strict", .kind = CLI_FLAG, .out = &r.strict},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = NULL}};
  cli_spec spec = {
      .cmd = "struct", .help = help, .opts = opts, .min_pos = 1, .max_pos = 1, .pos_names = "a BINARY or MEASUREMENTS"};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  const char *in = spec.pos[0];
  r.verbose = c.verbose;
  r.quiet = c.quiet;
  r.opt.threads = (unsigned)threads;
  struct stat st;
  if (stat(in, &st) != 0) {
    fprintf(stderr, "hpcdb struct: %s: not found\n", in);
    return EXIT_FAILED;
  }
  char cache_buf[4096];
  if (S_ISDIR(st.st_mode)) {
    if (out || name || force) return cli_refuse(&spec, "-o, --name and --force are for a BINARY, not MEASUREMENTS");
    if (!r.cache) r.cache = default_cache(cache_buf, sizeof cache_buf);
    if (no_cache) r.cache = NULL;
    return struct_measurements(&r, in);
  }
  if (r.strict) return cli_refuse(&spec, "--strict is for MEASUREMENTS, not a BINARY");
  if (no_cache) r.cache = NULL;
  char out_buf[4096];
  if (!out) {
    snprintf(out_buf, sizeof out_buf, "%s.hpcstruct", base_name(in));
    out = out_buf;
  }
  if (cli_output_check("struct", out, force) != 0) return EXIT_FAILED;
  /* The name analyze matches against a load map's path: absolute, as the
   * loader records it (symbolic links are kept, like the loader keeps them). */
  char abs_buf[8192], cwd[4096];
  if (!name && in[0] != '/' && getcwd(cwd, sizeof cwd)) {
    const char *rel = in;
    while (rel[0] == '.' && rel[1] == '/') rel += 2;
    snprintf(abs_buf, sizeof abs_buf, "%s/%s", cwd, rel);
    name = abs_buf;
  }
  r.opt.lm_name = name;
  char why[2048];
  if (one(&r, in, out, why, sizeof why) < 0) return cli_fail("struct", why);
  no_lines_note(&r);
  return EXIT_OK;
}
