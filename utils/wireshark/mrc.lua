-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark / tshark dissector for the ns-3 mrc module's wire format: MRC (Multipath Reliable
-- Connection) over UDP port 4791, as MrcL4Protocol sends it. Wireshark's own InfiniBand
-- dissector knows RoCEv2's BTH but shows MRC's opcodes (SACK, NACK, probe) and extension
-- headers as "Unknown"; this one takes UDP port 4791 over and decodes
--   BTH (12 B) / METH (4) / TSETH (4) / RETH (16, WRITE_FIRST and WRITE_ONLY*) / ImmDt (4,
--   *_IMM) / payload / ICRC (4)                      data (opcodes 0xC6..0xCB)
--   BTH / SACK (36) / ICRC                           0xDC
--   BTH / NACK (12) / ICRC                           0xDD
--   BTH / probe (12, padded when full size) / ICRC   0xDE
--   BTH / 16 reserved bytes / ICRC                   CNP 0x81 (RoCEv2 congestion notification)
--   BTH / ICRC                                       ACK 0xD1
-- A data packet a switch trimmed (MrcTrimmingQueueDisc: cut to TrimSize, DSCP rewritten) is flagged
-- "trimmed" from its outer DSCP (preferences: the module's defaults, 36 at a fabric port and 38
-- at the last hop); its ICRC is gone and the payload length is what is left.
--
-- Use (doc/mrc.rst, "Wire format in Wireshark"):
--   tshark -X lua_script:utils/wireshark/mrc.lua -o udp.try_heuristic_first:TRUE \
--          -r mrc-host-0-1.pcap -V
--   wireshark -X lua_script:utils/wireshark/mrc.lua -o udp.try_heuristic_first:TRUE FILE
-- (try_heuristic_first: the EV in the UDP source port can name another protocol; see below)
-- or copy the file into ~/.local/lib/wireshark/plugins/. Display filters: mrc, mrc.opcode,
-- mrc.psn, mrc.sack.cum_ack, mrc.nack.code, mrc.probe.ev, mrc.trimmed, ...
-- Field layouts follow model/mrc-*-header.cc (the module's Serialize functions).

local mrc = Proto("mrc", "MRC (Multipath Reliable Connection, ns-3 mrc module)")

local opcodes = {
    [0xC6] = "WRITE_FIRST", [0xC7] = "WRITE_MIDDLE", [0xC8] = "WRITE_LAST",
    [0xC9] = "WRITE_LAST_IMM", [0xCA] = "WRITE_ONLY", [0xCB] = "WRITE_ONLY_IMM",
    [0xD1] = "ACK", [0xDC] = "SACK", [0xDD] = "NACK", [0xDE] = "PROBE", [0x81] = "CNP",
}
local nack_codes = {
    [0x01] = "TRIMMED", [0x02] = "TRIMMED_LASTHOP", [0x03] = "NO_BITMAP",
    [0x04] = "PSN_OOR_WINDOW", [0x05] = "UNEXP_EVENT", [0x06] = "SEQUENCE_ERROR",
}
local sack_marks = { [0] = "NONE", [1] = "SKIP_ONCE", [2] = "ALWAYS_SKIP" }

local f = mrc.fields
-- BTH
f.opcode = ProtoField.uint8("mrc.opcode", "Opcode", base.HEX, opcodes)
f.se = ProtoField.bool("mrc.se", "Solicited event", 8, nil, 0x80)
f.migreq = ProtoField.bool("mrc.migreq", "Migration request", 8, nil, 0x40)
f.pad = ProtoField.uint8("mrc.pad", "Pad count", base.DEC, nil, 0x30)
f.tver = ProtoField.uint8("mrc.tver", "Transport version", base.DEC, nil, 0x0f)
f.pkey = ProtoField.uint16("mrc.pkey", "Partition key", base.HEX)
f.dqpn = ProtoField.uint24("mrc.dqpn", "Destination QP", base.DEC)
f.ackreq = ProtoField.bool("mrc.ackreq", "Acknowledge request", 32, nil, 0x80000000)
f.psn = ProtoField.uint32("mrc.psn", "PSN", base.DEC, nil, 0x00ffffff)
-- data extension headers
f.msn = ProtoField.uint32("mrc.meth.msn", "METH message sequence number", base.DEC)
f.ts = ProtoField.uint16("mrc.tseth.timestamp", "TSETH timestamp (sender time, us, 16 bits)", base.DEC)
f.va = ProtoField.uint64("mrc.reth.va", "RETH virtual address", base.HEX)
f.rkey = ProtoField.uint32("mrc.reth.rkey", "RETH remote key", base.HEX)
f.dmalen = ProtoField.uint32("mrc.reth.dma_length", "RETH DMA length", base.DEC)
f.imm = ProtoField.uint32("mrc.immdt", "Immediate data", base.HEX)
f.payload = ProtoField.uint32("mrc.payload_length", "Payload length", base.DEC)
f.trimmed = ProtoField.bool("mrc.trimmed", "Trimmed (payload cut by a switch)")
-- SACK
f.sack_mark = ProtoField.uint32("mrc.sack.mark", "Path mark", base.DEC, sack_marks, 0xc0000000)
f.sack_ecn = ProtoField.bool("mrc.sack.ecn_echo", "ECN echo", 32, nil, 0x20000000)
f.sack_cum = ProtoField.uint32("mrc.sack.cum_ack", "Cumulative ACK PSN", base.DEC, nil, 0x00ffffff)
f.sack_base = ProtoField.uint32("mrc.sack.bitmap_base", "Bitmap base PSN", base.DEC, nil, 0x00ffffff)
f.sack_bitmap = ProtoField.uint64("mrc.sack.bitmap", "Bitmap (64 PSNs from the base)", base.HEX)
f.sack_ev = ProtoField.uint32("mrc.sack.ev", "Reflected EV", base.HEX)
f.sack_ports = ProtoField.uint8("mrc.sack.port_state", "Port-state bitmap (1: plane down)", base.HEX)
f.sack_ts = ProtoField.uint16("mrc.sack.timestamp", "Reflected timestamp (us, 16 bits)", base.DEC)
f.sack_ooo = ProtoField.uint16("mrc.sack.out_of_order", "Out-of-order count", base.DEC)
f.sack_pen = ProtoField.uint8("mrc.sack.window_penalty", "Receiver window penalty", base.DEC)
f.sack_bytes = ProtoField.uint32("mrc.sack.received_bytes", "Received bytes", base.DEC)
-- NACK
f.nack_code = ProtoField.uint32("mrc.nack.code", "Code", base.HEX, nack_codes, 0xff000000)
f.nack_psn = ProtoField.uint32("mrc.nack.psn", "PSN", base.DEC, nil, 0x00ffffff)
f.nack_ev = ProtoField.uint32("mrc.nack.ev", "Reflected EV", base.HEX)
f.nack_ts = ProtoField.uint16("mrc.nack.timestamp", "Reflected timestamp (us, 16 bits)", base.DEC)
-- probe
f.probe_resp = ProtoField.bool("mrc.probe.response", "Response", 8, nil, 0x01)
f.probe_ackreq = ProtoField.bool("mrc.probe.ackreq", "Acknowledge request (tail-loss probe)", 8, nil, 0x02)
f.probe_seq = ProtoField.uint32("mrc.probe.sequence", "Sequence", base.DEC)
f.probe_ev = ProtoField.uint32("mrc.probe.ev", "Probed EV", base.HEX)
f.probe_pad = ProtoField.uint32("mrc.probe.padding", "Padding (full-size probe)", base.DEC)
f.icrc = ProtoField.uint32("mrc.icrc", "ICRC", base.HEX)

local ef_short = ProtoExpert.new("mrc.short", "Shorter than the opcode's headers",
                                 expert.group.MALFORMED, expert.severity.ERROR)
local ef_opcode = ProtoExpert.new("mrc.unknown_opcode", "Opcode not used by MRC",
                                  expert.group.MALFORMED, expert.severity.WARN)
mrc.experts = { ef_short, ef_opcode }

local BTH, ICRC = 12, 4

mrc.prefs.trimmed_dscp = Pref.uint("Trimmed DSCP", 36, "MrcTrimmingQueueDisc::TrimmedDscp")
mrc.prefs.trimmed_lasthop_dscp = Pref.uint("Trimmed last-hop DSCP", 38,
                                           "MrcTrimmingQueueDisc::TrimmedLastHopDscp")
local ipv6_dscp = Field.new("ipv6.tclass.dscp")
f.trimmed_where = ProtoField.string("mrc.trimmed_at", "Trimmed at")

-- Add a fixed-size header; false (and an expert note) if the packet is too short.
local function need(tree, tvb, offset, size, what)
    if tvb:len() < offset + size then
        tree:add_proto_expert_info(ef_short, what .. ": " .. size .. " bytes needed at offset "
                                   .. offset .. ", " .. (tvb:len() - offset) .. " left")
        return false
    end
    return true
end

local function dissect_data(tvb, tree, op, info)
    local dscp = ipv6_dscp()
    local trimmed = dscp ~= nil and (dscp.value == mrc.prefs.trimmed_dscp
                                     or dscp.value == mrc.prefs.trimmed_lasthop_dscp)
    tree:add(f.trimmed, trimmed):set_generated()
    if trimmed then
        tree:add(f.trimmed_where, dscp.value == mrc.prefs.trimmed_dscp and "a fabric port"
                 or "the last hop (incast)"):set_generated()
    end
    info.trimmed = trimmed
    local off = BTH
    if not need(tree, tvb, off, 8, "METH + TSETH") then return end
    tree:add(f.msn, tvb(off, 4)); off = off + 4
    tree:add(f.ts, tvb(off, 2)); off = off + 4
    if op == 0xC6 or op == 0xCA or op == 0xCB then
        if not need(tree, tvb, off, 16, "RETH") then return end
        local reth = tree:add(mrc, tvb(off, 16), "RETH")
        reth:add(f.va, tvb(off, 8)); reth:add(f.rkey, tvb(off + 8, 4))
        reth:add(f.dmalen, tvb(off + 12, 4)); off = off + 16
    end
    if op == 0xC9 or op == 0xCB then
        if not need(tree, tvb, off, 4, "ImmDt") then return end
        tree:add(f.imm, tvb(off, 4)); off = off + 4
    end
    local rest = tvb:len() - off
    if info.trimmed or rest < ICRC then
        tree:add(f.payload, rest):set_generated() -- what the switch left, no ICRC
    else
        tree:add(f.payload, rest - ICRC):set_generated()
        tree:add(f.icrc, tvb(tvb:len() - ICRC, ICRC))
    end
end

local function dissect_sack(tvb, tree, info)
    if not need(tree, tvb, BTH, 36, "SACK") then return end
    local s = tree:add(mrc, tvb(BTH, 36), "SACK")
    s:add(f.sack_mark, tvb(BTH, 4)); s:add(f.sack_ecn, tvb(BTH, 4))
    s:add(f.sack_cum, tvb(BTH, 4)); s:add(f.sack_base, tvb(BTH + 4, 4))
    s:add(f.sack_bitmap, tvb(BTH + 8, 8)); s:add(f.sack_ev, tvb(BTH + 16, 4))
    s:add(f.sack_ports, tvb(BTH + 20, 1)); s:add(f.sack_ts, tvb(BTH + 24, 2))
    s:add(f.sack_ooo, tvb(BTH + 26, 2)); s:add(f.sack_pen, tvb(BTH + 28, 1))
    s:add(f.sack_bytes, tvb(BTH + 32, 4))
    info.extra = string.format(" cum_ack=%d ev=0x%x ooo=%d", bit.band(tvb(BTH, 4):uint(), 0xffffff),
                               tvb(BTH + 16, 4):uint(), tvb(BTH + 26, 2):uint())
end

local function dissect_nack(tvb, tree, info)
    if not need(tree, tvb, BTH, 12, "NACK") then return end
    local n = tree:add(mrc, tvb(BTH, 12), "NACK")
    n:add(f.nack_code, tvb(BTH, 4)); n:add(f.nack_psn, tvb(BTH, 4))
    n:add(f.nack_ev, tvb(BTH + 4, 4)); n:add(f.nack_ts, tvb(BTH + 8, 2))
    local code = tvb(BTH, 1):uint()
    info.extra = string.format(" %s psn=%d", nack_codes[code] or string.format("0x%02x", code),
                               bit.band(tvb(BTH, 4):uint(), 0xffffff))
end

local function dissect_probe(tvb, tree, info)
    if not need(tree, tvb, BTH, 12, "probe") then return end
    local p = tree:add(mrc, tvb(BTH, 12), "Probe")
    p:add(f.probe_resp, tvb(BTH, 1)); p:add(f.probe_ackreq, tvb(BTH, 1))
    p:add(f.probe_seq, tvb(BTH + 4, 4)); p:add(f.probe_ev, tvb(BTH + 8, 4))
    local pad = tvb:len() - BTH - 12 - ICRC
    if pad > 0 then p:add(f.probe_pad, pad):set_generated() end
    info.extra = string.format(" %s ev=0x%x", bit.band(tvb(BTH, 1):uint(), 1) == 1 and "response"
                               or "request", tvb(BTH + 8, 4):uint())
end

function mrc.dissector(tvb, pinfo, root)
    if tvb:len() < BTH then return 0 end
    pinfo.cols.protocol = "MRC"
    local tree = root:add(mrc, tvb())
    local op = tvb(0, 1):uint()
    local bth = tree:add(mrc, tvb(0, BTH), "Base transport header")
    bth:add(f.opcode, tvb(0, 1)); bth:add(f.se, tvb(1, 1)); bth:add(f.migreq, tvb(1, 1))
    bth:add(f.pad, tvb(1, 1)); bth:add(f.tver, tvb(1, 1)); bth:add(f.pkey, tvb(2, 2))
    bth:add(f.dqpn, tvb(5, 3)); bth:add(f.ackreq, tvb(8, 4)); bth:add(f.psn, tvb(8, 4))
    local info = { extra = "" }
    if op >= 0xC6 and op <= 0xCB then
        dissect_data(tvb, tree, op, info)
    elseif op == 0xDC then
        dissect_sack(tvb, tree, info)
    elseif op == 0xDD then
        dissect_nack(tvb, tree, info)
    elseif op == 0xDE then
        dissect_probe(tvb, tree, info)
    elseif op ~= 0xD1 and op ~= 0x81 then
        tree:add_proto_expert_info(ef_opcode)
    end
    pinfo.cols.info = string.format("%s QP=%d PSN=%d%s%s", opcodes[op] or string.format("0x%02x", op),
                                    tvb(5, 3):uint(), bit.band(tvb(8, 4):uint(), 0xffffff),
                                    info.extra, info.trimmed and " [trimmed]" or "")
    return tvb:len()
end

DissectorTable.get("udp.port"):add(4791, mrc)

-- MRC (like RoCEv2) writes the EV into the UDP source port, so a source port that names
-- another protocol (7: Echo, 53: DNS, ...) wins Wireshark's lower-port-first choice. The
-- heuristic below claims every datagram to port 4791 when UDP tries heuristics first:
-- tshark -o udp.try_heuristic_first:TRUE (Wireshark: Preferences > Protocols > UDP).
mrc:register_heuristic("udp", function(tvb, pinfo, root)
    if pinfo.dst_port ~= 4791 or tvb:len() < BTH then
        return false
    end
    mrc.dissector(tvb, pinfo, root)
    return true
end)
