/* SPDX-License-Identifier: BSD-3-Clause */
/* include/hpcdb/cube.h in a build without Cube (HPCDB_WITH_CUBE=OFF): nothing
 * opens, reads, writes or validates a .cubex; no handle is ever made. */
#include "core/built_without.h"
#include "hpcdb/cube.h"

#define NO_CUBE built_without("Cube files", "HPCDB_WITH_CUBE")

int hpcdb_cube_read(hpcdb_experiment **out, const char *path) {
  *out = NULL;
  return NO_CUBE;
}
int hpcdb_cube_open(hpcdb_cube **out, const char *path) {
  *out = NULL;
  return NO_CUBE;
}
void hpcdb_cube_close(hpcdb_cube *c) {}
uint32_t hpcdb_cube_n_metrics(const hpcdb_cube *c) { return 0; }
uint32_t hpcdb_cube_n_cnodes(const hpcdb_cube *c) { return 0; }
uint32_t hpcdb_cube_n_locations(const hpcdb_cube *c) { return 0; }
int hpcdb_cube_read_opened(hpcdb_experiment **out, const hpcdb_cube *c, const hpcdb_read_options *options) {
  *out = NULL;
  return NO_CUBE;
}
const char *hpcdb_cube_metric_name(const hpcdb_cube *c, uint32_t metric) { return NULL; }
uint32_t hpcdb_cube_cnode_id(const hpcdb_cube *c, uint32_t k) { return UINT32_MAX; }
int hpcdb_cube_metric_values(hpcdb_cube *c, uint32_t metric, int inclusive, double *out) { return NO_CUBE; }
int hpcdb_cube_metric_integer(const hpcdb_cube *c, uint32_t metric) { return 0; }
int hpcdb_cube_metric_integers(hpcdb_cube *c, uint32_t metric, int inclusive, uint64_t *out) { return NO_CUBE; }
int hpcdb_cube_cnode_values(hpcdb_cube *c, uint32_t metric, uint32_t k, int inclusive, double *out) { return NO_CUBE; }
int hpcdb_cube_location_values(hpcdb_cube *c, uint32_t metric, uint32_t location, int inclusive, double *out) {
  return NO_CUBE;
}
int hpcdb_cube_write(const hpcdb_experiment *exp, const char *path, const hpcdb_cube_write_options *options) {
  return NO_CUBE;
}
uint64_t hpcdb_cube_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user) { return 0; }
int hpcdb_cube_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  return NO_CUBE;
}
