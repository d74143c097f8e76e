/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the analysis of one .hpcrun profile (unification into the
 * calling-context tree, with hpcrun's placeholders, GPU kernels and
 * instruction samples, then propagation of its values). Whatever parses must
 * be unified and propagated, or refused with an error, never crash. */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcrun_file *f = NULL;
  if (hpcrun_file_parse(&f, data, size, "fuzz.hpcrun", NULL) < 0) return 0;
  if (f->major == 4 && hpcrun_sparse_check(f, "fuzz.hpcrun") < 0) { /* as the pipeline's loading stage */
    hpcrun_file_free(f);
    return 0;
  }
  hpcdb_experiment *exp = NULL;
  unified_tree t;
  propagate_scratch scratch = {0};
  if (hpcdb_experiment_new(&exp) == 0 && analysis_add_scopes(exp) == 0 && unified_tree_init(&t, exp, NULL) == 0) {
    uint32_t n_trees = f->major == 4 ? 1 : f->n_epochs;
    for (uint32_t k = 0; k < n_trees; k++) {
      measured_tree tree = f->major == 4 ? (measured_tree){&f->t, &f->sparse, NULL}
                                         : (measured_tree){&f->epochs[k].t, NULL, f->epochs[k].values};
      uint32_t *metric_map = calloc(tree.tab->n_metrics + 1, sizeof *metric_map);
      mapped_profile m;
      thread_values tv;
      if (metric_map && unify_file(&t, "fuzz.hpcrun", f, tree.tab, 0, &m, metric_map) == 0) {
        if (propagate_file(&t, exp->n_metrics, &tree, &m, &metric_map, 1, &scratch, &tv) == 0)
          thread_values_free(&tv, &scratch);
        mapped_profile_free(&m);
      }
      free(metric_map);
    }
    unified_tree_free(&t);
  }
  propagate_scratch_free(&scratch);
  hpcdb_experiment_free(exp);
  hpcrun_file_free(f);
  return 0;
}
