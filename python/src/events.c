/* Enter/Leave events from the traces, as Pipit makes them from HPCToolkit
 * traces: each sample's calling path reduced to its function frames; from
 * one sample to the next the frames that end are left (innermost first) at
 * the new sample's time and the new ones entered (outermost first); at the
 * end of a trace every open frame is left at its last sample's time. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb_py.h"

typedef struct event_buf {
  uint64_t *time;
  uint32_t *profile, *ctx;
  uint8_t *leave;
  size_t n, cap;
} event_buf;

static int put(event_buf *b, uint64_t time, uint32_t profile, uint32_t ctx, uint8_t leave) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 4096;
    uint64_t *t = realloc(b->time, cap * sizeof *t);
    if (t) b->time = t;
    uint32_t *p = realloc(b->profile, cap * sizeof *p);
    if (p) b->profile = p;
    uint32_t *c = realloc(b->ctx, cap * sizeof *c);
    if (c) b->ctx = c;
    uint8_t *l = realloc(b->leave, cap);
    if (l) b->leave = l;
    if (!t || !p || !c || !l) return -1;
    b->cap = cap;
  }
  b->time[b->n] = time;
  b->profile[b->n] = profile;
  b->ctx[b->n] = ctx;
  b->leave[b->n++] = leave;
  return 0;
}

static int is_frame(const hpcdb_context *c) {
  return c->kind == HPCDB_CTX_NORMAL && c->lexical_type == HPCDB_LEX_FUNCTION;
}

/* The function frames of context index c, outermost first, into stack;
 * returns their number (the tree is at most n_contexts deep). */
static uint32_t frames_of(const hpcdb_experiment *e, uint32_t c, uint32_t *stack) {
  uint32_t n = 0;
  for (uint32_t i = c; i != HPCDB_NONE && i < e->n_contexts; i = e->contexts[i].parent)
    if (is_frame(&e->contexts[i])) stack[n++] = i;
  for (uint32_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
    uint32_t t = stack[a];
    stack[a] = stack[b];
    stack[b] = t;
  }
  return n;
}

static int make_events(const hpcdb_experiment *e, event_buf *b) {
  uint32_t *prev = malloc(((size_t)e->n_contexts + 1) * sizeof *prev);
  uint32_t *cur = malloc(((size_t)e->n_contexts + 1) * sizeof *cur);
  int rc = prev && cur ? 0 : -1;
  for (uint32_t t = 0; rc == 0 && t < e->n_traces; t++) {
    const hpcdb_trace *tr = &e->traces[t];
    uint32_t n_prev = 0, last_ctx = HPCDB_NONE;
    for (uint64_t k = 0; rc == 0 && k < tr->n; k++) {
      if (tr->ctx_ids[k] == last_ctx) continue; /* the same path again: nothing changes */
      last_ctx = tr->ctx_ids[k];
      uint32_t c = tr->ctx_ids[k] == 0 ? HPCDB_NONE : hpcdb_find_context(e, tr->ctx_ids[k]);
      uint32_t n_cur = c == HPCDB_NONE ? 0 : frames_of(e, c, cur), same = 0;
      while (same < n_prev && same < n_cur && prev[same] == cur[same]) same++;
      for (uint32_t i = n_prev; rc == 0 && i > same; i--)
        rc = put(b, tr->timestamps[k], tr->profile, e->contexts[prev[i - 1]].id, 1);
      for (uint32_t i = same; rc == 0 && i < n_cur; i++)
        rc = put(b, tr->timestamps[k], tr->profile, e->contexts[cur[i]].id, 0);
      uint32_t *swap = prev;
      prev = cur;
      cur = swap;
      n_prev = n_cur;
    }
    for (uint32_t i = n_prev; rc == 0 && i > 0; i--)
      rc = put(b, tr->timestamps[tr->n - 1], tr->profile, e->contexts[prev[i - 1]].id, 1);
  }
  free(prev);
  free(cur);
  return rc;
}

/* Moves n elements of a malloc'ed array into a new NumPy array. */
static PyObject *to_array(int typenum, size_t n, const void *data, size_t size) {
  npy_intp dim = (npy_intp)n;
  PyObject *a = PyArray_EMPTY(1, &dim, typenum, 0);
  if (a && n) memcpy(PyArray_DATA((PyArrayObject *)a), data, n * size);
  return a;
}

/* events() -> (time, profile, context id, leave flag) arrays. */
PyObject *experiment_events(ExperimentObject *self, PyObject *unused) {
  event_buf b = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = make_events(self->exp, &b);
  Py_END_ALLOW_THREADS
  PyObject *out = NULL;
  if (rc < 0) PyErr_NoMemory();
  else
    out = Py_BuildValue("(NNNN)", to_array(NPY_UINT64, b.n, b.time, 8), to_array(NPY_UINT32, b.n, b.profile, 4),
                        to_array(NPY_UINT32, b.n, b.ctx, 4), to_array(NPY_BOOL, b.n, b.leave, 1));
  free(b.time);
  free(b.profile);
  free(b.ctx);
  free(b.leave);
  return out;
}
