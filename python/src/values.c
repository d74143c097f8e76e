/* SPDX-License-Identifier: BSD-3-Clause */
/* The computing methods of Experiment: values of chosen metric ids as rows
 * (context, profile) × columns, context indices of native ids, and the traces
 * as one long table. The model is only read, so the GIL is released while
 * the loops run (the Experiment, and so the model, is held by the caller). */
#include <stdlib.h>
#include <string.h>

#include "hpcdb_py.h"

/* A 1-D contiguous array of the given type from any sequence (new reference). */
static PyArrayObject *as_array(PyObject *o, int typenum) {
  return (PyArrayObject *)PyArray_FROMANY(o, typenum, 1, 1, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
}

typedef struct selection {
  const hpcdb_experiment *exp;
  const uint32_t *profiles;
  const hpcdb_profile **prof; /* the model's, or decoded from the mapped profile.db (lazy) */
  npy_intp n_profiles;
  int32_t *column; /* metric id -> column, or -1 */
  npy_intp n_columns;
  const uint8_t *integer; /* per column: HPCDB_INTEGER_* when its values are a Cube integer metric's, else 0 */
} selection;

/* A profile's values of the chosen metrics as CSR arrays, decoded by scanning
 * the mapped profile.db. */
typedef struct scanned {
  hpcdb_profile p;
  uint64_t cap_ids, cap_starts, cap_mids, cap_vals;
  const int32_t *column; /* metric id -> column or -1: other metrics are not kept */
} scanned;

static int grow(void **a, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap) return 0;
  uint64_t n = *cap ? *cap : 64;
  while (n < need) n *= 2;
  void *b = realloc(*a, n * size);
  if (!b) return -1;
  *a = b;
  *cap = n;
  return 0;
}

static int on_value(void *user, uint32_t ctx, uint32_t metric, double value) {
  scanned *s = user;
  if (s->column[metric & 0xffff] < 0) return 0;
  hpcdb_profile *p = &s->p;
  if (p->n_ctxs == 0 || p->ctx_ids[p->n_ctxs - 1] != ctx) {
    if (grow((void **)&p->ctx_ids, &s->cap_ids, (uint64_t)p->n_ctxs + 1, sizeof *p->ctx_ids) ||
        grow((void **)&p->ctx_starts, &s->cap_starts, (uint64_t)p->n_ctxs + 2, sizeof *p->ctx_starts))
      return HPCDB_ENOMEM;
    p->ctx_ids[p->n_ctxs] = ctx;
    p->ctx_starts[p->n_ctxs++] = p->n_values;
  }
  if (grow((void **)&p->metric_ids, &s->cap_mids, p->n_values + 1, sizeof *p->metric_ids) ||
      grow((void **)&p->values, &s->cap_vals, p->n_values + 1, sizeof *p->values))
    return HPCDB_ENOMEM;
  p->metric_ids[p->n_values] = (uint16_t)metric;
  p->values[p->n_values++] = value;
  return 0;
}

static void scanned_free(scanned *s) {
  free(s->p.ctx_ids);
  free(s->p.ctx_starts);
  free(s->p.metric_ids);
  free(s->p.values);
}

/* Decodes profiles[i] of a lazy experiment into out[i]; 0 or a negative status. */
static int scan_profiles(const ExperimentObject *self, const uint32_t *profiles, npy_intp n, const int32_t *column,
                         scanned *out) {
  for (npy_intp i = 0; i < n; i++) {
    out[i].column = column;
    int rc = hpcdb_db_profile_scan(self->db, profiles[i], on_value, &out[i]);
    if (rc < 0) return rc;
    hpcdb_profile *p = &out[i].p;
    if (p->ctx_starts) p->ctx_starts[p->n_ctxs] = p->n_values;
  }
  return 0;
}

/* Rows (contexts with at least one selected value) and the largest context id. */
static npy_intp count_rows(const selection *s, uint32_t *max_id) {
  npy_intp rows = 0;
  *max_id = 0;
  for (npy_intp i = 0; i < s->n_profiles; i++) {
    const hpcdb_profile *p = s->prof[i];
    for (uint32_t k = 0; k < p->n_ctxs; k++)
      for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
        if (s->column[p->metric_ids[v]] >= 0) {
          rows++;
          if (p->ctx_ids[k] > *max_id) *max_id = p->ctx_ids[k];
          break;
        }
  }
  return rows;
}

/* Fills the rows; with slot (one counter per context id, already turned into
 * start positions) they come out ordered by context, then profile; without,
 * by profile, then context. */
