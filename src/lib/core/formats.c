/* SPDX-License-Identifier: BSD-3-Clause */
/* The formats hpcdb reads and checks: one descriptor each, exported by the
 * format's own module. Detection asks every one for a bid (core/detect.c),
 * so this order is only the order `hpcdb formats` lists them in. */
#include <string.h>

#include "common/error.h"
#include "core/formats.h"
#include "cube/cube.h"
#include "hpcrun/hpcrun_format.h"
#include "hpcstruct/hpcstruct_private.h"
#include "hpctk4/hpctk4_read.h"
#include "older/drafta/drafta.h"
#include "older/draftb/draftb.h"
#include "older/legacy/legacy.h"

/* The parts a build may leave out (HPCDB_WITH_*, CMakeLists.txt) take their formats with them. */
static const format_desc *const formats[] = {
#if HPCDB_WITH_OLDER
    &draftb_format,
#endif
    &hpctk4_format,    &hpcrun_format,
#if HPCDB_WITH_CUBE
    &cube_format,
#endif
#if HPCDB_WITH_STRUCT
    &hpcstruct_format,
#endif
#if HPCDB_WITH_OLDER
    &drafta_format,    &legacy_format,
#endif
};

const char *format_parts_left_out(void) {
  static const char text[] =
      "" /* each part after ", " */
#if !HPCDB_WITH_CUBE
      ", Cube files (HPCDB_WITH_CUBE=OFF)"
#endif
#if !HPCDB_WITH_STRUCT
      ", program structure (HPCDB_WITH_STRUCT=OFF)"
#endif
#if !HPCDB_WITH_OLDER
      ", HPCToolkit's formats before v4.0 (HPCDB_WITH_OLDER=OFF)"
#endif
      ;
  return text[0] ? text + 2 : NULL;
}

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

int hpcdb_format_get(uint32_t i, hpcdb_format_info *out) {
  if (i >= sizeof formats / sizeof *formats) return hpcdb_fail(HPCDB_EINVAL, "format %u does not exist", i);
  const format_desc *d = formats[i];
  *out = (hpcdb_format_info){d->name, d->writer, d->caps, (uint32_t)d->n_kinds};
  return 0;
}

const char *hpcdb_format_kind_name(uint32_t i, uint32_t k) {
  return i < sizeof formats / sizeof *formats && k < formats[i]->n_kinds ? formats[i]->kinds[k].name : NULL;
}

static const format_desc *writer_of(const char *writer) {
  for (size_t i = 0; writer && i < sizeof formats / sizeof *formats; i++)
    if (formats[i]->writer && !strcmp(formats[i]->writer, writer)) return formats[i];
  return NULL;
}

int hpcdb_write(const char *writer, const hpcdb_experiment *exp, const char *path, unsigned flags) {
  const format_desc *d = writer_of(writer);
  if (!d) return hpcdb_fail(HPCDB_EINVAL, "no format is written as \"%s\"", writer ? writer : "");
  return d->write(exp, path, flags);
}

uint64_t hpcdb_write_losses(const char *writer, const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user) {
  const format_desc *d = writer_of(writer);
  return d && d->losses ? d->losses(exp, fn, user) : 0;
}
