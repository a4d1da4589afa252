/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-qp-stats.h"
#include "ns3/mrc-spray-path-selection.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
/// A spraying policy on two planes of 8 active EVs each (10..17 and 20..27, one path each),
/// SKIPs in time (10 us); the simulator clock stays at 0, so no SKIP ends.
struct TwoPlanes
{
    MrcQpStats stats;
    Ptr<MrcSprayPathSelection> policy = CreateObject<MrcSprayPathSelection>();

    /// \param skipAcrossPlanes the SkipAcrossPlanes attribute
    explicit TwoPlanes(bool skipAcrossPlanes = true)
    {
        MrcPathSelection::Config c;
        for (uint32_t p = 0; p < 2; ++p)
        {
            c.evsPerPlane.emplace_back();
            for (uint32_t i = 0; i < 8; ++i)
            {
                c.evsPerPlane.back().push_back(10 * (p + 1) + i);
            }
        }
        c.resolver = [](uint32_t ev) {
            MrcWirePath w;
            w.ev = ev;
            w.plane = ev / 10 - 1;
            w.carriers.push_back(Ipv6Address(("2001:db8::" + std::to_string(ev)).c_str()));
            return w;
        };
        c.evSetSize = 16;
        c.baseRtt = MicroSeconds(10);
        c.skipTime = MicroSeconds(10);
        c.skipMemory = MicroSeconds(80);
        c.probeInterval = MicroSeconds(40);
        c.lossTimeout = MicroSeconds(80);
        c.skipAcrossPlanes = skipAcrossPlanes;
        MrcPathSelection::Hooks h;
        h.stateChange = [](uint32_t, MrcEvState, MrcEvState, const std::string&) {};
        h.prober.sendProbe = [](uint32_t, Ptr<Packet>) {};
        h.prober.onlyReceiving = [] {
            return false;
        };
        h.prober.restored = [] {};
        policy->Start(c, h, stats, CreateObject<UniformRandomVariable>());
    }

    ~TwoPlanes()
    {
        policy->Stop();
        Simulator::Destroy();
    }

    /**
     * Send n packets the way the queue pair's Kick does when every NIC port is free: the
     * first plane of the policy's order that yields an EV takes the packet.
     * \param n packets
     * \return packets per plane
     */
    std::vector<uint32_t> Send(uint32_t n)
    {
        std::vector<uint32_t> perPlane(2, 0);
        std::vector<uint32_t> order;
        for (uint32_t i = 0; i < n; ++i)
        {
            policy->OrderPlanes(order);
            for (uint32_t p : order)
            {
                if (policy->NextData(p))
                {
                    perPlane[p]++;
                    break;
                }
            }
        }
        return perPlane;
    }
};
} // namespace

TEST(MrcSprayPathSelection, AWindowOpeningOnePacketAtATimeAlternatesThePlanes)
{
    // Kick asked plane 0 first every time, so a window-limited queue pair put every packet on
    // plane 0 and left plane 1 idle (mrc-path-health --experiment=links: 40 us queues on
    // plane 0 beside an empty plane 1).
    TwoPlanes t;
    std::vector<uint32_t> order;
    t.policy->OrderPlanes(order);
    EXPECT_EQ(order.size(), 2u);
    std::vector<uint32_t> sequence;
    for (int i = 0; i < 6; ++i)
    {
        t.policy->OrderPlanes(order);
        ASSERT_TRUE(t.policy->NextData(order[0]));
        sequence.push_back(order[0]);
    }
    EXPECT_TRUE(sequence == (std::vector<uint32_t>{0, 1, 0, 1, 0, 1})
                || sequence == (std::vector<uint32_t>{1, 0, 1, 0, 1, 0}));
    EXPECT_EQ(t.Send(100), (std::vector<uint32_t>{50, 50}));
}

TEST(MrcSprayPathSelection, PlanesShareThePacketsInProportionToTheirGoodEvs)
{
    // As a rotation over all 16 EVs that passes over SKIP ones: 2 GOOD EVs on plane 0 and 8
    // on plane 1 give plane 0 a fifth of the packets.
    TwoPlanes t;
    for (uint32_t ev = 10; ev < 16; ++ev)
    {
        t.policy->OnEcnEcho(ev, false);
    }
    const std::vector<uint32_t> got = t.Send(100);
    EXPECT_EQ(got[0], 20u);
    EXPECT_EQ(got[1], 80u);
}

