/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared fixture of the BGP reconvergence tests: a fabric with the ECMP data plane and the BGP
 * model, a record of what the model did, and constant-rate UDP flows between every host pair.
 */

#ifndef MRC_BGP_BENCH_H
#define MRC_BGP_BENCH_H

#include "ns3/error-model.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/pointer.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace bgptest
{

/// One FIB batch seen on the RoutesChanged trace.
struct Change
{
    Time at;         //!< when it was programmed
    uint32_t routes; //!< routes it changed
};

/// A UDP flow of the fixture.
struct Flow
{
    uint32_t src{0};             //!< source host
    uint32_t dst{0};             //!< destination host
    uint32_t sent{0};            //!< packets sent (sequence numbers 0..sent-1)
    std::set<uint32_t> received; //!< sequence numbers received
    bool crosses{false};         //!< took the watched link before the failure
    Ptr<Socket> socket;          //!< sending socket
};

/// A fabric with the ECMP data plane, the BGP model, and traffic.
struct Bench
{
    Ptr<MrcFabricTopology> topo;                     //!< fabric
    Ptr<MrcBgpReconvergenceModel> model;             //!< the model under test
    std::map<uint32_t, std::vector<Change>> changes; //!< node id -> FIB batches
    std::map<uint32_t, std::vector<Time>> starts;    //!< node id -> ConvergenceStart
    std::map<uint32_t, std::vector<Time>> ends;      //!< node id -> ConvergenceEnd
    std::vector<std::pair<Time, bool>> sessions;     //!< SessionChange (time, up)
    std::map<uint32_t, std::vector<MrcEcmpRouteTable::Route>> original;      //!< tables at start
    std::vector<Flow> flows;                                                 //!< flows, by index
    std::map<std::pair<uint32_t, uint32_t>, Ptr<RateErrorModel>> blackholes; //!< by link ends
    Time start;                                                              //!< first send
    Time stop;                   //!< no send at or after this
    Time interval;               //!< between two packets of a flow
    Time offset;                 //!< of every flow's first packet, after start
    Time watchUntil;             //!< crossing flows are recorded until then
    uint32_t watched[2]{0, 0};   //!< node ids of the watched link's ends
    uint32_t watchedIf[2]{0, 0}; //!< their interfaces on it

    /**
     * \param spec fabric
     * \param bgp configured helper (SetAttachToDevices is the caller's choice)
     * \param topology a prebuilt fabric to use instead (ECMP installed), or nullptr
     */
    Bench(const MrcClosSpec& spec,
          const MrcBgpReconvergenceHelper& bgp,
          Ptr<MrcFabricTopology> topology)
    {
        if (topology)
        {
            topo = topology;
        }
        else
        {
            topo = MrcClosTopologyHelper().Build(spec);
            MrcEcmpRoutingHelper().Install(*topo);
        }
        NodeContainer sw = topo->GetAllSwitches();
        for (auto it = sw.Begin(); it != sw.End(); ++it)
        {
            original[(*it)->GetId()] =
                MrcEcmpRoutingHelper::GetRouting(*it)->GetTable().GetRoutes();
        }
        model = bgp.Install(topo);
        model->TraceConnectWithoutContext("RoutesChanged",
                                          MakeCallback(&Bench::OnRoutesChanged, this));
        model->TraceConnectWithoutContext("ConvergenceStart", MakeCallback(&Bench::OnStart, this));
        model->TraceConnectWithoutContext("ConvergenceEnd", MakeCallback(&Bench::OnEnd, this));
        model->TraceConnectWithoutContext("SessionChange", MakeCallback(&Bench::OnSession, this));
    }

    ~Bench()
    {
        Simulator::Destroy();
        Names::Clear();
    }

    /**
     * \param tier tier
     * \param index index (plane 0)
     * \return the switch
     */
    Ptr<Node> Sw(MrcSwitchTier tier, uint32_t index) const
    {
        return topo->GetSwitch(tier, 0, index);
    }

    /**
     * \param a a switch
     * \param b a neighbour
     * \return the (first) link between them
     */
    MrcFabricLink Link(Ptr<Node> a, Ptr<Node> b) const
    {
        return topo->GetLinksBetween(a, b).at(0);
    }

    /**
     * \param a a switch
     * \param b a neighbour
     * \return a's interface towards b
     */
    uint32_t If(Ptr<Node> a, Ptr<Node> b) const
    {
        const MrcFabricLink l = Link(a, b);
        return l.lower == a ? l.lowerInterface : l.upperInterface;
    }

    /**
     * \param node a switch
     * \param t0 a T0 index
     * \return the next hops its FIB uses now towards that T0 (empty: none)
     */
    std::vector<uint32_t> Active(Ptr<Node> node, uint32_t t0) const
    {
        auto r = MrcEcmpRoutingHelper::GetRouting(node)->GetTable().GetRoute(
            MrcFabricAddressPlan::T0Prefix(0, t0),
            MrcFabricAddressPlan::kT0PrefixLength);
        return r ? r->active : std::vector<uint32_t>{};
    }

    /**
     * \param node a switch
     * \param t0 a T0 index
     * \return the next hops it used at the start towards that T0
     */
    std::vector<uint32_t> Original(Ptr<Node> node, uint32_t t0) const
    {
        for (const auto& r : original.at(node->GetId()))
        {
            if (r.network == MrcFabricAddressPlan::T0Prefix(0, t0) && r.prefixLength == 48)
            {
                return r.active;
            }
        }
        return {};
    }

    /**
     * \param node a switch
     * \param t0 a T0 index
     * \param gone next hops to remove
     * \return the original group without them, in order
     */
    std::vector<uint32_t> Without(Ptr<Node> node,
                                  uint32_t t0,
                                  const std::vector<uint32_t>& gone) const
    {
        std::vector<uint32_t> out;
        for (uint32_t i : Original(node, t0))
        {
            if (std::find(gone.begin(), gone.end(), i) == gone.end())
            {
                out.push_back(i);
            }
        }
        return out;
    }

    /// \return true if every switch's table is exactly as at the start (members and active)
    bool TablesAsOriginal() const
    {
        for (const auto& [id, routes] : original)
        {
            const auto now =
                MrcEcmpRoutingHelper::GetRouting(NodeList::GetNode(id))->GetTable().GetRoutes();
            if (now.size() != routes.size())
            {
                return false;
            }
            for (size_t i = 0; i < now.size(); ++i)
            {
                if (now[i].network != routes[i].network || now[i].members != routes[i].members
                    || now[i].active != routes[i].active)
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Make a link drop every frame in both directions (RateErrorModel at 100 % on both
     * devices' receive side), or work again.
     * \param link the link
     * \param on drop or not
     */
    void Blackhole(const MrcFabricLink& link, bool on)
    {
        for (Ptr<NetDevice> dev : {link.lowerDevice, link.upperDevice})
        {
            auto key = std::make_pair(link.id, dev->GetNode()->GetId());
            if (!blackholes.count(key))
            {
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
                em->SetRate(1.0);
                dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
                blackholes[key] = em;
            }
            on ? blackholes[key]->Enable() : blackholes[key]->Disable();
        }
    }

    /**
     * Start a UDP flow from every host to every other host (plane 0), one packet per interval,
     * flow i's packets offset by i microseconds, and record which flows cross a link.
     * \param first first send time
     * \param last no send at or after this
     * \param every packet interval
     * \param shift offset of the first packet
     * \param link the link to watch
     * \param until record flows crossing it until then
     */
    void StartTraffic(Time first,
                      Time last,
                      Time every,
                      Time shift,
                      const MrcFabricLink& link,
                      Time until)
    {
        start = first;
        stop = last;
        interval = every;
        offset = shift;
        watchUntil = until;
        watched[0] = link.lower->GetId();
        watched[1] = link.upper->GetId();
        watchedIf[0] = link.lowerInterface;
        watchedIf[1] = link.upperInterface;
        for (uint32_t end = 0; end < 2; ++end)
        {
            MrcEcmpRoutingHelper::GetRouting(end == 0 ? link.lower : link.upper)
                ->TraceConnectWithoutContext("Forward",
                                             MakeCallback(&Bench::OnForward, this).Bind(end));
        }
        const uint32_t n = topo->GetHostCount();
        for (uint32_t h = 0; h < n; ++h)
        {
            Ptr<Socket> sink =
                Socket::CreateSocket(topo->GetHost(h), UdpSocketFactory::GetTypeId());
            sink->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
            sink->SetRecvCallback(MakeCallback(&Bench::OnRx, this));
        }
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                Flow f;
                f.src = s;
                f.dst = d;
                f.socket = Socket::CreateSocket(topo->GetHost(s), UdpSocketFactory::GetTypeId());
                f.socket->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), Port(flows.size())));
                f.socket->Connect(Inet6SocketAddress(topo->GetHostAddress(d, 0), 9));
                flows.push_back(f);
                Simulator::Schedule(SendTime(flows.size() - 1, 0),
                                    &Bench::Send,
                                    this,
                                    uint32_t(flows.size() - 1));
            }
        }
    }

    /**
     * \param flow flow index
     * \return its source port
     */
    static uint16_t Port(uint32_t flow)
    {
        return 10000 + flow;
    }

    /**
     * \param flow flow index
     * \param seq sequence number
     * \return when that packet is sent
     */
    Time SendTime(uint32_t flow, uint32_t seq) const
    {
        return start + offset + interval * int64_t(seq) + MicroSeconds(flow);
    }

    /// \param flow flow index: send its next packet
    void Send(uint32_t flow)
    {
        Flow& f = flows[flow];
        SeqTsHeader h;
        h.SetSeq(f.sent);
        Ptr<Packet> p = Create<Packet>(52);
        p->AddHeader(h);
        f.socket->Send(p);
        ++f.sent;
        const Time next = SendTime(flow, f.sent);
        if (next < stop)
        {
            Simulator::Schedule(next - Simulator::Now(), &Bench::Send, this, flow);
        }
    }

    /// \param socket a receiving socket
    void OnRx(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            SeqTsHeader h;
            p->RemoveHeader(h);
            const uint16_t port = Inet6SocketAddress::ConvertFrom(from).GetPort();
            flows.at(port - 10000).received.insert(h.GetSeq());
        }
    }

    /**
     * Forward trace of the watched link's ends.
     * \param end which end
     * \param packet packet
     * \param header header
     * \param interface outgoing interface
     * \param hash hash
     */
    void OnForward(uint32_t end,
                   Ptr<const Packet> packet,
                   const Ipv6Header& header,
                   uint32_t interface,
                   uint32_t hash)
    {
        const MrcEcmpFlowKey key = MrcEcmpFlowKey::FromPacket(header, packet);
        if (interface == watchedIf[end] && Simulator::Now() < watchUntil
            && key.GetSourcePort() >= 10000 && key.GetSourcePort() < 10000 + flows.size())
        {
            flows[key.GetSourcePort() - 10000].crosses = true;
        }
    }

    /**
     * \param node node id
     * \param routes routes changed
     */
    void OnRoutesChanged(uint32_t node, uint32_t routes)
    {
        changes[node].push_back(Change{Simulator::Now(), routes});
    }

    /// \param node node id
    void OnStart(uint32_t node)
    {
        starts[node].push_back(Simulator::Now());
    }

    /// \param node node id
    void OnEnd(uint32_t node)
    {
        ends[node].push_back(Simulator::Now());
    }

    /**
     * \param link link id
     * \param up session state
     */
    void OnSession(uint32_t link, bool up)
    {
        sessions.emplace_back(Simulator::Now(), up);
    }
};

