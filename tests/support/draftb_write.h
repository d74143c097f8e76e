/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: writes a model as a draft-b database (meta.db with magic
 * HPCTOOLKIT_expmt, and the HPCPROF-* profile.db, cct.db, trace.db) to the
 * letter of specs/hpctoolkit-db-draft-b-metadb.md as corrected by
 * specs/README.md. No real file of this draft is known: the reader is
 * tested against these. What the draft cannot carry is listed at
 * draftb_normalise. */
#ifndef HPCDB_TEST_DRAFTB_WRITE_H
#define HPCDB_TEST_DRAFTB_WRITE_H

#include "hpcdb/model.h"

#define DRAFTB_SEVEN_SECTIONS 0x1u /* the document's meta.db header (no description) */

/* Writes dir/meta.db, profile.db, cct.db and (with traces) trace.db, else
 * removes dir/trace.db; dir must exist.
 * profiles[0] must be the canonical summary. */
int draftb_write(const hpcdb_experiment *exp, const char *dir, unsigned flags);

/* A copy of exp holding only what a draft-b database carries, in the order
 * the reader produces it: scopes re-derived from their names (point,
 * execution, function = transitive bit 0, others custom) in order of first
 * use, summaries under their scope instance (a summary of a scope the metric
 * has no instance of is dropped), propagation bits derived from the
 * relation, entry points of unknown kind named "unknown entry", profile flags reduced to the
 * summary bit of profile 0, identifier flags to isPhysical and bits 14-15,
 * no description in the 7-section form, no metric description or unit. */
int draftb_normalise(const hpcdb_experiment *exp, unsigned flags, hpcdb_experiment **out);

#endif
