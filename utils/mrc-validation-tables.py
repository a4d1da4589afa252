#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Render the measured tables of doc/mrc-validation.rst from a results directory.

    utils/mrc-validation-tables.py [--results build/validation] [--out doc/validation]

`utils/mrc.sh validate` runs every experiment behind the tables, each in its own directory
<results>/<experiment>/ holding `command` (the program and its arguments), `stdout.txt`,
`stderr.txt`, `status` (exit status), `wall_s` and whatever the program writes there (the
flagship's results directory, mrc-failover's CSV files); <results>/run-info.txt names the
commit and says whether it was a --quick run. Then it calls this script, which reads those
files (the programs' CSV/JSON output where they write any, their printed lines otherwise) and
writes one reStructuredText file per table into --out; doc/mrc-validation.rst includes them
(`.. include:: validation/<name>.rst`). Each file starts with a comment naming the command,
the results and the commit. It can be run alone on an existing results directory.

Standard library only. Exit status 0 when every table was written; 1 when a table's results
are missing or a run failed (the other tables are still written; that table's old file is
left as it was, and the missing runs are named).
"""

import argparse
import csv
import io
import os
import re
import statistics
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


from mrc_validation_common import (  # noqa: E402 (next to this script)
    Missing,
    Results,
    f0,
    f1,
    f2,
    find,
    grid_table,
    para,
    simple_table,
)


# ------------------------------------------------------------------------------------------------
# Flagship comparison (mrc-ai-cluster, results directory)

def flagship_runs(res, name):
    runs = res.json(name, "results/summary.json")["runs"]
    if not runs:
        raise Missing(f"{name}: summary.json has no run")
    return runs


def triple(phase):
    if not phase or not phase.get("steps"):
        return "-"
    return (f"{f0(phase['p50_us'])} / {f0(phase['p99_us'])} / {f0(phase['p100_us'])} "
            f"({phase['steps']})")


def ideal_step(res, name, key):
    rows = res.csv(name, f"results/{key}/steps.csv")
    if not rows:
        raise Missing(f"{name}: {key}/steps.csv has no step")
    return float(rows[0]["ideal_us"])


def table_flagship(res):
    runs = flagship_runs(res, "flagship")
    rows = []
    for r in runs:
        st = r["step_time"]
        rows.append([r["fabric"], triple(st.get("before")), triple(st.get("during")),
                     triple(st.get("after")), f2(r["bytes_retransmitted"] / 1e6),
                     f0(r["longest_stall_us"]), str(r["ev_retirements"]),
                     str(r["failed_flows"]), f2(float(r["uplink_balance"]))])
    ideal = ideal_step(res, "flagship", runs[0]["key"])
    text = para("Step time in us, P50 / P99 / P100 (steps) before, during and after the "
                "failures; MB retransmitted, the longest stall of any flow (us), EV retirements, "
                "failed queue pairs, and the T0-to-T1 uplink load, busiest / mean:")
    text += simple_table(["fabric", "before failures", "during", "after", "rtx MB", "stall us",
                          "EVs retired", "QP fail", "uplinks"], rows)
    text += "\n" + para(f"Ideal step (compute + line-rate ring all-reduce): {f0(ideal)} us. "
                        f"Wall time of the run: {res.wall('flagship')} s (``utils/mrc.sh "
                        "validate``: the release build, other runs sharing the cores).").rstrip()
    text += "\n"
    return text


def table_flagship_single_plane(res):
    runs = flagship_runs(res, "flagship-single-plane")
    rows = []
    for r in runs:
        st = r["step_time"]
        during = st.get("during") or {}
        after = st.get("after") or {}
        rows.append([r["fabric"], f0(during["p100_us"]) if during.get("steps") else "-",
                     f0(after["p50_us"]) if after.get("steps") else "-",
                     f2(r["bytes_retransmitted"] / 1e6), f0(r["longest_stall_us"]),
                     str(r.get("pfc", {}).get("pauses_sent", "-"))])
    return simple_table(["fabric", "step during failures, P100 us", "after, P50 us", "rtx MB",
                         "stall us", "PAUSEs"], rows)


# ------------------------------------------------------------------------------------------------
# Loss sweep (mrc-loss-collective: one CSV line on stdout)

def loss_point(res, name):
    rows = list(csv.DictReader(io.StringIO(res.text(name))))
    if len(rows) != 1:
        raise Missing(f"{name}: expected one CSV line on stdout, found {len(rows)}")
    row = rows[0]
    if row["bytes_ok"] != "1":
        raise Missing(f"{name}: bytes_ok is {row['bytes_ok']}")
    return row


def sweep_sizes(res):
    """The loss sweep's sizes, largest first (directories loss-sweep/<c>-<size>-<loss>)."""
    d = os.path.join(res.root, "loss-sweep")
    if not os.path.isdir(d):
        raise Missing("loss-sweep: no results")
    sizes = sorted({int(n.split("-")[1]) for n in os.listdir(d)}, reverse=True)
    return sizes


def busbw_by_loss(res, prefix, losses=("0", "0.001", "0.01")):
    """{loss: busbw} of the runs <prefix>-<loss> (default: losses 0, 0.001, 0.01)."""
    return {loss: float(loss_point(res, f"{prefix}-{loss}")["busbw_gbps"]) for loss in losses}


def sweep(res, collective, size):
    """{loss: busbw} of the 16-rank sweep."""
    return busbw_by_loss(res, f"loss-sweep/{collective}-{size}")


def sweep64(res):
    """(size, {loss: busbw}) of the ring at 64 ranks (directories loss-sweep-64/ring-<size>-<loss>)."""
    d = os.path.join(res.root, "loss-sweep-64")
    if not os.path.isdir(d):
        raise Missing("loss-sweep-64: no results")
    size = max(int(n.split("-")[1]) for n in os.listdir(d))
    return size, busbw_by_loss(res, f"loss-sweep-64/ring-{size}")


def sweep64_sliced(res, size):
    """{loss: busbw} of the 64-rank ring in slices (loss-sweep-64-sliced/ring-<size>-<loss>),
    and the slice size from its command."""
    name = f"loss-sweep-64-sliced/ring-{size}"
    slice_size = int(re.search(r"SliceSize=(\d+)", res.command(f"{name}-0")).group(1))
    return slice_size, busbw_by_loss(res, name, ("0", "0.01"))


def mib(size):
    if size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    return f"{size >> 10} KiB" if size % (1 << 10) == 0 else f"{size} B"


# ------------------------------------------------------------------------------------------------
# mrc-path-health (printed lines)

def gray(res, name="path-health/gray"):
    t = res.text(name)
    retired = re.search(r"^gray EV retired after onset: ([\d.]+) us", t, re.M)
    return {
        "retired": float(retired.group(1)) if retired else None,
        "before": find(r"^goodput before onset \(mean, fraction of line rate\): ([\d.]+)", t,
                       name),
        "min": find(r"^goodput after onset: min ([\d.]+)", t, name),
        "mean": find(r"^goodput after onset: min [\d.]+, mean ([\d.]+)", t, name),
        "healthy_retired": find(r"^healthy EVs retired: (\d+)", t, name, int),
    }


def steer(res, name):
    t = res.text(name)
    return {
        "A": find(r"^A,[\d.]+,([\d.]+)$", t, name),
        "B": find(r"^B,[\d.]+,([\d.]+)$", t, name),
        "share": find(r"^share of B's data packets on the shared EV: ([\d.]+)", t, name),
    }


def links(res, name):
    t = res.text(name)
    line = find(r"^steady goodput / capacity by links down: (.*?)\s*(\(|$)", t, name, str)
    ratios = {int(k): float(v) for k, v in re.findall(r"(\d+): ([\d.]+)", line)}
    tail = re.search(r"^EV retirements (\d+), bytes retransmitted (\d+), longest stall of a flow "
                     r"([\d.]+) us", t, re.M)
    if not ratios or not tail:
        raise Missing(f"{name}: no steady ratios or totals in the output")
    eq = find(r"^steady goodput / capacity with planes loaded equally by links down: (.*)$", t,
              name, str)
    equal = {int(k): float(v) for k, v in re.findall(r"(\d+): ([\d.]+)", eq)}
    return {"ratios": ratios, "equal": equal, "retirements": int(tail.group(1)),
            "stall": float(tail.group(3))}


def numbered_runs(res, directory, prefix):
    """The runs DIRECTORY/<prefix><N> and their numbers N, in order of N; Missing if none."""
    d = os.path.join(res.root, directory)
    names = sorted((n for n in os.listdir(d) if n.startswith(prefix)
                    and n[len(prefix):].isdigit()) if os.path.isdir(d) else [],
                   key=lambda n: int(n[len(prefix):]))
    if not names:
        raise Missing(f"{directory}/{prefix}*: no results")
    return [f"{directory}/{n}" for n in names], [int(n[len(prefix):]) for n in names]


def links_seeds(res, prefix="links-seed"):
    names, numbers = numbered_runs(res, "path-health", prefix)
    return [links(res, n) for n in names], numbers


def mean_per_down(seeds, field, downs):
    """Mean over seeds of a links run's ratios (field: "ratios" or "equal"), per links down > 0."""
    return {k: sum(x[field].get(k, 0) for x in seeds) / len(seeds) for k in downs if k > 0}


def flap(res, name="path-health/flap"):
    t = res.text(name)
    m = re.search(r"^with flaps: EV retirements (\d+), bytes retransmitted (\d+), longest stall "
                  r"of a flow ([\d.]+) us", t, re.M)
    if not m:
        raise Missing(f"{name}: no 'with flaps' totals in the output")
    return {
        "goodput": find(r"^while flapping: goodput with flaps / without ([\d.]+)", t, name),
        "capacity": find(r"capacity with flaps / without ([\d.]+)", t, name),
        "held": find(r"with the flapping links held down / without ([\d.]+)", t, name),
        "period": find(r"flapping \(period ([\d.]+) us", t, name),
        "cost": find(r"^cost of the flaps: (-?[\d.]+) % of the time-averaged", t, name),
        "cost_held": find(r"(-?[\d.]+) % of the capacity with the links held down", t, name),
        "retirements": int(m.group(1)),
        "stall": float(m.group(3)),
    }


def slow_flaps(res):
    """The flap runs every 1 ms and every 4 ms, each with its arguments (``flap`` fields + args)."""
    runs = []
    for period in ("1ms", "4ms"):
        name = f"path-health/flap-{period}"
        run = flap(res, name)
        run["args"] = res.command(name).split(" ", 1)[1].replace("--experiment=flap ", "")
        runs.append(run)
    return runs


# ------------------------------------------------------------------------------------------------
# mrc-transfer, mrc-collective, mrc-failover, mrc-incast-trimming (printed lines)

def transfer(res, name):
    t = res.text(name)
    return {
        "done": find(r"delivered at (\d+) us", t, name),
        "ideal": find(r"\) (\d+) us$", t, name),
        "rtx": find(r"^  retransmissions (\d+)", t, name, int),
    }


def collective(res, name):
    t = res.text(name)
    if re.search(r"job (NOT finished|FAILED)", t):
        raise Missing(f"{name}: the job did not finish")
    m = re.search(r"^  step 0: ([\d.]+) us \(ideal ([\d.]+) us", t, re.M)
    if not m:
        raise Missing(f"{name}: no step line in the output")
    out = {"step": float(m.group(1)), "ideal": float(m.group(2)),
           "collective_ideal": find(r"collective ideal ([\d.]+) us", t, name),
           "rtx_last_hop": find(r"trimmed at the last hop (\d+)", t, name, int),
           "rtx": find(r"recovery \(all steps\): (\d+) retransmissions", t, name, int),
           "retired": find(r"EVs retired: (.*)$", t, name, str),
           "queue_drops": find(r"^  queue drops (\d+)", t, name, int),
           "transfer_max": find(r"transfers \d+: min [\d.]+, P50 [\d.]+, P99 [\d.]+, P100 "
                                r"([\d.]+) us", t, name),
           "transfer_p50": find(r"transfers \d+: min [\d.]+, P50 ([\d.]+)", t, name)}
    v = re.search(r"^  victim flow \(last step\): ([\d.]+) us \(alone at line rate ([\d.]+) us",
                  t, re.M)
    if v:
        out["victim"], out["victim_ideal"] = float(v.group(1)), float(v.group(2))
    p = re.search(r"^  PFC: (\d+) PAUSE and (\d+) XON frames sent by (\d+) ports, paused "
                  r"([\d.]+) us in total, longest ([\d.]+) us \((\S+)\), headroom overflows "
                  r"(\d+)", t, re.M)
    if p:
        out["pfc"] = {"pauses": int(p.group(1)), "xons": int(p.group(2)),
                      "paused": float(p.group(4)), "longest": float(p.group(5)),
                      "longest_port": p.group(6), "overflows": int(p.group(7))}
    return out


def failover(res, name="failover"):
    t = res.text(name)
    fabrics = {}
    for block in re.split(r"^== ", t, flags=re.M)[1:]:
        title = block.splitlines()[0].strip()
        series = []
        for m in re.finditer(r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)(?:\s+<- (\w+))?\s*$", block,
                             re.M):
            series.append((int(m.group(1)), float(m.group(2)), float(m.group(3)),
                           m.group(4) or ""))
        fib = re.search(r"BGP's last FIB change: (none|[\d.]+ us)", block)
        fabrics[title] = {"series": series, "fib": fib.group(1) if fib else None,
                          "lost": find(r"packets lost to the failure: (\d+)", block, name, int)}
    summary = {}
    for m in re.finditer(r"^(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+\((\S+)\)\s*$", t,
                         re.M):
        summary[m.group(1)] = {"delivered": float(m.group(2)), "rtx": float(m.group(3)),
                               "stall": float(m.group(4)), "failed": int(m.group(5)),
                               "slowest": m.group(6)}
    for key in ("MRC/SRv6", "RoCEv2/ECMP+BGP"):
        if key not in fabrics or key not in summary or not fabrics[key]["series"]:
            raise Missing(f"{name}: no series or summary line for {key}")
    return fabrics, summary


