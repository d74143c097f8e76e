/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb-mpi: `hpcdb analyze` over MPI ranks, the same database. */
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"
#include "mpi_comm.h"
#include "process.h"

/* What mpirun needs as root and on a machine with fewer cores than ranks ("not enough slots"):
 * in the help, and said when hpcdb-mpi finds itself one rank outside mpirun. */
#define MPIRUN_HINT                                                                            \
  "    Open MPI's mpirun refuses to run as root without --allow-run-as-root, and more ranks\n" \
  "    than the machine has cores ('not enough slots') without --oversubscribe:\n"             \
  "        mpirun --allow-run-as-root --oversubscribe -np 4 hpcdb-mpi analyze MEAS -o DB\n"

static const char help[] =
    "NAME\n"
    "    hpcdb-mpi analyze - hpcdb analyze over MPI ranks: the same database, written by all\n"
    "\n"
    "SYNOPSIS\n"
    "    mpirun -np N hpcdb-mpi analyze [-j N] [-S STRUCT]... [--ignore-structs] [--stats]\n"
    "                                   [--openmp regions|raw] [--strict] [--force] [--quiet]\n"
    "                                   [--report] MEASUREMENTS -o DB\n"
    "\n"
    "DESCRIPTION\n"
    "    Does what `hpcdb analyze` does (see its --help) with the work spread over the ranks\n"
    "    of MPI_COMM_WORLD, and writes the same database: every file byte for byte identical\n"
    "    to `hpcdb analyze` of the same measurements, for any number of ranks and threads.\n"
    "\n"
    "    Rank 0 lists the measurement files and gives each rank a run of consecutive files of\n"
    "    about equal size. Each rank unifies its files' calling-context trees; the trees are\n"
    "    merged in groups of 4 ranks, then up a binary tree of the groups, and the whole is\n"
    "    broadcast, with the context ids one process gives. Each rank then propagates its\n"
    "    threads' values and writes their profile.db blocks and their traces at offsets agreed\n"
    "    by prefix sums; cct.db is cut into context ranges, one per rank, each getting every\n"
    "    rank's values of its range and writing its blocks and the summary statistics of its\n"
    "    contexts (added in file order, as one process adds them). Rank 0 writes meta.db,\n"
    "    metrics/, and the headers and footers of the other files.\n"
    "\n"
    "    A measurement file that cannot be read is skipped with a warning (printed by rank 0,\n"
    "    in file order); --strict makes it an error. Any failure on any rank fails every rank\n"
    "    with one message. The database is made in DB.mpi-tmp beside DB and renamed into place\n"
    "    only when every rank has succeeded: a failed or killed run leaves no DB behind.\n"
    "\n"
    "OPTIONS\n"
    "    -o DB        the database directory to write (required)\n"
    "    -j N         worker threads per rank (default 1)\n"
    "    -S, --struct STRUCT  a structure file, or a directory of them (repeatable), as hpcdb analyze\n"
    "    --ignore-structs     no structure files, not even MEASUREMENTS/structs\n"
    "    --stats      also write count, sum of squares, min and max (hpcprof --stats)\n"
    "    --openmp M   'regions' (default): OpenMP workers' regions where the master entered\n"
    "                 them; 'raw': each thread's tree as measured, as hpcprof (hpcdb analyze)\n"
    "    --strict     fail on the first unreadable measurement file\n"
    "    --force      replace an existing database\n"
    "    --quiet      no summary line\n"
    "    --report     each rank prints its wall and CPU time, bytes sent to other ranks, peak RSS\n"
    "                 and page faults, and per phase its wall and CPU time, its RSS at the end,\n"
    "                 the peak so far and its page faults\n"
    "\n"
    "ENVIRONMENT\n"
    "    GLIBC_TUNABLES          without glibc.malloc.hugetlb in it, each rank starts itself again\n"
    "                            with glibc.malloc.hugetlb=1 added: its heap in huge pages (set it\n"
    "                            to run the ranks under a tool that does not follow exec)\n"
    "    HPCDB_MPI_FAIL_RANK=R   (for tests) rank R fails at the end of a phase:\n"
    "    HPCDB_MPI_FAIL_AT=P     the phase: unify, tree, propagate or write (default write)\n"
    "    HPCDB_MPI_FAIL_MODE=M   kill (default: the process kills itself with SIGKILL),\n"
    "                            error (it reports an error, which every rank then reports) or\n"
    "                            pause (it creates the file HPCDB_MPI_FAIL_SIGNAL names and waits,\n"
    "                            for a test to cut its host off)\n"
    "\n"
    "EXIT STATUS\n"
    "    0 written, 2 failed (nothing written)\n"
    "\n"
    "NOTES\n" MPIRUN_HINT
    "    Across hosts, give Open MPI keep-alives, so that a host lost mid-run ends the job in\n"
    "    seconds instead of holding it until TCP gives up (see EXAMPLES and docs/mpi.md).\n"
    "\n"
    "EXAMPLES\n"
    "    mpirun -np 4 hpcdb-mpi analyze hpctoolkit-app-measurements -o app.d\n"
    "    mpirun --hostfile hosts -np 64 --mca oob_tcp_keepalive_time 10 --mca oob_tcp_keepalive_intvl 5 \\\n"
    "           --mca oob_tcp_keepalive_probes 3 hpcdb-mpi analyze meas.m -o meas.d\n"
    "    mpirun -np 64 hpcdb-mpi analyze -j 4 --stats meas.m -o meas.d --force\n";

