/* SPDX-License-Identifier: BSD-3-Clause */
/* The process side of the profiler: start-up (constructor), the main and
 * thread wrappers whose frames are the roots of every calling path, and the
 * end of the measurement in every way a process can end or change: return
 * from main and exit (destructor), _exit, exec (files written before the
 * image goes), fork (the child starts a fresh measurement of its own). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hpcdb/hpcrun.h"
#include "record.h"

/* The two root functions live in a section of their own: its bounds (from
 * the linker) are the range where every unwind ends, with or without
 * libunwind's procedure information. */
#define REC_ROOT __attribute__((noinline, section("hpcdb_record_roots")))
extern REC_HIDDEN const char __start_hpcdb_record_roots[], __stop_hpcdb_record_roots[];

REC_HIDDEN rec_process rec_proc;
REC_HIDDEN REC_TLS rec_thread *rec_self;
static pthread_key_t thread_key;

void *rec_real(const char *name) { return dlsym(RTLD_NEXT, name); }

uint64_t rec_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One line on stderr, with write(2) only: the program's own output is never
 * touched otherwise. */
void rec_warn(const char *msg, const char *detail) {
  const char *parts[] = {"hpcdb record: ", msg, detail ? ": " : "", detail ? detail : "", "\n"};
  for (int i = 0; i < 5; i++)
    if (write(2, parts[i], strlen(parts[i])) < 0) return;
}

int rec_is_root_frame(uintptr_t ip) {
  return ip >= (uintptr_t)__start_hpcdb_record_roots && ip < (uintptr_t)__stop_hpcdb_record_roots;
}

/* ---- threads ---- */

static void *map_zeroed(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Threads' structs are kept to the end of the process (a late signal on an
 * ending thread must find its `flushed`), so they are carved from shared
 * 64 KiB chunks rather than a page each: 10,000 short-lived threads keep
 * 5 MiB, not 40. */
#define THREAD_CHUNK (64 * 1024)
static int pool_lock;
static char *pool_next, *pool_end;

static rec_thread *new_thread_struct(void) {
  const size_t size = (sizeof(rec_thread) + 63) / 64 * 64;
  while (__atomic_exchange_n(&pool_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
  if ((size_t)(pool_end - pool_next) < size) {
    char *chunk = map_zeroed(THREAD_CHUNK);
    if (chunk) pool_next = chunk, pool_end = chunk + THREAD_CHUNK;
  }
  rec_thread *t = NULL;
  if ((size_t)(pool_end - pool_next) >= size) {
    t = (rec_thread *)(void *)pool_next;
    pool_next += size;
  }
  __atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE);
  return t;
}

rec_thread *rec_thread_begin(int id) {
  rec_thread *t = new_thread_struct();
  if (!t) return NULL;
  t->id = id;
  t->tid = gettid();
  int cpu = sched_getcpu();
  t->core = cpu < 0 ? 0 : cpu;
  t->trace.fd = -1;
  t->frames = map_zeroed(REC_MAX_DEPTH * sizeof(uintptr_t));
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *lo;
    size_t size;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
      t->stack_lo = (uintptr_t)lo;
      t->stack_hi = (uintptr_t)lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  if (!t->frames || rec_cct_init(&t->cct, t->tid == getpid()) < 0) {
    rec_warn("out of memory for a thread's measurement", NULL);
    return NULL;
  }
  if (rec_proc.cfg.trace) {
    char path[4400];
    rec_file_name(path, sizeof path, id, "hpctrace");
    if (rec_trace_open(t, path) == 0) rec_trace_append(t, rec_now_ns(), t->cct.idle + 1);
  }
  t->next = __atomic_load_n(&rec_proc.threads, __ATOMIC_ACQUIRE);
  while (!__atomic_compare_exchange_n(&rec_proc.threads, &t->next, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {}
  rec_self = t;
  pthread_setspecific(thread_key, t);
  rec_unwind_warm();
  if (rec_events_start(t) < 0) rec_warn("cannot start sampling on a thread", NULL);
  return t;
}

void rec_thread_end(rec_thread *t) {
  if (!t || __atomic_exchange_n(&t->flushed, 1, __ATOMIC_SEQ_CST)) return;
  int own = t == rec_self;
  if (own) t->busy = 1;
  rec_events_stop(t);
  /* a sample under way on another thread finishes first (bounded wait); on
   * this thread one can only be under way if a signal interrupted it */
  for (int i = 0; !own && i < 100000 && __atomic_load_n(&t->in_handler, __ATOMIC_SEQ_CST); i++) sched_yield();
  if (rec_proc.cfg.trace) rec_trace_close(t);
  rec_write_profile(t);
  if (!own) return; /* the process is ending; its handler may still be running */
  pthread_setspecific(thread_key, NULL);
  /* what only samples use goes (later signals see `flushed` and stop there):
   * a program making many short threads keeps one small struct per thread */
  rec_arena_free(&t->cct.nodes);
  munmap(t->frames, REC_MAX_DEPTH * sizeof(uintptr_t));
  t->frames = NULL;
  rec_trace_free(t);
}

static void thread_key_done(void *p) { rec_thread_end(p); }

typedef struct start_arg {
  void *(*fn)(void *);
  void *arg;
  int id;
} start_arg;

/* Every thread's root frame. */
static REC_ROOT void *rec_thread_root(void *p) {
  start_arg s = *(start_arg *)p;
  free(p);
  rec_thread *t = rec_thread_begin(s.id);
  void *ret = s.fn(s.arg);
  __asm__ volatile("" ::: "memory"); /* no tail call: this frame must stay */
  rec_thread_end(t);
  return ret;
}

REC_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
  static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
  if (!real) real = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))rec_real("pthread_create");
  if (!rec_proc.cfg.enabled || rec_proc.finished) return real(th, attr, fn, arg);
  start_arg *s = malloc(sizeof *s);
  if (!s) return real(th, attr, fn, arg);
  *s = (start_arg){fn, arg, __atomic_add_fetch(&rec_proc.next_thread_id, 1, __ATOMIC_RELAXED)};
  int rc = real(th, attr, rec_thread_root, s);
  if (rc) free(s);
  return rc;
}

