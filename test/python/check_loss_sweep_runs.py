# SPDX-License-Identifier: GPL-2.0-only
"""mrc-loss-sweep.py --runs: replications through ns-3's --RngRun, summarised as a mean and a
95 % confidence interval per point (issue 19).

    check_loss_sweep_runs.py <mrc-loss-sweep.py> <directory of mrc-loss-collective> <scratch>

One tiny point (ring, 16 ranks, 256 kB, MRC) at 0 and 1 % loss, three runs each: every run is
listed with its number, the 1 % runs differ (another run, other losses), the summary's mean
lies between the runs' extremes and its interval is Student's (t = 4.303 for 3 runs).
"""

import csv
import os
import shutil
import subprocess
import sys


def main():
    script, bindir, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(scratch, ignore_errors=True)
    p = subprocess.run([sys.executable, script, "--bin", bindir, "--out", scratch,
                        "--sizes", "256k", "--losses", "0,0.01", "--configs", "mrc",
                        "--collectives", "ring", "--runs", "3"], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr)
        return 1
    with open(os.path.join(scratch, "loss-sweep.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(scratch, "loss-sweep-summary.csv")) as f:
        summary = {float(r["loss"]): r for r in csv.DictReader(f)}
    problems = []
    lossy = [float(r["busbw_gbps"]) for r in rows if float(r["loss"]) == 0.01]
    if sorted(int(r["run"]) for r in rows if float(r["loss"]) == 0.01) != [1, 2, 3]:
        problems.append("runs 1..3 at 1 % loss expected in loss-sweep.csv")
    if len(set(lossy)) < 2:
        problems.append(f"--RngRun changed nothing at 1 % loss: {lossy}")
    s = summary.get(0.01)
    if not s or int(s["runs"]) != 3:
        problems.append("summary: 3 runs at 1 % loss expected")
    else:
        mean, ci = float(s["busbw_mean_gbps"]), float(s["busbw_ci95_gbps"])
        m = sum(lossy) / 3
        sd = (sum((x - m) ** 2 for x in lossy) / 2) ** 0.5
        if not min(lossy) <= mean <= max(lossy) or abs(mean - m) > 0.001:
            problems.append(f"summary mean {mean} is not the runs' mean {m:.3f}")
        if abs(ci - 4.303 * sd / 3 ** 0.5) > 0.002:
            problems.append(f"summary CI {ci} is not t(0.975, 2) s / sqrt(3)")
    for msg in problems:
        print("check_loss_sweep_runs: " + msg)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
