/* SPDX-License-Identifier: BSD-3-Clause */
/* Which contexts are rows: the one rule every view and export follows. A
 * scope that carries no information (a line scope without a line, a loop
 * without a line) is no row: its children are its parent's, its cost its
 * parent's. The experiment keeps it; only the presentation skips it. */
#ifndef HPCDB_QUERY_SHOWN_H
#define HPCDB_QUERY_SHOWN_H

#include <stdint.h>

#include "hpcdb/model.h"

/* report --scopes all: loops without a line are rows, named by address ("loop at hpcc+0x1c1d0") */
#define QUERY_SHOW_ADDRESS_LOOPS 0x1u

/* 1 when ctx is a lexical scope without a line (line 0: the compiler gave none), a loop
 * included unless show has QUERY_SHOW_ADDRESS_LOOPS. */
int query_hidden(const hpcdb_experiment *e, uint32_t ctx, unsigned show);
/* ctx, or its nearest ancestor that is a row. */
uint32_t query_shown(const hpcdb_experiment *e, uint32_t ctx, unsigned show);
/* The rows below ctx: its children, a hidden child replaced by its own rows, into out; walk is
 * scratch. Both have room for e->n_contexts. Returns how many. */
uint32_t query_shown_children(
    const hpcdb_experiment *e, uint32_t ctx, unsigned show, uint32_t *out,
    uint32_t
        *walk); /* twin[r] = 1 for each of the n rows that another of them has the name of; names: scratch for n. */
typedef struct query_named {
  uint64_t hash;
  uint32_t ctx;
} query_named;
void query_mark_twins(const hpcdb_experiment *e, const uint32_t *rows, uint32_t n, uint8_t *twin, query_named *names);
/* Per context, 1 when a sibling row has its name (query_named_at_site then tells them apart);
 * malloc'ed, n_contexts bytes, or NULL when out of memory. */
uint8_t *query_twins(const hpcdb_experiment *e, unsigned show);

#endif
