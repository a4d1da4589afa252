/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Writing your own policy: a path selection written only against the public interface
 * (MrcPathSelection), registered by TypeId and chosen from the command line, run against
 * MRC's own spraying on a fabric with one black-holed link.
 *
 * ExampleObliviousSpray sprays packets round robin over every candidate EV of a plane and
 * ignores all feedback (no ECN, trim or loss reaction, no EV retired): "oblivious" packet
 * spraying, the baseline papers compare path-aware spraying with. On the black-holed link it
 * keeps losing the packets it sends there, so loss recovery repairs them again and again;
 * MRC's spraying retires those EVs within a few RTTs.
 *
 *   mrc-custom-policy                                   # the example policy
 *   mrc-custom-policy --policy=ns3::MrcSprayPathSelection
 *   mrc-custom-policy --blackhole=false
 */

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief An example path-selection policy: round robin over a plane's EVs, blind to feedback.
 */
class ExampleObliviousSpray : public MrcPathSelection
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::ExampleObliviousSpray")
                                .SetParent<MrcPathSelection>()
                                .SetGroupName("Mrc")
                                .AddConstructor<ExampleObliviousSpray>();
        return tid;
    }

    void Start(const Config& config,
               const Hooks& hooks,
               MrcQpStats& stats,
               Ptr<UniformRandomVariable> rng) override
    {
        SetResolver(config.resolver);
        const uint32_t planes = config.evsPerPlane.size();
        const uint32_t perPlane = std::max<uint32_t>(1, config.evSetSize / planes);
        MakePathSet(config.evsPerPlane, perPlane, hooks.stateChange);
        m_cursor.assign(planes, 0);
    }

    std::optional<uint32_t> NextData(uint32_t plane) override
    {
        const std::vector<uint32_t>& evs = GetPathSet().GetActive(plane);
        if (evs.empty())
        {
            return std::nullopt;
        }
        m_lastDataPlane = plane;
        return evs[m_cursor[plane]++ % evs.size()];
    }

  private:
    std::vector<uint64_t> m_cursor; //!< per plane: packets sent
};

NS_OBJECT_ENSURE_REGISTERED(ExampleObliviousSpray);

} // namespace ns3

using namespace ns3;

namespace
{

/**
 * The message arrived: the run ends (restoration probes would otherwise go on hitting the
 * black hole until the 1 s limit).
 * \param done set to the delivery time
 * \param msn message number
 * \param bytes its size
 * \param imm its immediate data (none here)
 */
void
OnDelivered(Time* done, uint32_t msn, uint64_t bytes, std::optional<uint32_t> imm)
{
    *done = Simulator::Now();
    Simulator::Stop();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string policy = "ns3::ExampleObliviousSpray";
    uint64_t bytes = 4000000;
    bool blackhole = true;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "policy", "the path selection, a TypeId name", policy);
    strict.Add(cmd, "bytes", "bytes host 0 writes to the last host", bytes);
    strict.Add(cmd, "blackhole", "black-hole a T0-T1 link of plane 0 from the start", blackhole);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        RngSeedManager::SetSeed(1);
        const MrcClosSpec spec = MrcClosSpec::TwoTier(2, 4, 4, 4);
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetTrimmingQueues();
        Ptr<MrcFabricTopology> topo = topoHelper.Build(spec);
        MrcDataPlaneHelper dp;
        dp.SetDataPlane(MrcDataPlane::SRV6);
        dp.Install(topo);
        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
        if (blackhole)
        {
            MrcFailureSpec f;
            f.kind = MrcFailureKind::BLACKHOLE;
            f.at = Time(0);
            f.nodeA = "p0-t0-0";
            f.nodeB = "p0-t1-0";
            f.origin = "--blackhole";
            failures->Schedule({f});
        }
        MrcHelper mrc(topo, dp);
        mrc.Install();
        mrc.SetPathSelection(policy); // checked: an MrcPathSelection subclass, else an error
        const uint32_t dst = topo->GetHostCount() - 1;
        Ptr<MrcQpGroup> group = mrc.ConnectGroup(0, dst);
        Time done(-1);
        group->SetReceiveCallback(MakeBoundCallback(&OnDelivered, &done));
        group->PostWrite(bytes);
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const MrcQpStats st = group->GetSenderStats();
        std::cout << spec.Describe() << ", SRv6, "
                  << (blackhole ? "link p0-t0-0 - p0-t1-0 black-holed" : "no failure") << "\n"
                  << "policy " << policy << ": host 0 -> host " << dst << ", " << bytes << " B\n";
        if (done.IsStrictlyNegative())
        {
            std::cout << "  NOT delivered by 1 s\n";
        }
        else
        {
            std::cout << "  delivered " << bytes << " B at " << done.GetMicroSeconds() << " us\n";
        }
        std::cout << "  retransmissions " << st.retransmissions << " (loss timer " << st.rtxTimeout
                  << "), packets lost to the failure by then " << failures->GetLostPackets()
                  << "\n";
        Simulator::Destroy();
        return done.IsStrictlyNegative() ? 1 : 0;
    }
    catch (const std::exception& e)
    {
        std::cerr << "mrc-custom-policy: " << e.what() << "\n";
        Simulator::Destroy();
        return 1;
    }
}