/* ---- the main thread ---- */

static int (*real_main)(int, char **, char **);

static REC_ROOT int rec_main_root(int argc, char **argv, char **envp) {
  if (rec_proc.cfg.enabled && rec_thread_begin(0)) rec_proc.active = 1;
  int rc = real_main(argc, argv, envp);
  __asm__ volatile("" ::: "memory");
  return rc;
}

REC_EXPORT int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv, void (*init)(void),
                                 void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
  int (*real)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void), void (*)(void), void *) =
      (int (*)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void), void (*)(void),
               void *))rec_real("__libc_start_main");
  real_main = main;
  return real(rec_main_root, argc, argv, init, fini, rtld_fini, stack_end);
}

/* ---- the process ---- */

static void identify_process(void) {
  rec_proc.pid = getpid();
  rec_proc.host_id = (uint32_t)gethostid();
  rec_proc.rank = hpcdb_launcher_rank(NULL); /* else MPI_Init's (mpi_rank.c) */
  const char *job_vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "COBALT_JOBID"};
  for (int i = 0; i < 4 && !rec_proc.job_id[0]; i++) {
    const char *v = getenv(job_vars[i]);
    if (v) snprintf(rec_proc.job_id, sizeof rec_proc.job_id, "%s", v);
  }
  ssize_t n = readlink("/proc/self/exe", rec_proc.exe, sizeof rec_proc.exe - 1);
  rec_proc.exe[n > 0 ? n : 0] = '\0';
  const char *slash = strrchr(rec_proc.exe, '/');
  snprintf(rec_proc.exe_name, sizeof rec_proc.exe_name, "%s", slash ? slash + 1 : rec_proc.exe);
  rec_proc.gen = rec_next_generation();
}

static __attribute__((constructor)) void rec_init(void) {
  if (rec_config_load(&rec_proc.cfg) < 0) {
    rec_proc.cfg.enabled = 0;
    return;
  }
  pthread_key_create(&thread_key, thread_key_done);
  identify_process();
  rec_unwind_init();
  rec_save_vdso();
  rec_loadmap_refresh();
  rec_signals_install();
}

void rec_process_finish(void) {
  if (!rec_proc.cfg.enabled || __atomic_exchange_n(&rec_proc.finished, 1, __ATOMIC_SEQ_CST)) return;
  rec_proc.active = 0;
  if (rec_self) rec_self->busy = 1;
  for (rec_thread *t = __atomic_load_n(&rec_proc.threads, __ATOMIC_ACQUIRE); t; t = t->next) rec_thread_end(t);
}

static __attribute__((destructor)) void rec_fini(void) { rec_process_finish(); }

/* The child of a fork: only the forking thread lives on; it becomes thread
 * 0 of a new measurement with the child's process id. */
void rec_process_reset_after_fork(void) {
  rec_thread *old = rec_self;
  __atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE); /* another thread of the parent may have held it */
  if (old)
    for (int ev = 0; ev < rec_proc.cfg.n_events; ev++)
      if (old->perf_fd[ev] >= 0) close(old->perf_fd[ev]);
  if (old && old->trace.fd >= 0) close(old->trace.fd);
  rec_self = NULL;
  rec_proc.threads = NULL;
  rec_proc.next_thread_id = 0;
  rec_proc.finished = 0;
  rec_proc.pid = getpid();
  rec_proc.gen = rec_next_generation();
  rec_proc.active = rec_thread_begin(0) != NULL;
}

