/* SPDX-License-Identifier: BSD-3-Clause */
/* The Experiment type: a hpcdb_experiment and its tables as Python objects.
 * Arrays that the model stores contiguously (a profile's CSR arrays, a
 * trace's timestamps and contexts) are handed out as read-only views whose
 * base is the Experiment, so the model lives as long as any of them. */
#include "hpcdb_py.h"

PyObject *hpcdb_py_view(PyObject *owner, int typenum, npy_intp n, void *data) {
  if (n == 0 || !data) return PyArray_ZEROS(1, &n, typenum, 0);
  PyObject *a = PyArray_SimpleNewFromData(1, &n, typenum, data);
  if (!a) return NULL;
  PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
  Py_INCREF(owner);
  if (PyArray_SetBaseObject((PyArrayObject *)a, owner) < 0) {
    Py_DECREF(a);
    return NULL;
  }
  return a;
}

PyObject *hpcdb_py_experiment(hpcdb_experiment *exp, hpcdb_db *db) {
  ExperimentObject *o = PyObject_New(ExperimentObject, &Experiment_Type);
  if (!o) {
    hpcdb_experiment_free(exp);
    hpcdb_db_close(db);
    return NULL;
  }
  o->exp = exp;
  o->db = db;
  return (PyObject *)o;
}

static void experiment_dealloc(ExperimentObject *self) {
  hpcdb_db_close(self->db);
  hpcdb_experiment_free(self->exp);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *text(const char *s) {
  if (!s) Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* Provenance and counts. */
static PyObject *experiment_info(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  PyObject *attrs = PyDict_New(), *warnings = PyList_New(e->n_warnings), *kinds = PyList_New(e->n_kind_names);
  if (!attrs || !warnings || !kinds) goto fail;
  for (uint32_t i = 0; i < e->n_attrs; i++) {
    PyObject *k = text(e->attrs[i].key ? e->attrs[i].key : ""), *v = text(e->attrs[i].value);
    int rc = k && v ? PyDict_SetItem(attrs, k, v) : -1;
    Py_XDECREF(k);
    Py_XDECREF(v);
    if (rc < 0) goto fail;
  }
  for (uint32_t i = 0; i < e->n_warnings; i++) {
    PyObject *v = text(e->warnings[i]);
    if (!v) goto fail;
    PyList_SET_ITEM(warnings, i, v);
  }
  for (uint32_t i = 0; i < e->n_kind_names; i++) {
    PyObject *v = text(e->kind_names[i]);
    if (!v) goto fail;
    PyList_SET_ITEM(kinds, i, v);
  }
  return Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:I,s:I,s:I,s:I,s:O,s:O,s:K,s:K,s:K}", "format", text(e->format),
                       "origin", text(e->origin), "title", text(e->title), "description", text(e->description), "attrs",
                       attrs, "warnings", warnings, "kind_names", kinds, "n_contexts", e->n_contexts, "n_profiles",
                       e->n_profiles, "n_metrics", e->n_metrics, "n_traces", e->n_traces, "has_traces",
                       e->has_traces ? Py_True : Py_False, "lazy", self->db ? Py_True : Py_False, "trace_min",
                       (unsigned long long)e->trace_min, "trace_max", (unsigned long long)e->trace_max, "n_values",
                       (unsigned long long)hpcdb_value_count(e));
fail:
  Py_XDECREF(attrs);
  Py_XDECREF(warnings);
  Py_XDECREF(kinds);
  return NULL;
}

static PyObject *experiment_version(ExperimentObject *self, PyObject *unused) {
  return Py_BuildValue("(ii)", self->exp->version_major, self->exp->version_minor);
}

static const char *combine_name(uint8_t c) {
  return c == HPCDB_COMBINE_SUM ? "sum" : c == HPCDB_COMBINE_MIN ? "min" : c == HPCDB_COMBINE_MAX ? "max" : "combine?";
}

/* One row per metric id: (metric, name, scope, kind, id, formula, combine,
 * unit, description); kind "value" (thread profiles' propagated values) or
 * "statistic" (summary profiles). */
