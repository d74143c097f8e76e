/* SPDX-License-Identifier: BSD-3-Clause */
/* The DOCTYPE of HPCToolkit structure files (internal). */
#ifndef HPCDB_BINSTRUCT_DTD_H
#define HPCDB_BINSTRUCT_DTD_H

extern const char bs_dtd[];

#endif
