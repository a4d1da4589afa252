/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_MONITOR_HELPER_H
#define MRC_FLOW_MONITOR_HELPER_H

#include "ns3/flow-monitor-helper.h"
#include "ns3/node-container.h"

#include <cstdint>
#include <set>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief ns-3's FlowMonitorHelper that also sees MRC: it installs ns-3's IPv4/IPv6 probes as
 * FlowMonitorHelper does and an MrcFlowProbe on every node with IPv6 (hosts: MRC packets sent,
 * received, trimmed, dropped; switches: MRC packets dropped), whose flows share the IPv6
 * classifier (GetClassifier6) with ns-3's IPv6 flows.
 *
 * Use it in place of FlowMonitorHelper, after MrcHelper::Install:
 * \code
 *   MrcFlowMonitorHelper flowmon;
 *   Ptr<FlowMonitor> monitor = flowmon.InstallAll();
 *   Simulator::Run();
 *   monitor->CheckForLostPackets();
 *   auto classifier = DynamicCast<Ipv6FlowClassifier>(flowmon.GetClassifier6());
 *   for (const auto& [id, stats] : monitor->GetFlowStats()) { classifier->FindFlow(id); ... }
 * \endcode
 * Its Install functions hide FlowMonitorHelper's (they are not virtual): called through a
 * FlowMonitorHelper reference, they install no MrcFlowProbe.
 */
class MrcFlowMonitorHelper : public FlowMonitorHelper
{
  public:
    MrcFlowMonitorHelper();
    ~MrcFlowMonitorHelper();

    // Delete copy constructor and assignment operator to avoid misuse
    MrcFlowMonitorHelper(const MrcFlowMonitorHelper&) = delete;
    MrcFlowMonitorHelper& operator=(const MrcFlowMonitorHelper&) = delete;

    /**
     * FlowMonitorHelper::Install on these nodes, and an MrcFlowProbe on each of them with IPv6
     * (once per node). Install it after MRC (MrcHelper::Install) and after the nodes' queue discs
     * and routing: what is added later is not watched.
     * \param nodes the nodes
     * \return the monitor
     * \throws std::invalid_argument if none of the nodes has MrcL4Protocol (MRC is not installed
     *         yet: the probes would see nothing; use FlowMonitorHelper for other traffic)
     */
    Ptr<FlowMonitor> Install(NodeContainer nodes);
    /**
     * \param node a node
     * \return the monitor
     * \throws std::invalid_argument if the node has no MrcL4Protocol
     */
    Ptr<FlowMonitor> Install(Ptr<Node> node);
    /**
     * Install on every node of the simulation.
     * \return the monitor
     * \throws std::invalid_argument if no node has MrcL4Protocol
     */
    Ptr<FlowMonitor> InstallAll();

    /// \return MrcFlowProbes installed so far
    uint32_t GetMrcProbeCount() const;

  private:
    /**
     * \param node a node (or null)
     * \return true if it has MrcL4Protocol
     */
    static bool HasMrc(Ptr<Node> node);
    /**
     * Install an MrcFlowProbe on a node with IPv6 that has none yet.
     * \param node a node
     */
    void InstallMrcProbe(Ptr<Node> node);

    std::set<uint32_t> m_probed; //!< ids of nodes with an MrcFlowProbe
};

} // namespace ns3

#endif /* MRC_FLOW_MONITOR_HELPER_H */
