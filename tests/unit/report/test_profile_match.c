/* SPDX-License-Identifier: BSD-3-Clause */
/* --profile selections (hpcdb_profile_matches): whole identities and patterns of identity levels,
 * on a hand-built experiment with NODE/RANK/THREAD and GPU identities. */
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD", "GPUCONTEXT", "GPUSTREAM"};

static hpcdb_profile profile(hpcdb_id *ids, uint16_t n) {
  hpcdb_profile p;
  memset(&p, 0, sizeof p);
  p.ids = ids, p.n_ids = n, p.has_id_tuple = 1;
  return p;
}

int main(void) {
  hpcdb_experiment e;
  memset(&e, 0, sizeof e);
  e.kind_names = kinds, e.n_kind_names = 6;
  hpcdb_id r3t0[] = {{1, HPCDB_ID_PHYSICAL, 0, 0x660a9f21}, {2, 0, 3, 0}, {3, 0, 0, 0}};
  hpcdb_id r7t2[] = {{1, HPCDB_ID_PHYSICAL, 0, 0x660a9f21}, {2, 0, 7, 0}, {3, 0, 2, 0}};
  hpcdb_id gpu[] = {{1, HPCDB_ID_PHYSICAL, 0, 0x1}, {4, 0, 1, 0}, {5, 0, 7, 0}};
  hpcdb_profile a = profile(r3t0, 3), b = profile(r7t2, 3), g = profile(gpu, 3), s = profile(NULL, 0);
  s.flags = HPCDB_PROFILE_SUMMARY, s.has_id_tuple = 0;

  CHECK(hpcdb_profile_matches(&e, &a, "NODE 0x660a9f21 RANK 3 THREAD 0")); /* a whole identity */
  CHECK(!hpcdb_profile_matches(&e, &a, "RANK 3 THREAD 0"));                /* ... is whole */
  CHECK(hpcdb_profile_matches(&e, &a, "rank=3") && !hpcdb_profile_matches(&e, &b, "rank=3"));
  CHECK(hpcdb_profile_matches(&e, &a, "RANK=0-7,thread=0") && !hpcdb_profile_matches(&e, &b, "rank=0-7,thread=0"));
  CHECK(hpcdb_profile_matches(&e, &b, "rank=7-7,Thread=2"));
  CHECK(hpcdb_profile_matches(&e, &a, "node=0x660a9f21") && !hpcdb_profile_matches(&e, &g, "node=0x660a9f21"));
  CHECK(hpcdb_profile_matches(&e, &g, "gpustream=7") && !hpcdb_profile_matches(&e, &a, "gpustream=7"));
  CHECK(!hpcdb_profile_matches(&e, &g, "rank=0-100")); /* a level the profile lacks */
  CHECK(!hpcdb_profile_matches(&e, &s, "rank=0-100") && hpcdb_profile_matches(&e, &s, "SUMMARY"));

  char why[200];
  CHECK(hpcdb_profile_pattern_check("rank=0-7,thread=0", why, sizeof why) == 0);
  CHECK(hpcdb_profile_pattern_check("node=0x660a9f21", why, sizeof why) == 0);
  const char *bad[] = {"rank=",           "rank=x",  "rank=7-3",
                       "rank=1-",         "=3",      "rank=3,",
                       "rank=3;thread=1", "rank=-1", "a=1,b=2,c=3,d=4,e=5,f=6,g=7,h=8,i=9"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    why[0] = '\0';
    int rc = hpcdb_profile_pattern_check(bad[i], why, sizeof why);
    CHECK(rc == -1 && strstr(why, "--profile") != NULL);
    if (rc != -1) fprintf(stderr, "accepted: %s\n", bad[i]);
  }
  return TEST_END();
}
