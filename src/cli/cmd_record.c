/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb record: runs a program under libhpcdb_record.so (LD_PRELOAD) and
 * leaves hpcrun measurement files in a directory. Everything that can be
 * wrong with the command line (events, output directory, program) is found
 * before the directory is created; the program's exit status is ours. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "hpcdb/hpcrun.h"
#include "record_events.h"

static const char help[] =
    "NAME\n"
    "    hpcdb record - measure a program by sampling, as hpcrun does\n"
    "\n"
    "SYNOPSIS\n"
    "    hpcdb record [-e EVENT[@PERIOD]]... [-t] [-o DIR] [--force] [--] PROGRAM [ARGS...]\n"
    "    mpirun -np N hpcdb record [-t] [-o DIR] [--] PROGRAM [ARGS...]\n"
    "\n"
    "DESCRIPTION\n"
    "    Runs PROGRAM with the profiler libhpcdb_record.so preloaded. Every thread is\n"
    "    sampled; at each sample the calling context is unwound (libunwind, frame\n"
    "    pointers where it fails) and counted in the thread's calling-context tree. At\n"
    "    the end of each thread its tree is written to DIR as an hpcrun 04.00 file,\n"
    "    PROGRAM-RANK-THREAD-HOST-PID-GEN.hpcrun, the format HPCToolkit's hpcrun writes,\n"
    "    so that 'hpcdb analyze DIR -o DB' (or HPCToolkit's hpcprof) makes a database.\n"
    "\n"
    "    The program runs unmodified: its output, exit status and signal handlers are\n"
    "    its own (its SIGPROF handlers still run). Threads (pthread_create), fork (the\n"
    "    child is measured on its own), exec (files written first), exit, _exit and\n"
    "    SIGTERM/SIGINT/SIGHUP at their default all end with the files written.\n"
    "    Under MPI each rank's files carry its rank, from the launcher's environment\n"
    "    (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK, SLURM_PROCID),\n"
    "    else from MPI_Comm_rank once MPI_Init or MPI_Init_thread returns. Statically\n"
    "    linked programs cannot be measured.\n"
    "\n"
    "    Samples that could not be taken (the thread was inside the profiler) or whose\n"
    "    stack did not unwind to the thread's start are counted in each file's header\n"
    "    (hpcdb-record-* pairs; 'hpcdb dump FILE' shows them). Details: docs/record.md.\n"
    "\n"
    "OPTIONS\n"
    "    -e EVENT[@PERIOD]  what triggers a sample (up to 4; default CPUTIME@f200):\n"
    "                 CPUTIME   the thread's CPU time; PERIOD in microseconds\n"
    "                 REALTIME  wall-clock time; PERIOD in microseconds\n"
    "                 cpu-clock, task-clock, page-faults, minor-faults, major-faults,\n"
    "                 context-switches, cpu-migrations (kernel software events) and\n"
    "                 cycles, instructions, cache-references, cache-misses, branches,\n"
    "                 branch-misses, ref-cycles (hardware counters, where the machine\n"
    "                 has them); PERIOD in events\n"
    "               @fN instead of a period asks for N samples per second.\n"
    "    -t, --trace  also write a trace per thread (.hpctrace: time and context of\n"
    "               each sample)\n"
    "    -o DIR       the measurement directory (default hpcdb-PROGRAM-PID.m; under MPI\n"
    "               hpcdb-PROGRAM-JOB.m, shared by the ranks of the job)\n"
    "    --force      use DIR even if it exists (its .hpcrun/.hpctrace files are removed)\n"
    "\n"
    "OUTPUT\n"
    "    An existing DIR is refused unless --force is given (under MPI the ranks of one\n"
    "    job share it); a missing parent folder is never created (both: exit 2).\n"
    "\n"
    "ENVIRONMENT\n"
    "    HPCDB_RECORD_LIB  the profiler library to preload (default: next to hpcdb, or\n"
    "               the installed one)\n"
    "    HPCDB_RECORD_UNWIND=fp  unwind with frame pointers only (no libunwind); for\n"
    "               programs built with -fno-omit-frame-pointer\n"
    "\n"
    "EXIT STATUS\n"
    "    PROGRAM's exit status (killed by a signal: the same signal); 2 when the\n"
    "    command line is wrong, the directory cannot be made or PROGRAM is not found\n"
    "    or not executable\n"
    "\n"
    "EXAMPLES\n"
    "    hpcdb record -o run.m ./app input.txt && hpcdb analyze run.m -o run.d\n"
    "    hpcdb record -e CPUTIME@f1000 -e page-faults@100 -t ./app\n"
    "    mpirun -np 4 hpcdb record -t -o run.m ./mpi_app\n"
    "    (as root mpirun needs --allow-run-as-root; more ranks than cores, --oversubscribe)\n";

