/* SPDX-License-Identifier: BSD-3-Clause */
/* What a program that analyzes sets for its own process (hpcdb analyze,
 * hpcdb-mpi): policy of the process, not of the library, which never
 * changes the allocator or executes anything. */
#ifndef HPCDB_PROCESS_H
#define HPCDB_PROCESS_H

/* Sets the process's allocator (glibc's; nothing elsewhere) for an analysis:
 * the arrays of one measurement file are reused by the next, not mapped and
 * faulted in afresh. For a program whose main work is hpcdb_analyze or
 * hpcdb_analyze_dist; call it once, before. */
void process_tune_allocator(void);

/* For the same programs, first thing in main: unless GLIBC_TUNABLES already
 * sets glibc.malloc.hugetlb, adds glibc.malloc.hugetlb=1 to it and executes
 * the program again (argv: main's), so that glibc's heap is in transparent
 * huge pages: a page fault per 2 MiB instead of per 4 KiB. Returns when the
 * tunable is set, on failure, and without glibc. Set the tunable yourself to
 * run the program under a tool that does not follow exec. */
void process_restart_with_huge_pages(char **argv);

#endif
