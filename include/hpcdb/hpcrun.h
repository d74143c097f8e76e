/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — hpcrun measurements: .hpcrun profiles (versions 02.00, 03.00,
 * 04.00) and the .hpctrace files beside them (01.01). */
#ifndef HPCDB_HPCRUN_H
#define HPCDB_HPCRUN_H

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/formats.h"
#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads one .hpcrun file (one profile; the .hpctrace with the same basename,
 * when present, becomes its trace), one .hpctrace (read with its .hpcrun), or
 * a measurements directory (one profile per .hpcrun file, in name order).
 * Each file's calling context tree is kept as recorded, not unified: contexts
 * keep the node ids of the file when there is one tree (one file, one epoch);
 * with several, the union is keyed by (file, epoch, node id) and renumbered
 * 1, 2, ... in file order. Metrics are unified by name. */
HPCDB_API int hpcdb_hpcrun_read(hpcdb_experiment **out, const char *path);

/* Checks every rule of the measurement formats for a .hpcrun or .hpctrace
 * file or a measurements directory; same contract as hpcdb_validate. */
HPCDB_API int hpcdb_hpcrun_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

/* Format of a file from its first bytes: HPCDB_FORMAT_HPCRUN, _HPCTRACE, or
 * HPCDB_FORMAT_UNKNOWN. 24 bytes are enough. */
HPCDB_API hpcdb_format hpcdb_hpcrun_sniff(const uint8_t *head, size_t n);

/* *out = HPCDB_FORMAT_HPCRUN / _HPCTRACE for such a file (by its magic),
 * HPCDB_FORMAT_HPCRUN_DIR for a directory holding .hpcrun files whose first
 * one has the profile magic, HPCDB_FORMAT_UNKNOWN otherwise. Negative only
 * when path cannot be examined. */
HPCDB_API int hpcdb_hpcrun_detect(hpcdb_format *out, const char *path);

/* The MPI rank a launcher gave this process, from the first of its variables set to a whole
 * number: OMPI_COMM_WORLD_RANK (Open MPI's mpirun), PMIX_RANK (PMIx launchers), PMI_RANK (MPICH's
 * Hydra, Intel MPI, Cray's PALS), MV2_COMM_WORLD_RANK (MVAPICH2's mpirun_rsh), SLURM_PROCID (srun;
 * last, since mpirun inside a Slurm job passes it on to every rank of a node). *variable (may be
 * NULL) gets the variable's name. -1 when no variable gives one. */
HPCDB_API long hpcdb_launcher_rank(const char **variable);

#ifdef __cplusplus
}
#endif
#endif
