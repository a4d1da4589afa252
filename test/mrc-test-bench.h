/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared fixture of the transport test suites: a fabric with MRC installed, and messages of
 * random bytes posted into a registered region of the receiver.
 */

#ifndef MRC_TEST_BENCH_H
#define MRC_TEST_BENCH_H

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace mrctest
{

/// A fabric with MRC installed and a log of what the queue pairs did.
struct Bench
{
    Ptr<MrcFabricTopology> topo;                      //!< fabric
    MrcDataPlaneHelper dataPlane;                     //!< data plane
    std::unique_ptr<MrcHelper> mrc;                   //!< transport
    std::map<uint32_t, uint32_t> delivered;           //!< MSN -> times delivered
    std::map<uint32_t, uint32_t> completed;           //!< MSN -> times completed
    std::map<uint32_t, std::optional<uint32_t>> imms; //!< MSN -> immediate
    std::vector<std::string> errors;                  //!< QP errors

    /**
     * \param spec fabric shape
     * \param trimming switch ports trim (else drop-tail FIFO)
     * \param plane data plane
     */
    Bench(const MrcClosSpec& spec, bool trimming, MrcDataPlane plane = MrcDataPlane::SRV6)
    {
        MrcClosTopologyHelper helper;
        if (trimming)
        {
            helper.SetTrimmingQueues();
        }
        topo = helper.Build(spec);
        dataPlane.SetDataPlane(plane);
        dataPlane.Install(topo);
        mrc = std::make_unique<MrcHelper>(topo, dataPlane);
        mrc->Install();
    }

    /**
     * Connect hosts and hook the callbacks of the sending end.
     * \param a sender host
     * \param b receiver host
     * \return the two ends
     */
    std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>> Connect(uint32_t a, uint32_t b)
    {
        auto qps = mrc->Connect(a, b);
        qps.first->SetSendCompleteCallback(MakeCallback(&Bench::OnComplete, this));
        qps.second->SetReceiveCallback(MakeCallback(&Bench::OnDelivered, this));
        qps.first->SetErrorCallback(MakeCallback(&Bench::OnError, this));
        return qps;
    }

    /// \param msn completed message
    void OnComplete(uint32_t msn)
    {
        completed[msn]++;
    }

    /**
     * \param msn delivered message
     * \param bytes its size
     * \param imm its immediate
     */
    void OnDelivered(uint32_t msn, uint64_t bytes, std::optional<uint32_t> imm)
    {
        delivered[msn]++;
        imms[msn] = imm;
    }

    /// \param reason QP error
    void OnError(std::string reason)
    {
        errors.push_back(reason);
    }

    ~Bench()
    {
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * Post messages of random sizes with random bytes into distinct regions of the receiver.
 * \param a sender
 * \param b receiver
 * \param sizes message sizes
 * \param seed byte pattern seed
 * \return the expected receiver memory
 */
inline std::shared_ptr<std::vector<uint8_t>>
PostRandom(Ptr<MrcQueuePair> a,
           Ptr<MrcQueuePair> b,
           const std::vector<uint64_t>& sizes,
           uint32_t seed,
           std::shared_ptr<std::vector<uint8_t>>& region)
{
    uint64_t total = 0;
    for (uint64_t s : sizes)
    {
        total += s;
    }
    region = std::make_shared<std::vector<uint8_t>>(total, 0);
    auto expected = std::make_shared<std::vector<uint8_t>>(total, 0);
    b->RegisterMemory(0x10000, region);
    std::mt19937 gen(seed);
    uint64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i)
    {
        auto data = std::make_shared<std::vector<uint8_t>>(sizes[i]);
        for (auto& byte : *data)
        {
            byte = static_cast<uint8_t>(gen());
        }
        std::copy(data->begin(), data->end(), expected->begin() + offset);
        a->PostWrite(sizes[i],
                     0x10000 + offset,
                     7,
                     (i % 3 == 0) ? std::optional<uint32_t>(1000 + i) : std::nullopt,
                     data);
        offset += sizes[i];
    }
    return expected;
}

/**
 * \param call a call expected to refuse its input
 * \return the message of the std::invalid_argument it throws ("" if none)
 */
inline std::string
InvalidArgumentOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * Make a device drop a share of the packets it receives (ns-3's RateErrorModel, per packet).
 * \param device the receiving NetDevice
 * \param rate share of packets dropped (1: black hole)
 * \param enabled start enabled (else call Enable() later, e.g. from a scheduled event)
 * \return the error model
 */
inline Ptr<RateErrorModel>
DropPackets(Ptr<NetDevice> device, double rate, bool enabled = true)
{
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorRate", DoubleValue(rate));
    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    if (!enabled)
    {
        em->Disable();
    }
    device->SetAttribute("ReceiveErrorModel", PointerValue(em));
    return em;
}

/**
 * Black-hole every uplink of a T0 (DropPackets at rate 1 on the T1 end of each T0-T1 link),
 * so whatever path a flow from that T0 takes, it is lost.
 * \param topo the fabric
 * \param t0 a T0 switch
 */
inline void
BlackholeUplinks(const MrcFabricTopology& topo, Ptr<Node> t0)
{
    for (const MrcFabricLink& l : topo.GetLinksOf(t0))
    {
        if (l.tier == MrcLinkTier::T0_T1)
        {
            DropPackets(l.upperDevice, 1.0);
        }
    }
}

/**
 * Leave T0 p0-t0-0 without a way up: withdraw its only uplink (to p0-t1-0) from its ECMP table,
 * so that every packet it should send up is a NO_ROUTE routing drop. For an ECMP fabric with one
 * T1 per plane.
 * \param topo the fabric
 * \return the T0's ECMP routing
 */
inline Ptr<MrcIpv6EcmpRouting>
WithdrawOnlyUplink(const MrcFabricTopology& topo)
{
    Ptr<Node> t0 = Names::Find<Node>("p0-t0-0");
    Ptr<MrcIpv6EcmpRouting> routing = MrcEcmpRoutingHelper::GetRouting(t0);
    const MrcFabricLink up = topo.GetLinksBetween(t0, Names::Find<Node>("p0-t1-0")).at(0);
    routing->WithdrawNextHop(up.lowerInterface);
    return routing;
}

/// When each EV of a queue pair was first retired and when it came back (EvStateChange).
struct EvStateLog
{
    std::map<uint32_t, Time> bad;  //!< first retirement (ASSUMED_BAD) of each EV
    std::map<uint32_t, Time> good; //!< return (ASSUMED_BAD -> GOOD) of each EV

    /// \param qp the queue pair to follow
    void Follow(Ptr<MrcQueuePair> qp)
    {
        qp->TraceConnectWithoutContext("EvStateChange", MakeCallback(&EvStateLog::OnEv, this));
    }

    /**
     * \param ev EV
     * \param from old state
     * \param to new state
     * \param cause why
     */
    void OnEv(uint32_t ev, MrcEvState from, MrcEvState to, std::string cause)
    {
        if (to == MrcEvState::ASSUMED_BAD && !bad.count(ev))
        {
            bad[ev] = Simulator::Now();
        }
        if (from == MrcEvState::ASSUMED_BAD && to == MrcEvState::GOOD)
        {
            good[ev] = Simulator::Now();
        }
    }
};

/**
 * A 4-to-1 incast across racks on a TwoTier(2, 2, 4, 2) bench: hosts 4-7 each write 400 kB and
 * 90 kB of random bytes into host 0, with fixed RNG streams (automatic ones keep counting
 * across runs in one process), so that two runs in one process are comparable.
 */
struct FourToOneIncast
{
    /// Completion times (ns) of the senders' messages, in completion order.
    std::vector<int64_t> doneNs;
    /// What the receiver's regions must hold, per sender.
    std::vector<std::shared_ptr<std::vector<uint8_t>>> expected;
    /// The receiver's regions, per sender.
    std::vector<std::shared_ptr<std::vector<uint8_t>>> regions{4};

    /**
     * Connect the senders and post their messages (call before Simulator::Run).
     * \param b the bench
     */
    void Post(Bench& b)
    {
        int64_t stream = 100 + MrcClosTopologyHelper::AssignStreams(b.topo, 100);
        for (uint32_t s = 0; s < 4; ++s)
        {
            auto qps = b.Connect(4 + s, 0);
            stream += qps.first->AssignStreams(stream);
            stream += qps.second->AssignStreams(stream);
            qps.first->SetSendCompleteCallback(
                MakeBoundCallback(&FourToOneIncast::RecordDone, &doneNs));
            expected.push_back(
                PostRandom(qps.first, qps.second, {400000, 90000}, 7 + s, regions[s]));
        }
    }

    /// \return true if every region holds exactly its sender's bytes
    bool BytesOk() const
    {
        for (uint32_t s = 0; s < regions.size(); ++s)
        {
            if (!regions[s] || s >= expected.size() || *regions[s] != *expected[s])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * A message completed.
     * \param times where to record it
     * \param msn its message sequence number
     */
    static void RecordDone(std::vector<int64_t>* times, uint32_t msn)
    {
        times->push_back(Simulator::Now().GetNanoSeconds());
    }
};

/**
 * \param node a switch
 * \return packets trimmed by the MrcTrimmingQueueDisc root queue discs of its ports
 */
inline uint64_t
SwitchTrims(Ptr<Node> node)
{
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    uint64_t trims = 0;
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<MrcTrimmingQueueDisc> q =
            DynamicCast<MrcTrimmingQueueDisc>(tc->GetRootQueueDiscOnDevice(node->GetDevice(d)));
        trims += q ? q->GetTrimStats().trimmed : 0;
    }
    return trims;
}

} // namespace mrctest
} // namespace ns3

#endif /* MRC_TEST_BENCH_H */
