/* SPDX-License-Identifier: BSD-3-Clause */
/* Sampling sources, armed per thread: POSIX timers on the thread's CPU-time
 * clock (CPUTIME) or on the real-time clock (REALTIME), delivered to the
 * thread itself (SIGEV_THREAD_ID); perf_event_open counters of the thread
 * whose overflow raises the same signal on it (F_SETOWN_EX, F_SETSIG). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static int start_timer(rec_thread *t, int ev, const rec_event *e) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = REC_SIGNAL;
  sev.sigev_value.sival_int = REC_SIGVAL_TAG | ev;
  sev.sigev_notify_thread_id = t->tid;
  clockid_t clock = e->kind == REC_EV_CPUTIME ? CLOCK_THREAD_CPUTIME_ID : CLOCK_REALTIME;
  if (timer_create(clock, &sev, &t->timers[ev]) < 0) return -1;
  t->has_timer[ev] = 1;
  struct itimerspec its;
  its.it_interval.tv_sec = (time_t)(e->period / 1000000000u);
  its.it_interval.tv_nsec = (long)(e->period % 1000000000u);
  its.it_value = its.it_interval;
  return timer_settime(t->timers[ev], 0, &its, NULL);
}

static int start_perf(rec_thread *t, int ev, const rec_event *e) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = e->perf_type;
  a.config = e->perf_config;
  if (e->freq) {
    a.freq = 1;
    a.sample_freq = e->freq;
  } else {
    a.sample_period = e->period;
  }
  a.wakeup_events = 1;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, t->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return -1;
  struct f_owner_ex owner = {F_OWNER_TID, t->tid};
  if (fcntl(fd, F_SETOWN_EX, &owner) < 0 || fcntl(fd, F_SETSIG, REC_SIGNAL) < 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) < 0) {
    close(fd);
    return -1;
  }
  t->perf_fd[ev] = fd;
  t->perf_last[ev] = 0;
  return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

int rec_events_start(rec_thread *t) {
  int rc = 0;
  for (int ev = 0; ev < rec_proc.cfg.n_events; ev++) {
    const rec_event *e = &rec_proc.cfg.events[ev];
    t->perf_fd[ev] = -1;
    if ((e->kind == REC_EV_PERF ? start_perf(t, ev, e) : start_timer(t, ev, e)) < 0) rc = -1;
  }
  return rc;
}

void rec_events_stop(rec_thread *t) {
  for (int ev = 0; ev < rec_proc.cfg.n_events; ev++) {
    if (t->has_timer[ev]) {
      timer_delete(t->timers[ev]);
      t->has_timer[ev] = 0;
    }
    if (t->perf_fd[ev] >= 0) {
      int fd = t->perf_fd[ev];
      t->perf_fd[ev] = -1;
      ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
      close(fd);
    }
  }
}

int rec_events_identify(rec_thread *t, const siginfo_t *si) {
  if (si->si_code == SI_TIMER) {
    int v = si->si_value.sival_int;
    if ((v & ~0xff) != REC_SIGVAL_TAG) return -1;
    return (v & 0xff) < rec_proc.cfg.n_events ? (v & 0xff) : -1;
  }
  /* a counter's overflow comes as POLL_IN/POLL_HUP with its descriptor */
  if (!t || si->si_code < POLL_IN || si->si_code > POLL_HUP) return -1;
  for (int ev = 0; ev < rec_proc.cfg.n_events; ev++)
    if (t->perf_fd[ev] >= 0 && si->si_fd == t->perf_fd[ev]) return ev;
  return -1;
}

/* Timers: the period in seconds times the expirations (overruns included),
 * as IEEE bits; counters: the count since the last sample. */
uint64_t rec_events_amount(rec_thread *t, int ev) {
  const rec_event *e = &rec_proc.cfg.events[ev];
  if (e->kind != REC_EV_PERF) {
    int over = t->has_timer[ev] ? timer_getoverrun(t->timers[ev]) : 0;
    double s = (double)e->period * (1.0 + (over > 0 ? over : 0)) / 1e9;
    uint64_t bits;
    memcpy(&bits, &s, sizeof bits);
    return bits;
  }
  uint64_t count = 0;
  if (read(t->perf_fd[ev], &count, sizeof count) != (ssize_t)sizeof count) return 0;
  uint64_t d = count - t->perf_last[ev];
  t->perf_last[ev] = count;
  return d;
}