def incast_trim(res, name):
    t = res.text(name)
    m = re.search(r"sent (\d+), arrived whole (\d+), arrived trimmed (\d+) \(last hop\) \+ (\d+) "
                  r"\(fabric\), lost (\d+)", t)
    d = re.search(r"switch trims (\d+), switch drops (\d+)", t)
    a = re.search(r"last arrival \+([\d.]+)us, line-rate time for all bytes \+([\d.]+)us", t)
    if not m or not d or not a:
        raise Missing(f"{name}: unexpected output")
    return {"sent": int(m.group(1)), "whole": int(m.group(2)), "last_hop": int(m.group(3)),
            "fabric": int(m.group(4)), "lost": int(m.group(5)), "drops": int(d.group(2)),
            "last": float(a.group(1)), "line": float(a.group(2))}


# ------------------------------------------------------------------------------------------------
# The tables

def table_issue15(res):
    sizes = sweep_sizes(res)
    big, small = sizes[0], sizes[-1]
    rows = []

    def triple3(v):
        return f"{f0(v['0'])} / {f0(v['0.001'])} / {f0(v['0.01'])} Gb/s"

    ring_small, ring_big = sweep(res, "ring", small), sweep(res, "ring", big)
    rows.append([f"ring all-reduce, 16 ranks, {mib(small)}, MRC 1 QP, 4 x 100G, loss 0 / 0.1 / "
                 "1 % at every NIC port",
                 "269 / 50 / 13 Gb/s (bus bandwidth)",
                 f"{triple3(ring_small)} ({f2(ring_small['0.001'] / ring_small['0'])}x / "
                 f"{f2(ring_small['0.01'] / ring_small['0'])}x of loss-free)"])
    rows.append([f"the same, {mib(big)} per rank", "348 / 45 / 22 Gb/s",
                 f"{triple3(ring_big)} ({f2(ring_big['0.001'] / ring_big['0'])}x; 1 %: "
                 f"{f2(ring_big['0.01'] / 400)} of the 400 Gb/s line rate)"])
    size64, ring64 = sweep64(res)
    rows.append([f"the same, 64 ranks (the paper's Fig. 16), {mib(size64)} per rank",
                 "not measured",
                 f"{triple3(ring64)} ({f2(ring64['0.001'] / ring64['0'])}x; 1 %: "
                 f"{f2(ring64['0.01'] / 400)} of the line rate, "
                 f"{f2(ring64['0.01'] / ring64['0'])}x of loss-free)"])
    slice64, sliced64 = sweep64_sliced(res, size64)
    rows.append([f"the same pipelined in slices of {mib(slice64)} ({size64 // 64 // slice64} per "
                 "chunk, as NCCL pipelines its ring; ``SliceSize``), "
                 "loss 0 / 1 %",
                 "not measured",
                 f"{f0(sliced64['0'])} / {f0(sliced64['0.01'])} Gb/s (1 %: "
                 f"{f2(sliced64['0.01'] / 400)} of the line rate, "
                 f"{f2(sliced64['0.01'] / sliced64['0'])}x of loss-free)"])
    a_big, a_small = sweep(res, "alltoall", big), sweep(res, "alltoall", small)
    rows.append([f"all-to-all, 16 ranks, {mib(big)}, MRC 1 QP ({mib(small)})",
                 "382 / 362 / 344 Gb/s (377 / 361 / 339 Gb/s)",
                 f"{triple3(a_big)} ({triple3(a_small)})"])
    tr = {loss: transfer(res, f"transfer-64mb/loss-{loss}") for loss in ("0", "0.001", "0.01")}
    mb = int(re.search(r"--bytes=(\d+)", res.command("transfer-64mb/loss-0")).group(1)) / 1e6
    rows.append([f"{mb:g} MB to one peer, 2 x 100G, loss 0 / 0.1 / 1 % on every T0-T1 link "
                 "(``mrc-transfer``)",
                 "2.62 / 2.65 / 54.2 ms (1 %: EVs exhausted)",
                 f"{f2(tr['0']['done'] / 1000)} / {f2(tr['0.001']['done'] / 1000)} / "
                 f"{f2(tr['0.01']['done'] / 1000)} ms (ideal {f2(tr['0']['ideal'] / 1000)} ms)"])
    g = gray(res)
    retired = ("never retired" if g["retired"] is None
               else f"retired {f1(g['retired'])} us after onset")
    rows.append(["gray path: 1 EV's link of 16 paths drops 20 %, 8 x 100G QP "
                 "(``--experiment=gray``)",
                 "never retired; goodput min 0.00, mean 0.19 of line rate",
                 f"{retired}; goodput min {f2(g['min'])}, mean {f2(g['mean'])} of line rate "
                 f"({f2(g['before'])} before the onset)"])
    s, s16 = steer(res, "path-health/steer"), steer(res, "path-health/steer-skip16")
    rows.append(["two flows, one shared EV, B also a free EV (``--experiment=steer``)",
                 "A 0.59, B 0.93 of line rate; 42 % of B on the shared EV",
                 f"A {f2(s['A'])}, B {f2(s['B'])}; {f1(s['share'] * 100)} % of B on it "
                 f"(default ``AlwaysSkipFactor``; 16: A {f2(s16['A'])}, B {f2(s16['B'])}, "
                 f"{f1(s16['share'] * 100)} %)"])
    seeds, numbers = links_seeds(res)
    first = seeds[0]["ratios"]
    downs = sorted(first)
    means = mean_per_down(seeds, "ratios", downs)
    equal = mean_per_down(seeds, "equal", downs)
    rows.append([f"links down one by one under a cross-T1 permutation, goodput / capacity left, "
                 f"{downs[0]}-{downs[-1]} links down (``--experiment=links``)",
                 "0.97 / 0.87 / 0.92 / 0.88 / 0.95",
                 " / ".join(f2(first[k]) for k in downs)
                 + f" (seed {numbers[0]}); seeds {numbers[0]}-{numbers[-1]}, per links down "
                 f"{min(means)}-{max(means)}: mean "
                 + " / ".join(f2(means[k]) for k in sorted(means))
                 + "; of the capacity with planes loaded equally (MRC's backups stay in their "
                 "plane): " + " / ".join(f2(equal[k]) for k in sorted(equal))])
    seeds128, numbers128 = links_seeds(res, "links128-seed")
    means128 = mean_per_down(seeds128, "ratios", downs)
    rows.append(["the same at the default EvSetSize, 128 EVs (``--evs=128``; not measured before)",
                 "-",
                 f"seeds {numbers128[0]}-{numbers128[-1]}, per links down "
                 f"{min(means128)}-{max(means128)}: mean "
                 + " / ".join(f2(means128[k]) for k in sorted(means128))
                 + "; worst seed per links down: "
                 + " / ".join(f2(min(x["ratios"].get(k, 0) for x in seeds128))
                              for k in sorted(means128))])
    fl = flap(res)
    rows.append(["two uplinks flapping (100 us period, half down), goodput with / without flaps",
                 "0.62 of the no-flap run",
                 f"{f2(fl['goodput'])} (capacity {f2(fl['capacity'])}, so "
                 f"{f2(fl['goodput'] / fl['capacity'])} of it; {f2(fl['held'])} with the "
                 f"flapping links held down, so {f2(fl['goodput'] / fl['held'])} of that); "
                 f"longest flow stall {f0(fl['stall'])} us, {fl['retirements']} retirements"])
    slow = slow_flaps(res)
    rows.append(["the same flapping every "
                 + " and every ".join(f"{f0(x['period'] / 1000)} ms" for x in slow) + " ("
                 + ", ".join(f"``{x['args']}``" for x in slow)
                 + "): goodput over the time-averaged capacity",
                 "-",
                 " / ".join(f2(x["goodput"] / x["capacity"]) for x in slow)
                 + " (flaps cost "
                 + " / ".join(f"{f1(x['cost'])} %" for x in slow)
                 + f"); longest flow stall {f0(max(x['stall'] for x in slow))} us"])
    runs = {r["key"]: r for r in flagship_runs(res, "flagship-quick")}
    mrc = runs["mrc"]["step_time"]["during"]["p100_us"]
    roce = runs["roce"]["step_time"]["during"]["p100_us"]
    rows.append(["flagship ``--quick``, MRC step under the failures (P100)", "1009 us",
                 f"{f0(mrc)} us (RoCEv2: {f1(roce / 1000)} ms with its Local ACK Timeout)"])
    return (para("The *before* column is not re-measured: it is the figures of commit 00031f3, "
                 "copied.") + grid_table(["experiment", "before (00031f3)", "now"], rows,
                                        [42, 24, 44]))


