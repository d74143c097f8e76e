/* SPDX-License-Identifier: BSD-3-Clause */
/* Program structure and the analysis that needs it (include/hpcdb/binstruct.h,
 * hpcstruct.h, analysis.h, analysis_dist.h) in a build without them
 * (HPCDB_WITH_STRUCT=OFF): no binary or structure file is read, no
 * measurement analyzed; no handle is ever made. */
#include "core/built_without.h"
#include "hpcdb/analysis_dist.h"
#include "hpcdb/binstruct.h"
#include "hpcdb/hpcstruct.h"

#define NO_STRUCT built_without("program structure", "HPCDB_WITH_STRUCT")

int hpcdb_binstruct_write(const char *binary_path, FILE *out, const hpcdb_binstruct_options *opt) { return NO_STRUCT; }
int hpcdb_binstruct_identity(const char *binary_path, char *buf, size_t size) { return NO_STRUCT; }
int hpcdb_binstruct_write_file(const char *binary_path, const char *out_path, const char *cache_dir,
                               const hpcdb_binstruct_options *opt, int *from_cache) {
  return NO_STRUCT;
}

int hpcdb_hpcstruct_read(hpcdb_struct **out, const char *path) {
  *out = NULL;
  return NO_STRUCT;
}
int hpcdb_hpcstruct_read_mem(hpcdb_struct **out, const char *name, const void *data, size_t len) {
  *out = NULL;
  return NO_STRUCT;
}
int hpcdb_hpcstruct_first_module(char **out, const char *path) {
  *out = NULL;
  return NO_STRUCT;
}
void hpcdb_hpcstruct_free(hpcdb_struct *s) {}
uint32_t hpcdb_hpcstruct_n_modules(const hpcdb_struct *s) { return 0; }
const hpcdb_struct_module *hpcdb_hpcstruct_module(const hpcdb_struct *s, uint32_t i) { return NULL; }
uint32_t hpcdb_hpcstruct_lookup(const hpcdb_struct_module *m, uint64_t addr) { return HPCDB_NONE; }
void hpcdb_hpcstruct_write_info(FILE *out, const hpcdb_struct *s) {}
int hpcdb_hpcstruct_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  return NO_STRUCT;
}

int hpcdb_analyze(hpcdb_experiment **out, const char *measurements, const hpcdb_analyze_options *options,
                  hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result) {
  *out = NULL;
  return NO_STRUCT;
}
int hpcdb_openmp_attribute(const char *db, unsigned threads, unsigned write_flags, uint32_t *regions) {
  return NO_STRUCT;
}
int hpcdb_comm_fail(int status, const char *message) { return NO_STRUCT; }
int hpcdb_analyze_dist(const hpcdb_comm *comm, const char *measurements, const hpcdb_analyze_options *options,
                       hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result, uint64_t *bytes_sent) {
  return NO_STRUCT;
}
int hpcdb_analyze_dist_temp(const char *output, char *buf, size_t size) { return NO_STRUCT; }
void hpcdb_analyze_dist_discard(const char *temp) {}
