/* SPDX-License-Identifier: BSD-3-Clause */
/* The hpcdb_comm table over an MPI communicator (the one place hpcdb meets MPI). */
#ifndef HPCDB_MPI_COMM_H
#define HPCDB_MPI_COMM_H

#include <mpi.h>

#include "hpcdb/analysis_dist.h"

/* Fills c for comm; checkpoint is left to the caller. */
void mpi_comm_table(hpcdb_comm *c, MPI_Comm *comm);

#endif