#define CMD "record"

static int fail(const char *fmt, const char *a, const char *b) {
  char msg[4400];
  snprintf(msg, sizeof msg, fmt, a, b);
  return cli_fail(CMD, msg);
}

/* Why a path cannot be run: NULL when it can. */
static const char *not_runnable(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return "program not found";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a program";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (access(path, X_OK) != 0) return "is not executable (no execute permission)";
  return NULL;
}

/* PROGRAM as execvp will find it; 0, or -1 with *why. */
static int find_program(const char *prog, char *out, size_t n, const char **why) {
  if (strchr(prog, '/')) {
    snprintf(out, n, "%s", prog);
    *why = not_runnable(prog);
    return *why ? -1 : 0;
  }
  const char *path = getenv("PATH");
  *why = "program not found in PATH";
  for (const char *p = path ? path : "/usr/bin:/bin"; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
    size_t len = strchr(p, ':') ? (size_t)(strchr(p, ':') - p) : strlen(p);
    snprintf(out, n, "%.*s/%s", (int)len, len ? p : ".", prog);
    const char *w = not_runnable(out);
    if (!w) return 0;
    if (strcmp(w, "program not found")) *why = "is in PATH but not executable";
  }
  return -1;
}

static int find_library(char *out, size_t n) {
  const char *env = getenv("HPCDB_RECORD_LIB");
  if (env && *env) {
    snprintf(out, n, "%s", env);
    return access(out, R_OK);
  }
  char self[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return -1;
  self[len] = '\0';
  char *dir = dirname(self);
  snprintf(out, n, "%s/libhpcdb_record.so", dir); /* the build tree */
  if (access(out, R_OK) == 0) return 0;
  snprintf(out, n, "%s/%s", dir, HPCDB_RECORD_LIB_FROM_BIN); /* installed */
  return access(out, R_OK);
}

/* Under MPI the ranks share one directory: the job's key names it. */
static const char *mpi_job_key(void) {
  if (hpcdb_launcher_rank(NULL) < 0) return NULL;
  const char *job_vars[] = {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "SLURM_JOB_ID", "PMI_JOBID"};
  for (int i = 0; i < 4; i++)
    if (getenv(job_vars[i]) && *getenv(job_vars[i])) return getenv(job_vars[i]);
  static char ppid[32];
  snprintf(ppid, sizeof ppid, "%d", (int)getppid());
  return ppid;
}

/* --force: what a previous recording left (and nothing else) goes. */
static void remove_measurements(const char *dir) {
  const char *subs[] = {"", "/vdso"};
  const char *exts[] = {".hpcrun", ".hpctrace", ".vdso", ".part"};
  for (int s = 0; s < 2; s++) {
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s%s", dir, subs[s]);
    DIR *dp = opendir(d);
    if (!dp) continue;
    for (struct dirent *e; (e = readdir(dp));) {
      size_t n = strlen(e->d_name);
      for (int k = 0; k < 4; k++) {
        size_t m = strlen(exts[k]);
        if (n > m && !strcmp(e->d_name + n - m, exts[k])) {
          char f[PATH_MAX + 256];
          snprintf(f, sizeof f, "%s/%s", d, e->d_name);
          unlink(f);
        }
      }
    }
    closedir(dp);
  }
}

#define JOB_MARKER ".hpcdb-record-job"

/* Under MPI: the first rank makes the directory and writes the job's key in
 * it; the others accept it when the key is theirs. */
static int join_job_directory(const char *dir, const char *job) {
  char marker[PATH_MAX + 32], tmp[PATH_MAX + 64];
  snprintf(marker, sizeof marker, "%s/%s", dir, JOB_MARKER);
  if (mkdir(dir, 0755) == 0) {
    snprintf(tmp, sizeof tmp, "%s.%d", marker, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(job, f) < 0 || fclose(f) != 0 || rename(tmp, marker) < 0) return -1;
    return 0;
  }
  if (errno != EEXIST) return -1;
  for (int i = 0; i < 500; i++) { /* the first rank may still be writing the key */
    char have[256] = "";
    FILE *f = fopen(marker, "r");
    if (f) {
      size_t n = fread(have, 1, sizeof have - 1, f);
      have[n] = '\0';
      fclose(f);
      if (!strcmp(have, job)) return 0;
      errno = EEXIST;
      return -1;
    }
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  errno = EEXIST;
  return -1;
}

static int make_directory(const char *dir, int force, const char *job) {
  if (job && join_job_directory(dir, job) == 0) return 0;
  if (!job && mkdir(dir, 0755) == 0) return 0;
  if (errno == EEXIST) {
    struct stat st;
    if (force && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK) == 0) {
      remove_measurements(dir);
      return 0;
    }
    return fail("%s: exists (--force to replace it)%s", dir, "");
  }
  return fail("cannot create the measurement directory %s: %s", dir, strerror(errno));
}

static int has_measurements(const char *dir) {
  DIR *dp = opendir(dir);
  int found = 0;
  for (struct dirent *e; dp && !found && (e = readdir(dp));) {
    size_t n = strlen(e->d_name);
    found = n > 7 && !strcmp(e->d_name + n - 7, ".hpcrun");
  }
  if (dp) closedir(dp);
  return found;
}

static int forwarded_to; /* the child, while the program runs */

static void forward(int sig) {
  if (forwarded_to > 0) kill(forwarded_to, sig);
}

/* Runs the program; returns its status as this process's exit status. */
static int run(char **argv, const char *dir, const char *events, int trace, const char *lib) {
  char preload[PATH_MAX * 2];
  const char *old = getenv("LD_PRELOAD");
  snprintf(preload, sizeof preload, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
  struct sigaction fw, saved[4];
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  memset(&fw, 0, sizeof fw);
  fw.sa_handler = forward;
  sigemptyset(&fw.sa_mask);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return fail("cannot start %s: %s", argv[0], strerror(errno));
  if (pid == 0) {
    setenv("HPCDB_RECORD_DIR", dir, 1);
    setenv("HPCDB_RECORD_EVENTS", events, 1);
    if (trace) setenv("HPCDB_RECORD_TRACE", "1", 1);
    setenv("LD_PRELOAD", preload, 1);
    execvp(argv[0], argv);
    fprintf(stderr, "hpcdb record: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  forwarded_to = pid;
  for (int i = 0; i < 4; i++) sigaction(sigs[i], &fw, &saved[i]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return fail("waiting for %s: %s", argv[0], strerror(errno));
  for (int i = 0; i < 4; i++) sigaction(sigs[i], &saved[i], NULL);
  if (WIFSIGNALED(status)) { /* end the same way */
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

int cmd_record(int argc, char **argv) {
  char events[1024] = "", err[1024];
  int n_events = 0, trace = 0, force = 0;
  const char *out = NULL;
  cli_common c = {0};
  cli_list event_list = {0};
  cli_opt opts[] = {{.names = "-e|--event", .kind = CLI_LIST, .out = &event_list},
                    {.names = "-o|--output", .kind = CLI_STRING, .out = &out},
                    {.names = "-t|--trace", .kind = CLI_FLAG, .out = &trace},
                    {.names = "--force", .kind = CLI_FLAG, .out = &force},
                    {.names = NULL}};
  cli_spec spec = {
      .cmd = CMD, .help = help, .opts = opts, .min_pos = 0, .max_pos = 0, .pos_names = NULL, .stop_at_program = 1};
  int go = cli_parse(&spec, argc, argv, &c);
  if (go != CLI_GO_ON) return go;
  for (unsigned k = 0; k < event_list.n; k++)
    if (record_event_add(event_list.v[k], events, sizeof events, &n_events, err, sizeof err) < 0)
      return cli_refuse(&spec, err);
  argv = spec.rest;
  argc = spec.n_rest;
  int i = 0;
  if (!n_events && record_event_add("CPUTIME", events, sizeof events, &n_events, err, sizeof err) < 0)
    return cli_fail(CMD, err);
  char program[PATH_MAX], lib[PATH_MAX];
  const char *why;
  if (find_program(argv[i], program, sizeof program, &why) < 0) return fail("%s: %s", argv[i], why);
  if (find_library(lib, sizeof lib) < 0)
    return fail("the profiler library libhpcdb_record.so is not found (looked for %s)%s", lib, "");
  char dir[PATH_MAX], abs_dir[PATH_MAX];
  const char *job = mpi_job_key();
  char prog_copy[PATH_MAX];
  snprintf(prog_copy, sizeof prog_copy, "%s", argv[i]);
  if (out && cli_output_check(CMD, out, 1) != 0) return EXIT_FAILED; /* the folder it goes in */
  if (out) snprintf(dir, sizeof dir, "%s", out);
  else if (job) snprintf(dir, sizeof dir, "hpcdb-%s-%s.m", basename(prog_copy), job);
  else snprintf(dir, sizeof dir, "hpcdb-%s-%d.m", basename(prog_copy), (int)getpid());
  if (make_directory(dir, force, job) != 0) return EXIT_FAILED;
  if (!realpath(dir, abs_dir)) return fail("%s: %s", dir, strerror(errno));
  int status = run(argv + i, abs_dir, events, trace, lib);
  if (!job && !has_measurements(abs_dir)) /* the directory was empty of them before */
    fprintf(stderr,
            "hpcdb record: warning: %s wrote no measurement (statically linked programs cannot "
            "be measured)\n",
            argv[i]);
  return status;
}
