/* SPDX-License-Identifier: BSD-3-Clause */
/* HPCDB_API marks a declaration that libhpcdb.so exports. The library is
 * built with hidden visibility, so anything without it stays private to the
 * library: a new public function must carry it. */
#ifndef HPCDB_EXPORT_H
#define HPCDB_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define HPCDB_API __attribute__((visibility("default")))
#else
#define HPCDB_API
#endif

#endif