static int rank;

/* --report: when each phase ended */
static const char *phase_names[8];
static double phase_ends[8], phase_cpu[8];
static long phase_rss[8], phase_now[8], phase_faults[8];

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int n_phases;

/* Resident memory now, MiB (the peak is getrusage's). */
static long rss_now(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

static int fail_checkpoint(void *ctx, const char *phase) {
  (void)ctx;
  if (n_phases < 8) {
    phase_names[n_phases] = phase;
    phase_cpu[n_phases] = cpu_now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    phase_rss[n_phases] = ru.ru_maxrss / 1024;
    phase_faults[n_phases] = ru.ru_minflt;
    phase_now[n_phases] = rss_now();
    phase_ends[n_phases++] = MPI_Wtime();
  }
  const char *r = getenv("HPCDB_MPI_FAIL_RANK"), *at = getenv("HPCDB_MPI_FAIL_AT"),
             *mode = getenv("HPCDB_MPI_FAIL_MODE");
  if (!r || atoi(r) != rank || strcmp(phase, at && *at ? at : "write") != 0) return 0;
  if (mode && !strcmp(mode, "pause")) { /* the test makes a fault (a cut link) while this rank waits here */
    const char *signal_path = getenv("HPCDB_MPI_FAIL_SIGNAL");
    FILE *f = signal_path ? fopen(signal_path, "w") : NULL;
    if (f) fclose(f);
    for (int i = 0; i < 600; i++) sleep(1);
    return 0;
  }
  if (mode && !strcmp(mode, "error")) {
    char message[128];
    snprintf(message, sizeof message, "rank %d: failure injected after phase %s (HPCDB_MPI_FAIL_RANK)", rank, phase);
    return hpcdb_comm_fail(HPCDB_EIO, message);
  }
  raise(SIGKILL); /* a rank dying mid-run */
  return 0;
}

/* When a rank dies, mpirun kills the others, rank 0 with them, so rank 0
 * cannot remove the temporary directory itself. A watchdog process, forked
 * before MPI starts, waits for its parent to end (the pipe's end of file):
 * told the directory and not told that the run is over, it removes it. */
static int watchdog_fd = -1;

static void watchdog_start(void) {
  int p[2];
  if (pipe(p) != 0) return;
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return;
  }
  if (pid > 0) {
    close(p[0]);
    watchdog_fd = p[1];
    return;
  }
  close(p[1]);
  setsid(); /* out of the job's process group: mpirun's kill does not reach it */
  char buf[4200];
  size_t n = 0;
  ssize_t k;
  while ((k = read(p[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)k;
  buf[n] = '\0';
  if (n > 1 && buf[0] == 'T' && buf[n - 1] != 'D') { /* a directory, and no word that the run is over */
    buf[strcspn(buf, "\n")] = '\0';
    hpcdb_analyze_dist_discard(buf + 1);
  }
  _exit(0);
}

static void watchdog_watch(const char *output) {
  char temp[4096];
  if (watchdog_fd < 0 || hpcdb_analyze_dist_temp(output, temp, sizeof temp) < 0) return;
  dprintf(watchdog_fd, "T%s\n", temp);
}

static void watchdog_stop(void) {
  if (watchdog_fd < 0) return;
  if (write(watchdog_fd, "D", 1) != 1) { /* the watchdog is gone: nothing to tell */
  }
  close(watchdog_fd);
  watchdog_fd = -1;
}

/* Open MPI notices a lost host by its daemons' TCP keep-alives, which are
 * off for the first 5 minutes by default: a host cut off mid-run would hold
 * the job until TCP gives up (13 minutes, seen here). Collective. */
static void hint_keepalive(void) {
  MPI_Comm local;
  int local_rank = 0, hosts = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) != MPI_SUCCESS) return;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_free(&local);
  int first_on_host = local_rank == 0;
  MPI_Allreduce(&first_on_host, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && hosts > 1 && getenv("OMPI_COMM_WORLD_SIZE") && !getenv("OMPI_MCA_oob_tcp_keepalive_time"))
    fprintf(stderr,
            "hpcdb-mpi analyze: note: the ranks span %d hosts and Open MPI's keep-alives are at their "
            "defaults: a host lost mid-run would hold the job for minutes; add --mca oob_tcp_keepalive_time 10 "
            "--mca oob_tcp_keepalive_intvl 5 --mca oob_tcp_keepalive_probes 3 (docs/mpi.md)\n",
            hosts);
}

static void print_warning(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "hpcdb-mpi analyze: warning: %s\n", message);
}

