/* SPDX-License-Identifier: BSD-3-Clause */
/* What the public functions of a part the build left out (HPCDB_WITH_*=OFF)
 * answer: the library exports the same functions whatever the build, and those
 * of a missing part refuse, naming it and the option that brings it back. */
#ifndef HPCDB_CORE_BUILT_WITHOUT_H
#define HPCDB_CORE_BUILT_WITHOUT_H

#include "common/error.h"

static inline int built_without(const char *part, const char *option) {
  return hpcdb_fail(HPCDB_EUNSUPPORTED, "this hpcdb was built without %s (%s=OFF)", part, option);
}

#endif
