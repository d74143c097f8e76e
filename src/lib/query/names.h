/* SPDX-License-Identifier: BSD-3-Clause */
/* Context names, frames and time units as every view prints them: the query
 * layer's, also taken by hpcdb report (src/lib/report/names.c). */
#ifndef HPCDB_QUERY_NAMES_H
#define HPCDB_QUERY_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"

size_t query_context_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);
/* " ← file:line": where call ctx was called from (its nearest line scope with a line), into buf;
 * 0 and "" when that is not known. */
size_t query_call_site(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);
/* The context's name, with its call site when same_name (a sibling row has its name: the
 * GOMP_parallel of each parallel region, as "GOMP_parallel ← solver.cc:1234"). */
size_t query_named_at_site(const hpcdb_experiment *exp, uint32_t ctx, int same_name, char *buf, size_t size);
/* The frame a context belongs to: itself, or its nearest ancestor reached by
 * a call (functions_only: inlined calls fold into their caller's frame too). */
uint32_t query_frame(const hpcdb_experiment *exp, uint32_t ctx, int functions_only);
/* 1 when an ancestor frame of frame f is named name (recursion: the
 * inclusive cost of f is counted there already). */
int query_frame_nested(const hpcdb_experiment *exp, uint32_t f, const char *name, int functions_only);
/* The file name of the load module of frame f, or "<unknown module>". */
const char *query_module_name(const hpcdb_experiment *exp, uint32_t f);
/* A module's name as a person reads it: its file's base name, "[vdso]" for
 * hpcrun's copy of the vDSO. */
const char *query_module_display(const char *path);
/* NAME then SUFFIX, with a "[module]" suffix of NAME shown as above. */
size_t query_function_display(const char *name, const char *suffix, char *buf, size_t size);
double query_time_unit(const char *name, const char *unit);

#endif
