#!/usr/bin/env python3
"""Draw the figures of an mrc results directory (mrc-ai-cluster, MrcClusterScenario).

    /usr/bin/python3 utils/plot-results.py mrc-ai-cluster-results [--out DIR]

Reads <dir>/summary.json and, for each run listed there, <dir>/<run>/steps.csv, goodput.csv
and link-summary.csv (the columns are documented in doc/mrc.rst, "Results directory"). Writes
three PNG files into the results directory (or --out):

  step-times.png     step duration against step start, one line per fabric, failure window
                     shaded
  goodput.png        payload goodput of all flows per interval, one line per fabric
  uplink-load.png    bytes carried by each T0->T1 uplink, sorted, one line per fabric (flat =
                     balanced; ECMP collisions show as a slope)

matplotlib is optional: without it the script says so and exits 0. A single-run directory
(OutputDirectory of one MrcClusterScenario) works too.
"""

import argparse
import csv
import json
import os
import sys


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def runs_of(directory):
    """(label, run directory, failure window in ms or None) for each run."""
    with open(os.path.join(directory, "summary.json")) as f:
        summary = json.load(f)
    runs = summary["runs"] if "runs" in summary else [summary]
    out = []
    for run in runs:
        sub = os.path.join(directory, run["key"])
        if not os.path.isdir(sub):
            sub = directory  # one run's own directory
        window = None
        if run["failure_start_us"] >= 0:
            window = (run["failure_start_us"] / 1e3, run["failure_end_us"] / 1e3)
        out.append((run["fabric"], sub, window))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="results directory (with summary.json)")
    parser.add_argument("--out", help="where to write the PNG files (default: the directory)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot-results: matplotlib is not installed (Debian: apt-get install "
              "python3-matplotlib); no figures written", file=sys.stderr)
        return 0
    try:
        runs = runs_of(args.directory)
    except (OSError, KeyError, ValueError) as e:
        print(f"plot-results: {args.directory} is not a results directory: {e}",
              file=sys.stderr)
        return 2
    out = args.out or args.directory
    os.makedirs(out, exist_ok=True)

    window = next((w for _, _, w in runs if w), None)

    def figure(name, title, xlabel, ylabel, draw, shade):
        fig, ax = plt.subplots(figsize=(8, 4.5))
        draw(ax)
        if shade and window:
            ax.axvspan(window[0], window[1], color="red", alpha=0.1, label="failures")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=120)
        plt.close(fig)

    def step_times(ax):
        for label, sub, _ in runs:
            rows = read_csv(os.path.join(sub, "steps.csv"))
            for job in sorted({s.get("job", "main") for s in rows}, key=lambda j: j != "main"):
                steps = [s for s in rows if s.get("job", "main") == job]
                ax.plot([float(s["start_us"]) / 1e3 for s in steps],
                        [float(s["duration_us"]) for s in steps], marker="o",
                        label=label if job == "main" else f"{label}, job {job}")

    def goodput(ax):
        for label, sub, _ in runs:
            rows = read_csv(os.path.join(sub, "goodput.csv"))
            ax.plot([float(r["time_us"]) / 1e3 for r in rows],
                    [float(r["gbps"]) for r in rows], label=label)

    def uplink_load(ax):
        for label, sub, _ in runs:
            path = os.path.join(sub, "link-summary.csv")
            if os.path.exists(path):
                up = sorted((float(r["bytes"]) / 1e6 for r in read_csv(path)
                             if r["tier"] == "T0-T1" and r["direction"] == "up"), reverse=True)
                ax.plot(range(len(up)), up, label=label)

    figure("step-times.png", "Training step time (P100 of each step's transfers)",
           "step start (ms)", "step duration (us)", step_times, True)
    figure("goodput.png", "Payload placed per interval", "time (ms)",
           "goodput, all flows (Gb/s)", goodput, True)
    figure("uplink-load.png", "Uplink load over the run (flat = balanced)",
           "T0->T1 uplink (sorted by load)", "bytes carried (MB)", uplink_load, False)
    print(f"plot-results: wrote step-times.png, goodput.png, uplink-load.png in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