static void fill_rows(const selection *s, uint64_t *slot, uint32_t *ctx, uint32_t *prof, double *vals, uint64_t *ints) {
  npy_intp next = 0, k_cols = s->n_columns;
  for (npy_intp i = 0; i < s->n_profiles; i++) {
    const hpcdb_profile *p = s->prof[i];
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      npy_intp row = -1;
      for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
        int32_t c = s->column[p->metric_ids[v]];
        if (c < 0) continue;
        if (row < 0) {
          row = slot ? (npy_intp)slot[p->ctx_ids[k]]++ : next++;
          ctx[row] = p->ctx_ids[k];
          prof[row] = s->profiles[i];
        }
        vals[row * k_cols + c] = p->values[v];
        /* the exact integer beside the double (which rounds beyond 53 bits); the model's profiles only */
        if (ints && s->integer[c]) hpcdb_profile_integer(s->exp, s->profiles[i], v, &ints[row * k_cols + c]);
      }
    }
  }
}

/* values(profiles, metric_ids) -> (context ids, profile indices, values[rows, columns], by_context,
 * integers, kinds): one row per (context, profile) holding any of the metric
 * ids, one column per metric id (absent values are 0); by_context tells
 * whether the rows are ordered by context, then profile (else by profile,
 * then context). A column of a Cube integer metric (kinds[c]: HPCDB_INTEGER_*,
 * else 0) also has its exact 64-bit integers in integers[rows, columns]
 * (uint64, two's complement for a signed metric; None when no column has). */
PyObject *experiment_values(ExperimentObject *self, PyObject *args) {
  PyObject *po, *mo, *result = NULL;
  if (!PyArg_ParseTuple(args, "OO", &po, &mo)) return NULL;
  PyArrayObject *pa = as_array(po, NPY_UINT32), *ma = pa ? as_array(mo, NPY_INT64) : NULL;
  selection s = {self->exp, NULL, NULL, 0, NULL, 0, NULL};
  PyObject *a_ctx = NULL, *a_prof = NULL, *a_vals = NULL, *a_ints = NULL, *kinds = NULL;
  uint8_t *integer = NULL;
  int has_integers = 0;
  uint64_t *slot = NULL;
  scanned *decoded = NULL;
  if (!pa || !ma) goto done;
  s.profiles = PyArray_DATA(pa);
  s.n_profiles = PyArray_SIZE(pa);
  s.n_columns = PyArray_SIZE(ma);
  for (npy_intp i = 0; i < s.n_profiles; i++)
    if (s.profiles[i] >= s.exp->n_profiles) {
      PyErr_Format(PyExc_IndexError, "no profile %u", s.profiles[i]);
      goto done;
    }
  size_t n_slots = s.n_profiles > 0 ? (size_t)s.n_profiles : 1;
  s.prof = malloc(n_slots * sizeof *s.prof);
  if (self->db) decoded = calloc(n_slots, sizeof *decoded);
  if (!(s.column = malloc(65536 * sizeof *s.column)) || !s.prof || (self->db && !decoded)) {
    PyErr_NoMemory();
    goto done;
  }
  for (npy_intp i = 0; i < s.n_profiles; i++) s.prof[i] = decoded ? &decoded[i].p : &s.exp->profiles[s.profiles[i]];
  memset(s.column, 0xff, 65536 * sizeof *s.column);
  integer = calloc(s.n_columns ? (size_t)s.n_columns : 1, 1);
  if (!integer) {
    PyErr_NoMemory();
    goto done;
  }
  s.integer = integer;
  const int64_t *ids = PyArray_DATA(ma);
  for (npy_intp c = 0; c < s.n_columns; c++) {
    if (ids[c] < 0 || ids[c] > 65535) {
      PyErr_Format(PyExc_ValueError, "metric id %lld is not a 16-bit id", (long long)ids[c]);
      goto done;
    }
    s.column[ids[c]] = (int32_t)c;
    uint32_t metric, which;
    int is_stat;
    /* the metric's own values and its sums ($$) are its integers; other statistics are not */
    if (!decoded && hpcdb_metric_of_id(s.exp, (uint16_t)ids[c], &metric, &is_stat, &which) &&
        s.exp->metrics[metric].integer &&
        (!is_stat || (s.exp->metrics[metric].summaries[which].formula &&
                      !strcmp(s.exp->metrics[metric].summaries[which].formula, "$$"))))
      integer[c] = s.exp->metrics[metric].integer, has_integers = 1;
  }
  uint32_t max_id;
  npy_intp rows = 0;
  int rc = 0;
  Py_BEGIN_ALLOW_THREADS
    if (decoded) rc = scan_profiles(self, s.profiles, s.n_profiles, s.column, decoded);
    if (rc == 0) rows = count_rows(&s, &max_id);
  Py_END_ALLOW_THREADS
  if (rc < 0) {
    hpcdb_py_raise(rc);
    goto done;
  }
  npy_intp dims[2] = {rows, s.n_columns};
  a_ctx = PyArray_EMPTY(1, dims, NPY_UINT32, 0);
  a_prof = PyArray_EMPTY(1, dims, NPY_UINT32, 0);
  a_vals = PyArray_ZEROS(2, dims, NPY_FLOAT64, 0);
  if (has_integers) a_ints = PyArray_ZEROS(2, dims, NPY_UINT64, 0);
  kinds = PyTuple_New(s.n_columns);
  if (!a_ctx || !a_prof || !a_vals || (has_integers && !a_ints) || !kinds) goto done;
  for (npy_intp c = 0; c < s.n_columns; c++) {
    PyObject *k = PyLong_FromLong(integer[c]);
    if (!k) goto done;
    PyTuple_SET_ITEM(kinds, c, k);
  }
  /* ordered by context when a counter per context id costs no more than the rows do */
  int by_context = rows > 0 && (uint64_t)max_id < 4 * (uint64_t)rows + (1u << 20);
  if (by_context && !(slot = calloc((size_t)max_id + 1, sizeof *slot))) {
    PyErr_NoMemory();
    goto done;
  }
  Py_BEGIN_ALLOW_THREADS
    if (by_context) {
      for (npy_intp i = 0; i < s.n_profiles; i++) {
        const hpcdb_profile *p = s.prof[i];
        for (uint32_t k = 0; k < p->n_ctxs; k++)
          for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
            if (s.column[p->metric_ids[v]] >= 0) {
              slot[p->ctx_ids[k]]++;
              break;
            }
      }
      uint64_t at = 0;
      for (uint64_t id = 0; id <= max_id; id++) {
        uint64_t n = slot[id];
        slot[id] = at;
        at += n;
      }
    }
    fill_rows(&s, slot, PyArray_DATA((PyArrayObject *)a_ctx), PyArray_DATA((PyArrayObject *)a_prof),
              PyArray_DATA((PyArrayObject *)a_vals), a_ints ? PyArray_DATA((PyArrayObject *)a_ints) : NULL);
  Py_END_ALLOW_THREADS
  result = Py_BuildValue("(OOOOOO)", a_ctx, a_prof, a_vals, by_context || rows == 0 ? Py_True : Py_False,
                         a_ints ? a_ints : Py_None, kinds);
done:
  for (npy_intp i = 0; decoded && i < s.n_profiles; i++) scanned_free(&decoded[i]);
  free(decoded);
  free(s.prof);
  free(slot);
  free(s.column);
  free(integer);
  Py_XDECREF(a_ints);
  Py_XDECREF(kinds);
  Py_XDECREF(pa);
  Py_XDECREF(ma);
  Py_XDECREF(a_ctx);
  Py_XDECREF(a_prof);
  Py_XDECREF(a_vals);
  return result;
}

