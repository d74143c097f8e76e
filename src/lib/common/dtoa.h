/* SPDX-License-Identifier: BSD-3-Clause */
/* Numbers as text without printf: integers directly, doubles in their
 * shortest round-trip form (the fewest significant digits that read back as
 * the same double; Ryu's algorithm, Ulf Adams, PLDI 2018). */
#ifndef HPCDB_DTOA_H
#define HPCDB_DTOA_H

#include <stddef.h>
#include <stdint.h>

/* Room any of the functions below may need. */
#define DTOA_BUF 32

/* Decimal digits of v into buf; the length (no NUL). */
size_t fmt_u64(char *buf, uint64_t v);
size_t fmt_i64(char *buf, int64_t v);

/* A finite v as the shortest decimal that reads back as v: plain notation
 * when the decimal point lies within 17 digits of the first digit ("0.001",
 * "123.5", "1e+20" past that, "1.5e-07" below 1e-5, as %g writes exponents);
 * "-0" for negative zero. Not finite: "nan", "inf", "-inf". Length, no NUL. */
size_t fmt_double(char *buf, double v);

/* v with its digits below quantum (> 0) dropped (rounded half up), then
 * shortest: the value's precision, not the noise of sums and differences.
 * |v| < quantum / 2 gives "0". */
size_t fmt_double_quantum(char *buf, double v, double quantum);

#endif
