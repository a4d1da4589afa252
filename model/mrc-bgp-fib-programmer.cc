/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-fib-programmer.h"

#include "mrc-fabric-address-plan.h"

#include "ns3/log.h"
#include "ns3/mrc-ecmp-routing-helper.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcBgpFibProgrammer");

MrcBgpFibProgrammer::MrcBgpFibProgrammer(std::shared_ptr<const MrcBgpFabricRib> rib,
                                         uint32_t t0Count,
                                         Traces traces)
    : m_rib(std::move(rib))
    , m_switches(m_rib->GetNSwitches())
    , m_traces(traces)
{
    for (uint32_t sw = 0; sw < m_switches.size(); ++sw)
    {
        Switch& s = m_switches[sw];
        Ptr<Node> node = m_rib->GetNode(sw);
        s.routing = MrcEcmpRoutingHelper::GetRouting(node);
        if (!s.routing)
        {
            throw std::invalid_argument("MrcBgpReconvergenceModel::Install: switch "
                                        + Names::FindName(node)
                                        + " has no MrcIpv6EcmpRouting: install the ECMP data plane "
                                          "(MrcEcmpRoutingHelper) first");
        }
        // The installed tables must be the BGP steady state (both are the shortest paths).
        s.planned.resize(t0Count);
        for (uint32_t d = 0; d < t0Count; ++d)
        {
            s.planned[d] = m_rib->GetNextHops(sw, d);
            const Ipv6Address prefix = MrcFabricAddressPlan::T0Prefix(m_rib->GetPlane(sw), d);
            auto route =
                s.routing->GetTable().GetRoute(prefix, MrcFabricAddressPlan::kT0PrefixLength);
            std::vector<uint32_t> installed = route ? route->members : std::vector<uint32_t>{};
            std::sort(installed.begin(), installed.end());
            if (installed != s.planned[d])
            {
                std::ostringstream oss;
                oss << "MrcBgpReconvergenceModel::Install: switch " << Names::FindName(node)
                    << " routes " << prefix << "/48 over " << installed.size()
                    << " next hops where BGP uses " << s.planned[d].size()
                    << ": install MrcEcmpRoutingHelper's tables on a healthy fabric first";
                throw std::invalid_argument(oss.str());
            }
        }
    }
}

void
MrcBgpFibProgrammer::Detach()
{
    m_detached = true;
}

void
MrcBgpFibProgrammer::SetTiming(const MrcBgpConvergenceTiming& timing)
{
    m_timing = timing;
}

Ptr<MrcIpv6EcmpRouting>
MrcBgpFibProgrammer::GetRouting(uint32_t sw) const
{
    return m_switches.at(sw).routing;
}

void
MrcBgpFibProgrammer::Changed(uint32_t sw, uint32_t t0)
{
    Switch& s = m_switches.at(sw);
    if (s.dirty.empty() && s.pendingBatches == 0)
    {
        (*m_traces.start)(m_rib->GetNode(sw)->GetId());
    }
    s.dirty.insert(t0);
    if (!s.flushScheduled)
    {
        // Every change of this instant joins the batch: Flush runs after the events already
        // queued for now (the other UPDATEs or detections of this instant).
        s.flushScheduled = true;
        Simulator::ScheduleNow(&MrcBgpFibProgrammer::Flush, Ptr<MrcBgpFibProgrammer>(this), sw);
    }
}

void
MrcBgpFibProgrammer::Flush(uint32_t sw)
{
    Switch& s = m_switches[sw];
    const uint32_t node = m_rib->GetNode(sw)->GetId();
    s.flushScheduled = false;
    if (m_detached)
    {
        return;
    }
    Batch batch;
    for (uint32_t d : s.dirty)
    {
        std::vector<uint32_t> hops = m_rib->GetNextHops(sw, d);
        if (hops != s.planned[d])
        {
            s.planned[d] = hops;
            batch.emplace_back(d, std::move(hops));
        }
    }
    s.dirty.clear();
    if (batch.empty())
    {
        if (s.pendingBatches == 0)
        {
            (*m_traces.end)(node); // changed and changed back at once
        }
        return;
    }
    const Time end = m_timing.GetFibBatchEnd(Simulator::Now(), s.busyUntil, batch.size());
    s.busyUntil = end;
    ++s.pendingBatches;
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " " << Names::FindName(m_rib->GetNode(sw))
                     << ": " << batch.size() << " routes to program, done at " << end.As(Time::MS));
    Simulator::Schedule(end - Simulator::Now(),
                        &MrcBgpFibProgrammer::Apply,
                        Ptr<MrcBgpFibProgrammer>(this),
                        sw,
                        batch);
}

void
MrcBgpFibProgrammer::Apply(uint32_t sw, Batch batch)
{
    if (m_detached)
    {
        return;
    }
    Switch& s = m_switches[sw];
    for (const auto& [d, hops] : batch)
    {
        s.routing->SetRouteNextHops(MrcFabricAddressPlan::T0Prefix(m_rib->GetPlane(sw), d),
                                    MrcFabricAddressPlan::kT0PrefixLength,
                                    hops);
    }
    --s.pendingBatches;
    m_lastProgrammed = Simulator::Now();
    const uint32_t node = m_rib->GetNode(sw)->GetId();
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::MS) << " " << Names::FindName(m_rib->GetNode(sw))
                     << ": " << batch.size() << " routes programmed");
    (*m_traces.batch)(node, batch.size());
    if (s.pendingBatches == 0 && s.dirty.empty())
    {
        (*m_traces.end)(node);
    }
}

bool
MrcBgpFibProgrammer::IsIdle() const
{
    for (const Switch& s : m_switches)
    {
        if (s.pendingBatches > 0 || !s.dirty.empty())
        {
            return false;
        }
    }
    return true;
}

Time
MrcBgpFibProgrammer::GetLastProgrammed() const
{
    return m_lastProgrammed;
}

uint32_t
MrcBgpFibProgrammer::GetUnreachableRoutes() const
{
    uint32_t n = 0;
    for (const Switch& s : m_switches)
    {
        for (const auto& route : s.routing->GetTable().GetRoutes())
        {
            n +=
                route.prefixLength == MrcFabricAddressPlan::kT0PrefixLength && route.active.empty();
        }
    }
    return n;
}

} // namespace ns3