/* context_index(ids) -> int64 indices into the context table (-1: not in the tree). */
PyObject *experiment_context_index(ExperimentObject *self, PyObject *args) {
  PyObject *o;
  if (!PyArg_ParseTuple(args, "O", &o)) return NULL;
  PyArrayObject *ia = as_array(o, NPY_UINT32);
  if (!ia) return NULL;
  npy_intp n = PyArray_SIZE(ia);
  PyObject *out = PyArray_EMPTY(1, &n, NPY_INT64, 0);
  if (out) {
    const uint32_t *ids = PyArray_DATA(ia);
    int64_t *idx = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
      for (npy_intp i = 0; i < n; i++) {
        uint32_t c = hpcdb_find_context(self->exp, ids[i]);
        idx[i] = c == HPCDB_NONE ? -1 : (int64_t)c;
      }
    Py_END_ALLOW_THREADS
  }
  Py_DECREF(ia);
  return out;
}

/* traces() -> (profile indices, timestamps in ns, context ids), every trace
 * one after the other. */
PyObject *experiment_traces(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  npy_intp n = 0;
  for (uint32_t t = 0; t < e->n_traces; t++) n += (npy_intp)e->traces[t].n;
  PyObject *a_prof = PyArray_EMPTY(1, &n, NPY_UINT32, 0), *a_time = PyArray_EMPTY(1, &n, NPY_UINT64, 0),
           *a_ctx = PyArray_EMPTY(1, &n, NPY_UINT32, 0), *result = NULL;
  if (a_prof && a_time && a_ctx) {
    uint32_t *prof = PyArray_DATA((PyArrayObject *)a_prof), *ctx = PyArray_DATA((PyArrayObject *)a_ctx);
    uint64_t *time = PyArray_DATA((PyArrayObject *)a_time);
    Py_BEGIN_ALLOW_THREADS
      npy_intp at = 0;
      for (uint32_t t = 0; t < e->n_traces; t++) {
        const hpcdb_trace *tr = &e->traces[t];
        for (uint64_t k = 0; k < tr->n; k++) prof[at + (npy_intp)k] = tr->profile;
        if (tr->n) {
          memcpy(time + at, tr->timestamps, tr->n * sizeof *time);
          memcpy(ctx + at, tr->ctx_ids, tr->n * sizeof *ctx);
        }
        at += (npy_intp)tr->n;
      }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(OOO)", a_prof, a_time, a_ctx);
  }
  Py_XDECREF(a_prof);
  Py_XDECREF(a_time);
  Py_XDECREF(a_ctx);
  return result;
}
