/* SPDX-License-Identifier: BSD-3-Clause */
/* Enter/Leave events from the traces, as Pipit makes them from HPCToolkit
 * traces: each sample's calling path reduced to its frames (functions, or
 * call sites where the database has no program structure); from
 * one sample to the next the frames that end are left (innermost first) at
 * the new sample's time and the new ones entered (outermost first); at the
 * end of a trace every open frame is left at its last sample's time. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb_py.h"

/* Where the events go: counted only (time == NULL), or written at n. */
typedef struct event_buf {
  uint64_t *time;
  uint32_t *profile, *ctx;
  int32_t *name; /* name_of[context index] per event */
  const int32_t *name_of;
  npy_bool *leave;
  size_t n;
} event_buf;

static void put(event_buf *b, const hpcdb_experiment *e, uint64_t time, uint32_t profile, uint32_t index,
                npy_bool leave) {
  if (b->time) {
    b->time[b->n] = time;
    b->profile[b->n] = profile;
    b->ctx[b->n] = e->contexts[index].id;
    b->name[b->n] = b->name_of[index];
    b->leave[b->n] = leave;
  }
  b->n++;
}

/* A frame: a function, or a call site whose callee is not known (a database
 * made without program structure calls instructions); with entries, an entry
 * point ("main thread") too. */
static int is_frame(const hpcdb_context *c, int entries) {
  if (c->kind == HPCDB_CTX_ENTRY) return entries;
  return c->kind == HPCDB_CTX_NORMAL && (c->lexical_type == HPCDB_LEX_FUNCTION || c->relation == HPCDB_REL_CALL ||
                                         c->relation == HPCDB_REL_INLINED_CALL);
}

/* The function frames of context index c, outermost first, into stack;
 * returns their number (the tree is at most n_contexts deep). */
static uint32_t frames_of(const hpcdb_experiment *e, uint32_t c, int entries, uint32_t *stack) {
  uint32_t n = 0;
  for (uint32_t i = c; i != HPCDB_NONE && i < e->n_contexts; i = e->contexts[i].parent)
    if (is_frame(&e->contexts[i], entries)) stack[n++] = i;
  for (uint32_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
    uint32_t t = stack[a];
    stack[a] = stack[b];
    stack[b] = t;
  }
  return n;
}

static int make_events(const hpcdb_experiment *e, int entries, event_buf *b) {
  uint32_t *prev = malloc(((size_t)e->n_contexts + 1) * sizeof *prev);
  uint32_t *cur = malloc(((size_t)e->n_contexts + 1) * sizeof *cur);
  int rc = prev && cur ? 0 : -1;
  b->n = 0;
  for (uint32_t t = 0; rc == 0 && t < e->n_traces; t++) {
    const hpcdb_trace *tr = &e->traces[t];
    uint32_t n_prev = 0, last_ctx = HPCDB_NONE;
    for (uint64_t k = 0; rc == 0 && k < tr->n; k++) {
      if (tr->ctx_ids[k] == last_ctx) continue; /* the same path again: nothing changes */
      last_ctx = tr->ctx_ids[k];
      uint32_t c = tr->ctx_ids[k] == 0 ? HPCDB_NONE : hpcdb_find_context(e, tr->ctx_ids[k]);
      uint32_t n_cur = c == HPCDB_NONE ? 0 : frames_of(e, c, entries, cur), same = 0;
      while (same < n_prev && same < n_cur && prev[same] == cur[same]) same++;
      for (uint32_t i = n_prev; i > same; i--) put(b, e, tr->timestamps[k], tr->profile, prev[i - 1], 1);
      for (uint32_t i = same; i < n_cur; i++) put(b, e, tr->timestamps[k], tr->profile, cur[i], 0);
      uint32_t *swap = prev;
      prev = cur;
      cur = swap;
      n_prev = n_cur;
    }
    for (uint32_t i = n_prev; i > 0; i--) put(b, e, tr->timestamps[tr->n - 1], tr->profile, prev[i - 1], 1);
  }
  free(prev);
  free(cur);
  return rc;
}

static void *data_of(PyObject *a) { return PyArray_DATA((PyArrayObject *)a); }

/* events(name_of, entries) -> (time, profile, context id, leave flag, name code)
 * arrays, name code = name_of[context index] (int32, one per context);
 * entries: entry points are frames too. Counted in a first pass, written
 * straight into the arrays in a second. */
PyObject *experiment_events(ExperimentObject *self, PyObject *args) {
  PyObject *o;
  int entries;
  if (!PyArg_ParseTuple(args, "Op", &o, &entries)) return NULL;
  PyArrayObject *name_of =
      (PyArrayObject *)PyArray_FROMANY(o, NPY_INT32, 1, 1, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
  if (!name_of) return NULL;
  if (PyArray_SIZE(name_of) != (npy_intp)self->exp->n_contexts) {
    Py_DECREF(name_of);
    return PyErr_Format(PyExc_ValueError, "name_of needs one code per context (%u)", self->exp->n_contexts);
  }
  event_buf b = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = make_events(self->exp, entries, &b);
  Py_END_ALLOW_THREADS
  if (rc < 0) {
    Py_DECREF(name_of);
    return PyErr_NoMemory();
  }
  npy_intp n = (npy_intp)b.n;
  PyObject *time = PyArray_EMPTY(1, &n, NPY_UINT64, 0), *prof = PyArray_EMPTY(1, &n, NPY_UINT32, 0),
           *ctx = PyArray_EMPTY(1, &n, NPY_UINT32, 0), *name = PyArray_EMPTY(1, &n, NPY_INT32, 0),
           *leave = PyArray_EMPTY(1, &n, NPY_BOOL, 0), *out = NULL;
  if (time && prof && ctx && name && leave) {
    b = (event_buf){
        data_of(time), data_of(prof), data_of(ctx), data_of(name), PyArray_DATA(name_of), data_of(leave), 0};
    Py_BEGIN_ALLOW_THREADS
      rc = make_events(self->exp, entries, &b);
    Py_END_ALLOW_THREADS
    if (rc < 0) PyErr_NoMemory();
    else out = PyTuple_Pack(5, time, prof, ctx, leave, name);
  }
  Py_XDECREF(time);
  Py_XDECREF(prof);
  Py_XDECREF(ctx);
  Py_XDECREF(leave);
  Py_XDECREF(name);
  Py_DECREF(name_of);
  return out;
}