REC_EXPORT pid_t fork(void) {
  static pid_t (*real)(void);
  if (!real) real = (pid_t(*)(void))rec_real("fork");
  rec_thread *t = rec_self;
  if (t) t->busy = 1;
  pid_t pid = real();
  if (pid == 0 && rec_proc.cfg.enabled && !rec_proc.finished) rec_process_reset_after_fork();
  else if (t) t->busy = 0;
  return pid;
}

/* vfork's child shares the parent's memory, so the exec that follows would
 * write and stop the parent's measurement: it is a fork here (as libmonitor
 * does for hpcrun). */
REC_EXPORT pid_t vfork(void) { return fork(); }

/* ---- exec: the files are written before the image is replaced ---- */

REC_EXPORT int execve(const char *path, char *const argv[], char *const envp[]) {
  int (*real)(const char *, char *const[], char *const[]) =
      (int (*)(const char *, char *const[], char *const[]))rec_real("execve");
  rec_process_finish();
  return real(path, argv, envp);
}

REC_EXPORT int execv(const char *path, char *const argv[]) {
  int (*real)(const char *, char *const[]) = (int (*)(const char *, char *const[]))rec_real("execv");
  rec_process_finish();
  return real(path, argv);
}

REC_EXPORT int execvp(const char *file, char *const argv[]) {
  int (*real)(const char *, char *const[]) = (int (*)(const char *, char *const[]))rec_real("execvp");
  rec_process_finish();
  return real(file, argv);
}

REC_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[]) {
  int (*real)(const char *, char *const[], char *const[]) =
      (int (*)(const char *, char *const[], char *const[]))rec_real("execvpe");
  rec_process_finish();
  return real(file, argv, envp);
}

/* execl, execlp, execle: the variadic arguments as an array, then the
 * functions above. */
#define COLLECT_ARGS(first, ap, argv, extra)                                          \
  size_t n_ = 1;                                                                      \
  va_start(ap, first);                                                                \
  while (va_arg(ap, char *)) n_++;                                                    \
  va_end(ap);                                                                         \
  char **argv = alloca((n_ + 1) * sizeof(char *));                                    \
  va_start(ap, first);                                                                \
  argv[0] = (char *)(uintptr_t)(first); /* exec never writes argv's strings */        \
  for (size_t i_ = 1; i_ <= n_; i_++) argv[i_] = i_ < n_ ? va_arg(ap, char *) : NULL; \
  if (extra) (void)va_arg(ap, char *);                                                \
  char *const *envp_ = extra ? va_arg(ap, char *const *) : NULL;                      \
  va_end(ap)

REC_EXPORT int execl(const char *path, const char *arg, ...) {
  va_list ap;
  COLLECT_ARGS(arg, ap, argv, 0);
  (void)envp_;
  return execv(path, argv);
}

REC_EXPORT int execlp(const char *file, const char *arg, ...) {
  va_list ap;
  COLLECT_ARGS(arg, ap, argv, 0);
  (void)envp_;
  return execvp(file, argv);
}

REC_EXPORT int execle(const char *path, const char *arg, ...) {
  va_list ap;
  COLLECT_ARGS(arg, ap, argv, 1);
  return execve(path, argv, envp_);
}

/* ---- _exit ---- */

REC_EXPORT void _exit(int status) {
  void (*real)(int) = (void (*)(int))rec_real("_exit");
  rec_process_finish();
  real(status);
  __builtin_unreachable();
}

REC_EXPORT void _Exit(int status) { _exit(status); }

/* ---- dlopen/dlclose: the load map follows ---- */

REC_EXPORT void *dlopen(const char *file, int mode) {
  static void *(*real)(const char *, int);
  if (!real) real = (void *(*)(const char *, int))rec_real("dlopen");
  rec_thread *t = rec_self;
  if (t) t->busy++;
  void *h = real(file, mode);
  if (rec_proc.cfg.enabled && h) rec_loadmap_refresh();
  if (t) t->busy--;
  return h;
}

REC_EXPORT int dlclose(void *handle) {
  static int (*real)(void *);
  if (!real) real = (int (*)(void *))rec_real("dlclose");
  rec_thread *t = rec_self;
  if (t) t->busy++;
  int rc = real(handle);
  if (rec_proc.cfg.enabled) rec_loadmap_refresh();
  if (t) t->busy--;
  return rc;
}