/// Expected FIB batches per switch.
using Expected = std::map<uint32_t, std::vector<Change>>;

/**
 * \param b bench
 * \param want expected batches (switches absent: none)
 * \param[out] why the first difference
 * \return true if the RoutesChanged trace matches exactly
 */
inline bool
SameChanges(const Bench& b, const Expected& want, std::string& why)
{
    NodeContainer sw = b.topo->GetAllSwitches();
    for (auto it = sw.Begin(); it != sw.End(); ++it)
    {
        const uint32_t id = (*it)->GetId();
        const auto got = b.changes.count(id) ? b.changes.at(id) : std::vector<Change>{};
        const auto exp = want.count(id) ? want.at(id) : std::vector<Change>{};
        bool same = got.size() == exp.size();
        for (size_t i = 0; same && i < got.size(); ++i)
        {
            same = got[i].at == exp[i].at && got[i].routes == exp[i].routes;
        }
        if (!same)
        {
            std::ostringstream oss;
            oss << Names::FindName(*it) << ": got";
            for (const auto& c : got)
            {
                oss << " " << c.routes << "@" << c.at.As(Time::US);
            }
            oss << ", expected";
            for (const auto& c : exp)
            {
                oss << " " << c.routes << "@" << c.at.As(Time::US);
            }
            why = oss.str();
            return false;
        }
    }
    return true;
}

