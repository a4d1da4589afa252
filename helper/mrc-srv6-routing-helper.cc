/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-srv6-routing-helper.h"

#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/mrc-fabric-address-plan.h"
#include "ns3/mrc-fabric-shortest-paths.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSrv6RoutingHelper");

namespace
{
constexpr uint32_t kPlaneShift = 28;         //!< EV bits 31..28: plane
constexpr uint32_t kChoiceMask = 0x0fffffff; //!< EV bits 27..0: path choice

/**
 * \param v a value
 * \return it in hex, for messages
 */
std::string
Hex(uint32_t v)
{
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}
} // namespace

MrcSrv6RoutingHelper::MrcSrv6RoutingHelper() = default;

void
MrcSrv6RoutingHelper::SetBlock(uint32_t blockBits, uint64_t block)
{
    m_carrier = MrcUsidCarrier(blockBits, block);
}

void
MrcSrv6RoutingHelper::SetUsidsPerCarrier(uint32_t n)
{
    if (n < 1 || n > m_carrier.GetCapacity())
    {
        throw std::invalid_argument("MrcSrv6RoutingHelper: UsidsPerCarrier (=" + std::to_string(n)
                                    + ") must be in 1.." + std::to_string(m_carrier.GetCapacity()));
    }
    m_usidsPerCarrier = n;
}

void
MrcSrv6RoutingHelper::SetForceSrh(bool force)
{
    m_forceSrh = force;
}

void
MrcSrv6RoutingHelper::SetForwardUnmatched(bool forward)
{
    m_forwardUnmatched = forward;
}

const MrcUsidPlan&
MrcSrv6RoutingHelper::GetPlan() const
{
    if (!m_plan)
    {
        throw std::logic_error("MrcSrv6RoutingHelper: call Install() first");
    }
    return *m_plan;
}

const MrcUsidCarrier&
MrcSrv6RoutingHelper::GetCarrier() const
{
    return m_carrier;
}

Ptr<MrcIpv6Srv6Routing>
MrcSrv6RoutingHelper::GetSwitchRouting(Ptr<Node> node)
{
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 ? DynamicCast<MrcIpv6Srv6Routing>(ipv6->GetRoutingProtocol()) : nullptr;
}

Ptr<MrcIpv6Srv6HostRouting>
MrcSrv6RoutingHelper::GetHostRouting(Ptr<Node> node)
{
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    Ptr<Ipv6ListRouting> list =
        ipv6 ? DynamicCast<Ipv6ListRouting>(ipv6->GetRoutingProtocol()) : nullptr;
    for (uint32_t i = 0; list && i < list->GetNRoutingProtocols(); ++i)
    {
        int16_t priority = 0;
        if (auto r = DynamicCast<MrcIpv6Srv6HostRouting>(list->GetRoutingProtocol(i, priority)))
        {
            return r;
        }
    }
    return nullptr;
}

