/* SPDX-License-Identifier: BSD-3-Clause */
/* Program structure for the analysis: which structure file describes a load
 * module, and the lexical contexts (function, loops, inlined calls with
 * their call-site lines, line) an instruction address stands for, as
 * hpcprof builds them from structure files. */
#ifndef HPCDB_ANALYSIS_STRUCTURE_MAP_H
#define HPCDB_ANALYSIS_STRUCTURE_MAP_H

#include <stdint.h>

#include "hpcdb/analysis.h"

typedef struct structure_map structure_map;
struct unified_tree;

/* Collects the structure files: each of opt->structs (a file, or a
 * directory of .hpcstruct files), then MEASUREMENTS/structs. Only each file's load-module name is read now; a file is
 * read whole when a frame first needs it. Problems are warnings. */
int structure_map_open(structure_map **out, hpcdb_experiment *exp, const char *measurements,
                       const hpcdb_analyze_options *opt, hpcdb_warning_fn warn, void *user);
void structure_map_free(structure_map *m);

/* Where a module's binary is on this machine (--replace-path, measurement-
 * relative paths); 0 when the path does not fit in size. */
int structure_resolved_path(const structure_map *sm, const char *path, char *out, size_t size);

/* The context a frame (module + address) called from parent stands for,
 * when a structure file describes the module: 1 and *out_id set; 0 when
 * there is none (the caller falls back); or a negative status. */
int structure_frame(struct unified_tree *t, uint32_t parent, uint32_t module, uint64_t ip, uint32_t *out_id);

/* Each function the map has made, with the module and scope it stands for
 * (the distributed analysis matches functions across processes by them). */
void structure_map_functions(const structure_map *m,
                             void (*fn)(void *user, uint32_t module, uint32_t scope, uint32_t function), void *user);

#endif