static PyObject *experiment_metric_rows(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  PyObject *rows = PyList_New(0);
  if (!rows) return NULL;
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    const hpcdb_metric *mt = &e->metrics[m];
    for (uint32_t k = 0; k < mt->n_instances + mt->n_summaries; k++) {
      int stat = k >= mt->n_instances;
      const hpcdb_summary *s = stat ? &mt->summaries[k - mt->n_instances] : NULL;
      uint32_t scope = stat ? s->scope : mt->instances[k].scope;
      const char *scope_name = scope < e->n_scopes ? e->scopes[scope].name : "?";
      PyObject *row = Py_BuildValue("(INNsINNNN)", m, text(mt->name), text(scope_name), stat ? "statistic" : "value",
                                    (unsigned)(stat ? s->stat_metric_id : mt->instances[k].prop_metric_id),
                                    text(stat ? s->formula : NULL), text(stat ? combine_name(s->combine) : NULL),
                                    text(mt->unit), text(mt->description));
      if (!row || PyList_Append(rows, row) < 0) {
        Py_XDECREF(row);
        Py_DECREF(rows);
        return NULL;
      }
      Py_DECREF(row);
    }
  }
  return rows;
}

/* One row per profile: (identity text, flags, [(kind name, flags, logical id,
 * physical id), ...]). */
static PyObject *experiment_profile_rows(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  PyObject *rows = PyList_New(e->n_profiles);
  if (!rows) return NULL;
  char buf[1024];
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    PyObject *ids = PyList_New(pr->has_id_tuple ? pr->n_ids : 0);
    if (!ids) goto fail;
    for (uint16_t i = 0; pr->has_id_tuple && i < pr->n_ids; i++) {
      const hpcdb_id *id = &pr->ids[i];
      const char *kind = id->kind < e->n_kind_names ? e->kind_names[id->kind] : NULL;
      if (!kind) {
        snprintf(buf, sizeof buf, "KIND%u", (unsigned)id->kind);
        kind = buf;
      }
      PyObject *t =
          Py_BuildValue("(NIIK)", text(kind), (unsigned)id->flags, id->logical_id, (unsigned long long)id->physical_id);
      if (!t) {
        Py_DECREF(ids);
        goto fail;
      }
      PyList_SET_ITEM(ids, i, t);
    }
    hpcdb_profile_identity(e, pr, buf, sizeof buf);
    PyObject *row = Py_BuildValue("(NIN)", text(buf), pr->flags, ids);
    if (!row) goto fail;
    PyList_SET_ITEM(rows, p, row);
  }
  return rows;
fail:
  Py_DECREF(rows);
  return NULL;
}

static PyObject *new_array(int typenum, npy_intp n, void **data) {
  PyObject *a = PyArray_EMPTY(1, &n, typenum, 0);
  if (a) *data = PyArray_DATA((PyArrayObject *)a);
  return a;
}

/* Python strings of a table of C strings, one object per entry (shared by every
 * context that refers to it); NULL entries are None. */
static PyObject **strings_of(uint32_t n, const char *(*get)(const hpcdb_experiment *, uint32_t),
                             const hpcdb_experiment *e) {
  PyObject **out = PyMem_Calloc(n ? n : 1, sizeof *out);
  if (!out) return (PyObject **)PyErr_NoMemory();
  for (uint32_t i = 0; i < n; i++)
    if (!(out[i] = text(get(e, i)))) {
      while (i-- > 0) Py_DECREF(out[i]);
      PyMem_Free(out);
      return NULL;
    }
  return out;
}

static void strings_free(PyObject **v, uint32_t n) {
  for (uint32_t i = 0; v && i < n; i++) Py_DECREF(v[i]);
  PyMem_Free(v);
}

static const char *file_path(const hpcdb_experiment *e, uint32_t i) { return e->files[i].path; }
static const char *module_path(const hpcdb_experiment *e, uint32_t i) { return e->modules[i].path; }
static const char *function_name(const hpcdb_experiment *e, uint32_t i) {
  return e->functions[i].name ? e->functions[i].name : "<unnamed>";
}
static const char *kind_name(const hpcdb_experiment *e, uint32_t i) {
  static const char *names[] = {"global", "entry", "function", "loop", "line", "instruction", "unknown"};
  return names[i];
}
static const char *relation_name(const hpcdb_experiment *e, uint32_t i) {
  static const char *names[] = {"lexical", "call", "inlined call"};
  return names[i];
}

/* The context tree as columns: dict of arrays (id, parent, depth, line,
 * offset) and lists of strings (kind, relation, name, file, module). The
 * file, line and module of a context are its own, else its function's. */