/* The output rule of every hpcdb command (docs/cli.md): a missing parent folder of DB is never
 * created. 1 when out's folder exists. */
static int folder_exists(const char *out) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", out);
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0'; /* "out.d/" names out.d */
  char *slash = strrchr(dir, '/');
  if (!slash) return 1;
  slash[slash == dir ? 1 : 0] = '\0';
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 1;
  if (rank == 0)
    fprintf(stderr, "hpcdb-mpi analyze: %s: the folder %s does not exist (folders are not created)\n", out, dir);
  return 0;
}

/* -j's value as `hpcdb analyze` takes it: digits only, 1 to 4096. */
static int parse_threads(const char *v, unsigned *out) {
  char *end;
  unsigned long n = strtoul(v, &end, 10);
  if (*v < '0' || *v > '9' || *end || n < 1 || n > 4096) {
    if (rank == 0)
      fprintf(stderr, "hpcdb-mpi analyze: -j: '%s' is not a whole number from 1 to 4096 (see --help)\n", v);
    return -1;
  }
  *out = (unsigned)n;
  return 0;
}

static int analyze_with(int argc, char **argv, int size, const char **structs) {
  hpcdb_analyze_options opt = {.threads = 1};
  const char *in = NULL, *out = NULL;
  opt.structs = structs;
  int quiet = 0, report = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      if (rank == 0) fputs(help, stdout);
      return 0;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      if (out) {
        if (rank == 0) fprintf(stderr, "hpcdb-mpi analyze: -o given twice (see --help)\n");
        return 2;
      }
      out = argv[++i];
    } else if (!strcmp(a, "-j") && i + 1 < argc) {
      if (parse_threads(argv[++i], &opt.threads) < 0) return 2;
    } else if (!strncmp(a, "-j", 2) && a[2]) {
      if (parse_threads(a + 2, &opt.threads) < 0) return 2;
    } else if (!strcmp(a, "--stats")) {
      opt.all_stats = 1;
    } else if (!strcmp(a, "--strict")) {
      opt.strict = 1;
    } else if (!strcmp(a, "--force")) {
      opt.write_flags |= HPCDB_WRITE_FORCE;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--report")) {
      report = 1;
    } else if ((!strcmp(a, "--struct") || !strcmp(a, "-S")) && i + 1 < argc) {
      structs[opt.n_structs++] = argv[++i];
    } else if (!strcmp(a, "--ignore-structs")) {
      opt.ignore_structs = 1;
    } else if (!strcmp(a, "--openmp") && i + 1 < argc &&
               (!strcmp(argv[i + 1], "raw") || !strcmp(argv[i + 1], "regions"))) {
      opt.openmp_raw = !strcmp(argv[++i], "raw");
    } else if (a[0] == '-' || in) {
      if (rank == 0) fprintf(stderr, "hpcdb-mpi analyze: unexpected argument '%s' (see --help)\n", a);
      return 2;
    } else {
      in = a;
    }
  }
  if (!in || !out) {
    if (rank == 0) fprintf(stderr, "hpcdb-mpi analyze: need MEASUREMENTS and -o DB (see --help)\n");
    return 2;
  }
  if (!folder_exists(out)) return 2;
  if (!quiet) hint_keepalive();
  MPI_Comm world = MPI_COMM_WORLD;
  hpcdb_comm comm;
  mpi_comm_table(&comm, &world);
  comm.checkpoint = fail_checkpoint;
  if (rank == 0) watchdog_watch(out);
  opt.output = out;
  hpcdb_analyze_result res;
  uint64_t sent = 0;
  struct rusage ru0;
  getrusage(RUSAGE_SELF, &ru0);
  double t0 = MPI_Wtime(), cpu0 = cpu_now();
  int rc = hpcdb_analyze_dist(&comm, in, &opt, print_warning, NULL, &res, &sent);
  double wall = MPI_Wtime() - t0;
  if (report) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    char phases[512] = "";
    for (int i = 0, n = 0; i < n_phases && n < (int)sizeof phases; i++)
      n += snprintf(phases + n, sizeof phases - (size_t)n, " %s %.2f/%.2f/%ld/%ld/%ld", phase_names[i],
                    phase_ends[i] - (i ? phase_ends[i - 1] : t0), phase_cpu[i] - (i ? phase_cpu[i - 1] : cpu0),
                    phase_now[i], phase_rss[i], phase_faults[i] - (i ? phase_faults[i - 1] : ru0.ru_minflt));
    fprintf(stderr,
            "hpcdb-mpi analyze: rank %d of %d: %.3f s wall, %.3f s CPU (by phase, wall s/CPU s/RSS MiB at its end/peak "
            "RSS MiB so far/"
            "page faults:%s), %llu bytes sent, peak RSS %ld KiB, %ld page faults (%ld before)\n",
            rank, size, wall, cpu_now() - cpu0, phases, (unsigned long long)sent, ru.ru_maxrss,
            ru.ru_minflt - ru0.ru_minflt, ru0.ru_minflt);
  }
  if (rc < 0) {
    if (rank == 0) fprintf(stderr, "hpcdb-mpi analyze: %s\n", hpcdb_last_error());
    return 2;
  }
  if (rank == 0 && !quiet)
    fprintf(stderr,
            "hpcdb-mpi analyze: %u profiles (%u skipped), %u traces, %u contexts, %llu values -> %s (%d ranks)\n",
            res.profiles_read, res.profiles_skipped, res.traces_read, res.contexts, (unsigned long long)res.values, out,
            size);
  return 0;
}

