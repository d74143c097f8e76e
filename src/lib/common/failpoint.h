/* Crash points for the crash campaign (fuzz/crash_campaign.py): every writer
 * passes failpoint() where a kill would leave a different state on disk
 * (a write, a commit, a rename). Inert unless the environment asks:
 *   HPCDB_CRASH_AT=N      the Nth point passed kills the process (SIGKILL);
 *   HPCDB_CRASH_COUNT=F   at exit, the number of points passed is written to F. */
#ifndef HPCDB_COMMON_FAILPOINT_H
#define HPCDB_COMMON_FAILPOINT_H

void failpoint(void);

#endif
