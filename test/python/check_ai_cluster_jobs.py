# SPDX-License-Identifier: GPL-2.0-only
"""mrc-ai-cluster --jobs (issue 17): fabrics run side by side in child processes print and write
exactly what they print and write one after the other.

    check_ai_cluster_jobs.py <mrc-ai-cluster> <scratch directory>

Three fabrics of the quick cluster with --jobs=1 (in this process, in order) and --jobs=3 (three
children, finishing in any order): the standard output must be identical (but for the results
path) and so must every file of the results directories.
"""

import filecmp
import os
import shutil
import subprocess
import sys


def run(program, out, jobs):
    r = subprocess.run([program, "--quick", "--fabrics=mrc,roce,roce-xN",
                        "--ns3::MrcClusterScenario::Iterations=4", "--out=" + out,
                        "--jobs=%d" % jobs], capture_output=True, text=True, timeout=1200)
    return r.returncode, r.stdout.replace(out, "OUT"), r.stderr


def files(top):
    found = []
    for d, _, names in os.walk(top):
        found += [os.path.relpath(os.path.join(d, n), top) for n in names]
    return sorted(found)


def main():
    program, scratch = sys.argv[1], sys.argv[2]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    a, b = os.path.join(scratch, "jobs-1"), os.path.join(scratch, "jobs-3")
    ra, rb = run(program, a, 1), run(program, b, 3)
    failures = []
    for name, r in (("--jobs=1", ra), ("--jobs=3", rb)):
        if r[0] != 0 or r[1].count("\n== ") != 3:
            failures.append("%s: exit %d, stdout:\n%s\nstderr:\n%s" % (name, r[0], r[1], r[2]))
    if not failures and ra[1] != rb[1]:
        failures.append("stdout differs:\n--- jobs=1\n%s\n--- jobs=3\n%s" % (ra[1], rb[1]))
    if not failures:
        fa, fb = files(a), files(b)
        if fa != fb or len(fa) < 10:
            failures.append("result files differ: %s vs %s" % (fa, fb))
        else:
            _, mismatch, errors = filecmp.cmpfiles(a, b, fa, shallow=False)
            if mismatch or errors:
                failures.append("result files with other contents: %s %s" % (mismatch, errors))
    for f in failures:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
