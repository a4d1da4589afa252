# SPDX-License-Identifier: GPL-2.0-only
"""mrc-benchmark --htsim=PATH (issue 17): the files it gives htsim, how it reads htsim's output,
and how it fails.

    check_benchmark_htsim.py <mrc-benchmark> <scratch directory>

A stand-in for htsim_uec (a Python script) checks what a real one would read: the connection
matrix is the k=4 permutation (16 flows, a derangement, --bytes each) and the topology file a
3-tier fat-tree of 16 hosts (podsize 4, radix 2/2/4) with the links' rate and delay. It answers
as htsim_uec does ("Flow ... finished at T" per flow, then "New: N Rtx: R ..."), and the
benchmark must print that row (flows done, the last finish time in ms, the packet counts). A
stand-in's peak memory must be its own (a small Python process) after a k=8 run, well below
the benchmark's own (Linux's ru_maxrss of a forked child counts the heap of the parent it was
forked from, which k=8's simulations have grown). A stand-in that fails must make the benchmark fail with its exit status and last output, and a
path that is not an executable file must be refused before any simulation runs. With --repeat=2
the two simulators run in turn twice, and the summary's ratios are those of the minima and
medians it prints and, round by round, those printed after each round.
"""

import os
import re
import shutil
import stat
import subprocess
import sys

FAKE = r'''#!/usr/bin/python3
import sys
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
mode = "@MODE@"
if mode == "sleep":  # only lives long enough for its memory to be sampled
    import time
    time.sleep(0.3)
    sys.exit(0)
if mode == "fail":
    print("htsim stand-in: giving up")
    sys.exit(3)
lines = open(args["-tm"]).read().split("\n")
assert lines[0] == "Nodes 16" and lines[1] == "Connections 16", lines[:2]
pairs = [l.split() for l in lines[2:] if l]
dst = {}
for p in pairs:
    s, d = map(int, p[0].split("->"))
    assert p[1:3] == ["id", str(s + 1)] and p[3:7] == ["start", "0", "size", "100000"], p
    dst[s] = d
assert sorted(dst) == list(range(16)) and sorted(dst.values()) == list(range(16)), dst
assert all(s != d for s, d in dst.items()), dst
topo = open(args["-topo"]).read().split()
for want in (["Nodes", "16"], ["Tiers", "3"], ["Podsize", "4"], ["Radix_Down", "2"],
             ["Radix_Up", "2"], ["Radix_Down", "4"], ["Downlink_speed_Gbps", "100"],
             ["Downlink_Latency_ns", "1000"]):
    assert any(topo[i:i + 2] == want for i in range(len(topo))), want
assert args["-mtu"] == "4150" and args["-seed"] == "1" and args["-end"] == "1000000", args
for s in sorted(dst):
    if s != 5:
        print("Flow Uec_%d_%d flowId %d uecSrc %d finished at %.3f total bytes 100000"
              % (s, dst[s], s + 1, s, 20.0 + s))
print("New: 400 Rtx: 7 RTS: 0 Bounced: 0 ACKs: 100 NACKs: 0 Pulls: 0 sleek_pkts: 0")
'''


def write_fake(path, mode):
    with open(path, "w") as f:
        f.write(FAKE.replace("@MODE@", mode))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def run(program, htsim):
    return subprocess.run([program, "--k=4", "--bytes=100000", "--transport=udp",
                           "--htsim=" + htsim], capture_output=True, text=True, timeout=600)


