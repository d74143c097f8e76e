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
int model_add_context_unlinked(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent,
                               uint32_t *out_index);
/* Room for n more contexts, so that the array does not move while they are
 * added; *tail and *bytes: the memory they will take (to prefault). */
int model_reserve_contexts(hpcdb_experiment *exp, uint32_t n, void **tail, size_t *bytes);
/* Links the contexts added unlinked, as hpcdb_add_context would have linked
 * them (each the last child of its parent, in index order). */
int model_link_contexts(hpcdb_experiment *exp);

#endif
