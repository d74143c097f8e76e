# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb report --view trace against an expected output file.
Usage: check_cli.py HPCDB EXPECTED DB ARGS..."""
import os
import subprocess
import sys

hpcdb, expected, db, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
if not os.path.exists(db):
    print('skip: %s is absent (set HPCDB_SAMPLE_DATA)' % db)
    sys.exit(77)
p = subprocess.run([hpcdb, 'report', '--view', 'trace', *args, db], capture_output=True, text=True, timeout=60)
want = open(expected).read()
if p.returncode != 0 or p.stdout != want:
    print('exit %d, stderr: %s' % (p.returncode, p.stderr))
    print('--- got\n%s--- want\n%s' % (p.stdout, want))
    sys.exit(1)
print('same as %s' % expected)
