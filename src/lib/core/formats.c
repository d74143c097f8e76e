/* SPDX-License-Identifier: BSD-3-Clause */
/* The formats hpcdb reads and checks: one descriptor each, exported by the
 * format's own module. Detection asks them in this order: draft b's magic
 * begins as v4.0's does, and the XML formats look for a word anywhere in the
 * head, so the fixed magic numbers go first. */
#include "core/formats.h"
#include "cube/cube.h"
#include "hpcrun/hpcrun_format.h"
#include "hpcstruct/hpcstruct_private.h"
#include "hpctk4/hpctk4_read.h"
#include "older/drafta/drafta.h"
#include "older/draftb/draftb.h"
#include "older/legacy/legacy.h"

static const format_desc *const formats[] = {
    &draftb_format, &hpctk4_format, &hpcrun_format, &cube_format, &hpcstruct_format, &drafta_format, &legacy_format,
};

const format_desc *const *format_list(size_t *n) {
  *n = sizeof formats / sizeof *formats;
  return formats;
}

const format_desc *format_lookup(hpcdb_format kind, const char **name) {
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    for (size_t k = 0; k < formats[i]->n_kinds; k++)
      if (formats[i]->kinds[k].id == kind) {
        if (name) *name = formats[i]->kinds[k].name;
        return formats[i];
      }
  return NULL;
}