def victim_run(res, name):
    """An incast-with-victim run (mrc-collective output); Missing without its victim line."""
    c = collective(res, name)
    if "victim" not in c:
        raise Missing(f"{name}: no victim line")
    return c


def victim_size(res, directory):
    """The victim's bytes in DIRECTORY/mrc's command."""
    return int(re.search(r"--victim=(\d+)", res.command(f"{directory}/mrc")).group(1))


def incast_victim_long(res):
    """The victim with longer flows (incast-victim-long/), past the incast's first RTTs."""
    alone = collective(res, "incast-victim-long/alone")
    size = victim_size(res, "incast-victim-long")
    rows = []
    for key, label in [("mrc", "MRC, 4 x 100G"),
                       ("pfc-nodcqcn", "RoCEv2 + PFC, no DCQCN"),
                       ("pfc-1", "RoCEv2 + PFC + DCQCN, 1 QP"),
                       ("pfc-8", "RoCEv2 + PFC + DCQCN, 8 QPs")]:
        c = victim_run(res, f"incast-victim-long/{key}")
        pfc = c.get("pfc")
        rows.append([label, f2(c["step"] / c["ideal"]), f1(c["victim"]),
                     f2(alone["transfer_max"] / c["victim"]), str(c["queue_drops"]),
                     str(pfc["pauses"]) if pfc else "-"])
    return "\n" + para(
        f"The same with {size / 1e6:g} MB per flow (the victim alone: "
        f"{f1(alone['transfer_max'])} us measured with MRC):") + simple_table(
        ["fabric", "step / ideal", "victim (us)", "victim rate / alone", "queue drops",
         "PAUSEs"], rows)


