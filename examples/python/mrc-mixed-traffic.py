#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A training job sharing the fabric with ns-3 TCP background traffic, from Python.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/mrc-mixed-traffic.py [--tcp-bytes N]

The test-size cluster (16 hosts, 2 planes) runs the ring all-reduce + all-to-all job on MRC over
SRv6 and on RoCEv2 over ECMP+BGP, each alone and next to a TCP permutation (every host sends
--tcp-bytes to another host over ns-3's TCP, e.g. checkpoint or storage traffic). Prints the
job's step times and the TCP flows' completion times, so one sees what each transport does to
the other. Switch settings can be changed by Config path (--trim-size sets MrcTrimmingQueueDisc's
TrimSize on every switch port of the MRC fabric).
"""

import argparse

import mrc

CLUSTER = dict(Planes=2, T0Count=4, HostsPerT0=4, T1Count=4, AllReduceSize=1000000,
               AllToAllSize=128000, AllToAllGroup=4, ComputeTime="20us", VerifyData=True,
               ShowProgress=False)
TRIMMING = "/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/$ns3::MrcTrimmingQueueDisc/"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcp-bytes", type=int, default=4000000, help="bytes per TCP flow")
    ap.add_argument("--tcp-start", default="100us", help="when the TCP flows start")
    ap.add_argument("--trim-size", type=int, default=0,
                    help="MrcTrimmingQueueDisc TrimSize on the MRC fabric (0: default 256 B)")
    ap.add_argument("--iterations", type=int, default=6, help="training steps")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.tcp_bytes < 1 or args.iterations < 1:
        ap.error(f"--tcp-bytes (={args.tcp_bytes}) and --iterations (={args.iterations}) "
                 "must be >= 1")

    print(f"{'fabric':18} {'traffic':14} {'step P50':>9} {'step P100':>10} {'TCP FCT P50':>12} "
          f"{'TCP FCT max':>12} {'TCP done':>9} {'queue drops':>12} {'trims':>7}")
    for fabric, name in (("mrc-srv6", "MRC/SRv6"), ("roce-ecmp", "RoCEv2/ECMP+BGP")):
        for with_tcp in (False, True):
            s = mrc.ClusterScenario(Fabric=fabric, Seed=args.seed,
                                    **dict(CLUSTER, Iterations=args.iterations))
            if with_tcp:
                s.add_tcp_permutation(args.tcp_bytes, start=args.tcp_start)
            if args.trim_size and fabric == "mrc-srv6":
                s.set_config(TRIMMING + "TrimSize", args.trim_size)
            r = s.run()
            if r["bytes_delivered"] != r["bytes_posted"] or r["corrupt_transfers"]:
                raise SystemExit(f"{name}: the job lost or corrupted data")
            if with_tcp and r["tcp"]["bytes_received"] != r["tcp"]["bytes"]:
                raise SystemExit(f"{name}: a TCP flow did not complete")
            st = r["step_time"]["all"]
            tcp = r.get("tcp")
            fct = (f"{tcp['fct_p50_us']:10.0f}us {tcp['fct_max_us']:10.0f}us "
                   f"{tcp['completed']:4}/{tcp['flows']:<4}" if tcp else
                   f"{'-':>12} {'-':>12} {'-':>9}")
            print(f"{name:18} {'job + TCP' if with_tcp else 'job alone':14} "
                  f"{st['p50_us']:7.0f}us {st['p100_us']:8.0f}us {fct} {r['queue_drops']:12} "
                  f"{r['trims']:7}")


if __name__ == "__main__":
    main()
