/* SPDX-License-Identifier: BSD-3-Clause */
/* The stress programs of stress.c and stress_extra.c (one binary, the
 * program named by argv[1]; tests/record/stress.sh runs them). */
#ifndef RECORD_TEST_STRESS_H
#define RECORD_TEST_STRESS_H

/* Burns this much of the thread's CPU time. */
void stress_burn(double seconds);

int stress_segfault(void);
int stress_abort(void);
int stress_fork_threads(void);
int stress_signal_storm(void);
int stress_blocked_signals(void);
int stress_posix_spawn(void);
int stress_malloc_threads(void);
int stress_file_size_limit(void);
int stress_long_run(const char *seconds_arg);

#endif