static PyObject *experiment_context_columns(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  npy_intp n = e->n_contexts;
  uint32_t *id, *depth, *line;
  int64_t *parent;
  uint64_t *offset;
  PyObject *a_id = new_array(NPY_UINT32, n, (void **)&id), *a_parent = new_array(NPY_INT64, n, (void **)&parent),
           *a_depth = new_array(NPY_UINT32, n, (void **)&depth), *a_line = new_array(NPY_UINT32, n, (void **)&line),
           *a_offset = new_array(NPY_UINT64, n, (void **)&offset);
  PyObject *kind = PyList_New(n), *relation = PyList_New(n), *name = PyList_New(n), *file = PyList_New(n),
           *module = PyList_New(n);
  PyObject **files = strings_of(e->n_files, file_path, e), **modules = strings_of(e->n_modules, module_path, e),
           **functions = strings_of(e->n_functions, function_name, e), **kinds = strings_of(7, kind_name, e),
           **relations = strings_of(3, relation_name, e);
  PyObject *result = NULL, *root = PyUnicode_FromString("<program root>");
  if (!a_id || !a_parent || !a_depth || !a_line || !a_offset || !kind || !relation || !name || !file || !module ||
      !files || !modules || !functions || !kinds || !relations || !root)
    goto done;
  char buf[1100];
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    const hpcdb_function *f = c->function < e->n_functions ? &e->functions[c->function] : NULL;
    id[i] = c->id;
    parent[i] = c->parent < i ? (int64_t)e->contexts[c->parent].id : -1;
    depth[i] = c->parent < i ? depth[c->parent] + 1 : 0; /* a parent is always added before its children */
    uint32_t fi = c->file < e->n_files ? c->file : f && f->file < e->n_files ? f->file : HPCDB_NONE;
    uint32_t mi = c->module < e->n_modules ? c->module : f && f->module < e->n_modules ? f->module : HPCDB_NONE;
    line[i] = c->file < e->n_files ? c->line : f && f->file < e->n_files ? f->line : 0;
    offset[i] = c->module < e->n_modules ? c->offset : f && f->module < e->n_modules ? f->offset : 0;
    uint32_t k = c->kind == HPCDB_CTX_GLOBAL  ? 0
                 : c->kind == HPCDB_CTX_ENTRY ? 1
                 : c->lexical_type < 4        ? 2 + c->lexical_type
                                              : 6;
    PyObject *nm;
    if (c->kind == HPCDB_CTX_GLOBAL) nm = Py_NewRef(root);
    else if (f) nm = Py_NewRef(functions[c->function]);
    else if (c->name) nm = text(c->name);
    else {
      const char *where = fi != HPCDB_NONE ? e->files[fi].path : mi != HPCDB_NONE ? e->modules[mi].path : "?";
      if (c->lexical_type == HPCDB_LEX_INSTRUCTION && mi != HPCDB_NONE)
        snprintf(buf, sizeof buf, "%.1000s+0x%llx", where, (unsigned long long)offset[i]);
      else snprintf(buf, sizeof buf, "%s %.1000s:%u", kind_name(e, k), where, line[i]);
      nm = text(buf);
    }
    if (!nm) goto done;
    PyList_SET_ITEM(kind, i, Py_NewRef(kinds[k]));
    PyList_SET_ITEM(relation, i,
                    Py_NewRef(c->kind == HPCDB_CTX_NORMAL && c->relation < 3 ? relations[c->relation] : Py_None));
    PyList_SET_ITEM(name, i, nm);
    PyList_SET_ITEM(file, i, Py_NewRef(fi != HPCDB_NONE ? files[fi] : Py_None));
    PyList_SET_ITEM(module, i, Py_NewRef(mi != HPCDB_NONE ? modules[mi] : Py_None));
  }
  result = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "id", a_id, "parent", a_parent, "depth", a_depth,
                         "kind", kind, "relation", relation, "name", name, "file", file, "line", a_line, "module",
                         module, "offset", a_offset);
done:
  strings_free(files, e->n_files);
  strings_free(modules, e->n_modules);
  strings_free(functions, e->n_functions);
  strings_free(kinds, 7);
  strings_free(relations, 3);
  Py_XDECREF(root);
  Py_XDECREF(a_id);
  Py_XDECREF(a_parent);
  Py_XDECREF(a_depth);
  Py_XDECREF(a_line);
  Py_XDECREF(a_offset);
  Py_XDECREF(kind);
  Py_XDECREF(relation);
  Py_XDECREF(name);
  Py_XDECREF(file);
  Py_XDECREF(module);
  return result;
}

