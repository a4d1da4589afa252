# SPDX-License-Identifier: GPL-2.0-only
"""utils/wireshark/mrc.lua decodes the module's wire format in tshark (issue 19).

    check_wireshark_dissector.py <mrc-collective> <mrc.lua> <scratch directory>

Runs an 8-to-1 MRC incast (trimming switches) with pcap on the target's NIC ports and reads
each file back with tshark and the dissector. Every UDP/4791 frame must decode as MRC with a
known opcode and no malformed-packet note; data, SACKs, NACKs and probes must be present; every
trimmed data packet the target received (DSCP 38, last hop) must be answered on that port by a
NACK TRIMMED_LASTHOP, and each SACK must carry its fields. Exit 77 (skipped) without tshark.
"""

import glob
import os
import shutil
import subprocess
import sys
from collections import Counter

KNOWN = {0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xD1, 0xDC, 0xDD, 0xDE, 0x81}


def main():
    program, lua, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    tshark = shutil.which("tshark")
    if not tshark:
        print("check_wireshark_dissector: tshark not installed (Debian: tshark): skipped")
        return 77
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    prefix = os.path.join(scratch, "incast")
    run = subprocess.run([program, "--collective=incast", "--hosts=8", "--size=400000",
                          "--iterations=1", "--pcap=" + prefix], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        return 1
    files = sorted(glob.glob(prefix + "-*.pcap"))
    problems = [] if len(files) == 2 else [f"2 pcap files expected (2 planes), got {files}"]
    for path in files:
        fields = ["frame.number", "udp.dstport", "mrc.opcode", "mrc.trimmed", "mrc.nack.code",
                  "mrc.sack.cum_ack", "mrc.sack.bitmap", "mrc.probe.ev", "_ws.expert.group",
                  "ipv6.src"]
        cmd = [tshark, "-n", "-X", "lua_script:" + lua, "-o", "udp.try_heuristic_first:TRUE", "-r", path, "-Y", "udp.port == 4791",
               "-T", "fields", "-E", "separator=;"] + sum((["-e", f] for f in fields), [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            problems.append(f"{path}: tshark failed: {p.stderr.strip()[-300:]}")
            continue
        ops = Counter()
        trimmed = nacks = 0
        for line in p.stdout.splitlines():
            row = dict(zip(fields, line.split(";")))
            if not row["mrc.opcode"]:
                problems.append(f"{path}: frame {row['frame.number']} not decoded as MRC")
                continue
            op = int(row["mrc.opcode"], 16)
            ops[op] += 1
            if op not in KNOWN:
                problems.append(f"{path}: frame {row['frame.number']}: unknown opcode {op:#x}")
            if "malformed" in row["_ws.expert.group"].lower():
                problems.append(f"{path}: frame {row['frame.number']}: malformed")
            if op == 0xDC and not (row["mrc.sack.cum_ack"] and row["mrc.sack.bitmap"]):
                problems.append(f"{path}: frame {row['frame.number']}: SACK fields missing")
            if op == 0xDE and not row["mrc.probe.ev"]:
                problems.append(f"{path}: frame {row['frame.number']}: probe EV missing")
            if row["mrc.trimmed"] in ("1", "True"):
                trimmed += 1
            if op == 0xDD and row["mrc.nack.code"] and int(row["mrc.nack.code"], 16) == 2:
                nacks += 1
        for op, name in ((0xC7, "data"), (0xDC, "SACK"), (0xDD, "NACK"), (0xDE, "probe")):
            if ops[op] == 0:
                problems.append(f"{path}: no {name} decoded")
        if trimmed == 0 or trimmed != nacks:
            problems.append(f"{path}: {trimmed} trimmed data packets received but {nacks} "
                            f"NACK TRIMMED_LASTHOP sent (equal and > 0 expected)")
        print(f"{os.path.basename(path)}: " + ", ".join(f"{op:#x} x{n}" for op, n in sorted(ops.items()))
              + f"; trimmed {trimmed}, NACK TRIMMED_LASTHOP {nacks}")
    for msg in problems[:20]:
        print("check_wireshark_dissector: " + msg)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
