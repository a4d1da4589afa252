/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How a queue pair assembles itself when it connects: its policies (made from their TypeIds
// and factories), send queue, path set and receiver, and the window sized from the NIC. Apart
// from the data path (mrc-queue-pair.cc) so that each file stays short.

#include "mrc-l4-protocol.h"
#include "mrc-queue-pair.h"
#include "mrc-wire-size.h"

#include "ns3/object-factory.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \param tid a policy's TypeId
 * \param attribute the attribute that named it
 * \param factories factories with attributes (the one of type tid, if any, makes it)
 * \return a new instance
 * \throws std::invalid_argument if tid cannot be created or is not a T
 */
template<typename T>
Ptr<T>
MakePolicy(TypeId tid, const std::string& attribute, const std::vector<ObjectFactory>& factories)
{
    ObjectFactory factory(tid.GetName());
    for (const ObjectFactory& f : factories)
    {
        if (f.GetTypeId() == tid)
        {
            factory = f;
        }
    }
    Ptr<T> policy = tid.HasConstructor() ? factory.Create<T>() : nullptr;
    if (!policy)
    {
        throw std::invalid_argument("MrcQueuePair: " + attribute + " (=" + tid.GetName()
                                    + ") is not an " + T::GetTypeId().GetName());
    }
    return policy;
}

} // namespace

void
MrcQueuePair::SetPolicyFactory(const ObjectFactory& factory)
{
    auto same = std::find_if(m_policyFactories.begin(),
                             m_policyFactories.end(),
                             [&factory](const ObjectFactory& f) {
                                 return f.GetTypeId() == factory.GetTypeId();
                             });
    if (same != m_policyFactories.end())
    {
        *same = factory;
        return;
    }
    m_policyFactories.push_back(factory);
}

int64_t
MrcQueuePair::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

MrcQueuePair::~MrcQueuePair() = default;

void
MrcQueuePair::Connect(uint32_t remoteQpn,
                      const std::vector<std::vector<uint32_t>>& evsPerPlane,
                      MrcPathResolver resolver,
                      Time baseRtt,
                      uint32_t firstPsn,
                      uint32_t peerFirstPsn)
{
    if (m_maxOutstanding % 128 != 0)
    {
        throw std::invalid_argument("MrcQueuePair: MaxOutstandingPsns (="
                                    + std::to_string(m_maxOutstanding)
                                    + ") must be a multiple of 128 (or 0: sized automatically)");
    }
    if (evsPerPlane.empty())
    {
        throw std::invalid_argument("MrcQueuePair: no plane to send on");
    }
    m_remoteQpn = remoteQpn;
    m_baseRtt = baseRtt;
    const uint32_t planes = evsPerPlane.size();
    m_peerPlaneDown.assign(planes, false);
    m_localPlaneDown.assign(planes, false);
    if (m_lossTimeout.IsZero())
    {
        m_lossTimeout = baseRtt * m_lossTimeoutRtts;
    }
    if (m_maxOutstanding == 0)
    {
        m_maxOutstanding = AutoWindow(evsPerPlane, baseRtt);
    }
    m_sendQueue = std::make_unique<MrcSendQueue>(m_maxOutstanding, m_mss, firstPsn);
    m_cc = MakePolicy<MrcCongestionOps>(m_ccType, "CongestionControl", m_policyFactories);
    m_paths = MakePolicy<MrcPathSelection>(m_pathSelectionType, "PathSelection", m_policyFactories);
    m_recovery = MakePolicy<MrcLossRecovery>(m_lossRecoveryType, "LossRecovery", m_policyFactories);
    if (m_probeInterval.IsZero())
    {
        m_probeInterval = baseRtt * 4;
    }
    MrcPathSelection::Config pc;
    pc.evsPerPlane = evsPerPlane;
    pc.resolver = std::move(resolver);
    pc.qpn = m_qpn;
    pc.evSetSize = m_evSetSize;
    pc.probeSuccesses = m_probeSuccesses;
    pc.skipRotations = m_skipRotations;
    pc.skipTime = m_skipTime.IsZero() ? std::max(baseRtt, RotationTime(evsPerPlane)) : m_skipTime;
    pc.skipMemory = m_skipMemory;
    pc.skipAcrossPlanes = m_skipAcrossPlanes;
    pc.planeLeadLimit = m_planeLeadLimit;
    pc.mss = m_mss;
    pc.portRate = m_l4->GetPort(0)->GetRate();
    pc.baseRtt = baseRtt;
    pc.probeInterval = m_probeInterval;
    pc.lossTimeout = m_lossTimeout;
    pc.alwaysSkipFactor = m_alwaysSkipFactor;
    pc.escalationRatio = m_escalationRatio;
    pc.markRateGain = m_markRateGain;
    pc.skipReleaseRatio = m_skipReleaseRatio;
    pc.holdDown = m_holdDown.IsZero() ? m_probeInterval * 2 : m_holdDown;
    pc.holdDownMax = m_holdDownMax.IsZero() ? m_probeInterval * 128 : m_holdDownMax;
    pc.flapWindow = m_flapWindow.IsZero() ? m_probeInterval * 32 : m_flapWindow;
    pc.probeBytes = m_fullSizeProbes ? m_mss : 0;
    pc.probesPerRound = m_probesPerRound;
    pc.probeBackoffMax = m_probeBackoffMax;
    MrcPathSelection::Hooks ph;
    ph.stateChange = [this](uint32_t ev, MrcEvState from, MrcEvState to, const std::string& cause) {
        OnEvStateChange(ev, from, to, cause);
    };
    ph.prober.sendProbe = [this](uint32_t ev, Ptr<Packet> body) {
        SendProbe(ev, body);
    };
    ph.prober.onlyReceiving = [this]() {
        return OnlyReceiving();
    };
    ph.prober.restored = [this]() {
        Kick();
    };
    m_paths->Start(pc, ph, m_stats, m_rng);
    const uint32_t mtu = MrcDataWireBytes(m_mss);
    // The rate of every NIC port the QP sends on (MRC sprays over all planes).
    uint64_t nicRate = 0;
    for (uint32_t p = 0; p < m_l4->GetPortCount(); ++p)
    {
        nicRate += m_paths->UsesPlane(p) ? m_l4->GetPort(p)->GetRate().GetBitRate() : 0;
    }
    m_cc->Init(m_mss, mtu, DataRate(nicRate), baseRtt);
    m_cwnd = m_cc->GetWindow();
    StartPolicies(peerFirstPsn);
}