def main():
    program, scratch = sys.argv[1], sys.argv[2]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    failures = []

    ok = os.path.join(scratch, "htsim-ok")
    write_fake(ok, "ok")
    r = run(program, ok)
    rows = [l.split() for l in r.stdout.splitlines() if l.split()[:2] == ["4", "htsim"]]
    if r.returncode != 0 or len(rows) != 1:
        failures.append("a working stand-in: exit %d, htsim rows %s\n%s%s"
                        % (r.returncode, rows, r.stdout, r.stderr))
    else:
        row = rows[0]
        # k, tp, hosts, done, sim ms (last finish: flow 15 at 35 us), wall, -, -, -, RSS,
        # delivered MB (15 flows x 100000 B).
        if row[2:5] != ["16", "15/16", "0.035"] or row[6:9] != ["-", "-", "-"] \
                or row[10] != "1.5":
            failures.append("htsim row %s: want 16 hosts, 15/16 done, 0.035 ms, 1.5 MB" % row)
        if "(400 new and 7 retransmitted data packets" not in r.stdout:
            failures.append("the packet counts are missing:\n" + r.stdout)

    sleeper = os.path.join(scratch, "htsim-sleeps")
    write_fake(sleeper, "sleep")
    r = subprocess.run([program, "--k=8", "--bytes=100000", "--transport=udp,mrc",
                        "--htsim=" + sleeper], capture_output=True, text=True, timeout=600)
    rss = {l.split()[1]: l.split()[9] for l in r.stdout.splitlines()
           if l.split()[:1] == ["8"] and len(l.split()) == 12}
    if r.returncode != 0 or sorted(rss) != ["htsim", "mrc", "udp"] or rss["htsim"] == "-" \
            or not 1.0 < float(rss["htsim"]) < 0.4 * float(rss["mrc"]):
        failures.append("peak RSS of the stand-in %s: want its own (a Python process), under "
                        "0.4 x the benchmark's (MRC row)\n%s%s"
                        % (rss, r.stdout, r.stderr))

    # --repeat=2: two rounds of MRC and htsim in turn, then the summary, whose ratios are those
    # of the minima and medians it prints.
    r = subprocess.run([program, "--k=4", "--bytes=100000", "--transport=mrc", "--repeat=2",
                        "--htsim=" + ok], capture_output=True, text=True, timeout=600)
    tps = [l.split()[1] for l in r.stdout.splitlines() if l.split()[:1] == ["4"]]
    mrc_line = re.search(r"k=4 mrc over 2 rounds \(identical results\): Simulator::Run wall s "
                         r"min ([0-9.]+), median ([0-9.]+); whole run min ([0-9.]+), median "
                         r"([0-9.]+)", r.stdout)
    htsim_line = re.search(r"k=4 htsim over 2 rounds: wall s min ([0-9.]+), median ([0-9.]+)",
                           r.stdout)
    ratio_line = re.search(r"k=4: MRC / htsim wall \(whole runs\), of the minima ([0-9.]+), "
                           r"of the medians ([0-9.]+); round by round: median ([0-9.]+), best "
                           r"([0-9.]+), worst ([0-9.]+)", r.stdout)
    per_round = [float(x) for x in re.findall(r"k=4: MRC / htsim wall \(whole run, setup "
                                              r"included\) ([0-9.]+)", r.stdout)]
    if r.returncode != 0 or tps != ["mrc", "htsim", "mrc", "htsim"] or not mrc_line \
            or not htsim_line or not ratio_line or len(per_round) != 2:
        failures.append("--repeat=2: exit %d, rows %s, summary missing?\n%s%s"
                        % (r.returncode, tps, r.stdout, r.stderr))
    else:
        m = [float(x) for x in mrc_line.groups()]
        h = [float(x) for x in htsim_line.groups()]
        q = [float(x) for x in ratio_line.groups()]
        # printed with 3 decimals (walls) and 2 (ratios): allow what the rounding can move
        def agrees(ratio, mrc, htsim):
            return abs(ratio - mrc / htsim) <= ratio * (0.0005 / mrc + 0.0005 / htsim) + 0.005
        if not (m[0] <= m[1] and m[2] <= m[3] and m[0] <= m[2] and h[0] <= h[1]) \
                or not agrees(q[0], m[2], h[0]) or not agrees(q[1], m[3], h[1]):
            failures.append("--repeat=2: summary figures do not agree: mrc %s, htsim %s, "
                            "ratios %s" % (m, h, q))
        # a round whose stand-in ended before its memory was sampled still has its wall ratio
        unsampled = [l for l in r.stdout.splitlines()
                     if l.split()[:2] == ["4", "htsim"] and l.split()[9] == "-"]
        if r.stdout.count("peak RSS not compared") != len(unsampled):
            failures.append("--repeat=2: %d htsim rows without a peak RSS, but %d ratio lines "
                            "say it was not compared\n%s"
                            % (len(unsampled), r.stdout.count("peak RSS not compared"), r.stdout))
        # round by round: each round's own ratio (printed with 2 decimals after its htsim row)
        lo, hi = min(per_round), max(per_round)
        if abs(q[3] - lo) > 0.0100001 or abs(q[4] - hi) > 0.0100001 \
                or abs(q[2] - (lo + hi) / 2) > 0.0100001:
            failures.append("--repeat=2: round-by-round median, best, worst %s do not agree "
                            "with the rounds' own ratios %s" % (q[2:], per_round))

    bad = os.path.join(scratch, "htsim-fails")
    write_fake(bad, "fail")
    r = run(program, bad)
    if r.returncode == 0 or "failed (exit status 3)" not in r.stderr \
            or "htsim stand-in: giving up" not in r.stderr:
        failures.append("a failing stand-in: exit %d\n%s" % (r.returncode, r.stderr))

    for path in (os.path.join(scratch, "missing"), scratch):
        r = run(program, path)
        if r.returncode == 0 or "must be an executable file" not in r.stderr \
                or any(l.startswith("4 ") for l in r.stdout.splitlines()):
            failures.append("--htsim=%s: exit %d, a run before the error?\n%s%s"
                            % (path, r.returncode, r.stdout, r.stderr))

    for f in failures:
        print("FAIL:", f)
    print("%d failure(s)" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