/**
 * Compare every switch's T0 routes with an expectation.
 * \param b bench
 * \param expect expected active next hops of (switch, T0)
 * \param[out] why the first difference
 * \return true if all match
 */
inline bool
SameRoutes(const Bench& b,
           const std::function<std::vector<uint32_t>(Ptr<Node>, uint32_t)>& expect,
           std::string& why)
{
    NodeContainer sw = b.topo->GetAllSwitches();
    for (auto it = sw.Begin(); it != sw.End(); ++it)
    {
        for (uint32_t d = 0; d < 8; ++d)
        {
            if (b.Active(*it, d) != expect(*it, d))
            {
                why = Names::FindName(*it) + " towards T0 " + std::to_string(d);
                return false;
            }
        }
    }
    return true;
}

/**
 * Check the traffic: a packet (sent after the warm-up) is lost exactly when its flow crossed the
 * failed link and it was sent in [from, until(flow)).
 * \param b bench
 * \param from failure time
 * \param until end of the loss window of a crossing flow
 * \param[out] crossing crossing flows
 * \param[out] lost packets lost
 * \return mismatches
 */
inline uint32_t
LossMismatches(const Bench& b,
               Time from,
               const std::function<Time(const Flow&)>& until,
               uint32_t& crossing,
               uint64_t& lost)
{
    uint32_t bad = 0;
    crossing = 0;
    lost = 0;
    for (uint32_t i = 0; i < b.flows.size(); ++i)
    {
        const Flow& f = b.flows[i];
        crossing += f.crosses;
        for (uint32_t seq = 0; seq < f.sent; ++seq)
        {
            const Time t = b.SendTime(i, seq);
            const bool isLost = f.received.count(seq) == 0;
            lost += isLost;
            if (t < MilliSeconds(5))
            {
                continue; // neighbour discovery warm-up
            }
            const bool expectLost = f.crosses && t >= from && t < until(f);
            bad += isLost != expectLost;
        }
    }
    return bad;
}

/// \param b bench \return packets dropped for lack of a route, over all switches
inline uint64_t
NoRouteDrops(const Bench& b)
{
    uint64_t n = 0;
    NodeContainer sw = b.topo->GetAllSwitches();
    for (auto it = sw.Begin(); it != sw.End(); ++it)
    {
        n += MrcEcmpRoutingHelper::GetRouting(*it)->GetDroppedPackets();
    }
    return n;
}

} // namespace bgptest
} // namespace ns3

#endif /* MRC_BGP_BENCH_H */
