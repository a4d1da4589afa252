/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcQueuePair's TypeId: its attributes and trace sources (the queue pair's behaviour is in
// mrc-queue-pair.cc; the attribute table alone is a third of the class).

#include "mrc-dscp.h"
#include "mrc-nscc.h"
#include "mrc-queue-pair.h"
#include "mrc-selective-recovery.h"
#include "mrc-spray-path-selection.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

TypeId
MrcQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcQueuePair")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcQueuePair>()
            .AddAttribute("Mss",
                          "Payload bytes per data packet (the MTU's payload).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&MrcQueuePair::m_mss),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion control (an MrcCongestionOps).",
                          TypeIdValue(MrcNscc::GetTypeId()),
                          MakeTypeIdAccessor(&MrcQueuePair::m_ccType),
                          MakeTypeIdChecker())
            .AddAttribute("PathSelection",
                          "TypeId of the path selection (an MrcPathSelection): "
                          "MrcSprayPathSelection (MRC) or MrcSinglePathSelection (RoCEv2).",
                          TypeIdValue(MrcSprayPathSelection::GetTypeId()),
                          MakeTypeIdAccessor(&MrcQueuePair::m_pathSelectionType),
                          MakeTypeIdChecker())
            .AddAttribute("LossRecovery",
                          "TypeId of the loss recovery (an MrcLossRecovery): "
                          "MrcSelectiveRecovery (MRC) or MrcGoBackN (RoCEv2). Both ends of a "
                          "connection must use the same.",
                          TypeIdValue(MrcSelectiveRecovery::GetTypeId()),
                          MakeTypeIdAccessor(&MrcQueuePair::m_lossRecoveryType),
                          MakeTypeIdChecker())
            .AddAttribute("EvSetSize",
                          "Active EVs, split equally across planes (the rest of the paths are "
                          "backups).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&MrcQueuePair::m_evSetSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxOutstandingPsns",
                          "PSN window (MRC's MPR): packets sent and not yet acknowledged, a "
                          "multiple of 128 (0: sized so that the NIC keeps sending at its total "
                          "rate on every plane while one hole waits WindowRecoveryTime to be "
                          "repaired, rounded up to 128). Both ends must agree.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcQueuePair::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>(0, 1u << 22))
            .AddAttribute("WindowRecoveryTime",
                          "With MaxOutstandingPsns = 0: how long a hole may hold the window's "
                          "base while the NIC sends at its total rate (0: the loss timer plus two "
                          "base RTTs, the longest a silent loss waits for its repair).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_windowRecoveryTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("LossTimeout",
                          "Per-packet loss timer (0: LossTimeoutRtts x base RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_lossTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("LossTimeoutRtts",
                          "Loss timer in base RTTs when LossTimeout is 0 [open: a few RTTs].",
                          DoubleValue(8.0),
                          MakeDoubleAccessor(&MrcQueuePair::m_lossTimeoutRtts),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("ProbeInterval",
                          "Period of the probes of ASSUMED_BAD EVs (0: 4 x base RTT) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_probeInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProbeSuccesses",
                          "Answered probes that bring an ASSUMED_BAD EV back [open: 3].",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MrcQueuePair::m_probeSuccesses),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SkipRotations",
                          "Rotations of its plane's active EVs that a SKIP lasts (the brief's "
                          "'one rotation of the EV set'); 0: SKIPs last SkipTime instead. A "
                          "rotation is as short as the GOOD EVs left in it [open].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcQueuePair::m_skipRotations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SkipTime",
                          "How long one SKIP lasts when SkipRotations is 0 (the brief's "
                          "'timeout'; 0: one rotation of the active EV set at the queue "
                          "pair's line rate, EvSetSize full-size packets over the ports it "
                          "sends on, and at least one base RTT, so that a marked EV waits for "
                          "fresh feedback) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_skipTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SkipMemory",
                          "An ECN echo this soon after an EV's SKIP ended doubles its next SKIP "
                          "(up to AlwaysSkipFactor SKIPs): the time a flow back on a congested "
                          "path takes to rebuild the queue that marked it, plus the echo's RTT "
                          "(0: 8 base RTTs) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_skipMemory),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "SkipAcrossPlanes",
                "A NIC port whose plane has only SKIP EVs left in the queue pair's active set "
                "sends none of its data while another plane has a GOOD EV, so that ECN "
                "steering moves load between planes as a rotation over the whole EV set does, "
                "not only between the paths of one plane (only with SKIPs in time, "
                "SkipRotations 0). false: each port takes the next EV of its own plane, a SKIP "
                "one when nothing better is left there [open: the brief does not say how the "
                "EV choice spans the NIC's ports].",
                BooleanValue(true),
                MakeBooleanAccessor(&MrcQueuePair::m_skipAcrossPlanes),
                MakeBooleanChecker())
            .AddAttribute(
                "PlaneLeadLimit",
                "Rounds of the planes' weighted round robin (weights: GOOD EVs per plane) by "
                "which a NIC port may run ahead of its plane's share before it leaves the "
                "queue pair's next packet to a port that is behind, as a NIC queues a packet "
                "on the port of the EV its rotation chose; the port is offered the next "
                "packet again as soon as another port has sent (mrc-path-health links, 128 "
                "EVs, seeds 1-10: worst 50 us interval 0.868 of the capacity left with 0, "
                "0.915 with 1; 16 EVs 0.880 and 0.932) [open: the brief's rotation over the "
                "EV set]. 0: the port that frees first takes the packet, which loads the "
                "planes equally whatever the EVs' states.",
                DoubleValue(1.0),
                MakeDoubleAccessor(&MrcQueuePair::m_planeLeadLimit),
                MakeDoubleChecker<double>(0.0, 64.0))
            .AddAttribute(
                "AlwaysSkipFactor",
                "A SACK echoing ALWAYS_SKIP (persistent marking on the EV; the brief: stop "
                "using the EV) puts the EV in SKIP this many times longer than SKIP_ONCE "
                "does, and echoes that keep coming escalate a SKIP up to this (32: about 300 "
                "us at a 9.4 us base RTT) [open].",
                UintegerValue(32),
                MakeUintegerAccessor(&MrcQueuePair::m_alwaysSkipFactor),
                MakeUintegerChecker<uint32_t>(1, 1u << 16))
            .AddAttribute(
                "SkipEscalationRatio",
                "An echo escalates its EV's SKIP (doubling, ALWAYS_SKIP) only if the EV's recent "
                "marking rate is at least this many times the mean rate of the queue pair's "
                "other active EVs: the path is more loaded than the others (the brief's reading "
                "of a mark). When every path is marked alike, SKIPs stay one SKIP long, since "
                "longer ones would pile the load onto the few EVs left, which then overflow in "
                "turn (4: mrc-path-health links with 2 or 4 uplinks down from the start, "
                "0.97 of capacity against 0.94 with 2; 0: escalate on any path) [open].",
                DoubleValue(4.0),
                MakeDoubleAccessor(&MrcQueuePair::m_escalationRatio),
                MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "SkipReleaseRatio",
                "An escalated SKIP (doubled or ALWAYS_SKIP, longer than one SKIP; time-based "
                "SKIPs only) ends as soon as its EV's marking rate is no longer this many times "
                "the mean of the other active EVs of its plane: the load it shed has made the "
                "other paths as marked, so the plane's queues are better spread again than "
                "avoided. Without it, four queue pairs of one rack shed the same path for "
                "AlwaysSkipFactor SKIPs at once and overloaded the others meanwhile "
                "(mrc-path-health links at 128 EVs, seeds 1-10, 2 links down: 0.938 of "
                "capacity without the release, 0.955 with ratio 2) [open]. 0: escalated SKIPs "
                "run their course.",
                DoubleValue(2.0),
                MakeDoubleAccessor(&MrcQueuePair::m_skipReleaseRatio),
                MakeDoubleChecker<double>(0.0))
            .AddAttribute("MarkRateGain",
                          "Weight of one SACK's feedback (marked or not) in its EV's marking "
                          "rate, the moving average SkipEscalationRatio compares [open].",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&MrcQueuePair::m_markRateGain),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("AlwaysSkipMarks",
                          "Receiver: echo ALWAYS_SKIP instead of SKIP_ONCE when this many data "
                          "packets in a row on one EV arrived CE-marked (0: never) [open].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MrcQueuePair::m_alwaysSkipMarks),
                          MakeUintegerChecker<uint32_t>(0, 1u << 16))
            .AddAttribute("RestoreHoldDown",
                          "Dampening: hold-down of an EV retired again within FlapWindow of its "
                          "restoration; it doubles on each such flap, up to RestoreHoldDownMax "
                          "(0: 2 x ProbeInterval) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_holdDown),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RestoreHoldDownMax",
                          "Dampening: the largest hold-down (0: 128 x ProbeInterval) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_holdDownMax),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlapWindow",
                          "Dampening: a retirement this soon after a restoration is a flap; each "
                          "such span an EV stays healthy halves its hold-down (0: 32 x "
                          "ProbeInterval) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_flapWindow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FullSizeProbes",
                          "Restoration probes carry Mss bytes of padding, so that a path that "
                          "loses or trims large packets fails its probes as it fails data.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcQueuePair::m_fullSizeProbes),
                          MakeBooleanChecker())
            .AddAttribute("RestoreProbesPerRound",
                          "Restoration probes per ProbeInterval at most, over the paths of "
                          "retired EVs in turn, one probe a path (0: every such path each "
                          "round). Full-size probes of many retired paths would otherwise crowd "
                          "the data out of the NIC [open].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MrcQueuePair::m_probesPerRound),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RestoreProbeBackoffMax",
                          "A retired EV whose restoration probes keep failing is probed every "
                          "2, 4, ... rounds, up to this many ProbeIntervals between its probes: "
                          "1..1024 (1: no backoff). A path gets one probe a round at most, taken "
                          "by one of its retired EVs in turn, so a path of n retired EVs is "
                          "probed about min(1, n / this) times a round: a larger cap lightens "
                          "the full-size probes a dead path takes, and finds a repaired path "
                          "later. Default 8 [open].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcQueuePair::m_probeBackoffMax),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("AckTimeoutExponent",
                          "QP timeout = 1.024 us x 2^t without progress of the cumulative "
                          "acknowledgement.",
                          UintegerValue(14),
                          MakeUintegerAccessor(&MrcQueuePair::m_ackTimeoutExponent),
                          MakeUintegerChecker<uint32_t>(1, 31))
            .AddAttribute("RetryCount",
                          "QP timeouts in a row tolerated before the QP fails.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&MrcQueuePair::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("SackBytes",
                          "Receiver: payload bytes placed per SACK (SACK coalescing; 0: a SACK per "
                          "data packet). ECN-marked packets, duplicates and message ends are "
                          "acknowledged at once. Default: the 16 KiB of the UEC reference "
                          "simulator.",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&MrcQueuePair::m_sackBytes),
                          MakeUintegerChecker<uint32_t>(0, 1u << 20))
            .AddAttribute("SackDelay",
                          "Receiver: longest wait of a SACK owed for fewer than SackBytes (0: the "
                          "time SackBytes take at the port's line rate).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcQueuePair::m_sackDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReceiveBitmapPsns",
                          "Receiver: PSNs beyond the cumulative PSN the NIC can track; a data "
                          "packet further ahead (but inside the PSN window) is refused with NACK "
                          "NO_BITMAP (0: the whole PSN window, MaxOutstandingPsns).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcQueuePair::m_bitmapPsns),
                          MakeUintegerChecker<uint32_t>(0, 1u << 22))
            .AddAttribute("WindowPenalty",
                          "Receiver window penalty advertised in SACKs (0: none).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcQueuePair::m_windowPenalty),
                          MakeUintegerChecker<uint8_t>(0, 127))
            .AddAttribute("DataDscp",
                          "DSCP of data packets.",
                          UintegerValue(MrcDscp::kData),
                          MakeUintegerAccessor(&MrcQueuePair::m_dataDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("RetransmitDscp",
                          "DSCP of retransmitted data packets (still trimmable).",
                          UintegerValue(MrcDscp::kRetransmit),
                          MakeUintegerAccessor(&MrcQueuePair::m_rtxDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("ControlDscp",
                          "DSCP of SACK, NACK and probe packets.",
                          UintegerValue(MrcDscp::kControl),
                          MakeUintegerAccessor(&MrcQueuePair::m_controlDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedDscp",
                          "DSCP that marks a packet trimmed in the fabric.",
                          UintegerValue(MrcDscp::kTrimmed),
                          MakeUintegerAccessor(&MrcQueuePair::m_trimmedDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedLastHopDscp",
                          "DSCP that marks a packet trimmed at the last hop.",
                          UintegerValue(MrcDscp::kTrimmedLastHop),
                          MakeUintegerAccessor(&MrcQueuePair::m_trimmedLastHopDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddTraceSource("Tx",
                            "A data packet is sent: packet, PSN, EV, retransmission.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_txTrace),
                            "ns3::MrcQueuePair::TxTracedCallback")
            .AddTraceSource("Rx",
                            "A data packet is placed: packet, PSN, EV.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_rxTrace),
                            "ns3::MrcQueuePair::RxTracedCallback")
            .AddTraceSource("Retransmit",
                            "A PSN is queued for retransmission: PSN, EV, cause.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_rtxTrace),
                            "ns3::MrcQueuePair::RetransmitTracedCallback")
            .AddTraceSource("NackReceived",
                            "A NACK arrived: PSN, code.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_nackTrace),
                            "ns3::MrcQueuePair::NackTracedCallback")
            .AddTraceSource("EvStateChange",
                            "An EV changed state: EV, old, new, cause.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_evTrace),
                            "ns3::MrcQueuePair::EvStateTracedCallback")
            .AddTraceSource("CwndChange",
                            "The congestion window (bytes).",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_cwnd),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("RttSample",
                            "An RTT sample from a SACK's reflected timestamp.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_rttTrace),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("MessagePosted",
                            "Sender: a message was posted: MSN, bytes.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_postedTrace),
                            "ns3::MrcQueuePair::MessageTracedCallback")
            .AddTraceSource("FirstByteSent",
                            "Sender: a message's first packet left: MSN, bytes of that packet.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_firstSentTrace),
                            "ns3::MrcQueuePair::MessageTracedCallback")
            .AddTraceSource("MessageComplete",
                            "Sender: the peer acknowledged a message's last byte: MSN, bytes.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_completeTrace),
                            "ns3::MrcQueuePair::MessageTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "Receiver: a message arrived whole: MSN, bytes.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_deliveredTrace),
                            "ns3::MrcQueuePair::MessageTracedCallback")
            .AddTraceSource("QpError",
                            "The QP failed: reason.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_errorTrace),
                            "ns3::MrcQueuePair::ErrorTracedCallback")
            .AddTraceSource("CnpSent",
                            "Receiver: a CNP left for a CE-marked data packet: its EV.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_cnpSentTrace),
                            "ns3::MrcQueuePair::CnpTracedCallback")
            .AddTraceSource("CnpReceived",
                            "Sender: a CNP arrived: its EV.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_cnpReceivedTrace),
                            "ns3::MrcQueuePair::CnpTracedCallback");
    return tid;
}

} // namespace ns3
