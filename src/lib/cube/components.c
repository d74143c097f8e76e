/* SPDX-License-Identifier: BSD-3-Clause */
/* The components of Cube's composite data types (docs/mapping.md, "Data
 * types"): where each sits in a value, and how it combines. Layouts as
 * CubeLib 4.8 streams them (checked on all-dtypes.cubex):
 *   COMPLEX      f64 re, f64 im
 *   RATE         f64 numerator, f64 denominator
 *   TAU_ATOMIC   u32 count, f64 min, max, sum, sum2 (36 bytes)
 *   NDOUBLES(n)  n f64
 *   HISTOGRAM(n) f64 min, f64 max, n f64 bins
 *   SCALE_FUNC   see CUBE_SCALE_FUNC_SIZE in cube.h
 * Combination follows CubeLib's operator+= where it is a per-component rule
 * (sums; min / max, derived only from exclusive values, as MINDOUBLE /
 * MAXDOUBLE). Where it is not — RATE adds fractions (n1*d2 + n2*d1) / (d1*d2),
 * HISTOGRAM re-bins over the merged range, SCALE_FUNC adds the `a` of terms
 * with equal exponents, whose positions differ from value to value — the
 * component keeps its stored flavour only and is not combined over
 * locations. */
#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "cube/cube.h"

static double f64_at(const uint8_t *p, size_t off, int be) { return bits_to_f64(cube_rd(p + off, 8, be)); }
static double i32_at(const uint8_t *p, size_t off, int be) {
  return (double)(int32_t)(uint32_t)cube_rd(p + off, 4, be);
}
static double u32_at(const uint8_t *p, size_t off, int be) { return (double)(uint32_t)cube_rd(p + off, 4, be); }

int64_t cube_scale_func_terms(const uint8_t *p, int be) {
  uint32_t terms = (uint32_t)cube_rd(p, 4, be), measurements = (uint32_t)cube_rd(p + 4, 4, be);
  return terms <= CUBE_SCALE_FUNC_TERMS && measurements <= CUBE_SCALE_FUNC_MEASUREMENTS ? (int64_t)terms : -1;
}

uint32_t cube_n_components(const cube_dtype *t, uint32_t terms) {
  switch (t->kind) {
  case CUBE_DT_COMPLEX:
  case CUBE_DT_RATE: return 2;
  case CUBE_DT_TAU: return 5;
  case CUBE_DT_NDOUBLES: return (uint32_t)t->count;
  case CUBE_DT_HISTOGRAM: return (uint32_t)t->count + 2;
  case CUBE_DT_SCALE_FUNC: return 1 + 4 * (terms < CUBE_SCALE_FUNC_TERMS ? terms : CUBE_SCALE_FUNC_TERMS);
  default: return 0;
  }
}

void cube_component_of(const cube_dtype *t, uint32_t k, int flavour, cube_component *out) {
  static const char *const tau[] = {"count", "min", "max", "sum", "sum2"};
  static const int tau_aggregate[] = {CUBE_SUM, CUBE_MIN, CUBE_MAX, CUBE_SUM, CUBE_SUM};
  memset(out, 0, sizeof *out);
  out->aggregate = CUBE_SUM;
  out->derivable = 1;
  switch (t->kind) {
  case CUBE_DT_COMPLEX: snprintf(out->name, sizeof out->name, "%s", k ? "im" : "re"); break;
  case CUBE_DT_RATE:
    snprintf(out->name, sizeof out->name, "%s", k ? "denominator" : "numerator");
    out->derivable = 0;
    break;
  case CUBE_DT_TAU:
    snprintf(out->name, sizeof out->name, "%s", tau[k < 5 ? k : 0]);
    out->aggregate = tau_aggregate[k < 5 ? k : 0];
    break;
  case CUBE_DT_NDOUBLES: snprintf(out->name, sizeof out->name, "%u", k); break;
  case CUBE_DT_HISTOGRAM:
    if (k < 2) snprintf(out->name, sizeof out->name, "%s", k ? "max" : "min"), out->aggregate = k ? CUBE_MAX : CUBE_MIN;
    else snprintf(out->name, sizeof out->name, "bin%u", k - 2), out->derivable = 0;
    break;
  case CUBE_DT_SCALE_FUNC:
    if (k == 0) snprintf(out->name, sizeof out->name, "terms");
    else snprintf(out->name, sizeof out->name, "term%u.%c", (k - 1) / 4, "abcd"[(k - 1) % 4]);
    out->derivable = 0;
    break;
  default: break;
  }
  /* a minimum or maximum of the subtree follows from exclusive values only */
  if (out->aggregate != CUBE_SUM && flavour == CUBE_INCLUSIVE) out->derivable = 0;
}

double cube_decode_component(const cube_dtype *t, uint32_t k, const uint8_t *p, int be) {
  static const size_t tau_at[] = {0, 4, 12, 20, 28};
  switch (t->kind) {
  case CUBE_DT_COMPLEX:
  case CUBE_DT_RATE:
  case CUBE_DT_NDOUBLES:
  case CUBE_DT_HISTOGRAM: return k < t->size / 8 ? f64_at(p, 8 * (size_t)k, be) : 0;
  case CUBE_DT_TAU: return k == 0 ? u32_at(p, 0, be) : k < 5 ? f64_at(p, tau_at[k], be) : 0;
  case CUBE_DT_SCALE_FUNC: {
    if (k == 0) return u32_at(p, 0, be);
    uint32_t term = (k - 1) / 4, field = (k - 1) % 4;
    if (term >= CUBE_SCALE_FUNC_TERMS || term >= (uint32_t)cube_rd(p, 4, be)) return 0;
    size_t at = 8 + 20 * (size_t)term;
    return field == 0 ? f64_at(p, at, be) : field == 2 ? u32_at(p, at + 12, be) : i32_at(p, at + 4 + 4 * field, be);
  }
  default: return 0;
  }
}
