/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload-application-helper.h"

#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-workload-application.h"
#include "ns3/node-container.h"

#include <set>
#include <stdexcept>

namespace ns3
{

ApplicationContainer
MrcWorkloadApplicationHelper::Install(Ptr<MrcCollective> collective,
                                      Ptr<MrcFabricTopology> topo) const
{
    if (!collective)
    {
        throw std::invalid_argument("MrcWorkloadApplicationHelper: no collective");
    }
    std::vector<uint32_t> hosts;
    for (uint32_t r = 0; r < collective->GetRankCount(); ++r)
    {
        hosts.push_back(collective->GetHost(r));
    }
    return InstallRanks(collective->GetName(), hosts, topo, [collective] {
        collective->Start();
    });
}

ApplicationContainer
MrcWorkloadApplicationHelper::Install(Ptr<MrcTrainingJob> job, Ptr<MrcFabricTopology> topo) const
{
    if (!job)
    {
        throw std::invalid_argument("MrcWorkloadApplicationHelper: no training job");
    }
    std::set<uint32_t> hosts;
    for (const Ptr<MrcCollective>& c : job->GetCollectives())
    {
        for (uint32_t r = 0; r < c->GetRankCount(); ++r)
        {
            hosts.insert(c->GetHost(r));
        }
    }
    return InstallRanks("training job",
                        std::vector<uint32_t>(hosts.begin(), hosts.end()),
                        topo,
                        [job] {
                            job->Start();
                        });
}

ApplicationContainer
MrcWorkloadApplicationHelper::InstallRanks(const std::string& name,
                                           const std::vector<uint32_t>& hosts,
                                           Ptr<MrcFabricTopology> topo,
                                           std::function<void()> start) const
{
    if (hosts.empty())
    {
        throw std::invalid_argument("MrcWorkloadApplicationHelper: " + name
                                    + " has no ranks (Setup the collectives first)");
    }
    if (!topo)
    {
        throw std::invalid_argument("MrcWorkloadApplicationHelper: no fabric topology");
    }
    // Every host first (MrcFabricTopology::GetHost refuses one out of range, naming it), so
    // that a bad host installs nothing.
    NodeContainer nodes;
    for (uint32_t host : hosts)
    {
        nodes.Add(topo->GetHost(host));
    }
    Ptr<MrcWorkloadApplication::Launch> launch =
        Create<MrcWorkloadApplication::Launch>(name, hosts.size(), std::move(start));
    ApplicationContainer apps;
    for (uint32_t rank = 0; rank < nodes.GetN(); ++rank)
    {
        Ptr<MrcWorkloadApplication> app = CreateObject<MrcWorkloadApplication>();
        app->Setup(launch, rank);
        nodes.Get(rank)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

} // namespace ns3
