#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Examples as tests: the Python quick-start must reproduce the C++ flagship example.

    compare_quickstart.py MRC_AI_CLUSTER QUICKSTART_PY WORKDIR

Runs `mrc-ai-cluster --quick` and `mrc-quickstart.py --quick` into two directories and checks
that every per-fabric results file is byte-identical (failures.csv without its origin column,
which names the schedule's source: built-in in C++, "python: events[i]" from Python). Exit 1 on
any difference, naming the file and the first differing line.
"""

import csv
import os
import shutil
import subprocess
import sys


def rows(path, drop_origin):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return [row[:-1] for row in r] if drop_origin else r


def main():
    cpp, script, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    out_c, out_p = os.path.join(work, "cpp"), os.path.join(work, "python")
    subprocess.run([cpp, "--quick", f"--out={out_c}"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, script, "--quick", "--out", out_p], check=True,
                   stdout=subprocess.DEVNULL)
    fabrics = sorted(d for d in os.listdir(out_c) if os.path.isdir(os.path.join(out_c, d)))
    if fabrics != ["mrc", "roce", "roce-x4"]:
        sys.exit(f"unexpected fabric directories {fabrics}")
    compared = 0
    for fab in fabrics:
        names = sorted(os.listdir(os.path.join(out_c, fab)))
        if names != sorted(os.listdir(os.path.join(out_p, fab))):
            sys.exit(f"{fab}: different files")
        for name in names:
            a, b = os.path.join(out_c, fab, name), os.path.join(out_p, fab, name)
            if name == "failures.csv":
                ra, rb = rows(a, True), rows(b, True)
                same = ra == rb and len(ra) > 1
            else:
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    ra, rb = fa.read().splitlines(), fb.read().splitlines()
                same = ra == rb
            if not same:
                line = next((i for i, (x, y) in enumerate(zip(ra, rb)) if x != y),
                            min(len(ra), len(rb)))
                sys.exit(f"{fab}/{name} differs at line {line + 1}")
            compared += 1
    print(f"{compared} files identical over {len(fabrics)} fabrics")


if __name__ == "__main__":
    main()
