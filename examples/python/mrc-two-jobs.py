#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Two training jobs on one fabric: a tenant's incast slows another tenant's all-reduce.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/mrc-two-jobs.py [--quick]

The test-size cluster (16 hosts, 2 planes of 100 Gb/s, 4 T0 x 4 hosts, 4 T1). Job "main": a
ring all-reduce over one host per T0 (hosts 1, 5, 9, 13). Job "tenant": every step, six hosts
under other T0s each write --incast-bytes to host 4, which shares its T0 (and that T0's
downlinks from the T1s) with the main job's host 5. Each job has its own steps and clock; the
script runs the main job alone and next to the tenant, on MRC over SRv6 and on RoCEv2 over a
lossless (PFC) fabric, and prints each job's P50 and P100 step time. Exits 1 if a job loses data
or does not finish.
"""

import argparse
import sys

import mrc

CLUSTER = dict(Planes=2, T0Count=4, HostsPerT0=4, T1Count=4, ComputeTime="10us",
               VerifyData=True, ShowProgress=False)


def run(fabric, tenant, args):
    s = mrc.ClusterScenario(Fabric=fabric, Iterations=args.iterations, **CLUSTER)
    s.add_collective("ns3::MrcRingAllReduce", hosts=[1, 5, 9, 13], MessageSize=args.ring_bytes)
    if tenant:
        s.add_collective("ns3::MrcIncast", hosts=[4, 0, 2, 8, 10, 12, 14], job="tenant",
                         MessageSize=args.incast_bytes)
        s.set_job("tenant", iterations=args.iterations + 1, compute_time="5us", start="30us")
    return s.run()


def p50_p100(r, job):
    durations = sorted(s["duration_us"] for s in r["steps"] if s["job"] == job)
    if not durations:
        return "-"
    return f"{durations[(len(durations) - 1) // 2]:.0f} / {durations[-1]:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=4, help="steps of the main job")
    ap.add_argument("--ring-bytes", type=int, default=2000000, help="all-reduce size per rank")
    ap.add_argument("--incast-bytes", type=int, default=1000000, help="bytes per incast sender")
    ap.add_argument("--quick", action="store_true", help="2 steps (the test)")
    args = ap.parse_args()
    if args.quick:
        args.iterations = 2
    ok = True
    print(f"{'fabric':22}{'main alone':>16}{'main + tenant':>16}{'tenant':>16}   "
          "(step P50 / P100, us)")
    for fabric in ("mrc-srv6", "roce-pfc"):
        alone = run(fabric, False, args)
        shared = run(fabric, True, args)
        for r in (alone, shared):
            ok = ok and r["job_done"] and r["bytes_delivered"] == r["bytes_posted"]
            ok = ok and r["corrupt_transfers"] == 0
        print(f"{fabric:22}{p50_p100(alone, 'main'):>16}{p50_p100(shared, 'main'):>16}"
              f"{p50_p100(shared, 'tenant'):>16}")
    if not ok:
        print("mrc-two-jobs: a job lost data or did not finish", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