# A victim at this share of its rate alone or more counts as untouched.
UNTOUCHED = 0.95


def victim_seed_ratios(res, key, directory="incast-victim-seeds"):
    """Seeds and victim rate / alone of DIRECTORY/<key>-seed<N>, in seed order."""
    alone = collective(res, "incast-victim-long/alone")
    names, seeds = numbered_runs(res, directory, f"{key}-seed")
    return seeds, [alone["transfer_max"] / victim_run(res, n)["victim"] for n in names]


def untouched(ratios):
    """How many of the victim's ratios are at UNTOUCHED or more."""
    return sum(r >= UNTOUCHED for r in ratios)


def incast_victim_seeds(res):
    """The long-flow victim over ECMP placements (incast-victim-seeds/ with 4 T1s per plane,
    incast-victim-wide/ with racks of 16 hosts and 16 T1s)."""
    rows = []
    numbers = None
    for directory, fabric in [("incast-victim-seeds", "4 T1s"), ("incast-victim-wide", "16 T1s")]:
        for key, label in [("mrc", "MRC, 4 x 100G"),
                           ("pfc-nodcqcn", "RoCEv2 + PFC, no DCQCN"),
                           ("pfc-1", "RoCEv2 + PFC + DCQCN, 1 QP"),
                           ("pfc-8", "RoCEv2 + PFC + DCQCN, 8 QPs")]:
            seeds, ratios = victim_seed_ratios(res, key, directory)
            if numbers is not None and seeds != numbers:
                raise Missing(f"{directory}/{key}-seed*: seeds {seeds}, not {numbers}")
            numbers = seeds
            rows.append([fabric, label, " ".join(f2(r) for r in ratios),
                         f2(statistics.median(ratios)), f2(statistics.mean(ratios)),
                         f"{untouched(ratios)} of {len(ratios)}"])
    return "\n" + para(
        f"The same over ECMP placements (``--seed`` {numbers[0]}-{numbers[-1]}; which T1s the "
        "incast flows and the victim hash to changes with the seed; MRC's EV choices too), on "
        "the fabric above (racks of 4 hosts, 4 T1s per plane) and on a wider one "
        "(``--hostsPerT0=16``: racks of 16 hosts, 16 T1s per plane, the same ranks and victim), "
        "victim rate / alone:") + simple_table(
        ["T1s", "fabric", "per seed", "median", "mean", f"at >= {UNTOUCHED}"], rows)


