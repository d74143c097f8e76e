/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb record's events: EVENT[@PERIOD] parsed, checked against what this
 * machine can count, and encoded for libhpcdb_record.so. */
#ifndef HPCDB_CLI_RECORD_EVENTS_H
#define HPCDB_CLI_RECORD_EVENTS_H

#include <stddef.h>

/* Appends one event (spec as the user wrote it) to the ';'-separated
 * encoding in out. Returns 0, or -1 with a message in err. */
int record_event_add(const char *spec, char *out, size_t out_len, int *n_events, char *err, size_t err_len);

/* The event names, for --help and messages. */
extern const char record_event_names[];

#endif
