/* SPDX-License-Identifier: BSD-3-Clause */
/* libhpcdb_record.so: the LD_PRELOAD sampling profiler behind `hpcdb record`.
 * Shared types of its parts. What runs in the signal handler (sample.c,
 * cct.c, unwind.c, the lookups of loadmap.c, trace appends) takes no locks,
 * calls no malloc or stdio and only async-signal-safe system calls; every
 * other part runs outside the handler. Design: docs/record.md. */
#ifndef HPCDB_RECORD_H
#define HPCDB_RECORD_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define REC_HIDDEN __attribute__((visibility("hidden")))
#define REC_EXPORT __attribute__((visibility("default")))
#define REC_TLS __thread __attribute__((tls_model("initial-exec")))

#define REC_MAX_EVENTS 4
#define REC_MAX_DEPTH 4096        /* frames per sample; deeper stacks are partial */
#define REC_SIGNAL SIGPROF        /* every sampling source delivers this signal */
#define REC_SIGVAL_TAG 0x48500000 /* timer signals carry tag | event index */

/* ---- configuration (from the environment hpcdb record sets) ---- */
typedef enum rec_event_kind { REC_EV_CPUTIME, REC_EV_REALTIME, REC_EV_PERF } rec_event_kind;

typedef struct rec_event {
  rec_event_kind kind;
  uint32_t perf_type;
  uint64_t perf_config;
  uint64_t period; /* timers: ns; perf: events per sample (0 when by frequency) */
  uint64_t freq;   /* perf by frequency: samples per second */
  char name[64];   /* the metric's name, e.g. "CPUTIME (sec)" */
} rec_event;

typedef struct rec_config {
  int enabled;
  char dir[4096];
  int trace;
  int frame_pointers_only; /* HPCDB_RECORD_UNWIND=fp */
  int n_events;
  rec_event events[REC_MAX_EVENTS];
} rec_config;

REC_HIDDEN int rec_config_load(rec_config *c);

/* ---- growable arena of fixed-size records (mmap'ed chunks) ---- */
#define REC_ARENA_CHUNKS 24
typedef struct rec_arena {
  size_t rec_size;
  uint32_t first;          /* records in chunk 0; chunk k holds first << k */
  volatile uint32_t count; /* published records */
  void *chunks[REC_ARENA_CHUNKS];
  uint64_t mapped_bytes;
} rec_arena;

REC_HIDDEN int rec_arena_init(rec_arena *a, size_t rec_size, uint32_t first);
REC_HIDDEN void *rec_arena_at(const rec_arena *a, uint32_t i);
/* A new zeroed record's index (not yet published); UINT32_MAX when out of memory. */
REC_HIDDEN uint32_t rec_arena_alloc(rec_arena *a);
REC_HIDDEN void rec_arena_free(rec_arena *a);

/* ---- calling-context tree ---- */
typedef struct rec_node {
  uint64_t offset; /* in its load module; placeholders: 8 packed characters */
  uint32_t parent, first_child, next_sibling;
  uint16_t lm;
  uint16_t pad;
  uint64_t values[REC_MAX_EVENTS]; /* integer counts or IEEE double bits, per metric */
} rec_node;

#define REC_NO_NODE UINT32_MAX
typedef struct rec_cct {
  rec_arena nodes;
  uint32_t root, idle, thread_root, partial_root;
} rec_cct;

REC_HIDDEN int rec_cct_init(rec_cct *c, int main_thread);
REC_HIDDEN uint32_t rec_cct_partial_root(rec_cct *c);
REC_HIDDEN uint32_t rec_cct_child(rec_cct *c, uint32_t parent, uint16_t lm, uint64_t offset);
static inline rec_node *rec_cct_node(const rec_cct *c, uint32_t i) { return (rec_node *)rec_arena_at(&c->nodes, i); }

/* ---- load map ---- */
typedef struct rec_module {
  char *path;     /* as written in the load map */
  uintptr_t bias; /* load address - link address */
  uintptr_t lo, hi;
  int live;
} rec_module;

REC_HIDDEN void rec_loadmap_refresh(void);
/* The module holding ip (id >= 1) and the link-time offset; 0 when none. */
REC_HIDDEN uint16_t rec_loadmap_lookup(uintptr_t ip, uint64_t *offset);
REC_HIDDEN uint32_t rec_loadmap_count(void);
REC_HIDDEN const rec_module *rec_loadmap_module(uint16_t id);
REC_HIDDEN int rec_loadmap_in_self(uintptr_t ip); /* inside libhpcdb_record.so */