def table_incast_victim(res):
    alone = collective(res, "incast-victim/alone")
    configs = [
        ("mrc", "MRC, 4 x 100G, trimming, no PFC"),
        ("pfc-nodcqcn", "RoCEv2 + PFC, no DCQCN (``--dcqcn=false``)"),
        ("pfc-1", "RoCEv2 + PFC + DCQCN, 1 QP"),
        ("pfc-8", "RoCEv2 + PFC + DCQCN, 8 QPs"),
        ("pfc-dynamic-1", "the same, dynamic PFC thresholds, 1 QP"),
        ("pfc-dynamic-8", "the same, dynamic PFC thresholds, 8 QPs"),
        ("pfc-paper-1", "RoCEv2 + PFC + DCQCN paper's 40G values, 1 QP"),
        ("pfc-paper-8", "RoCEv2 + PFC + DCQCN paper's 40G values, 8 QPs"),
        ("roce-1", "RoCEv2, lossy (``--transport=roce``), 1 QP"),
    ]
    rows = []
    for key, label in configs:
        c = victim_run(res, f"incast-victim/{key}")
        pfc = c.get("pfc")
        rows.append([label, f2(c["step"] / c["ideal"]), f1(c["victim"]),
                     f2(alone["transfer_max"] / c["victim"]), str(c["rtx"]),
                     str(c["queue_drops"]),
                     str(pfc["pauses"]) if pfc else "-",
                     f1(pfc["paused"]) if pfc else "-",
                     f1(pfc["longest"]) if pfc else "-",
                     str(pfc["overflows"]) if pfc else "-"])
    size = victim_size(res, "incast-victim")
    mrc = collective(res, "incast-victim/mrc")
    line_rate = mrc["victim_ideal"]
    text = para(f"The victim ({size / 1e6:g} MB) alone: {f1(line_rate)} us at line rate, "
                f"{f1(alone['transfer_max'])} us measured with MRC (``--collective=bulk``); "
                "victim rate / alone = that time / the victim's time. rtx: packets "
                "retransmitted; PAUSEs, paused (us, all ports) and longest pause (us) over the "
                "whole run; overflows: PFC headroom overflows.")
    text += simple_table(
        ["fabric", "step / ideal", "victim (us)", "victim rate / alone", "rtx", "queue drops",
         "PAUSEs", "paused us", "longest us", "overflows"], rows)
    text += incast_victim_long(res)
    text += incast_victim_seeds(res)
    return text + "\n" + para(
        f"MRC's incast transfers: median {f0(mrc['transfer_p50'])} us, last "
        f"{f0(mrc['transfer_max'])} us against the collective's ideal of "
        f"{f0(mrc['collective_ideal'])} us; {mrc['rtx']} retransmissions, "
        f"{mrc['rtx_last_hop']} of them after a last-hop trim; EVs retired: "
        f"{mrc['retired']}.").rstrip() + "\n"


def table_ring_400g(res):
    def bus(name):
        return f1(float(loss_point(res, f"ring-400g/{name}")["busbw_gbps"]))

    def cells(prefix, qps):
        out = []
        for n in (1, 4, 8, 16):
            out.append(bus(f"{prefix}-{n}") if n in qps else "")
        return out

    rows = [
        ["MRC, 4 x 100G (``--fabric=mrc``)"] + cells("mrc", (1,)),
        ["RoCEv2 + PFC + DCQCN (``--fabric=roce-pfc``)"] + cells("pfc", (1, 4, 8, 16)),
        ["RoCEv2 + PFC + DCQCN paper's 40G values"] + cells("pfc-paper", (1, 4, 8, 16)),
        ["RoCEv2 + PFC, ECN off (no DCQCN cuts)"] + cells("pfc-noecn", (1, 8)),
        ["RoCEv2 lossy (``--fabric=roce``)"] + cells("roce", (1,)),
    ]
    cmd = res.command("ring-400g/mrc-1")
    size = re.search(r"--size=(\d+)", cmd).group(1)
    its = re.search(r"--iterations=(\d+)", cmd).group(1)
    text = para(f"``mrc-loss-collective --collective=ring --hosts=16 --size={size} "
                f"--iterations={its}``, bus bandwidth in Gb/s:")
    text += simple_table(["fabric", "1 QP", "4 QPs", "8 QPs", "16 QPs"], rows)
    err = res.text("ring-400g/roce-1", "stderr.txt")
    m = re.search(r"retransmissions (\d+) .*go-back-N rewinds (\d+) NAK \+ (\d+) timeout", err)
    if not m:
        raise Missing("ring-400g/roce-1: no recovery line on stderr")
    text += "\n" + para(
        f"Lossy RoCEv2, 1 QP: {m.group(1)} packets retransmitted, go-back-N rewinds "
        f"{m.group(2)} by NAK and {m.group(3)} by the Local ACK Timeout (stderr).")
    return text + ring_400g_seeds(res).rstrip() + "\n"


LINE_RATE_GBPS = 400  # mrc-loss-collective's defaults: 4 planes x 100G; RoCEv2 one 400G plane


def link_balance(res, name):
    """The T0-T1 up balance a --links run printed on stderr (largest / mean bytes)."""
    m = re.search(r"T0-T1 link balance \(largest / mean bytes of a direction\): up ([0-9.]+), "
                  r"down ([0-9.]+)", res.text(name, "stderr.txt"))
    if not m:
        raise Missing(f"{name}: no link balance line on stderr (--links)")
    return float(m.group(1))


def max_load_shares(flows, links, groups):
    """P(most flows on one link = k) when each of `groups` switches hashes `flows` flows
    uniformly and independently onto `links` uplinks: {k: probability}."""
    counts = {}
    for choice in range(links ** flows):
        load = [0] * links
        for _ in range(flows):
            load[choice % links] += 1
            choice //= links
        counts[max(load)] = counts.get(max(load), 0) + 1
    total = links ** flows
    below = 0.0
    shares = {}
    for k in sorted(counts):
        at_most = (below + counts[k] / total) ** groups
        shares[k] = at_most - (below ** groups)
        below += counts[k] / total
    return shares


