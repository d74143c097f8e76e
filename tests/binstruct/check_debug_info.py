#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Separate debug info where sites keep it.

usage: check_debug_info.py HPCDB OUTDIR CASE ARGS...
  debuginfod SOURCE   SOURCE built -O2 -g, its debug info kept apart (objcopy --only-keep-debug)
                      and the program stripped; Debian's debuginfod server serves the debug file
                      on the loopback interface (in a network namespace of its own where one can
                      be made): hpcdb struct with DEBUGINFOD_URLS gets the program's functions
                      and lines from it; without, it says on stderr that the program has no line
                      information
  libc LIBRARY        with Debian's libc6-dbg installed, struct reads LIBRARY's DWARF from
                      /usr/lib/debug/.build-id/ (skipped, saying so, without it)
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def build_id(binary):
    r = subprocess.run(["readelf", "-n", binary], capture_output=True, text=True)
    m = re.search(r"Build ID: ([0-9a-f]+)", r.stdout)
    return m.group(1) if m else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procedures(path):
    root = ET.parse(path).getroot()
    return {p.get("n"): (f.get("n"), int(p.get("l"))) for f in root.iter("F") for p in f.findall("P")}


def case_debuginfod(hpcdb, out, source):
    if not shutil.which("debuginfod"):
        print("skipped: Debian's debuginfod server is not installed (scripts/deps.sh installs it)")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)
    for d in ("debug", "cache", "no-debug-root"):
        os.makedirs(os.path.join(out, d))
    full, prog = os.path.join(out, "full"), os.path.join(out, "prog")
    subprocess.run(["cc", "-O2", "-g", "-Wl,--build-id", source, "-o", full], check=True)
    subprocess.run(["objcopy", "--only-keep-debug", full, os.path.join(out, "debug", "prog.debug")], check=True)
    subprocess.run(["strip", "-o", prog, full], check=True)
    bid = build_id(prog)
    if not bid:
        return fail("the program has no build id")
    if os.environ.get("HPCDB_IN_NETNS"):
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        print("debuginfod on the loopback interface of a network namespace of its own")
    else:
        print("debuginfod on this host (no network namespace could be made); asked on 127.0.0.1 only")
    port = free_port()
    log = open(os.path.join(out, "debuginfod.log"), "w")
    server = subprocess.Popen(["debuginfod", "-F", "-p", str(port), "-d", os.path.join(out, "db.sqlite"),
                               "-t", "0", "-g", "0", "-c", "1", os.path.join(out, "debug")], stdout=log, stderr=log)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/buildid/{bid}/debuginfo", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.time() > deadline or server.poll() is not None:
                return fail(f"debuginfod did not serve {bid} within 60 s (see {out}/debuginfod.log)")
            time.sleep(0.3)
        env = dict(os.environ, DEBUGINFOD_URLS=url, DEBUGINFOD_CACHE_PATH=os.path.join(out, "cache"))
        args = [hpcdb, "struct", "--verbose", "--debug-root", os.path.join(out, "no-debug-root"), prog]
        r = subprocess.run(args + ["-o", os.path.join(out, "with.hpcstruct")], capture_output=True, text=True,
                           env=env)
        if r.returncode != 0:
            return fail(f"struct with DEBUGINFOD_URLS: {r.stderr.strip()}")
        procs = procedures(os.path.join(out, "with.hpcstruct"))
        src = os.path.realpath(source)
        named = {n: v for n, v in procs.items() if os.path.realpath(v[0]) == src and v[1] > 0}
        if "main" not in named:
            fail(f"struct with DEBUGINFOD_URLS: main has no file and line: {procs}")
        if "DWARF from " + os.path.join(out, "cache") not in r.stderr or "no line information" in r.stderr:
            fail(f"struct with DEBUGINFOD_URLS does not say it read the debuginfod cache's file:\n{r.stderr}")
        else:
            print(f"with DEBUGINFOD_URLS: {len(named)} functions with their file and line, "
                  f"DWARF from the debuginfod client's cache")
        env.pop("DEBUGINFOD_URLS")
        r = subprocess.run(args + ["-o", os.path.join(out, "without.hpcstruct")], capture_output=True, text=True,
                           env=env)
        want = "for: prog\n"
        if r.returncode != 0 or "hpcdb struct: no line information" not in r.stderr or not r.stderr.endswith(want):
            fail(f"struct without DEBUGINFOD_URLS does not name prog as without line information:\n{r.stderr}")
        else:
            print("without DEBUGINFOD_URLS: " + r.stderr.strip().splitlines()[-1])
    finally:
        server.terminate()
        server.wait()


def case_libc(hpcdb, out, library):
    bid = build_id(library)
    debug = f"/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug" if bid else None
    if not debug or not os.path.exists(debug):
        print(f"skipped: no split debug file for {library} (Debian's libc6-dbg not installed)")
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([hpcdb, "struct", "--verbose", "--no-loops", library, "--force", "-o",
                        os.path.join(out, "libc.hpcstruct")], capture_output=True, text=True)
    if r.returncode != 0:
        return fail(f"struct {library}: {r.stderr.strip()}")
    if f"DWARF from {debug}" not in r.stderr:
        fail(f"struct {library} does not read {debug}:\n{r.stderr}")
    else:
        print(f"{library}: DWARF from {debug}")


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    hpcdb, out, case, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    {"debuginfod": case_debuginfod, "libc": case_libc}[case](hpcdb, out, *args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