/* Each context's label, as in `hpcdb dump --json`. */
static PyObject *experiment_labels(ExperimentObject *self, PyObject *unused) {
  const hpcdb_experiment *e = self->exp;
  PyObject *out = PyList_New(e->n_contexts);
  if (!out) return NULL;
  char buf[2048];
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    hpcdb_context_label(e, i, buf, sizeof buf);
    PyObject *s = text(buf);
    if (!s) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SET_ITEM(out, i, s);
  }
  return out;
}

/* A profile's CSR arrays without a copy: (ctx_ids, ctx_starts, metric_ids, values). */
static PyObject *experiment_profile_csr(ExperimentObject *self, PyObject *args) {
  unsigned p;
  if (!PyArg_ParseTuple(args, "I", &p)) return NULL;
  if (p >= self->exp->n_profiles) return PyErr_Format(PyExc_IndexError, "no profile %u", p);
  if (self->db) return PyErr_Format(PyExc_ValueError, "opened lazily: the values are read by values(), not held");
  hpcdb_profile *pr = &self->exp->profiles[p];
  PyObject *o = (PyObject *)self;
  return Py_BuildValue("(NNNN)", hpcdb_py_view(o, NPY_UINT32, pr->n_ctxs, pr->ctx_ids),
                       hpcdb_py_view(o, NPY_UINT64, pr->ctx_starts ? (npy_intp)pr->n_ctxs + 1 : 0, pr->ctx_starts),
                       hpcdb_py_view(o, NPY_UINT16, (npy_intp)pr->n_values, pr->metric_ids),
                       hpcdb_py_view(o, NPY_FLOAT64, (npy_intp)pr->n_values, pr->values));
}

/* A trace without a copy: (profile index, timestamps in ns, context ids). */
static PyObject *experiment_trace(ExperimentObject *self, PyObject *args) {
  unsigned t;
  if (!PyArg_ParseTuple(args, "I", &t)) return NULL;
  if (t >= self->exp->n_traces) return PyErr_Format(PyExc_IndexError, "no trace %u", t);
  hpcdb_trace *tr = &self->exp->traces[t];
  PyObject *o = (PyObject *)self;
  return Py_BuildValue("(INN)", tr->profile, hpcdb_py_view(o, NPY_UINT64, (npy_intp)tr->n, tr->timestamps),
                       hpcdb_py_view(o, NPY_UINT32, (npy_intp)tr->n, tr->ctx_ids));
}

static PyMethodDef experiment_methods[] = {
    {"info", (PyCFunction)experiment_info, METH_NOARGS, "provenance and counts"},
    {"version", (PyCFunction)experiment_version, METH_NOARGS, "(major, minor) of the source format"},
    {"metric_rows", (PyCFunction)experiment_metric_rows, METH_NOARGS, "one row per metric id"},
    {"profile_rows", (PyCFunction)experiment_profile_rows, METH_NOARGS, "one row per profile"},
    {"context_columns", (PyCFunction)experiment_context_columns, METH_NOARGS, "the context tree as columns"},
    {"labels", (PyCFunction)experiment_labels, METH_NOARGS, "each context's label"},
    {"profile_csr", (PyCFunction)experiment_profile_csr, METH_VARARGS, "a profile's CSR arrays (no copy)"},
    {"trace", (PyCFunction)experiment_trace, METH_VARARGS, "one trace's arrays (no copy)"},
    {"values", (PyCFunction)experiment_values, METH_VARARGS, "values of chosen metric ids and profiles"},
    {"context_index", (PyCFunction)experiment_context_index, METH_VARARGS, "context indices of native ids"},
    {"traces", (PyCFunction)experiment_traces, METH_NOARGS, "all traces concatenated"},
    {"events", (PyCFunction)experiment_events, METH_VARARGS, "Enter/Leave events of function frames"},
    {NULL, NULL, 0, NULL}};

PyTypeObject Experiment_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hpcdb._core.Experiment",
    .tp_basicsize = sizeof(ExperimentObject),
    .tp_dealloc = (destructor)experiment_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "an experiment read into hpcdb's model",
    .tp_methods = experiment_methods,
};
