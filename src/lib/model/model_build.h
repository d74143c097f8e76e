/* SPDX-License-Identifier: BSD-3-Clause */
/* Building a large context tree inside the library: contexts appended first,
 * the tree links set afterwards in one pass. Linking each context as it is
 * added reads and writes its parent's and its previous sibling's entries,
 * two cache misses per context in a tree larger than the caches (the
 * analysis' unification); the pass touches the entries in order and keeps
 * its scattered accesses in two small arrays of indices. */
#ifndef HPCDB_MODEL_BUILD_H
#define HPCDB_MODEL_BUILD_H

#include "hpcdb/model.h"

/* As hpcdb_add_context, but first_child, next_sibling and last_child stay
 * unset (and the parent's do not change) until model_link_contexts.
 * hpcdb_add_context links what is pending before it adds. */
int model_add_context_unlinked(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent, uint32_t *out_index);
/* Room for n more contexts, so that the array does not move while they are
 * added; *tail and *bytes: the memory they will take (to prefault). */
int model_reserve_contexts(hpcdb_experiment *exp, uint32_t n, void **tail, size_t *bytes);
/* Links the contexts added unlinked, as hpcdb_add_context would have linked
 * them (each the last child of its parent, in index order). */
int model_link_contexts(hpcdb_experiment *exp);

/* The four arrays of a sparse value set (CSR) for at most n_ctxs contexts
 * and n_values values, in p (its other fields untouched; n_ctxs and n_values
 * set to those bounds): ctx_ids and ctx_starts have room for n_ctxs + 1, the
 * values for at least one; counts are checked for overflow. On failure all
 * four are NULL. A producer fills them, then hands them to
 * hpcdb_profile_adopt_csr or frees them with hpcdb_profile_clear_values. */
int model_csr_alloc(hpcdb_profile *p, uint32_t n_ctxs, uint64_t n_values);
/* The counts of what was filled in (at most the allocated bounds). */
void model_csr_trim(hpcdb_profile *p, uint32_t n_ctxs, uint64_t n_values);

/* Native context ids, where the model's differ from the source's (a Cube
 * cnode id is the model's id minus 1, the global context being 0): the
 * offset, and the id of a context the reader made up (the Cube reader's
 * synthetic entry point). Exports that print the source's ids ask here. */
void model_set_native_offset(hpcdb_experiment *exp, uint32_t offset);
void model_set_synthetic_entry(hpcdb_experiment *exp, uint32_t ctx_id);
/* The offset (0: ids are the source's), *synthetic the made-up context's id
 * or HPCDB_NONE. */
uint32_t model_native_offset(const hpcdb_experiment *exp, uint32_t *synthetic);

/* Integer metrics exact (integers.c). The value ids of integer metrics,
 * one byte per id (65536, free()d by the caller; NULL: out of memory): the
 * metric's HPCDB_INTEGER_* for its propagated ids (summary 0) or for its
 * statistics that are its values, formula `$$` (summary 1), else 0. */
uint8_t *model_integer_kinds(const hpcdb_experiment *exp, int summary);
/* A profile's exact integers beside its values, or NULL (none: every value
 * is its double exactly). */
const uint64_t *model_integers(const hpcdb_experiment *exp, uint32_t profile);
/* Drops them (its values change). */
void model_drop_integers(hpcdb_experiment *exp, uint32_t profile);
/* Value v (double d) of a profile whose integers are ints (or NULL) and
 * whose id has kind `kind`: 1 and *out, the exact integer, or 0 when kind is
 * 0 or d is not an integer of the kind. */
int model_integer_value(const uint64_t *ints, double d, uint64_t v, uint8_t kind, uint64_t *out);
/* The value as text into buf (DTOA_BUF bytes): an integer's exact digits
 * (unsigned or signed as its kind), else the shortest double; the length. */
size_t model_value_text(char *buf, const uint64_t *ints, double d, uint64_t v, uint8_t kind);
/* How many integer metrics' values their doubles round (what a format of
 * doubles only, v4.0, cannot keep). */
uint64_t model_rounded_integers(const hpcdb_experiment *exp);

#endif
