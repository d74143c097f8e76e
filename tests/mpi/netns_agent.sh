#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Open MPI's remote-shell agent for the test hosts (plm_rsh_agent): called as
# `AGENT [OPTIONS] HOST COMMAND...` like ssh, it runs the command line in the
# host's network namespace, with its own host name and its own Open MPI
# session directory, as a daemon on another machine would run. A host listed
# in HPCDB_NETNS_HIDE (HOST:DIR) sees an empty DIR: a file system that is not
# shared with it.
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
host=$1
shift
ns=${HPCDB_NETNS_PREFIX:?}-$host
tmp=${HPCDB_NETNS_TMP:?}/$host
mkdir -p "$tmp"
hide=:
case ${HPCDB_NETNS_HIDE:-} in "$host":*) hide="mount -t tmpfs none '${HPCDB_NETNS_HIDE#*:}'" ;; esac
exec ip netns exec "$ns" unshare --uts --mount --propagation private \
  sh -c "hostname 'host-$host' && $hide && export OMPI_MCA_orte_tmpdir_base='$tmp' && $*"
