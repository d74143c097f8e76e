/* SPDX-License-Identifier: BSD-3-Clause */
/* EVENT[@PERIOD] as hpcrun spells it: CPUTIME and REALTIME take a period in
 * microseconds, perf events a count of events; @fN asks for N samples per
 * second instead. A perf event is opened once here, on this process, so an
 * event the machine cannot count is refused before anything runs. The
 * encoding ("kind:type:config:period:freq:metric name", timer periods in ns)
 * is what src/record/config.c reads. */
#define _GNU_SOURCE
#include "record_events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DEFAULT_FREQ 200
#define MAX_EVENTS 4

typedef struct event_def {
  const char *name;
  int kind; /* 0 CPUTIME, 1 REALTIME, 2 perf */
  unsigned type;
  unsigned long long config;
  const char *metric; /* the metric's name in the files */
} event_def;

static const event_def defs[] = {
    {"CPUTIME", 0, 0, 0, "CPUTIME (sec)"},
    {"REALTIME", 1, 0, 0, "REALTIME (sec)"},
    {"cpu-clock", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock (ns)"},
    {"task-clock", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock (ns)"},
    {"page-faults", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults"},
    {"minor-faults", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults"},
    {"major-faults", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults"},
    {"context-switches", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches"},
    {"cpu-migrations", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations"},
    {"cycles", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"},
    {"instructions", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions"},
    {"cache-references", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "cache-references"},
    {"cache-misses", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses"},
    {"branches", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches"},
    {"branch-misses", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses"},
    {"ref-cycles", 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles"},
};
#define N_DEFS (sizeof defs / sizeof defs[0])

const char record_event_names[] =
    "CPUTIME, REALTIME, cpu-clock, task-clock, page-faults, minor-faults, major-faults, "
    "context-switches, cpu-migrations, cycles, instructions, cache-references, cache-misses, "
    "branches, branch-misses, ref-cycles";

/* Opens the event on this process for a moment: the kernel's answer is the
 * machine's. */
static int probe(const event_def *d, char *err, size_t err_len) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = d->type;
  a.config = d->config;
  a.disabled = 1;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  if (fd >= 0) {
    close(fd);
    return 0;
  }
  int e = errno;
  if (d->type == PERF_TYPE_HARDWARE && (e == ENOENT || e == EOPNOTSUPP || e == ENODEV))
    snprintf(err, err_len,
             "event '%s': this machine has no hardware performance counters (perf_event_open: %s; "
             "virtual machines often have none); use CPUTIME, REALTIME or a software event "
             "(cpu-clock, task-clock, page-faults)",
             d->name, strerror(e));
  else if (e == EACCES || e == EPERM)
    snprintf(err, err_len,
             "event '%s': the kernel does not allow it (perf_event_open: %s; see "
             "/proc/sys/kernel/perf_event_paranoid); CPUTIME and REALTIME always work",
             d->name, strerror(e));
  else snprintf(err, err_len, "event '%s' cannot be counted here (perf_event_open: %s)", d->name, strerror(e));
  return -1;
}

static int parse_count(const char *s, unsigned long long *out) {
  if (!*s || *s == '-' || *s == '+') return -1;
  char *end;
  errno = 0;
  *out = strtoull(s, &end, 10);
  return errno || *end ? -1 : 0;
}

static int already_given(const char *encoded, const char *metric) {
  size_t n = strlen(metric);
  for (const char *p = encoded; (p = strstr(p, metric)); p += n)
    if (p > encoded && p[-1] == ':' && (p[n] == ';' || p[n] == '\0')) return 1;
  return 0;
}

int record_event_add(const char *spec, char *out, size_t out_len, int *n_events, char *err, size_t err_len) {
  const char *at = strchr(spec, '@');
  size_t name_len = at ? (size_t)(at - spec) : strlen(spec);
  const event_def *d = NULL;
  for (size_t i = 0; i < N_DEFS; i++)
    if (strlen(defs[i].name) == name_len && !strncmp(defs[i].name, spec, name_len)) d = &defs[i];
  if (!d) {
    snprintf(err, err_len, "unknown event '%.*s' (known: %s)", (int)name_len, spec, record_event_names);
    return -1;
  }
  unsigned long long period = 0, freq = DEFAULT_FREQ;
  if (at) {
    int by_freq = at[1] == 'f';
    unsigned long long v;
    if (parse_count(at + 1 + by_freq, &v) < 0 || v == 0) {
      snprintf(err, err_len, "event '%s': the period must be a positive whole number (N or fN)", spec);
      return -1;
    }
    if (by_freq) {
      freq = v;
    } else {
      period = v;
      freq = 0;
    }
  }
  if (d->kind != 2) { /* timers: ns; a period is given in microseconds */
    if (freq && freq > 1000000000ull) {
      snprintf(err, err_len, "event '%s': at most 1e9 samples per second", spec);
      return -1;
    }
    period = freq ? 1000000000ull / freq : period * 1000ull;
    freq = 0;
  } else if (probe(d, err, err_len) < 0) {
    return -1;
  }
  if (*n_events == MAX_EVENTS) {
    snprintf(err, err_len, "at most %d events at a time", MAX_EVENTS);
    return -1;
  }
  if (already_given(out, d->metric)) {
    snprintf(err, err_len, "event '%s' is given twice", d->name);
    return -1;
  }
  size_t len = strlen(out);
  int n = snprintf(out + len, out_len - len, "%s%d:%u:%llu:%llu:%llu:%s", len ? ";" : "", d->kind, d->type, d->config,
                   period, freq, d->metric);
  if (n < 0 || (size_t)n >= out_len - len) {
    snprintf(err, err_len, "too many events");
    return -1;
  }
  (*n_events)++;
  return 0;
}