uint64_t
MrcQueuePair::SendingRate(const std::vector<std::vector<uint32_t>>& evsPerPlane) const
{
    uint64_t nicRate = 0;
    for (uint32_t p = 0; p < evsPerPlane.size() && p < m_l4->GetPortCount(); ++p)
    {
        nicRate += evsPerPlane[p].empty() ? 0 : m_l4->GetPort(p)->GetRate().GetBitRate();
    }
    return nicRate;
}

Time
MrcQueuePair::RotationTime(const std::vector<std::vector<uint32_t>>& evsPerPlane) const
{
    const uint64_t nicRate = SendingRate(evsPerPlane);
    if (nicRate == 0)
    {
        return Time(0);
    }
    return DataRate(nicRate).CalculateBytesTxTime(MrcDataWireBytes(m_mss)) * int64_t(m_evSetSize);
}

uint32_t
MrcQueuePair::AutoWindow(const std::vector<std::vector<uint32_t>>& evsPerPlane, Time baseRtt) const
{
    const uint64_t nicRate = SendingRate(evsPerPlane);
    const Time hold =
        m_windowRecoveryTime.IsZero() ? m_lossTimeout + baseRtt * 2 : m_windowRecoveryTime;
    const double packets = std::ceil(nicRate / 8.0 * hold.GetSeconds() / m_mss);
    const uint64_t units = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(packets / 128)));
    return static_cast<uint32_t>(std::min<uint64_t>(units * 128, 1u << 22));
}

void
MrcQueuePair::StartPolicies(uint32_t peerFirstPsn)
{
    MrcLossRecovery::Context lc;
    lc.sendQueue = m_sendQueue.get();
    lc.paths = PeekPointer(m_paths);
    lc.cc = PeekPointer(m_cc);
    lc.stats = &m_stats;
    lc.lossTimeout = m_lossTimeout;
    lc.baseRtt = m_baseRtt;
    lc.mss = m_mss;
    lc.qpTimeout = NanoSeconds(1024) * int64_t(1ULL << m_ackTimeoutExponent);
    lc.retryCount = m_retryCount;
    lc.kick = [this]() {
        m_cwnd = m_cc->GetWindow();
        Kick();
    };
    lc.retransmit = [this](uint32_t psn, uint32_t ev, const std::string& cause) {
        m_rtxTrace(psn, ev, cause);
    };
    lc.fail = [this](const std::string& reason) {
        Fail(reason);
    };
    lc.sendTailProbe = [this](uint32_t sequence) {
        SendTailProbe(sequence);
    };
    m_recovery->Start(lc);
    MrcQpReceiver::Config rc;
    rc.window = m_maxOutstanding;
    rc.bitmapPsns = m_bitmapPsns == 0 ? m_maxOutstanding : m_bitmapPsns;
    rc.sackBytes = m_sackBytes;
    rc.sackDelay = m_sackDelay.IsZero()
                       ? m_l4->GetPort(0)->GetRate().CalculateBytesTxTime(std::max(m_sackBytes, 1u))
                       : m_sackDelay;
    rc.windowPenalty = m_windowPenalty;
    rc.trimmedDscp = m_trimmedDscp;
    rc.trimmedLastHopDscp = m_trimmedLastHopDscp;
    rc.order = m_recovery->GetReceiveOrder();
    rc.cnpInterval = m_cc->GetCnpInterval();
    rc.alwaysSkipMarks = m_alwaysSkipMarks;
    MrcQpReceiver::Hooks rh;
    rh.sendControl =
        [this](Ptr<Packet> body, MrcOpcode opcode, uint32_t plane, std::optional<uint32_t> dataEv) {
            body->AddHeader(ControlBth(opcode));
            if (!dataEv || !SendOnMirror(body, *dataEv))
            {
                SendControl(body, plane);
            }
        };
    rh.portState = [this]() {
        return m_l4->GetPortStateBitmap();
    };
    rh.placed = [this](Ptr<const Packet> p, uint32_t psn, uint32_t ev) {
        m_rxTrace(p, psn, ev);
        m_paths->OnDataArrival();
    };
    rh.delivered = [this](uint32_t msn, uint64_t bytes, std::optional<uint32_t> imm) {
        OnDelivered(msn, bytes, imm);
    };
    rh.cnpSent = [this](uint32_t ev) {
        m_cnpSentTrace(ev);
    };
    m_receiver = std::make_unique<MrcQpReceiver>(rc, peerFirstPsn, rh, m_stats);
    for (auto& [va, region] : m_pendingMemory)
    {
        m_receiver->RegisterMemory(va, region);
    }
    m_pendingMemory.clear();
}

} // namespace ns3
