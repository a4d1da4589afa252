#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The flagship comparison (mrc-ai-cluster) from Python.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/mrc-quickstart.py [--quick]
        [--workload FILE --gpus-per-server N --comm-scale X]

One training job and one failure schedule on MRC over SRv6, RoCEv2 over ECMP+BGP and RoCEv2
with 4 queue pairs per peer; prints the step times before, during and after the failures and
writes the same results directory as the C++ example (one sub-directory per fabric).
"""

import argparse
import json
import os

import mrc


def built_in_schedule(planes, t1, at_us, span_us):
    """The C++ example's schedule: a link down, a link flapping, a T1 black hole and reboot."""
    p1 = 1 if planes > 1 else 0
    switch = f"p{planes - 1}-t1-{t1 - 1}"
    us = lambda x: f"{x:.0f}us"
    return [
        {"at": us(at_us), "kind": "link-down", "link": "p0-t0-0 p0-t1-0",
         "duration": us(span_us)},
        {"at": us(at_us + span_us / 10), "kind": "flap", "link": f"p{p1}-t0-1 p{p1}-t1-{1 % t1}",
         "period": us(span_us / 5), "duty": 0.5, "duration": us(span_us / 2)},
        {"at": us(at_us + span_us / 5), "kind": "switch-blackhole", "switch": switch,
         "duration": us(span_us / 5)},
        {"at": us(at_us + span_us * 2 / 5), "kind": "switch-down", "switch": switch,
         "duration": us(span_us * 11 / 20)},
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="16 hosts on 2 planes: seconds")
    ap.add_argument("--qps", type=int, default=4, help="queue pairs per peer of RoCEv2 xN")
    ap.add_argument("--out", default="mrc-quickstart-results", help="results directory")
    ap.add_argument("--workload", help="a SimAI/AICB workload file to run as the job")
    ap.add_argument("--gpus-per-server", type=int, default=1,
                    help="with --workload: ranks sharing a scale-up network")
    ap.add_argument("--comm-scale", type=float, default=1.0,
                    help="with --workload: multiplies every comm size")
    ap.add_argument("--pipeline-schedule", choices=("1f1b", "gpipe"), default="1f1b",
                    help="with --workload and pp > 1: the order of micro-batches")
    args = ap.parse_args()
    if args.quick:
        topo = dict(Planes=2, T0Count=4, HostsPerT0=4, T1Count=4, AllReduceSize=1000000,
                    AllToAllSize=128000, AllToAllGroup=4, ComputeTime="20us", Iterations=12)
        at, span = 600, 1200
    else:
        topo = dict(Planes=4, T0Count=16, HostsPerT0=8, T1Count=8)  # 128 hosts
        at, span = 5000, 8000
    if args.workload:
        topo.update(WorkloadFile=args.workload, GpusPerServer=args.gpus_per_server,
                    CommScale=args.comm_scale, PipelineSchedule=args.pipeline_schedule)
    failures = built_in_schedule(topo["Planes"], topo["T1Count"], at, span)
    fabrics = [("mrc", "mrc-srv6", 1), ("roce", "roce-ecmp", 1),
               (f"roce-x{args.qps}", "roce-ecmp", args.qps)]
    runs = []
    for key, fabric, qps in fabrics:
        s = mrc.ClusterScenario(Fabric=fabric, QpsPerPeer=qps, ShowProgress=not args.quick,
                                OutputDirectory=os.path.join(args.out, key), **topo)
        s.add_failure(failures)
        runs.append(s.run())
    print(f"{'fabric':24}{'before':>22}{'during':>22}{'after':>22}{'rtx MB':>9}{'stall us':>10}")
    for r in runs:
        cells = []
        for phase in ("before", "during", "after"):
            st = r["step_time"][phase]
            cells.append(f"{st['p50_us']:.0f} / {st['p100_us']:.0f} ({st['steps']})"
                         if st["steps"] else "-")
        print(f"{r['fabric']:24}{cells[0]:>22}{cells[1]:>22}{cells[2]:>22}"
              f"{r['bytes_retransmitted'] / 1e6:9.2f}{r['longest_stall_us']:10.0f}")
    if args.workload:
        # Each fabric's communications by pass, group and collective (labels
        # "L<i>:<layer>/<pass> <group><n>"): count and mean duration against the ideal.
        for r in runs:
            print(f"{r['fabric']}: pass group collective: count, mean us (mean ideal us)")
            sums = {}
            for c in r["comms"]:
                key = c["label"].rsplit("/", 1)[-1].rstrip("0123456789") + " " + c["kind"]
                n, total, ideal = sums.get(key, (0, 0.0, 0.0))
                sums[key] = (n + 1, total + c["duration_us"], ideal + c["ideal_us"])
            for key, (n, total, ideal) in sorted(sums.items()):
                print(f"  {key:34}{n:7}, {total / n:.1f} ({ideal / n:.1f})")
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        skip = ("step_durations_us", "frames")  # NumPy and pandas objects
        json.dump({"runs": [{k: v for k, v in r.items() if k not in skip} for r in runs]}, f,
                  indent=2)
    print(f"results: {args.out}/")


if __name__ == "__main__":
    main()