RING_SEED_CONFIGS = [("pfc", "DCQCN"), ("pfc-t55", "DCQCN, 55 us timer"),
                     ("pfc-noecn", "ECN off")]


def default_ring_fabric(res, name):
    """Missing unless run NAME is on mrc-loss-collective's default fabric (16 ranks, 4 hosts and
    4 T1s per T0, 4 x 100G; RoCEv2 one 400G plane), for which the shares and line rate hold."""
    cmd = res.command(name)
    if re.search(r"--(hostsPerT0|t1|planes|rate)=", cmd) or not re.search(r"--hosts=16(\s|$)",
                                                                            cmd):
        raise Missing(f"{name}: expected the default fabric (16 ranks, 4 x 4, 4 x 100G): {cmd}")
    return cmd


def ring_seed_runs(res, d="ring-400g-seeds"):
    """The pipelined 1-QP ring over ECMP placements: seeds, {config: [(busbw, balance)]} and
    {most flows on one link: [seed indices]}."""
    seeds = None
    per = {}
    for key, _ in RING_SEED_CONFIGS:
        names, numbers = numbered_runs(res, d, f"{key}-seed")
        if seeds is not None and numbers != seeds:
            raise Missing(f"{d}/{key}-seed*: seeds {numbers}, not {seeds}")
        seeds = numbers
        for name, number in zip(names, numbers):
            cmd = default_ring_fabric(res, name)
            if (not re.search(rf"--seed={number}(\s|$)", cmd) or "--fabric=roce-pfc" not in cmd
                    or "--qps=" in cmd):
                raise Missing(f"{name}: expected one RoCEv2 QP on roce-pfc, seed {number}: {cmd}")
        per[key] = [(float(loss_point(res, n)["busbw_gbps"]), link_balance(res, n))
                    for n in names]
    by_load = {}
    for i, seed in enumerate(seeds):
        loads = {round(per[key][i][1]) for key, _ in RING_SEED_CONFIGS}
        if len(loads) != 1 or min(loads) < 1:
            raise Missing(f"{d}: seed {seed}: the configurations saw different placements (or "
                          f"none) {loads}")
        by_load.setdefault(loads.pop(), []).append(i)
    return seeds, per, by_load


def ring_load_share(per, key, idx):
    """Mean bus bandwidth / line rate of config KEY over the seed indices IDX."""
    return statistics.mean(per[key][i][0] for i in idx) / LINE_RATE_GBPS


def ring_400g_seeds(res):
    """The pipelined ring with 1 QP over ECMP placements, against the most flows on one link."""
    d = "ring-400g-seeds"
    cmd = default_ring_fabric(res, f"{d}/mrc")
    size = re.search(r"--size=(\d+)", cmd)
    slice_ = re.search(r"SliceSize=(\d+)", cmd)
    if not size or not slice_:
        raise Missing(f"{d}/mrc: no --size or SliceSize in {cmd}")
    size, slice_ = int(size.group(1)), slice_.group(1)
    configs = RING_SEED_CONFIGS
    seeds, per, by_load = ring_seed_runs(res, d)
    rows = []
    for i, seed in enumerate(seeds):
        balance = per["pfc"][i][1]
        rows.append([str(seed), f"{f2(balance)} ({round(balance)})"]
                    + [f1(per[key][i][0]) for key, _ in configs])
    text = para(
        f"The same ring pipelined as NCCL runs it (``--size={size} --iterations=1 "
        f"--ns3::MrcRingCollective::SliceSize={slice_}``: bandwidth-bound), one RoCEv2 QP per "
        "ring flow on the lossless fabric, over ECMP placements (``--seed``), with ``--links``: "
        "the T0-T1 links' balance (largest / mean bytes of a direction), which on this "
        "placement is the most ring flows ECMP put on one link (in brackets). Bus bandwidth in "
        "Gb/s with DCQCN (the defaults), with DCQCN's increase timer at the DCQCN paper's "
        "55 us (``--ns3::MrcDcqcn::IncreaseTimer=55us``) and with ECN off (PFC alone):")
    text += simple_table(["seed", "busiest link, flows"] + [label for _, label in configs], rows)
    shares = max_load_shares(4, 4, 4)
    summary = []
    for load in sorted(by_load):
        idx = by_load[load]
        summary.append([str(load), f"{len(idx)} of {len(seeds)}", f2(shares.get(load, 0)),
                        f2(1 / load)]
                       + [f2(ring_load_share(per, key, idx)) for key, _ in configs])
    text += "\n" + para(
        "By the most flows on one link: how many placements, the share of placements with that "
        "maximum if each T0 hashes its four flows onto its four uplinks uniformly and "
        "independently (exact, four T0s), the collision bound (a ring moves at its slowest "
        "flow's rate: line rate / flows on its link), and the mean bus bandwidth / line rate "
        f"({LINE_RATE_GBPS} Gb/s):")
    text += simple_table(["flows", "placements", "expected share", "bound"]
                         + [label for _, label in configs], summary)
    mrc = float(loss_point(res, f"{d}/mrc")["busbw_gbps"])
    p16 = float(loss_point(res, f"{d}/pfc16")["busbw_gbps"])
    text += "\n" + para(
        f"The same ring with MRC (4 x 100G, balance {f2(link_balance(res, f'{d}/mrc'))}): "
        f"{f1(mrc)} Gb/s ({f2(mrc / LINE_RATE_GBPS)} of line rate); RoCEv2 with 16 QPs per "
        f"ring flow (seed 1): {f1(p16)} Gb/s ({f2(p16 / LINE_RATE_GBPS)}).")
    return text


def table_failover(res):
    fabrics, summary = failover(res)
    mrc, roce = fabrics["MRC/SRv6"], fabrics["RoCEv2/ECMP+BGP"]
    rows = []
    for name, key in (("MRC/SRv6", "MRC/SRv6"), ("RoCEv2/ECMP+BGP", "RoCEv2/ECMP+BGP")):
        s = summary[key]
        rows.append([name, f2(s["delivered"]), f2(s["rtx"]), f1(s["stall"]), str(s["failed"]),
                     str(fabrics[key]["lost"])])
    text = simple_table(["fabric", "delivered MB", "retransmitted MB", "longest stall (us)",
                         "failed flows", "packets lost"], rows)
    series = []
    roce_by = {row[0]: row for row in roce["series"]}
    for start, all_mrc, slow_mrc, note in mrc["series"]:
        r = roce_by.get(start, (start, float("nan"), float("nan"), ""))
        series.append([str(start), f0(all_mrc), f0(slow_mrc), f0(r[1]), f1(r[2]),
                       note or r[3]])
    text += "\n" + para("Goodput (Gb/s), all flows and the slowest flow, per interval; "
                        f"RoCEv2's BGP: last FIB change {roce['fib']}.")
    text += simple_table([["interval (us)", "MRC", "", "RoCEv2", "", ""],
                          ["", "all", "slowest", "all", "slowest", "event"]], series)
    return text