TEST(MrcSprayPathSelection, APlaneOfSkipEvsYieldsToAPlaneWithAGoodOne)
{
    TwoPlanes t;
    for (uint32_t ev = 10; ev < 18; ++ev)
    {
        t.policy->OnEcnEcho(ev, false);
    }
    EXPECT_FALSE(t.policy->NextData(0)) << "plane 1 has GOOD EVs: plane 0 sends nothing";
    EXPECT_TRUE(t.policy->NextData(1));
    EXPECT_EQ(t.Send(10), (std::vector<uint32_t>{0, 10}));
    // Everything in SKIP: each plane uses its SKIP EVs again.
    for (uint32_t ev = 20; ev < 28; ++ev)
    {
        t.policy->OnEcnEcho(ev, false);
    }
    EXPECT_TRUE(t.policy->NextData(0));
    EXPECT_TRUE(t.policy->NextData(1));

    TwoPlanes off(false);
    for (uint32_t ev = 10; ev < 18; ++ev)
    {
        off.policy->OnEcnEcho(ev, false);
    }
    const std::optional<uint32_t> ev = off.policy->NextData(0);
    ASSERT_TRUE(ev) << "SkipAcrossPlanes false: the plane's SKIP EVs are used";
    EXPECT_EQ(off.policy->GetPathSet().GetState(*ev), MrcEvState::SKIP);
}

namespace
{
/// A policy that keeps MrcPathSelection's default rotation (3 active EVs per plane).
class DefaultRotation : public MrcPathSelection
{
  public:
    void Start(const Config& config,
               const Hooks& hooks,
               MrcQpStats& /* stats */,
               Ptr<UniformRandomVariable> /* rng */) override
    {
        SetResolver(config.resolver);
        MakePathSet(config.evsPerPlane, 3, hooks.stateChange);
    }

    /// \return the EV set, to change states as a policy's rules would
    MrcPathSet& Set()
    {
        return *m_pathSet;
    }
};
} // namespace

TEST(MrcPathSelection, DefaultNextDataTakesGoodEvsInTurnThenSkipOnes)
{
    MrcQpStats stats;
    Ptr<DefaultRotation> policy = CreateObject<DefaultRotation>();
    MrcPathSelection::Config c;
    c.evsPerPlane = {{10, 11, 12, 13}, {20, 21, 22}};
    std::vector<std::string> causes;
    MrcPathSelection::Hooks h;
    h.stateChange = [&causes](uint32_t, MrcEvState, MrcEvState, const std::string& cause) {
        causes.push_back(cause);
    };
    policy->Start(c, h, stats, nullptr);
    auto take = [&policy](uint32_t plane, int n) {
        std::vector<uint32_t> got;
        for (int i = 0; i < n; ++i)
        {
            got.push_back(*policy->NextData(plane));
        }
        return got;
    };
    EXPECT_EQ(take(0, 4), (std::vector<uint32_t>{10, 11, 12, 10}));
    policy->Set().SetState(11, MrcEvState::SKIP, "test");
    EXPECT_EQ(take(0, 4), (std::vector<uint32_t>{12, 10, 12, 10})) << "SKIP passed over";
    EXPECT_EQ(policy->Set().GetState(11), MrcEvState::SKIP) << "the default ends no SKIP";
    policy->Set().SetState(10, MrcEvState::SKIP, "test");
    policy->Set().SetState(12, MrcEvState::SKIP, "test");
    EXPECT_EQ(take(0, 2), (std::vector<uint32_t>{11, 11})) << "no GOOD EV: the first SKIP one";
    policy->Deny(11);
    EXPECT_EQ(policy->GetPathSet().GetActive(0), (std::vector<uint32_t>{10, 12, 13}));
    EXPECT_EQ(take(0, 1), (std::vector<uint32_t>{13})) << "the backup that took 11's place";
    policy->SetPlaneEnabled(0, false);
    EXPECT_FALSE(policy->NextData(0).has_value());
    EXPECT_EQ(take(1, 3), (std::vector<uint32_t>{20, 21, 22}));
    EXPECT_EQ(causes, (std::vector<std::string>{"test", "test", "test", "denylist"}));
    policy->Dispose();
}
