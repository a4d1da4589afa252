#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bus bandwidth of collectives under random loss (MRC paper, Fig. 16/17).

    /usr/bin/python3 examples/python/mrc-loss-sweep.py [--bin build/bin] [--jobs 2] [--quick]

Runs mrc-loss-collective once per point (one process each, --jobs at a time) over
  collective  ring (ring all-reduce), alltoall          (--collectives)
  size        256 kB .. 64 MB per rank                   (--sizes; --quick: 256 kB, 2 MB)
  loss        0, 0.1 %, 1 % at every host NIC port      (--losses)
  config      MRC 1 QP (4 x 100 Gb/s planes, SRv6), RoCEv2 1 QP and RoCEv2 16 QPs
              (one 400 Gb/s plane, ECMP; lossy: mrc, roce, roce16, the default; lossless
              with PFC: pfc, pfc16)                      (--configs)
and writes <out>/loss-sweep.csv (the program's columns plus run, wall_s and status) and, when
matplotlib is installed (Debian: python3-matplotlib), <out>/loss-sweep-<collective>.png: bus
bandwidth against size, one line per config and loss (colour: config, line style: loss).

Replications: --runs N runs every point N times with ns-3's --RngRun=1..N (other EV sets,
losses and probe choices; the seed, hence the ECMP hash, stays), and <out>/loss-sweep-summary.csv
gives per point the mean bus bandwidth and the half-width of its 95 % confidence interval
(Student's t, N - 1 degrees of freedom), drawn as error bars.

VerifyData (byte-for-byte checks; memory and time grow with the size) is on up to
--verify-max bytes per rank; above it bytes_ok rests on the exact count of bytes placed.
Exit status: 0 if every point completed with bytes_ok = 1, 1 otherwise (the CSV is written
anyway; failed points have status != ok and are left out of the figures).
"""

import argparse
import concurrent.futures
import csv
import os
import subprocess
import sys
import time

from mrc_stats import mean_ci95

CONFIGS = {  # name -> (label, fabric, queue pairs per peer)
    "mrc": ("MRC, 1 QP", "mrc", 1),
    "roce": ("RoCEv2, 1 QP", "roce", 1),
    "roce16": ("RoCEv2, 16 QPs", "roce", 16),
    "pfc": ("RoCEv2 + PFC, 1 QP", "roce-pfc", 1),
    "pfc16": ("RoCEv2 + PFC, 16 QPs", "roce-pfc", 16),
}
COLUMNS = ["collective", "fabric", "qps", "hosts", "size_bytes", "loss", "time_us", "algbw_gbps",
           "busbw_gbps", "retransmitted_bytes", "bytes_ok"]


def size_arg(text):
    """'256k', '4M', '1048576' -> bytes (k = 1024, M = 1024^2, G = 1024^3)."""
    text = text.strip()
    scale = {"k": 1 << 10, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    try:
        value = int(float(text[:-1] if scale > 1 else text) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size '{text}' (e.g. 256k, 4M, 1048576)")
    if value < 1:
        raise argparse.ArgumentTypeError(f"size '{text}' must be >= 1 byte")
    return value


def human(size):
    """1048576 -> '1 MB' (binary units, as the sizes are given)."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} B"


def list_of(kind):
    def parse(text):
        return [kind(x) for x in text.split(",") if x.strip()]
    return parse


def summarise(rows):
    """Per (collective, config, size, loss): runs, mean and 95 % CI of the bus bandwidth."""
    groups = {}
    for r in rows:
        if r["status"] == "ok" and str(r.get("bytes_ok")) == "1":
            key = (r["collective"], r["config"], int(r["size_bytes"]), float(r["loss"]))
            groups.setdefault(key, []).append(float(r["busbw_gbps"]))
    out = []
    for (collective, config, size, loss), values in sorted(groups.items()):
        mean, ci = mean_ci95(values)
        out.append(dict(collective=collective, config=config, size_bytes=size, loss=loss,
                        runs=len(values), busbw_mean_gbps=f"{mean:.3f}",
                        busbw_ci95_gbps=f"{ci:.3f}", busbw_min_gbps=f"{min(values):.3f}",
                        busbw_max_gbps=f"{max(values):.3f}"))
    return out


def run_point(binary, point, extra, verify_max, timeout):
    """Run one point; return a dict of the CSV columns plus run, wall_s and status."""
    collective, config, size, loss, run = point
    _, fabric, qps = CONFIGS[config]
    cmd = [binary, f"--collective={collective}", f"--fabric={fabric}", f"--qps={qps}",
           f"--size={size}", f"--loss={loss}", f"--verify={'true' if size <= verify_max else 'false'}",
           f"--RngRun={run}"]
    cmd += extra
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        status = "ok" if p.returncode == 0 else f"exit {p.returncode}"
        lines = [l for l in p.stdout.splitlines() if l and not l.startswith("collective,")]
        err = p.stderr.strip().splitlines()
    except subprocess.TimeoutExpired:
        status, lines, err = f"timeout {timeout} s", [], []
    row = dict(zip(COLUMNS, lines[-1].split(","))) if lines else {}
    if not row:
        row = dict(collective=collective, fabric=fabric, qps=qps, size_bytes=size, loss=loss,
                   bytes_ok=0)
    if status != "ok" and err:
        status += ": " + err[-1]
    row.update(config=config, run=run, wall_s=f"{time.monotonic() - start:.1f}", status=status)
    return row


def plot(summary, out, collectives, configs, losses):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("mrc-loss-sweep: matplotlib is not installed (Debian: apt-get install "
              "python3-matplotlib): no figures, the CSV has the data", file=sys.stderr)
        return []
    styles = ["-", "--", ":", "-."]
    colours = {"mrc": "tab:blue", "roce": "tab:red", "roce16": "tab:orange", "pfc": "tab:purple",
               "pfc16": "tab:brown"}
    written = []
    for collective in collectives:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for config in configs:
            for i, loss in enumerate(losses):
                pts = sorted((r["size_bytes"], float(r["busbw_mean_gbps"]),
                              float(r["busbw_ci95_gbps"]), r["runs"]) for r in summary
                             if r["collective"] == collective and r["config"] == config
                             and r["loss"] == loss)
                if pts:
                    runs = max(p[3] for p in pts)
                    ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                                yerr=[p[2] for p in pts] if runs > 1 else None, capsize=3,
                                marker="o", linestyle=styles[i % len(styles)],
                                color=colours.get(config),
                                label=f"{CONFIGS[config][0]}, loss {loss * 100:g} %"
                                + (f" (mean, 95 % CI, {runs} runs)" if runs > 1 else ""))
        ax.set_xscale("log", base=2)
        ticks = sorted({r["size_bytes"] for r in summary if r["collective"] == collective})
        ax.set_xticks(ticks, [human(t) for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel("size per rank (bytes)")
        ax.set_ylabel("bus bandwidth (Gb/s)")
        name = "ring all-reduce" if collective == "ring" else "all-to-all"
        ax.set_title(f"{name} under random loss at host NIC ports")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        path = os.path.join(out, f"loss-sweep-{collective}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin", help="directory of mrc-loss-collective")
    ap.add_argument("--out", default="mrc-loss-sweep", help="output directory")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    ap.add_argument("--quick", action="store_true", help="two sizes only (256 kB, 2 MB)")
    ap.add_argument("--sizes", type=list_of(size_arg), help="sizes per rank, e.g. 256k,4M,64M")
    ap.add_argument("--losses", type=list_of(float), default=[0.0, 0.001, 0.01],
                    help="loss probabilities (default 0,0.001,0.01)")
    ap.add_argument("--collectives", type=list_of(str), default=["ring", "alltoall"])
    ap.add_argument("--configs", type=list_of(str), default=["mrc", "roce", "roce16"],
                    help="any of " + ",".join(CONFIGS) + " (default mrc,roce,roce16)")
    ap.add_argument("--verify-max", type=size_arg, default=4 << 20,
                    help="largest size run with VerifyData (default 4M)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per point")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1,
                    help="replications per point (--RngRun=1..N): mean and 95 %% CI")
    ap.add_argument("extra", nargs="*", help="more mrc-loss-collective arguments, after --")
    args = ap.parse_args()

    binary = os.path.join(args.bin, "mrc-loss-collective")
    problems = []
    if not os.access(binary, os.X_OK):
        problems.append(f"--bin: {binary} is not an executable (build it, or point --bin at it)")
    if args.jobs < 1:
        problems.append(f"--jobs (={args.jobs}) must be >= 1")
    if not 1 <= args.runs <= 1000:
        problems.append(f"--runs (={args.runs}) must be in 1..1000")
    bad = [c for c in args.configs if c not in CONFIGS] + \
        [c for c in args.collectives if c not in ("ring", "alltoall")] + \
        [str(x) for x in args.losses if not 0 <= x < 1]
    if bad:
        problems.append(f"unknown config/collective or loss outside [0, 1): {', '.join(bad)}")
    if problems:
        for p in problems:
            print("mrc-loss-sweep: " + p, file=sys.stderr)
        return 2
    sizes = args.sizes or ([256 << 10, 2 << 20] if args.quick else
                           [256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20])
    extra = [f"--seed={args.seed}"] + args.extra
    points = [(c, cfg, s, l, run) for c in args.collectives for cfg in args.configs for s in sizes
              for l in args.losses for run in range(1, args.runs + 1)]
    os.makedirs(args.out, exist_ok=True)
    # Largest first, so the long points do not end up alone at the end.
    order = sorted(points, key=lambda p: -p[2])
    rows = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_point, binary, p, extra, args.verify_max, args.timeout)
                   for p in order]
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            r = f.result()
            rows.append(r)
            print(f"[{n}/{len(points)}] {r['collective']} {r['config']} {r['size_bytes']} B "
                  f"loss {r['loss']} run {r['run']}: busbw {r.get('busbw_gbps', '-')} Gb/s, {r['status']} "
                  f"({r['wall_s']} s; {time.monotonic() - t0:.0f} s total)", file=sys.stderr)
    key = {p: i for i, p in enumerate(points)}
    rows.sort(key=lambda r: key[(r["collective"], r["config"], int(r["size_bytes"]),
                                 float(r["loss"]), r["run"])])
    path = os.path.join(args.out, "loss-sweep.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["config"] + COLUMNS + ["run", "wall_s", "status"],
                           extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    summary = summarise(rows)
    summary_path = os.path.join(args.out, "loss-sweep-summary.csv")
    with open(summary_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["collective", "config", "size_bytes", "loss", "runs",
                                          "busbw_mean_gbps", "busbw_ci95_gbps", "busbw_min_gbps",
                                          "busbw_max_gbps"])
        w.writeheader()
        w.writerows(summary)
    written = [path, summary_path] + plot(summary, args.out, args.collectives, args.configs,
                                          args.losses)
    print("mrc-loss-sweep: wrote " + ", ".join(written), file=sys.stderr)
    failed = [r for r in rows if r["status"] != "ok" or str(r.get("bytes_ok")) != "1"]
    for r in failed:
        print(f"mrc-loss-sweep: FAILED {r['collective']} {r['config']} {r['size_bytes']} B loss "
              f"{r['loss']} run {r['run']}: {r['status']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
