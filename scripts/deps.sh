#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages hpcdb needs to build and test, when missing.
# Usage: scripts/deps.sh [--browser]   (--browser adds chromium for HTML tests, nodejs and npm,
#                                      and playwright-core, pinned, in tests/view/node_modules)
set -euo pipefail
packages=(build-essential cmake pkg-config zlib1g-dev libexpat1-dev libarchive-dev libyaml-dev libelf-dev
          python3 clang
          libunwind-dev                                   # hpcdb record: unwinding in the sampler
          libmicrohttpd-dev                               # hpcdb view: the HTTP server
          libdw-dev libcapstone-dev                       # hpcdb struct: DWARF and machine code
          libiberty-dev                                   # hpcdb struct: C++ and Rust demangling (GCC's own)
          libdebuginfod-dev debuginfod                    # hpcdb struct: debug info from debuginfod servers; its test server
          hpcc libc6-dbg gfortran rustc                   # tests/binstruct: a stripped Debian program; split debug
                                                          # info; Fortran and Rust names
          elfutils binutils libxml2-utils                 # hpcdb struct: benchmark floor, DTD check in tests
          abigail-tools                                   # tests/api: the ABI against abi/libhpcdb.abi
          clang-format                                    # tests/style: the C sources as .clang-format says
          libopenmpi-dev openmpi-bin                      # hpcdb-mpi (optional part: built when found)
          iproute2                                        # tests/mpi: test hosts in network namespaces
          time                                            # tests/record/stress.sh: peak memory (GNU time)
          xz-utils bzip2 gzip                             # tests: binaries and kernel symbols stored compressed
          gfortran libomp-dev lammps hpcc                 # tests/realapps: Fortran, clang's OpenMP, real applications
          python3-dev python3-numpy python3-pandas python3-pytest python3-setuptools python3-venv  # import hpcdb
          )
command -v node > /dev/null || packages+=(nodejs)  # tests/routes: the route contract, the exported page's answers
if [ "${1:-}" = "--browser" ]; then
  packages+=(chromium)
  # a machine whose Node.js came from elsewhere (NodeSource bundles npm) cannot take Debian's npm
  command -v npm > /dev/null || packages+=(nodejs npm)
fi
# hpcdb view's browser tests drive Debian's chromium with playwright-core (no downloaded browser)
browser_tests() {
  [ "${1:-}" = "--browser" ] || return 0
  local here
  here=$(cd "$(dirname "$0")/.." && pwd)
  [ -d "$here/tests/view/node_modules/playwright-core" ] || (cd "$here/tests/view" && npm ci --no-audit --no-fund --silent)
}
trap 'browser_tests "${1:-}"' EXIT
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
