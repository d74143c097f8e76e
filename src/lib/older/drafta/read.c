/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a draft a database: experiment.xml through expxml (tree, tables,
 * metric tables), then profile.db and trace.db through hpcprof1. Context ids
 * are the XML ids; the binary files use them too (0 is the root, the global
 * context). Negative XML ids (hpcprof writes C/S i="-X" inside PF i="X" for
 * one context, values stored under X) and repeated ones get fresh ids above
 * every id the binary files can use; mirrors.c gives the former their values. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "common/error.h"
#include "older/drafta/drafta.h"

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int drafta_paths_of(drafta_paths *p, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  const char *slash = strrchr(path, '/');
  if (S_ISDIR(st.st_mode)) snprintf(p->dir, sizeof p->dir, "%s", path);
  else snprintf(p->dir, sizeof p->dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  if (strlen(p->dir) + 32 > sizeof p->dir) return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", path);
  snprintf(p->xml, sizeof p->xml, "%s/experiment.xml", p->dir);
  if (!S_ISDIR(st.st_mode)) snprintf(p->xml, sizeof p->xml, "%s", path);
  snprintf(p->profile, sizeof p->profile, "%s/profile.db", p->dir);
  snprintf(p->cct, sizeof p->cct, "%s/cct.db", p->dir);
  snprintf(p->trace, sizeof p->trace, "%s/trace.db", p->dir);
  return 0;
}

uint32_t drafta_value_id_bound(const drafta_paths *p) {
  uint8_t head[22];
  FILE *f = fopen(p->cct, "rb");
  if (!f) return 0;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n < sizeof head || memcmp(head, "HPCPROF-cctdb___", 16) != 0) return 0;
  return rd_be32(head + 18); /* number of contexts: ids below it */
}

/* profile.db and trace.db, then the values and traces of the contexts the XML
 * writes twice. */
static int read_values(hpcdb_experiment *exp, const drafta_paths *p, const expxml_doc *doc) {
  drafta_metric_map map = {NULL, NULL};
  HPCDB_TRY(drafta_build_metrics(exp, doc, &map, p->xml));
  if (!exists(p->profile)) {
    drafta_metric_map_free(&map);
    HPCDB_TRY(hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL));
    /* trace lines name profiles of profile.db */
    return hpcdb_add_warning(exp, "no profile.db: the database has no values and no traces");
  }
  hpcprof1_metric_map m = {map.thread, 0x10000u, map.summary, 0x10000u};
  uint32_t first = 0;
  int rc = hpcprof1_read_profiles(exp, p->profile, &m, &first);
  drafta_metric_map_free(&map);
  if (rc == 0 && exists(p->trace)) rc = hpcprof1_read_traces(exp, p->trace, first);
  if (rc == 0) rc = drafta_fill_mirrors(exp, doc->mirrors, doc->n_mirrors, p->xml);
  return rc;
}

static int read_all(hpcdb_experiment **out, const drafta_paths *p) {
  expxml_options opt = {0, 1, drafta_value_id_bound(p), NULL, NULL};
  expxml_doc doc;
  HPCDB_TRY(expxml_read_file(out, p->xml, &opt, &doc));
  hpcdb_experiment *exp = *out;
  unsigned major = 0, minor = 0;
  int rc = sscanf(doc.version, "%u.%u", &major, &minor) >= 1 && major == 4
               ? 0
               : hpcdb_fail(HPCDB_EVERSION, "%s: HPCToolkitExperiment version \"%s\" is not the 4.0 draft", p->xml,
                            doc.version);
  if (rc == 0) rc = hpcdb_set_format(exp, drafta_format.name, (uint8_t)major, (uint8_t)minor);
  if (rc == 0 && !exp->title) rc = hpcdb_set_title(exp, "experiment", NULL);
  if (rc == 0) rc = read_values(exp, p, &doc);
  expxml_doc_free(&doc);
  return rc;
}

int drafta_read(hpcdb_experiment **out, const char *path) {
  drafta_paths p;
  *out = NULL;
  HPCDB_TRY(drafta_paths_of(&p, path));
  hpcdb_experiment *exp = NULL;
  int rc = read_all(&exp, &p);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  rc = hpcdb_set_origin(exp, path);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  *out = exp;
  return 0;
}
