#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweeps that produce paper-style figures (CSV, and PNG when matplotlib is present).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/mrc-sweeps.py SWEEP [--jobs N]

SWEEP is one of
  failures  training-step time against the number of T0-T1 links down, MRC/SRv6 against
            RoCEv2/ECMP+BGP
  timers    longest stall after a T0-T1 link failure against BGP's FIB programming time per
            route, for two carrier-detection delays (RoCEv2/ECMP+BGP), with MRC (which does not
            depend on them) as reference
  bfd       longest stall after a T0-T1 black hole (carrier stays up: only BFD sees it)
            against the BFD interval (detect multiplier 3), RoCEv2/ECMP+BGP, with MRC (which
            does not depend on it) as reference
  loss      goodput against random loss on every T0-T1 link (0, 0.1, 1 %): MRC, RoCEv2 with
            1 and 16 queue pairs per peer
  evs       longest stall and step time under a link failure against MRC's EV-set size (active
            EVs per QP; over SRv6 at most one per path: planes x T1s)
Each point is an independent MrcClusterScenario run in its own process (--jobs in parallel,
ns-3 defaults set per process); a progress line goes to stderr. The cluster is the 16-host
test size (2 planes, 4 T0 x 4 hosts, 4 T1) unless --hosts-per-t0/--t0/--planes say otherwise.
Output: <out>/<sweep>.csv and <out>/<sweep>.png. --runs N replicates every point with ns-3's
run number 1..N (RngRun: other EV sets, losses and probe choices; the seed and ECMP hash stay):
<sweep>.csv lists every run, <sweep>-summary.csv gives per point the mean of each measure and
the half-width of its 95 % confidence interval (Student's t), and the figure draws error bars.
"""

import argparse
import csv
import multiprocessing
import os
import sys
import time

import mrc
from mrc_stats import mean_ci95


def cluster(args, **extra):
    base = dict(Planes=args.planes, T0Count=args.t0, HostsPerT0=args.hosts_per_t0,
                T1Count=args.t1, AllReduceSize=args.allreduce, AllToAllSize=args.alltoall,
                AllToAllGroup=4, ComputeTime="20us", Iterations=args.iterations,
                ShowProgress=False, Seed=args.seed)
    base.update(extra)
    return base


def uplinks(args):
    return [f"p{p}-t0-{i} p{p}-t1-{j}" for p in range(args.planes) for i in range(args.t0)
            for j in range(args.t1)]


def point(task):
    """Run one point in this (worker) process: (sweep, x, series, attributes, failures,
    defaults) -> a result row."""
    sweep, x, series, attributes, failures, defaults, run = task
    mrc.set_global("RngRun", run)
    for path, value in defaults:
        mrc.set_default(path, value)
    s = mrc.ClusterScenario(**attributes)
    if failures:
        s.add_failure(failures)
    r = s.run()
    during = r["step_time"]["during"] if r["step_time"]["during"]["steps"] else r["step_time"]["all"]
    return {"sweep": sweep, "series": series, "x": x, "run": run,
            "step_p50_us": r["step_time"]["all"]["p50_us"],
            "step_p100_us": r["step_time"]["all"]["p100_us"],
            "during_p100_us": during["p100_us"],
            "longest_stall_us": r["longest_stall_us"],
            "routing_converged_us": r["routing_converged_us"],
            "goodput_gbps": r["bytes_delivered"] * 8e-3 / r["end_us"] if r["end_us"] else 0,
            "bytes_retransmitted": r["bytes_retransmitted"],
            "failed_flows": r["failed_flows"], "job_done": r["job_done"]}


def tasks(args):
    """The points of the chosen sweep."""
    out = []
    fabrics = [("MRC/SRv6", dict(Fabric="mrc-srv6")),
               ("RoCEv2/ECMP+BGP", dict(Fabric="roce-ecmp"))]
    links = uplinks(args)
    if args.sweep == "failures":
        # n links down from 300 us to the end, spread over T0s, T1s and planes.
        order = [links[(k * 7) % len(links)] for k in range(len(links))]
        for n in (0, 1, 2, 4, 8):
            events = [{"at": "300us", "kind": "link-down", "link": l} for l in order[:n]]
            for name, fab in fabrics:
                out.append((args.sweep, n, name, cluster(args, **fab), events, []))
    elif args.sweep == "timers":
        # A T0-T1 link down for good at 300 us: the flows ECMP hashed onto it wait for BGP's
        # detection (carrier) and the FIB programming of the new ECMP groups.
        event = [{"at": "300us", "kind": "link-down", "link": links[0]}]
        for fib_us in (10, 100, 300, 1300):
            for carrier_ms in (0.5, 2):
                defaults = [("ns3::MrcBgpReconvergenceModel::CarrierDetectionDelay",
                             f"{carrier_ms}ms"),
                            ("ns3::MrcBgpReconvergenceModel::FibPerRouteTime", f"{fib_us}us")]
                out.append((args.sweep, fib_us, f"RoCEv2/ECMP+BGP, carrier {carrier_ms} ms",
                            cluster(args, Fabric="roce-ecmp"), event, defaults))
            out.append((args.sweep, fib_us, "MRC/SRv6 (no BGP)", cluster(args, Fabric="mrc-srv6"),
                        event, []))
    elif args.sweep == "bfd":
        # A T0-T1 link black-holes every frame from 300 us on, carrier up: BGP notices through
        # BFD only (multiplier x interval), then UPDATEs and FIB programming move the flows.
        event = [{"at": "300us", "kind": "blackhole", "link": links[0]}]
        for bfd_us in (50, 100, 300, 1000):
            defaults = [("ns3::MrcBgpReconvergenceModel::BfdEnabled", "true"),
                        ("ns3::MrcBgpReconvergenceModel::BfdInterval", f"{bfd_us}us"),
                        ("ns3::MrcBgpReconvergenceModel::BfdDetectMultiplier", "3")]
            out.append((args.sweep, bfd_us, "RoCEv2/ECMP+BGP, BFD x3",
                        cluster(args, Fabric="roce-ecmp"), event, defaults))
            out.append((args.sweep, bfd_us, "MRC/SRv6 (no BGP)", cluster(args, Fabric="mrc-srv6"),
                        event, []))
    elif args.sweep == "loss":
        for pct in (0, 0.1, 1):
            events = [{"at": "0us", "kind": "gray-loss", "link": l, "probability": pct / 100}
                      for l in links] if pct else []
            for name, fab in [("MRC/SRv6", dict(Fabric="mrc-srv6")),
                              ("RoCEv2 1 QP", dict(Fabric="roce-ecmp")),
                              ("RoCEv2 16 QPs", dict(Fabric="roce-ecmp", QpsPerPeer=16))]:
                out.append((args.sweep, pct, name, cluster(args, **fab), events, []))
    elif args.sweep == "evs":
        event = [{"at": "300us", "kind": "link-down", "link": links[0], "duration": "2ms"}]
        # Over SRv6 a plane has one path per T1 (--t1), so sizes above planes x T1s are all the
        # same: every path active.
        paths = args.planes * args.t1
        for evs in sorted({max(1, paths // 4), max(1, paths // 2), paths, 2 * paths}):
            defaults = [("ns3::MrcQueuePair::EvSetSize", evs)]
            out.append((args.sweep, evs, "MRC/SRv6", cluster(args, Fabric="mrc-srv6"), event,
                        defaults))
    return out


PLOTS = {
    "failures": ("T0-T1 links down", "step_p100_us", "slowest step (us)"),
    "timers": ("BGP FIB programming time per route (us)", "longest_stall_us",
               "longest stall (us)"),
    "bfd": ("BFD interval (us), detect multiplier 3", "longest_stall_us", "longest stall (us)"),
    "loss": ("random loss on every T0-T1 link (%)", "goodput_gbps", "job goodput (Gb/s)"),
    "evs": ("EV-set size", "longest_stall_us", "longest stall (us)"),
}


MEASURES = ["step_p50_us", "step_p100_us", "during_p100_us", "longest_stall_us",
            "goodput_gbps", "bytes_retransmitted"]


def summarise(rows):
    """Per (series, x): runs, and the mean and 95 % CI half-width of every measure."""
    groups = {}
    for r in rows:
        groups.setdefault((r["series"], r["x"]), []).append(r)
    out = []
    for (series, x), runs in groups.items():
        row = {"sweep": runs[0]["sweep"], "series": series, "x": x, "runs": len(runs),
               "failed_runs": sum(1 for r in runs if not r["job_done"] or r["failed_flows"])}
        for m in MEASURES:
            mean, ci = mean_ci95([float(r[m]) for r in runs])
            row[m + "_mean"] = round(mean, 3)
            row[m + "_ci95"] = round(ci, 3)
        out.append(row)
    return out


def plot(rows, args, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("mrc-sweeps: matplotlib not installed; CSV only", file=sys.stderr)
        return
    xlabel, key, ylabel = PLOTS[args.sweep]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for series in dict.fromkeys(r["series"] for r in rows):
        pts = sorted((r["x"], r[key + "_mean"], r[key + "_ci95"]) for r in rows
                     if r["series"] == series)
        ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                    yerr=[p[2] for p in pts] if args.runs > 1 else None, capsize=3, marker="o",
                    label=series + (f" (mean, 95 % CI, {args.runs} runs)" if args.runs > 1
                                    else ""))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"mrc sweep: {args.sweep}")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", choices=sorted(PLOTS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs")
    ap.add_argument("--out", default="mrc-sweeps", help="output directory")
    ap.add_argument("--planes", type=int, default=2)
    ap.add_argument("--t0", type=int, default=4)
    ap.add_argument("--hosts-per-t0", type=int, default=4)
    ap.add_argument("--t1", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--allreduce", type=int, default=1000000, help="bytes per rank")
    ap.add_argument("--alltoall", type=int, default=128000, help="buffer bytes per rank")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1,
                    help="replications per point (RngRun 1..N): mean and 95 %% CI")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error(f"--jobs (={args.jobs}) must be >= 1")
    if not 1 <= args.runs <= 1000:
        ap.error(f"--runs (={args.runs}) must be in 1..1000")
    work = [t + (run,) for t in tasks(args) for run in range(1, args.runs + 1)]
    os.makedirs(args.out, exist_ok=True)
    start = time.monotonic()
    rows = []
    # One process per point (maxtasksperchild=1): ns-3 defaults and the simulator stay per run.
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs, maxtasksperchild=1) as pool:
        for row in pool.imap_unordered(point, work):
            rows.append(row)
            print(f"\r[progress] {len(rows)}/{len(work)} points, "
                  f"{time.monotonic() - start:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rows.sort(key=lambda r: (r["series"], r["x"], r["run"]))
    path = os.path.join(args.out, f"{args.sweep}.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    summary = summarise(rows)
    with open(os.path.join(args.out, f"{args.sweep}-summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0]))
        w.writeheader()
        w.writerows(summary)
    plot(summary, args, os.path.join(args.out, f"{args.sweep}.png"))
    for r in rows:
        print(f"{r['series']:18} x={r['x']:<6} step P100 {r['step_p100_us']:9.1f} us  "
              f"stall {r['longest_stall_us']:8.1f} us  goodput {r['goodput_gbps']:7.1f} Gb/s"
              f"{'' if r['job_done'] else '  (not done)'}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
