/* The formats hpcdb reads and checks: one line each. */
#include <stddef.h>

#include "core/formats.h"
#include "hpcdb/hpcstruct.h"

int hpctk4_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
int hpctk4_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);
int hpcdb_draftb_read(hpcdb_experiment **out, const char *path);
int draftb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
int hpcdb_drafta_read(hpcdb_experiment **out, const char *path);
int hpcdb_drafta_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
int hpcdb_legacy_read(hpcdb_experiment **out, const char *path);
int hpcdb_legacy_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
int cube_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);

static const format_entry formats[] = {
    {HPCDB_FORMAT_HPCTK4_DIR, "HPCToolkit database v4.0", hpcdb_hpctk4_read, hpctk4_validate, hpctk4_read_opts},
    {HPCDB_FORMAT_HPCTK4_META, "HPCToolkit meta.db v4.0", hpcdb_hpctk4_read, hpctk4_validate, hpctk4_read_opts},
    {HPCDB_FORMAT_HPCTK4_PROFILE, "HPCToolkit profile.db v4.0", NULL, hpctk4_validate, NULL},
    {HPCDB_FORMAT_HPCTK4_CCT, "HPCToolkit cct.db v4.0", NULL, hpctk4_validate, NULL},
    {HPCDB_FORMAT_HPCTK4_TRACE, "HPCToolkit trace.db v4.0", NULL, hpctk4_validate, NULL},
    {HPCDB_FORMAT_HPCRUN, "hpcrun measurement file", hpcdb_hpcrun_read, hpcdb_hpcrun_validate, NULL},
    {HPCDB_FORMAT_HPCTRACE, "hpcrun trace file", hpcdb_hpcrun_read, hpcdb_hpcrun_validate, NULL},
    {HPCDB_FORMAT_HPCRUN_DIR, "hpcrun measurements directory", hpcdb_hpcrun_read, hpcdb_hpcrun_validate, NULL},
    {HPCDB_FORMAT_DRAFT_A, "HPCToolkit experiment.xml 4.0 database (2021-22 draft)", hpcdb_drafta_read, hpcdb_drafta_validate, NULL},
    {HPCDB_FORMAT_DRAFT_B, "HPCToolkit meta.db draft (HPCTOOLKIT_expmt)", hpcdb_draftb_read, draftb_validate, NULL},
    {HPCDB_FORMAT_LEGACY_XML, "HPCToolkit experiment.xml 2.x database", hpcdb_legacy_read, hpcdb_legacy_validate, NULL},
    {HPCDB_FORMAT_CUBE, "Cube 4 (.cubex)", hpcdb_cube_read, hpcdb_cube_validate, cube_read_opts},
    {HPCDB_FORMAT_HPCSTRUCT, "HPCToolkit structure file (hpcstruct)", NULL, hpcdb_hpcstruct_validate, NULL},
};

const format_entry *format_lookup(hpcdb_format format) {
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    if (formats[i].format == format) return &formats[i];
  return NULL;
}
