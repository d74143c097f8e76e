/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcrun's placeholders: load module 0, the "ip" holding 8 characters
 * (big-endian). Some stand for where a thread is (the global context, entry
 * points); the others (GPU operations, OpenMP states, ...) are frames of
 * their own, which hpcprof shows as a function context named after the
 * placeholder: `<gpu kernel>` between a kernel's launch site and its GPU
 * instructions. */
#ifndef HPCDB_HPCRUN_PLACEHOLDERS_H
#define HPCDB_HPCRUN_PLACEHOLDERS_H

#include <stdint.h>

typedef enum placeholder_role {
  PH_ROOT,    /* "^Primary": a root, the global context; nowhere else */
  PH_IDLE,    /* "NoActvty": below the root only, the global context (not running) */
  PH_PARTIAL, /* "^Partial": below the root only, a partial unwind: the unknown entry */
  PH_UNNORM,  /* "*Unnorm ": an address hpcrun could not normalize: an unknown function */
  PH_MAIN,    /* "| Main  ": the entry point of the main thread (inside a path, a frame) */
  PH_THREAD,  /* "| Thread": the entry point of an application thread (idem) */
  PH_FRAME    /* every other: a function context named by hpcrun_placeholder_name */
} placeholder_role;

placeholder_role hpcrun_placeholder_role(uint64_t ip);

/* The function name hpcprof gives a placeholder frame: its standard name
 * ("<gpu kernel>", also for "GPUTrace"; "<omp idle>", ...), or the 8
 * characters themselves, unprintable bytes as a backslash and two hex
 * digits. buf holds at least 33 bytes. */
const char *hpcrun_placeholder_name(uint64_t ip, char buf[33]);

/* The label a measurement's own reading gives a placeholder node: the 8
 * characters, trailing blanks and NULs dropped, other bytes outside
 * printable ASCII as '?' ("" when nothing is left). */
void hpcrun_placeholder_label(uint64_t ip, char label[9]);

#endif
