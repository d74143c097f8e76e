/* SPDX-License-Identifier: BSD-3-Clause */
/* What an hpcdb-written cnode's HPCToolkit parameters are when it has none:
 * taken from the role of the region it calls. A loop or a line of code is
 * usually reached lexically and propagates its values (all 7,470 of them in
 * the generated 10k-context database), a function is called and does not;
 * a cnode that differs carries its own parameter.
 * Files that say so (the attribute hpctoolkit::cnode-defaults = "role")
 * are read this way; older files carry every parameter, and other
 * producers' cnodes get the plain defaults (a call of a function). Without
 * the parameters these defaults stand for, hpcdb's anchor.xml is about half
 * as long (4.5 MB -> 2.4 MB for that database). */
#include <string.h>

#include "cube/cube.h"

int cube_role_of(const char *role) {
  if (!strcmp(role, "loop")) return CUBE_ROLE_LOOP;
  if (!strcmp(role, "code")) return CUBE_ROLE_CODE;
  return CUBE_ROLE_OTHER;
}

void cube_cnode_defaults(int role, uint8_t *relation, uint8_t *lexical_type, uint16_t *propagation) {
  *relation = role == CUBE_ROLE_OTHER ? HPCDB_REL_CALL : HPCDB_REL_LEXICAL;
  *lexical_type = role == CUBE_ROLE_LOOP   ? HPCDB_LEX_LOOP
                  : role == CUBE_ROLE_CODE ? HPCDB_LEX_LINE
                                           : HPCDB_LEX_FUNCTION;
  *propagation = role == CUBE_ROLE_OTHER ? 0 : 1;
}
