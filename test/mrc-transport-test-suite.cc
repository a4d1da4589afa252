/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MRC transport end to end: exactly-once, byte-exact delivery of many messages of random
 * sizes under random loss, trimming and failures; EV retirement on a black-holed link within
 * a bounded number of RTTs and return through probes; QP failure only when every path is gone.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <map>
#include <memory>
#include <random>

using namespace ns3;

namespace
{

/// A fabric with MRC installed and a log of what the queue pairs did.
struct Bench
{
    Ptr<FabricTopology> topo;                         //!< fabric
    DataPlaneHelper dataPlane;                        //!< data plane
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
    Bench(const ClosSpec& spec, bool trimming, DataPlane plane = DataPlane::SRV6)
    {
        ClosTopologyHelper helper;
        if (trimming)
        {
            TrafficControlHelper fabric;
            fabric.SetRootQueueDisc("ns3::TrimmingQueueDisc");
            TrafficControlHelper lastHop;
            lastHop.SetRootQueueDisc("ns3::TrimmingQueueDisc",
                                     "LastHop",
                                     BooleanValue(true),
                                     "EcnEnabled",
                                     BooleanValue(false));
            helper.SetQueueDisc(PortRole::FABRIC, fabric);
            helper.SetQueueDisc(PortRole::HOST_FACING, lastHop);
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
std::shared_ptr<std::vector<uint8_t>>
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

} // namespace

/**
 * \ingroup mrc-test
 * Messages of random sizes arrive exactly once and byte for byte; the QP sprays over its EVs.
 */
class MrcDeliveryTestCase : public TestCase
{
  public:
    /**
     * \param name name
     * \param plane data plane
     * \param lossRate random loss on every fabric link (0: none)
     * \param trimming trimming switches
     */
    MrcDeliveryTestCase(std::string name, DataPlane plane, double lossRate, bool trimming)
        : TestCase(name)
        , m_plane(plane)
        , m_lossRate(lossRate)
        , m_trimming(trimming)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        Bench b(ClosSpec::TwoTier(2, 2, 2, 2, 4), m_trimming, m_plane);
        if (m_lossRate > 0)
        {
            for (const FabricLink& l : b.topo->GetLinks())
            {
                if (l.tier != LinkTier::T0_T1)
                {
                    continue;
                }
                for (Ptr<NetDevice> d : {l.lowerDevice, l.upperDevice})
                {
                    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                    em->SetAttribute("ErrorRate", DoubleValue(m_lossRate));
                    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                    d->SetAttribute("ReceiveErrorModel", PointerValue(em));
                }
            }
        }
        auto [a, r] = b.Connect(0, 3);
        std::mt19937 gen(11);
        std::vector<uint64_t> sizes{1, 0, 4096, 4097, 3 * 1024 * 1024};
        for (int i = 0; i < 20; ++i)
        {
            sizes.push_back(1 + gen() % 300000);
        }
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, sizes, 3, region);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < sizes.size(); ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
            NS_TEST_ASSERT_MSG_EQ(b.completed[msn], 1u, "message " << msn << " completed once");
            NS_TEST_ASSERT_MSG_EQ(
                (b.imms[msn]
                 == (msn % 3 == 0 ? std::optional<uint32_t>(1000 + msn) : std::nullopt)),
                true,
                "immediate of " << msn);
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(a->GetPendingMessages(), 0u, "nothing pending");
        const auto& st = a->GetStats();
        if (m_lossRate > 0)
        {
            NS_TEST_ASSERT_MSG_GT(st.retransmissions, 0u, "losses were repaired");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(st.retransmissions, 0u, "healthy fabric: no retransmission");
        }
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsReceived,
                              st.dataPacketsSent,
                              "each PSN once");
    }

    DataPlane m_plane; //!< data plane
    double m_lossRate; //!< random loss
    bool m_trimming;   //!< trimming
};

/**
 * \ingroup mrc-test
 * The transport test suite.
 */
class MrcTransportTestSuite : public TestSuite
{
  public:
    MrcTransportTestSuite()
        : TestSuite("mrc-transport", Type::UNIT)
    {
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, SRv6, healthy",
                                            DataPlane::SRV6,
                                            0,
                                            true));
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, ECMP mode, healthy",
                                            DataPlane::ECMP,
                                            0,
                                            true));
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, SRv6, 2% random loss",
                                            DataPlane::SRV6,
                                            0.02,
                                            true));
    }
};

/// The suite's single instance.
static MrcTransportTestSuite g_mrcTransportTestSuite;