void
MrcSrv6RoutingHelper::Install(Ptr<MrcFabricTopology> topo)
{
    const MrcClosSpec& spec = topo->GetSpec();
    m_plan.emplace(spec);
    m_topo = topo;
    const MrcUsidPlan& plan = *m_plan;
    const uint8_t locatorLength = static_cast<uint8_t>(m_carrier.GetBlockBits() + 16);

    // Host endpoints, ahead of the hosts' static routing.
    m_hosts.clear();
    for (uint32_t h = 0; h < topo->GetHostCount(); ++h)
    {
        Ptr<MrcIpv6Srv6HostRouting> r = CreateObject<MrcIpv6Srv6HostRouting>();
        r->SetCarrier(m_carrier);
        Ptr<Ipv6ListRouting> list =
            DynamicCast<Ipv6ListRouting>(topo->GetHost(h)->GetObject<Ipv6>()->GetRoutingProtocol());
        if (!list)
        {
            throw std::invalid_argument("MrcSrv6RoutingHelper: host " + std::to_string(h)
                                        + " does not route with a list (build the fabric with "
                                          "MrcClosTopologyHelper)");
        }
        list->AddRoutingProtocol(r, 10);
        m_hosts.push_back(r);
    }

    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        const MrcFabricShortestPaths paths(*topo, p);
        std::map<uint32_t, Ptr<MrcIpv6Srv6Routing>> routing; // node id -> protocol
        std::map<uint32_t, uint16_t> baseUsid;               // node id -> variant-0 uSID
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            const NodeContainer& c = topo->GetSwitches(MrcSwitchTier(t), p);
            for (uint32_t i = 0; i < c.GetN(); ++i)
            {
                Ptr<MrcIpv6Srv6Routing> r = CreateObject<MrcIpv6Srv6Routing>();
                r->SetCarrier(m_carrier);
                r->SetForwardUnmatched(m_forwardUnmatched);
                for (uint32_t v = 0; v < plan.GetVariants(MrcSwitchTier(t)); ++v)
                {
                    r->AddLocalUsid(plan.GetSwitchUsid(MrcSwitchTier(t), p, i, v));
                }
                c.Get(i)->GetObject<Ipv6>()->SetRoutingProtocol(r);
                routing[c.Get(i)->GetId()] = r;
                baseUsid[c.Get(i)->GetId()] = plan.GetSwitchUsid(MrcSwitchTier(t), p, i, 0);
                // Plain IPv6: one shortest-path port per T0 prefix.
                for (uint32_t d = 0; d < spec.GetT0Count(); ++d)
                {
                    const std::vector<uint32_t>& hops = paths.GetNextHops(c.Get(i), d);
                    if (!hops.empty())
                    {
                        r->AddRoute(MrcFabricAddressPlan::T0Prefix(p, d),
                                    MrcFabricAddressPlan::kT0PrefixLength,
                                    hops.front());
                    }
                }
            }
        }
        // Neighbour locators: the v-th parallel link to X is reached by X's variant v.
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> parallelSeen;
        for (const MrcFabricLink& link : topo->GetLinks())
        {
            if (link.plane != p)
            {
                continue;
            }
            if (link.tier == MrcLinkTier::HOST_T0)
            {
                const uint32_t host = *topo->GetHostIndex(link.lower);
                const uint32_t port = host % spec.hostsPerT0;
                const uint16_t usid = plan.GetPortUsid(p, port);
                Ptr<MrcIpv6Srv6Routing> t0 = routing.at(link.upper->GetId());
                t0->AddRoute(m_carrier.Locator(usid), locatorLength, link.upperInterface);
                t0->AddRoute(MrcFabricAddressPlan::HostLinkPrefix(p, topo->GetHostT0(host), port),
                             MrcFabricAddressPlan::kHostLinkPrefixLength,
                             link.upperInterface);
                m_hosts[host]->AddLocalUsid(usid, link.lowerInterface);
                continue;
            }
            const uint32_t v = parallelSeen[{link.lower->GetId(), link.upper->GetId()}]++;
            routing.at(link.lower->GetId())
                ->AddRoute(m_carrier.Locator(baseUsid.at(link.upper->GetId()) + v),
                           locatorLength,
                           link.lowerInterface);
            routing.at(link.upper->GetId())
                ->AddRoute(m_carrier.Locator(baseUsid.at(link.lower->GetId()) + v),
                           locatorLength,
                           link.upperInterface);
        }
        NS_LOG_INFO("plane " << p << ": SRv6 tables installed on " << routing.size()
                             << " switches");
    }
}

uint32_t
MrcSrv6RoutingHelper::GetPathCount(uint32_t src, uint32_t dst) const
{
    const MrcClosSpec& spec = m_topo->GetSpec();
    const uint32_t t0s = m_topo->GetHostT0(src);
    const uint32_t t0d = m_topo->GetHostT0(dst);
    if (t0s == t0d)
    {
        return 1;
    }
    if (t0s / spec.t0PerPod == t0d / spec.t0PerPod)
    {
        return spec.t0Uplinks;
    }
    return spec.t0Uplinks * spec.t1Uplinks;
}

std::vector<uint32_t>
MrcSrv6RoutingHelper::GetEvs(uint32_t src, uint32_t dst, uint32_t plane, uint32_t minimum) const
{
    std::vector<uint32_t> evs;
    const uint32_t n = std::min<uint32_t>(std::max(GetPathCount(src, dst), minimum), kChoiceMask);
    for (uint32_t c = 0; c < n; ++c)
    {
        evs.push_back(plane << kPlaneShift | c);
    }
    return evs;
}

MrcSrv6Path
MrcSrv6RoutingHelper::GetPath(uint32_t src, uint32_t dst, uint32_t ev) const
{
    return BuildPath(src, dst, ev, true);
}

