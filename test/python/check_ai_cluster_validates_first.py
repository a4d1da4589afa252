# SPDX-License-Identifier: GPL-2.0-only
"""mrc-ai-cluster checks every argument, and that it can write its results, before the first
fabric runs (issue 20, item 7): --fabrics=mrc,,mrc was refused only after "mrc" had run, an
unwritable --out only after every fabric had run.

    check_ai_cluster_validates_first.py <mrc-ai-cluster> <scratch directory>

Each bad command line must exit 2, print no run (no "== " line on stdout), write no results,
and name the option on stderr. The time each took is printed, not asserted.
"""

import os
import shutil
import subprocess
import sys
import time


def main():
    program, scratch = sys.argv[1], sys.argv[2]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    blocker = os.path.join(scratch, "a-file")
    with open(blocker, "w") as f:
        f.write("x")
    out = os.path.join(scratch, "results")
    directory = os.path.join(scratch, "plan.json")
    os.mkdir(directory)
    cases = [
        (["--fabrics=mrc,,mrc", "--out=" + out],
         "--fabrics (=\"mrc,,mrc\"): item 2 ('') is not one of"),
        (["--fabrics=mrc,roce,", "--out=" + out], "item 3 ('') is not one of"),
        (["--fabrics=mrc,rocev2", "--out=" + out], "item 2 ('rocev2') is not one of"),
        (["--out=" + os.path.join(blocker, "results")],
         "--out (=\"%s\") cannot hold the results" % os.path.join(blocker, "results")),
        (["--failures=" + directory, "--out=" + out],
         directory + ": is a directory, not a failure schedule file"),
        (["--ns3::MrcClusterScenario::Planes=16", "--ns3::MrcClusterScenario::FatTreeK=64",
          "--out=" + out], "raise ns3::MrcClusterScenario::MaxLinks to 3145728"),
        (["--failAt=-5", "--out=" + out], "--failAt (=-5) must be >= 0 us, or -1 for the preset"),
        (["--span=0", "--out=" + out], "--span (=0) must be > 0 us, or -1 for the preset"),
    ]
    failures = 0
    for args, message in cases:
        start = time.monotonic()
        r = subprocess.run([program, "--quick"] + args, capture_output=True, text=True,
                           timeout=600)
        seconds = time.monotonic() - start
        problems = []
        if r.returncode != 2:
            problems.append("exit %d, expected 2" % r.returncode)
        if message not in r.stderr:
            problems.append("stderr lacks %r" % message)
        if "== " in r.stdout:
            problems.append("a fabric ran first")
        if os.path.exists(out):
            problems.append("results written to " + out)
        shutil.rmtree(out, ignore_errors=True)
        print("%s: %s" % (" ".join(args), "; ".join(problems) or "ok (%.2f s)" % seconds))
        if problems:
            print("  stdout: " + r.stdout.strip()[-300:] + "\n  stderr: " + r.stderr.strip()[-300:])
            failures += 1
    shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