def table_incast_trimming(res):
    rows = []
    for n in (8, 32, 64):
        for on in ("true", "false"):
            x = incast_trim(res, f"incast-trimming/{n}-{on}")
            trimmed = f"{x['last_hop']} + {x['fabric']}" if on == "true" else "0"
            rows.append([str(n), "on" if on == "true" else "off", str(x["sent"]), str(x["whole"]),
                         trimmed, str(x["lost"]), str(x["drops"]), f1(x["last"]),
                         f1(x["line"])])
    return simple_table(["senders", "trimming", "sent", "whole", "trimmed (last hop + fabric)",
                         "lost", "switch drops", "last arrival us", "line-rate us"], rows)


def table_published(res):
    fabrics, summary = failover(res)
    flag = {r["key"]: r for r in flagship_runs(res, "flagship")}
    fl = flap(res)
    slow = slow_flaps(res)
    ring = {k: collective(res, f"collective-ring/{k}") for k in ("mrc-1", "roce-16")}
    tr = {loss: transfer(res, f"transfer-4mb/loss-{loss}") for loss in ("0", "0.001", "0.01")}
    big = sweep_sizes(res)[0]
    ring_big = sweep(res, "ring", big)
    size64, ring64 = sweep64(res)
    slice64, sliced64 = sweep64_sliced(res, size64)
    alone = collective(res, "incast-victim/alone")
    victim = {k: alone["transfer_max"] / collective(res, f"incast-victim/{k}")["victim"]
              for k in ("mrc", "pfc-nodcqcn", "pfc-1", "pfc-8")}
    mrc_fo, roce_fo = fabrics["MRC/SRv6"], fabrics["RoCEv2/ECMP+BGP"]
    ring_mb = int(re.search(r"--size=(\d+)", res.command("collective-ring/mrc-1")).group(1))
    tmb = int(re.search(r"--bytes=(\d+)", res.command("transfer-4mb/loss-0")).group(1))
    victim_mb = victim_size(res, "incast-victim")
    seed_mb = victim_size(res, "incast-victim-long")
    ring_seeds, ring_per, ring_by_load = ring_seed_runs(res)
    seeds_1 = victim_seed_ratios(res, "pfc-1")[1]
    seeds_8 = victim_seed_ratios(res, "pfc-8")[1]
    seeds_mrc = victim_seed_ratios(res, "mrc")[1]
    wide_1 = victim_seed_ratios(res, "pfc-1", "incast-victim-wide")[1]
    wide_8 = victim_seed_ratios(res, "pfc-8", "incast-victim-wide")[1]
    wide_mrc = victim_seed_ratios(res, "mrc", "incast-victim-wide")[1]
    fail_at = next((s for s in mrc_fo["series"] if s[3] == "failure"), None)
    before = mrc_fo["series"][0]
    m_ratio = ring["mrc-1"]["step"] / ring["mrc-1"]["ideal"]
    r_ratio = ring["roce-16"]["step"] / ring["roce-16"]["ideal"]
    mst = flag["mrc"]["step_time"]
    # The flagship's ring all-reduce over all its hosts: 2 (n - 1) dependent phases.
    hosts = find(r"(\d+) hosts;", res.text("flagship"), "flagship: the host count", int)
    phases = 2 * (hosts - 1)
    after_p50, before_p50 = mst["after"]["p50_us"], mst["before"]["p50_us"]
    # "yes" when 0.1 % loss costs at most 10 % and 1 % costs more than 0.1 %.
    near = (tr["0.001"]["done"] <= 1.1 * tr["0"]["done"]
            and tr["0.01"]["done"] > tr["0.001"]["done"])
    rows = [
        ["failed path bypassed within a few RTTs (tens of us)",
         f"yes: ``mrc-failover`` longest stall {f1(summary['MRC/SRv6']['stall'])} us under a "
         f"link failure; flagship {f0(flag['mrc']['longest_stall_us'])} us against "
         f"{f0(flag['roce']['longest_stall_us'] / 1000)} ms (the Local ACK Timeout) for "
         "RoCEv2/ECMP"],
        ["flapping T0-T1 links: no measurable effect",
         # "yes" when slow flaps cost under 5 % of the time-averaged capacity and fast ones
         # under 5 % of the capacity with the links held down.
         f"{'yes' if max([x['cost'] for x in slow] + [fl['cost_held']]) < 5 else 'partly'}"
         ", beyond the capacity they take: two uplinks flapping every "
         + " and every ".join(f"{f0(x['period'] / 1000)} ms" for x in slow)
         + " cost "
         + " and ".join(f"{f1(x['cost'])} %" for x in slow)
         + " of the time-averaged capacity; every "
         f"{f0(fl['period'])} us their up phases are shorter than restoration takes (answered "
         "probes over time, as the paper restores EVs), so they cost what holding them down "
         f"costs ({f1(fl['cost_held'])} % more; {f1(fl['cost'])} % of the time-averaged "
         "capacity) "
         f"(``mrc-path-health --experiment=flap``, longest stall {f0(fl['stall'])} us); in the "
         f"flagship each down phase costs the queue pairs using the link a repair, measurable "
         f"in a step of {phases} dependent phases. Published steps are hundreds of ms"],
        ["T1 switch failure: no steady-state loss of bandwidth when paths remain",
         # "yes" when the steps after the failures are within 2 % of the steps before.
         f"{'yes' if after_p50 <= 1.02 * before_p50 else 'no'}: steps after the failures "
         f"against before for MRC: P50 {f0(after_p50)} "
         f"against {f0(before_p50)} us; ``mrc-failover``: "
         f"{f0(fail_at[1]) if fail_at else '-'} Gb/s in the interval of the failure, "
         f"{f0(before[1])} before it"],
        ["1 MRC QP over many paths beats 16 single-path QPs on ring all-reduce",
         f"{'yes' if m_ratio < r_ratio else 'no'}: ring all-reduce, 8 ranks, "
         f"{ring_mb / 1e6:g} MB: MRC {f2(m_ratio)} x ideal, RoCEv2 16 QPs {f2(r_ratio)} x "
         "(\"Collective workloads\" in doc/mrc.rst)"],
        ["near line rate at 0.1 % loss, much worse at 1 %",
         f"{'yes' if near else 'no'}: {tmb / 1e6:g} MB transfer {f0(tr['0.001']['done'])} us "
         f"at 0.1 % ({f0(tr['0']['done'])} healthy), "
         f"{f0(tr['0.01']['done'])} us at 1 % (``mrc-transfer --dataPlane=ecmp``); ring "
         f"all-reduce {mib(big)} x 16 ranks {f2(ring_big['0.001'] / ring_big['0'])}x of "
         f"loss-free at 0.1 %, {f2(ring_big['0.01'] / 400)} of line rate at 1 %; "
         f"{mib(size64)} x 64 ranks (the paper's Fig. 16 scale) "
         f"{f2(ring64['0.001'] / ring64['0'])}x at 0.1 %, {f2(ring64['0.01'] / 400)} of line rate "
         f"at 1 %, {f2(sliced64['0.01'] / 400)} with the ring pipelined in slices of "
         f"{mib(slice64)} (paper: about 1/3) [open]"],
        ["7-to-1 incast + victim: MRC leaves the victim untouched, PFC/DCQCN hurt it",
         f"in direction: {victim_mb / 1e6:g} MB victim at {f2(victim['mrc'])} of its rate alone "
         f"with MRC (4 x 100G), {f2(victim['pfc-nodcqcn'])} with PFC alone and "
         f"{f2(victim['pfc-1'])} / {f2(victim['pfc-8'])} with PFC + DCQCN, 1 / 8 QPs (one 400G "
         f"plane); with {seed_mb / 1e6:g} MB over {len(seeds_1)} ECMP placements, PFC + DCQCN "
         f"means {f2(statistics.mean(seeds_1))} (1 QP; {untouched(seeds_1)} "
         f"placements untouched) and {f2(statistics.mean(seeds_8))} (8 QPs), MRC "
         f"{f2(min(seeds_mrc))} or more; with 16 T1s per plane instead of 4, "
         f"{f2(statistics.mean(wide_1))} (1 QP; {untouched(wide_1)} untouched) "
         f"and {f2(statistics.mean(wide_8))} (8 QPs), MRC {f2(min(wide_mrc))} or more: the "
         "paper's \"about 25 % slower, worse with 8 QPs\" as a mean over placements on a wide "
         "fabric (section \"Lossless RoCEv2\")"],
        ["ECMP: 1 QP loses about half to collisions; more QPs help up to about 8",
         f"uplink imbalance (flagship, busiest / mean) {f2(float(flag['roce']['uplink_balance']))}"
         f" (1 QP), {f2(float(flag['roce-x4']['uplink_balance']))} (4 QPs), "
         f"{f2(float(flag['mrc']['uplink_balance']))} (MRC); ``mrc-failover`` healthy goodput "
         f"{f0(roce_fo['series'][0][1])} Gb/s (RoCEv2) against {f0(before[1])} Gb/s (MRC); "
         "the pipelined ring on one 400G plane, 1 QP per flow, over "
         f"{len(ring_seeds)} placements: "
         + "; ".join(f"{len(idx)} with {load} flows on the busiest link, "
                     f"{f2(ring_load_share(ring_per, 'pfc-noecn', idx))} of line rate with PFC "
                     f"alone, {f2(ring_load_share(ring_per, 'pfc', idx))} with DCQCN"
                     for load, idx in sorted(ring_by_load.items()))
         + " (section \"Lossless RoCEv2\")"],
        ["traffic hashed to a dead next hop is black-holed until the switch converges",
         "yes: RoCEv2 flows stall until BGP reprograms the FIBs (carrier 2 ms + UPDATEs + FIB "
         "batches) or the repair; black holes need BFD (``mrc-failover``: RoCEv2's longest "
         f"stall {f1(summary['RoCEv2/ECMP+BGP']['stall'])} us, last FIB change "
         f"{roce_fo['fib']})"],
    ]
    return grid_table(["published behaviour", "here"], rows, [40, 60])