static int analyze(int argc, char **argv, int size) {
  const char **structs = calloc((size_t)argc + 1, sizeof *structs); /* room for every -S */
  if (!structs) return 2;
  int rc = analyze_with(argc, argv, size, structs);
  free(structs);
  return rc;
}

int main(int argc, char **argv) {
  int provided, size;
  signal(SIGXFSZ, SIG_IGN);              /* past a file-size limit (ulimit -f) a write fails (EFBIG) and is reported */
  process_restart_with_huge_pages(argv); /* each rank builds a tree and buffers of tens of MB */
  watchdog_start();
  process_tune_allocator(); /* as hpcdb analyze: one heap, pages reused */
  /* set by a launcher before we start (a singleton's MPI_Init sets some of them itself) */
  int launched = getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK") || getenv("SLURM_PROCID");
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); /* only this thread calls MPI */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) watchdog_stop(); /* only rank 0 makes the directory */
  /* one rank and no launcher: often a retry after mpirun refused (root, too few slots) */
  if (size == 1 && !launched)
    fputs("hpcdb-mpi: one rank, not started by mpirun; to spread the work:\n" MPIRUN_HINT, stderr);
  int rc = 2;
  if (argc >= 2 && !strcmp(argv[1], "analyze")) {
    rc = analyze(argc - 1, argv + 1, size);
  } else if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    if (rank == 0) fputs(help, stdout);
    rc = 0;
  } else if (rank == 0) {
    fprintf(stderr, "usage: mpirun -np N hpcdb-mpi analyze [-j N] MEASUREMENTS -o DB (see --help)\n");
  }
  MPI_Finalize();
  watchdog_stop();
  return rc;
}
