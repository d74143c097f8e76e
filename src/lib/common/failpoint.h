/* SPDX-License-Identifier: BSD-3-Clause */
/* Crash points for the crash campaign (fuzz/crash_campaign.py): every writer
 * passes failpoint() where a kill would leave a different state on disk
 * (a write, a commit, a rename). Inert unless the environment asks:
 *   HPCDB_CRASH_AT=N      the Nth point passed kills the process (SIGKILL);
 *   HPCDB_CRASH_COUNT=F   at exit, the number of points passed is written to F. */
#ifndef HPCDB_COMMON_FAILPOINT_H
#define HPCDB_COMMON_FAILPOINT_H

void failpoint(void);

/* A stop point for the truncation test (tests/reliab/truncate.py): once a
 * file is mapped and before a byte of it is read. Inert unless
 *   HPCDB_STOP_MAPPED=NAME  the first time a file whose path ends in NAME is
 *                           mapped, the process stops itself (SIGSTOP), so
 *                           that the test can cut the file short, then lets
 *                           it go on (SIGCONT).
 * A member of a .cubex file mapped alone is named "cube-member". */
void failpoint_mapped(const char *path);

/* A delay point for the viewer's concurrency test (tests/view/test_concurrent.py):
 * a deliberately slow computation. Inert unless
 *   HPCDB_DELAY=NAME:MS   each pass of the point NAME sleeps MS milliseconds
 *                         (trace-column: once per column of a trace tile or summary;
 *                         query-column: once per column of values read from the source, a
 *                         group's once per profile; compare-node: once per node's per-profile
 *                         figures of a comparison). */
void failpoint_delay(const char *name);
/* Whether HPCDB_DELAY names the point: a hot loop asks once, then passes
 * the point only when it does. */
int failpoint_delays(const char *name);

#endif