TABLES = {  # name -> renderer (doc/validation/<name>.rst)
    "flagship": table_flagship,
    "published": table_published,
    "issue15": table_issue15,
    "incast-victim": table_incast_victim,
    "ring-400g": table_ring_400g,
    "flagship-single-plane": table_flagship_single_plane,
    "failover": table_failover,
    "incast-trimming": table_incast_trimming,
}


def header(res, results_arg, used, command):
    commit = res.info.get("commit", "unknown")
    modified = res.info.get("modified", "0")
    state = f"commit {commit}" + (f" with {modified} modified file(s)" if modified != "0" else "")
    lines = textwrap.wrap(f"Generated by utils/mrc-validation-tables.py ({command}) from "
                          f"{results_arg}/ ({state}, {res.info.get('started', 'date unknown')}); "
                          "do not edit: rerun the command. Runs:", 96)
    for name in used:
        lines.append(f"  {name}: {res.command(name)}")
    if res.quick:
        lines.append("QUICK RUN (reduced sizes): a smoke test, not the documentation's figures.")
    return ".. " + "\n   ".join(lines) + "\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(REPO, "build", "validation"),
                    help="results directory of utils/mrc.sh validate (default build/validation)")
    ap.add_argument("--out", default=os.path.join(REPO, "doc", "validation"),
                    help="where to write <table>.rst (default doc/validation)")
    ap.add_argument("--only", help="comma-separated table names (default: all)")
    args = ap.parse_args()
    if not os.path.isdir(args.results):
        sys.exit(f"mrc-validation-tables: no results directory {args.results} "
                 "(run utils/mrc.sh validate)")
    res = Results(args.results)
    results_arg = os.path.relpath(os.path.abspath(args.results), REPO)
    if results_arg.startswith(".."):
        results_arg = os.path.abspath(args.results)
    command = ("utils/mrc.sh validate --quick" if res.quick else "utils/mrc.sh validate")
    os.makedirs(args.out, exist_ok=True)
    names = args.only.split(",") if args.only else list(TABLES)
    failed = []
    for name in names:
        if name not in TABLES:
            sys.exit(f"mrc-validation-tables: no table '{name}' (tables: {', '.join(TABLES)})")
        res.used = []
        try:
            body = TABLES[name](res)
        except Missing as e:
            print(f"mrc-validation-tables: {name}.rst not written: {e}", file=sys.stderr)
            failed.append(name)
            continue
        path = os.path.join(args.out, f"{name}.rst")
        with open(path, "w") as f:
            f.write(header(res, results_arg, res.used, command) + body)
        print(f"mrc-validation-tables: wrote {os.path.relpath(path)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
