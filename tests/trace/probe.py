# SPDX-License-Identifier: BSD-3-Clause
"""Talks to trace_probe over a pipe: one command, one answer."""
import subprocess


class Probe:
    def __init__(self, exe, path, *flags):
        self.p = subprocess.Popen([exe, *flags, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, cmd):
        self.p.stdin.write(cmd + '\n')
        self.p.stdin.flush()
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError('trace_probe ended during: ' + cmd)
            line = line.rstrip('\n')
            if line == 'end':
                return out
            out.append(line)

    def close(self):
        self.p.stdin.close()
        return self.p.wait()

    def ctxs(self):
        res = {}
        for line in self.ask('ctxs'):
            _, i, cid, parent, frame, name = line.split(' ', 5)
            res[int(i)] = (int(cid), int(parent), name, frame == '1')
        return res

    def rows(self):
        return [tuple(map(int, line.split()[1:])) for line in self.ask('rows')]

    def info(self):
        f = self.ask('info')[0].split()
        return {'rows': int(f[1]), 'events': int(f[2]), 'tmin': int(f[3]), 'tmax': int(f[4]),
                'in_place': int(f[5]), 'from_cache': int(f[6])}