/* ---- threads ---- */
typedef struct rec_trace {
  int fd;
  char *tmp_path, *final_path;
  uint8_t *buf; /* REC_TRACE_BUF records of 12 bytes */
  uint32_t n;
  uint64_t min_time, max_time;
  int failed;
} rec_trace;
#define REC_TRACE_BUF 4096

typedef struct rec_thread {
  int id; /* 0: the main thread; then in order of creation */
  pid_t tid;
  int core;
  rec_cct cct;
  rec_trace trace;
  timer_t timers[REC_MAX_EVENTS];
  int has_timer[REC_MAX_EVENTS];
  int perf_fd[REC_MAX_EVENTS];
  uint64_t perf_last[REC_MAX_EVENTS];
  uintptr_t stack_lo, stack_hi;
  uintptr_t *frames;          /* REC_MAX_DEPTH unwound ips of the current sample */
  volatile sig_atomic_t busy; /* in the profiler's own code: samples are dropped */
  volatile sig_atomic_t in_handler;
  int flushed;
  /* counts written into the file */
  uint64_t samples[REC_MAX_EVENTS];
  uint64_t dropped, unwind_failed, fp_recovered, partial;
  struct rec_thread *next;
} rec_thread;

extern REC_HIDDEN REC_TLS rec_thread *rec_self;

/* ---- the process ---- */
typedef struct rec_process {
  rec_config cfg;
  volatile int active;   /* sampling on; cleared when the process ends */
  volatile int finished; /* files written */
  pid_t pid;
  int gen;
  long rank; /* -1: not MPI */
  char job_id[64];
  uint32_t host_id;
  char exe[4096], exe_name[256];
  rec_thread *threads; /* every thread, newest first */
  volatile int next_thread_id;
  uint64_t lost_no_thread; /* samples on threads the profiler does not know */
} rec_process;

extern REC_HIDDEN rec_process rec_proc;

REC_HIDDEN rec_thread *rec_thread_begin(int id);
REC_HIDDEN void rec_thread_end(rec_thread *t);
REC_HIDDEN void rec_process_finish(void);
REC_HIDDEN void rec_process_reset_after_fork(void);
REC_HIDDEN int rec_is_root_frame(uintptr_t ip);

/* ---- sampling sources ---- */
REC_HIDDEN int rec_events_start(rec_thread *t);
REC_HIDDEN void rec_events_stop(rec_thread *t);
/* The event a signal comes from (-1: not the profiler's) and what it counted. */
REC_HIDDEN int rec_events_identify(rec_thread *t, const siginfo_t *si);
REC_HIDDEN uint64_t rec_events_amount(rec_thread *t, int ev);

/* ---- signals ---- */
REC_HIDDEN void rec_signals_install(void);
REC_HIDDEN void rec_sample(int sig, siginfo_t *si, void *uc);
REC_HIDDEN void rec_forward_app_signal(int sig, siginfo_t *si, void *uc);

/* ---- unwinding ---- */
REC_HIDDEN void rec_unwind_init(void);
REC_HIDDEN void rec_unwind_warm(void);
typedef enum rec_unwind_status { REC_UNW_ROOT, REC_UNW_PARTIAL } rec_unwind_status;
/* Fills t->frames with the interrupted ip then return addresses, up to the
 * thread's root frame (not included). */
REC_HIDDEN rec_unwind_status rec_unwind(rec_thread *t, void *uc, int *n);

/* ---- traces ---- */
REC_HIDDEN int rec_trace_open(rec_thread *t, const char *final_path);
REC_HIDDEN void rec_trace_append(rec_thread *t, uint64_t time_ns, uint32_t node_id);
REC_HIDDEN void rec_trace_close(rec_thread *t);
REC_HIDDEN void rec_trace_free(rec_thread *t);

/* ---- files ---- */
REC_HIDDEN void rec_file_name(char *out, size_t n, int thread_id, const char *ext);
REC_HIDDEN int rec_write_profile(rec_thread *t);
REC_HIDDEN int rec_next_generation(void);
REC_HIDDEN void rec_save_vdso(void);

/* real functions (the interposed ones call these) */
REC_HIDDEN void *rec_real(const char *name);
REC_HIDDEN int rec_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* async-signal-safe helpers */
REC_HIDDEN uint64_t rec_now_ns(void);
REC_HIDDEN void rec_warn(const char *msg, const char *detail);

#endif
