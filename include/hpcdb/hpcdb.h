/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — read, write, check and convert HPC performance data: the whole API
 * in one include for programs. The library's own files include the headers
 * they use; hpcdb/common.h has the version, the status codes and the errors. */
#ifndef HPCDB_HPCDB_H
#define HPCDB_HPCDB_H

#include "hpcdb/analysis.h"
#include "hpcdb/common.h"
#include "hpcdb/compare.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpcrun.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"
#include "hpcdb/page.h"
#include "hpcdb/query.h"
#include "hpcdb/report.h"
#include "hpcdb/source.h"

#endif
