#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares two builds of hpcdb-mpi analyze (and their hpcdb analyze) on a shared, loaded machine: every
configuration runs once per round, round after round, so that the load falls on all of them alike; the
best wall time of each is kept, with that run's CPU seconds (the ranks' own from --report for hpcdb-mpi,
user + system for hpcdb analyze), peak RSS per rank and bytes sent between ranks; for hpcdb-mpi also the
median over the rounds of each phase's CPU seconds summed over the ranks. Every database is
compared byte for byte with the AFTER build's hpcdb analyze -j 1.

Configurations: hpcdb analyze -j 1 and -j 2 of both builds; BEFORE's hpcdb-mpi on 1, 2, 4 ranks, and on 2
and 4 with Open MPI's mpi_yield_when_idle; AFTER's hpcdb-mpi on 1, 2, 4 ranks (one thread per rank).

Usage: bench/analyze_mpi_compare.py BEFORE_BUILD AFTER_BUILD MEAS_ROOT [SIZES...]
  (MEAS_ROOT/meas-SIZE from bench/analyze.sh or bench/analyze_mpi.sh; ROUNDS=N, default 3;
  ONLY='hpcdb analyze -j 2 (after),before -np 2,after -np 2': only the configurations of these names; the
  reference database then comes from the first run of each size)"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FILES = ['profile.db', 'cct.db', 'meta.db', 'trace.db', 'metrics/default.yaml']


def configs(before, after):
    mpi = [os.environ.get('MPIEXEC', 'mpirun'), '--allow-run-as-root', '--oversubscribe']
    c = []
    for label, build in (('before', before), ('after', after)):
        for j in (1, 2):
            c.append((f'hpcdb analyze -j {j} ({label})', [f'{build}/hpcdb', 'analyze', '-j', str(j)], None))
    for n in (1, 2, 4):
        c.append((f'before -np {n}', mpi + ['-np', str(n), f'{before}/hpcdb-mpi', 'analyze', '--report'], n))
    for n in (2, 4):
        c.append((f'before -np {n}, mpi_yield_when_idle',
                  mpi + ['--mca', 'mpi_yield_when_idle', '1', '-np', str(n), f'{before}/hpcdb-mpi', 'analyze', '--report'],
                  n))
    for n in (1, 2, 4):
        c.append((f'after -np {n}', mpi + ['-np', str(n), f'{after}/hpcdb-mpi', 'analyze', '--report'], n))
    only = [o for o in os.environ.get('ONLY', '').split(',') if o]
    return [x for x in c if not only or x[0] in only]


def same(a, b):
    return all(filecmp.cmp(f'{a}/{f}', f'{b}/{f}', shallow=False) for f in FILES)


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2


def load():
    return float(open('/proc/loadavg').read().split()[0])


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    before, after, root = (os.path.abspath(a) for a in sys.argv[1:4])
    sizes = sys.argv[4:] or ['256x10000', '64x100000']
    rounds = int(os.environ.get('ROUNDS', '3'))
    work = tempfile.mkdtemp(prefix='analyze_mpi_compare.')
    print(f'machine: {os.cpu_count()} cores, load average at the start {open("/proc/loadavg").read().split()[:3]}',
          flush=True)
    for size in sizes:
        meas, ref, out = f'{root}/meas-{size}', f'{work}/ref', f'{work}/out'
        shutil.rmtree(ref, ignore_errors=True)
        best, loads, cpus, phases = {}, [], {}, {}
        for r in range(rounds):
            for name, cmd, ranks in configs(before, after):
                shutil.rmtree(out, ignore_errors=True)
                loads.append(load())
                t0 = time.time()
                p = subprocess.run(['/usr/bin/time', '-f', '%U %S %M'] + cmd + ['--quiet', meas, '-o', out],
                                   capture_output=True, text=True)
                wall = time.time() - t0
                if p.returncode != 0:
                    sys.exit(f'{name} failed:\n{p.stderr[-2000:]}')
                user, system, kib = p.stderr.strip().splitlines()[-1].split()
                lines = sorted(l for l in p.stderr.splitlines() if 'rank ' in l and ' s CPU' in l)
                if ranks is None:
                    cpu, rss, sent = float(user) + float(system), [int(kib) // 1024], None
                    if not os.path.exists(ref) or name == 'hpcdb analyze -j 1 (after)':
                        shutil.rmtree(ref, ignore_errors=True)
                        shutil.copytree(out, ref)
                else:
                    text = '\n'.join(lines)
                    cpu = sum(float(x) for x in re.findall(r'([0-9.]+) s CPU', text))
                    rss = [int(x) // 1024 for x in re.findall(r'peak RSS ([0-9]+) KiB', text)]
                    sent = sum(int(x) for x in re.findall(r'([0-9]+) bytes sent', text)) / 2**20
                    for phase, phase_cpu in re.findall(r'([a-z]+) [0-9.]+/([0-9.]+)/[0-9]+/[0-9]+/[0-9]+', text):
                        phases.setdefault(name, {}).setdefault(phase, {}).setdefault(r, 0.0)
                        phases[name][phase][r] += float(phase_cpu)
                    if os.path.exists(ref) and not same(ref, out):
                        sys.exit(f'{name}: not the bytes hpcdb analyze writes')
                cpus.setdefault(name, []).append(cpu)
                if name not in best or wall < best[name][0]:
                    best[name] = (wall, cpu, rss, sent, lines)
                print(f'  round {r + 1} {size} {name}: {wall:.2f} s, {cpu:.2f} CPU s', flush=True)
        print(f'\n{size}: load average (1 min) during the runs {min(loads):.1f}–{max(loads):.1f}')
        print(f'| run | wall s (best of {rounds}) | CPU s (sum of ranks) | CPU s, each round | peak RSS MiB per rank | MiB sent |')
        print('|---|---|---|---|---|---|')
        for name, _, _ in configs(before, after):
            wall, cpu, rss, sent, _ = best[name]
            print(f"| {name} | {wall:.2f} | {cpu:.2f} | {' / '.join(f'{x:.2f}' for x in cpus[name])} | {' / '.join(map(str, rss))} | "
                  f"{'' if sent is None else f'{sent:.1f}'} |")
        names = list(phases)
        if names:
            print(f"\n| phase: CPU s summed over the ranks, median of {rounds} | {' | '.join(names)} |")
            print('|---|' + '---|' * len(names))
            for phase in phases[names[0]]:
                print(f'| {phase} | ' + ' | '.join(f'{median(phases[n][phase].values()):.2f}' for n in names) + ' |')
        for name, _, _ in configs(before, after):
            for line in best[name][4]:
                print('   ', name, ':', line)
        print(flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
