# SPDX-License-Identifier: BSD-3-Clause
# Test hosts made of network namespaces joined by a bridge, each with its own
# address (and, through netns_agent.sh, host name and Open MPI session
# directory); sourced by netns_case.sh (the tests) and bench/analyze_mpi_netns.sh.
# The caller sets: subnet (10.77.N), bridge, out (a folder), HPCDB_NETNS_PREFIX and
# HPCDB_NETNS_TMP (exported, for the agent), and the functions fail and skip.
# Two users at once on one machine with the same prefix and subnet break each other's hosts.

host_namespaces() { ip netns list | awk -v p="$HPCDB_NETNS_PREFIX-" 'index($1, p) == 1 {print $1}'; }
hosts_down() {
  for ns in $(host_namespaces); do
    ip netns pids "$ns" | xargs -r kill -9 2>/dev/null
  done
  for ns in $(host_namespaces); do
    for _ in $(seq 50); do [ -z "$(ip netns pids "$ns")" ] && break; sleep 0.1; done
    ip netns del "$ns"
  done
  # a namespace outlives its name while a process is in it: remove the links by name too
  ip -o link show | awk -F': ' -v p="${HPCDB_NETNS_PREFIX}v" 'index($2, p) == 1 {sub(/@.*/, "", $2); print $2}' |
    xargs -r -n1 ip link del 2>/dev/null
  ip link del "$bridge" 2>/dev/null
  return 0
}
# hosts_up N SLOTS: hosts $subnet.1 .. .N with SLOTS ranks each in $out/hostfile, the launching machine at $subnet.254
hosts_up() {
  hosts_down
  ip link add "$bridge" type bridge 2>/dev/null || skip "network namespaces and bridges cannot be made here"
  ip addr add "$subnet.254/24" dev "$bridge" && ip link set "$bridge" up || fail "bridge $bridge"
  : > "$out/hostfile"
  for i in $(seq 1 "$1"); do
    local ns=$HPCDB_NETNS_PREFIX-$subnet.$i
    ip netns add "$ns" || fail "ip netns add $ns"
    ip link add "${HPCDB_NETNS_PREFIX}v$i" type veth peer name eth0 netns "$ns" || fail "veth for $ns"
    ip link set "${HPCDB_NETNS_PREFIX}v$i" master "$bridge" up
    ip -n "$ns" addr add "$subnet.$i/24" dev eth0
    ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up
    echo "$subnet.$i slots=$2" >> "$out/hostfile"
  done
}
# mpirun's arguments that start the ranks on the hosts of $out/hostfile over TCP only
netns_mpi_args() {
  echo --allow-run-as-root --oversubscribe --hostfile "$out/hostfile" --mca plm_rsh_agent "$netns_dir/netns_agent.sh" \
    --mca btl tcp,self --mca btl_tcp_if_include "$subnet.0/24" --mca oob_tcp_if_include "$subnet.0/24"
}
netns_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