MrcSrv6Path
MrcSrv6RoutingHelper::GetCarriers(uint32_t src, uint32_t dst, uint32_t ev) const
{
    return BuildPath(src, dst, ev, false);
}

MrcSrv6Path
MrcSrv6RoutingHelper::BuildPath(uint32_t src, uint32_t dst, uint32_t ev, bool withSwitches) const
{
    if (!m_topo)
    {
        throw std::logic_error("MrcSrv6RoutingHelper: call Install() first");
    }
    const MrcClosSpec& spec = m_topo->GetSpec();
    const uint32_t hosts = m_topo->GetHostCount();
    if (src >= hosts || dst >= hosts || src == dst)
    {
        throw std::invalid_argument("MrcSrv6RoutingHelper: hosts (" + std::to_string(src) + " -> "
                                    + std::to_string(dst) + ") must be distinct and < "
                                    + std::to_string(hosts));
    }
    MrcSrv6Path path;
    path.ev = ev;
    path.plane = ev >> kPlaneShift;
    if (path.plane >= spec.planes)
    {
        throw std::invalid_argument("MrcSrv6RoutingHelper: EV " + Hex(ev)
                                    + ": plane bits 31..28 (=" + std::to_string(path.plane)
                                    + ") must be < planes (=" + std::to_string(spec.planes) + ")");
    }
    // Several EVs per path when the choices outnumber the paths: c names path c mod count.
    const uint32_t c = (ev & kChoiceMask) % GetPathCount(src, dst);
    const MrcUsidPlan& plan = *m_plan;
    const uint32_t p = path.plane;
    const uint32_t t0s = m_topo->GetHostT0(src);
    const uint32_t t0d = m_topo->GetHostT0(dst);
    path.usids.reserve(6); // at most five switches and the host port
    auto hop = [&](MrcSwitchTier tier, uint32_t index, uint32_t variant) {
        path.usids.push_back(plan.GetSwitchUsid(tier, p, index, variant));
        if (withSwitches)
        {
            path.switches.push_back(m_topo->GetSwitch(tier, p, index));
        }
    };
    hop(MrcSwitchTier::T0, t0s, 0);
    if (t0s != t0d)
    {
        const uint32_t podS = t0s / spec.t0PerPod;
        const uint32_t podD = t0d / spec.t0PerPod;
        const uint32_t u1 = c % spec.t0Uplinks;
        const uint32_t j = u1 % spec.t1PerPod;
        const uint32_t k1 = u1 / spec.t1PerPod;
        hop(MrcSwitchTier::T1, podS * spec.t1PerPod + j, k1);
        if (podS != podD)
        {
            const uint32_t group = spec.GetT2GroupSize();
            const uint32_t u2 = c / spec.t0Uplinks;
            const uint32_t k2 = u2 / group;
            hop(MrcSwitchTier::T2, j * group + u2 % group, k2);
            hop(MrcSwitchTier::T1, podD * spec.t1PerPod + j, k2);
        }
        hop(MrcSwitchTier::T0, t0d, k1);
    }
    path.usids.push_back(plan.GetPortUsid(p, dst % spec.hostsPerT0));
    const uint32_t per = m_usidsPerCarrier ? m_usidsPerCarrier : m_carrier.GetCapacity();
    for (size_t i = 0; i < path.usids.size(); i += per)
    {
        std::vector<uint16_t> chunk(path.usids.begin() + i,
                                    path.usids.begin() + std::min(path.usids.size(), i + per));
        path.carriers.push_back(m_carrier.Compose(chunk));
    }
    path.interface = m_topo->GetHostInterface(src, p);
    return path;
}

void
MrcSrv6RoutingHelper::Send(uint32_t src,
                           uint32_t dst,
                           uint32_t ev,
                           Ptr<Packet> packet,
                           uint8_t protocol,
                           uint8_t dscp) const
{
    const MrcSrv6Path path = GetCarriers(src, dst, ev);
    m_hosts.at(src)->Send(packet,
                          protocol,
                          m_topo->GetHostAddress(src, path.plane),
                          m_topo->GetHostAddress(dst, path.plane),
                          path.carriers,
                          path.interface,
                          dscp,
                          m_forceSrh);
}

} // namespace ns3
