/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/failpoint.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { UNREAD = -2, OFF = -1, COUNTING = 0 };
static atomic_llong crash_at = UNREAD;
static atomic_llong passed;
static const char *count_file;

static void write_count(void) {
  FILE *f = fopen(count_file, "w");
  if (!f) return;
  fprintf(f, "%lld\n", (long long)atomic_load(&passed));
  fclose(f);
}

static long long arm(void) {
  const char *at = getenv("HPCDB_CRASH_AT");
  count_file = getenv("HPCDB_CRASH_COUNT");
  long long n = at ? atoll(at) : 0;
  if (n <= 0) n = count_file ? COUNTING : OFF;
  long long expected = UNREAD;
  /* the first thread here registers the count */
  if (atomic_compare_exchange_strong(&crash_at, &expected, n) && n == COUNTING) atexit(write_count);
  return atomic_load(&crash_at);
}

void failpoint(void) {
  long long at = atomic_load_explicit(&crash_at, memory_order_relaxed);
  if (at == UNREAD) at = arm();
  if (at == OFF) return;
  long long k = atomic_fetch_add(&passed, 1) + 1;
  if (k == at) kill(getpid(), SIGKILL);
}

void failpoint_mapped(const char *path) {
  static atomic_int stopped;
  const char *name = getenv("HPCDB_STOP_MAPPED");
  if (!name || atomic_load(&stopped)) return;
  size_t n = strlen(name), m = strlen(path);
  if (m < n || strcmp(path + m - n, name) != 0 || atomic_exchange(&stopped, 1)) return;
  raise(SIGSTOP);
}

static const char *delay_spec; /* HPCDB_DELAY, read once: the point is passed in hot loops */
static pthread_once_t delay_once = PTHREAD_ONCE_INIT;
static void read_delay(void) { delay_spec = getenv("HPCDB_DELAY"); }

int failpoint_delays(const char *name) {
  pthread_once(&delay_once, read_delay);
  const char *spec = delay_spec;
  size_t n = strlen(name);
  return spec && !strncmp(spec, name, n) && spec[n] == ':';
}

void failpoint_delay(const char *name) {
  if (!failpoint_delays(name)) return;
  long ms = atol(delay_spec + strlen(name) + 1);
  if (ms <= 0 || ms > 60000) return;
  struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&d, &d) != 0) continue;
}
