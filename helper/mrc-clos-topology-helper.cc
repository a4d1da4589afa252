/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-clos-topology-helper.h"

#include "mrc-pfc-helper.h"

#include "ns3/boolean.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6-static-routing.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-device-tx-queue.h"
#include "ns3/mrc-fabric-address-plan.h"
#include "ns3/mrc-fabric-channel.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/mrc-ipv6-host-list-routing.h"
#include "ns3/mrc-pfc-device-queue.h"
#include "ns3/mrc-pfc-queue-disc.h"
#include "ns3/mrc-rank-plan.h"
#include "ns3/mrc-switch-pipeline.h"
#include "ns3/mrc-trimming-queue-disc.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/names.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcClosTopologyHelper");

namespace
{

/// Node names of a fabric, in creation order.
std::vector<std::string>
NodeNames(const MrcClosSpec& spec, const std::string& prefix)
{
    std::vector<std::string> names;
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        names.push_back(prefix + "host-" + std::to_string(h));
    }
    const uint32_t counts[3] = {spec.GetT0Count(), spec.GetT1Count(), spec.t2Count};
    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            for (uint32_t i = 0; i < counts[t]; ++i)
            {
                names.push_back(prefix + "p" + std::to_string(p) + "-t" + std::to_string(t) + "-"
                                + std::to_string(i));
            }
        }
    }
    return names;
}

/// What a PointToPointHelper holds, with MrcFabricNetDevice as the device type.
struct LinkFactories
{
    ObjectFactory device;  //!< MrcFabricNetDevice with DataRate and Mtu
    ObjectFactory queue;   //!< the device's transmit queue
    ObjectFactory channel; //!< MrcFabricChannel with Delay
};

/**
 * Connect two nodes as PointToPointHelper::Install (ns-3.37 .. ns-3-dev) does, step for step,
 * so that MAC addresses, device indices and flow control are the same; only the device type
 * differs (PointToPointHelper cannot be given one). Between two ranks of a distributed run,
 * MrcFabricChannel::SetUpRanks does what PointToPointHelper's remote channel does.
 * \param f the factories
 * \param a one node
 * \param b the other node
 * \return the two devices, a's first
 */
NetDeviceContainer
InstallLink(const LinkFactories& f, Ptr<Node> a, Ptr<Node> b)
{
    Ptr<MrcFabricNetDevice> devA = f.device.Create<MrcFabricNetDevice>();
    devA->SetAddress(Mac48Address::Allocate());
    a->AddDevice(devA);
    Ptr<Queue<Packet>> queueA = f.queue.Create<Queue<Packet>>();
    devA->SetQueue(queueA);
    Ptr<MrcFabricNetDevice> devB = f.device.Create<MrcFabricNetDevice>();
    devB->SetAddress(Mac48Address::Allocate());
    b->AddDevice(devB);
    Ptr<Queue<Packet>> queueB = f.queue.Create<Queue<Packet>>();
    devB->SetQueue(queueB);
    // Flow control (PointToPointHelper's default): the queue disc stops when the device queue
    // is full. The transmit queue type restarts it when the next frame starts (see
    // MrcDeviceTxQueue), not in an event of its own, with the same handlers on every ns-3.
    auto flowControl = [](Ptr<MrcFabricNetDevice> dev, Ptr<Queue<Packet>> queue) {
        Ptr<NetDeviceQueueInterface> ndqi = CreateObjectWithAttributes<NetDeviceQueueInterface>(
            "TxQueuesType",
            TypeIdValue(MrcDeviceTxQueue::GetTypeId()));
        DynamicCast<MrcDeviceTxQueue>(ndqi->GetTxQueue(0))->ConnectDeviceQueue(dev, queue);
        dev->AggregateObject(ndqi);
    };
    flowControl(devA, queueA);
    flowControl(devB, queueB);
    Ptr<MrcFabricChannel> channel = f.channel.Create<MrcFabricChannel>();
    devA->Attach(channel);
    devB->Attach(channel);
    channel->SetUpRanks(); // a link between two ranks of a distributed run
    NetDeviceContainer container;
    container.Add(devA);
    container.Add(devB);
    return container;
}

} // namespace

MrcClosTopologyHelper::MrcClosTopologyHelper()
{
    m_rate.fill(DataRate("100Gbps"));
    m_delay.fill(MicroSeconds(1));
    // Hosts pace their own traffic: a deep FIFO that never drops in practice.
    m_qdisc[uint32_t(MrcPortRole::HOST_NIC)].SetRootQueueDisc("ns3::FifoQueueDisc",
                                                              "MaxSize",
                                                              QueueSizeValue(QueueSize("64MiB")));
    // Switch ports: a shallow per-port FIFO (about 40 us at 100 Gb/s).
    for (MrcPortRole role : {MrcPortRole::HOST_FACING, MrcPortRole::FABRIC})
    {
        m_qdisc[uint32_t(role)].SetRootQueueDisc("ns3::FifoQueueDisc",
                                                 "MaxSize",
                                                 QueueSizeValue(QueueSize("512KiB")));
    }
}

void
MrcClosTopologyHelper::SetLinkRate(MrcLinkTier tier, DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("MrcClosTopologyHelper: link rate must be > 0 bit/s");
    }
    m_rate.at(uint32_t(tier)) = rate;
}

void
MrcClosTopologyHelper::SetLinkDelay(MrcLinkTier tier, Time delay)
{
    if (delay.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcClosTopologyHelper: link delay must be >= 0");
    }
    m_delay.at(uint32_t(tier)) = delay;
}

DataRate
MrcClosTopologyHelper::GetLinkRate(MrcLinkTier tier) const
{
    return m_rate.at(uint32_t(tier));
}

Time
MrcClosTopologyHelper::GetLinkDelay(MrcLinkTier tier) const
{
    return m_delay.at(uint32_t(tier));
}

void
MrcClosTopologyHelper::SetMtu(uint32_t mtu)
{
    if (mtu < kMinMtu || mtu > 65535)
    {
        throw std::invalid_argument("MrcClosTopologyHelper: Mtu (=" + std::to_string(mtu)
                                    + ") must be in " + std::to_string(kMinMtu) + "..65535");
    }
    m_mtu = static_cast<uint16_t>(mtu);
}

uint16_t
MrcClosTopologyHelper::GetMtu() const
{
    return m_mtu;
}

void
MrcClosTopologyHelper::SetQueueDisc(MrcPortRole role, const TrafficControlHelper& helper)
{
    m_qdisc.at(uint32_t(role)) = helper;
}

void
MrcClosTopologyHelper::SetTrimmingQueues(bool trimming)
{
    TrafficControlHelper fabric;
    fabric.SetRootQueueDisc("ns3::MrcTrimmingQueueDisc", "TrimmingEnabled", BooleanValue(trimming));
    TrafficControlHelper lastHop;
    lastHop.SetRootQueueDisc("ns3::MrcTrimmingQueueDisc",
                             "TrimmingEnabled",
                             BooleanValue(trimming),
                             "LastHop",
                             BooleanValue(true),
                             "EcnEnabled",
                             BooleanValue(false));
    SetQueueDisc(MrcPortRole::FABRIC, fabric);
    SetQueueDisc(MrcPortRole::HOST_FACING, lastHop);
}

void
MrcClosTopologyHelper::SetEcnQueues()
{
    TrafficControlHelper ecn;
    ecn.SetRootQueueDisc("ns3::MrcTrimmingQueueDisc",
                         "TrimmingEnabled",
                         BooleanValue(false),
                         "EcnEnabled",
                         BooleanValue(true));
    SetQueueDisc(MrcPortRole::FABRIC, ecn);
    SetQueueDisc(MrcPortRole::HOST_FACING, ecn);
}

void
MrcClosTopologyHelper::SetPfcQueues(const std::string& lossyMaxSize)
{
    const TrafficControlHelper pfc = MrcPfcHelper::QueueDiscHelper(lossyMaxSize);
    SetQueueDisc(MrcPortRole::FABRIC, pfc);
    SetQueueDisc(MrcPortRole::HOST_FACING, pfc);
    // A host paces its own traffic and marks nothing: as deep as the default host FIFO.
    SetQueueDisc(MrcPortRole::HOST_NIC, MrcPfcHelper::QueueDiscHelper("64MiB", false));
}

void
MrcClosTopologyHelper::SetDeviceQueueSize(const std::string& size)
{
    MrcValueParser::ParseQueueSize("MrcClosTopologyHelper: DeviceQueueSize", size);
    m_deviceQueueSize = size;
}

void
MrcClosTopologyHelper::SetNamePrefix(const std::string& prefix)
{
    m_namePrefix = prefix;
}

void
MrcClosTopologyHelper::SetMaxLinks(uint64_t links, const std::string& knob)
{
    m_maxLinks = links;
    m_maxLinksKnob = knob;
}

uint64_t
MrcClosTopologyHelper::GetMaxLinks() const
{
    return m_maxLinks;
}

void
MrcClosTopologyHelper::SetRanks(uint32_t ranks)
{
    if (ranks == 0)
    {
        throw std::invalid_argument("MrcClosTopologyHelper::SetRanks: ranks (=0) must be >= 1");
    }
    m_ranks = ranks;
}

uint32_t
MrcClosTopologyHelper::GetRanks() const
{
    return m_ranks;
}

Ptr<MrcFabricTopology>
MrcClosTopologyHelper::Build(const MrcClosSpec& spec) const
{
    spec.Validate();
    try
    {
        spec.CheckSize(m_maxLinks, m_maxLinksKnob);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string("MrcClosTopologyHelper: ") + e.what());
    }
    if (spec.GetLinkCount() > MrcClosSpec::kWarnLinks)
    {
        NS_LOG_WARN("building a large fabric: "
                    << spec.GetHostCount() << " hosts, " << spec.GetSwitchCount() << " switches, "
                    << spec.GetLinkCount() << " links (cap " << m_maxLinks << ")");
    }
    const std::vector<std::string> names = NodeNames(spec, m_namePrefix);
    for (const std::string& name : names)
    {
        if (Names::Find<Object>(name))
        {
            throw std::invalid_argument("MrcClosTopologyHelper: node name '" + name
                                        + "' is already taken (a second fabric in this "
                                          "simulation?): use SetNamePrefix() or Names::Clear()");
        }
    }
    NS_LOG_INFO("building " << spec.Describe());

    const MrcRankPlan ranks = [&] {
        try
        {
            return MrcRankPlan(spec, m_ranks);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(std::string("MrcClosTopologyHelper::SetRanks: ")
                                        + e.what());
        }
    }();
    Ptr<MrcFabricTopology> topo = Create<MrcFabricTopology>(spec);
    auto nameIt = names.begin();
    NodeContainer all;
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        Ptr<Node> node = CreateObject<Node>(ranks.OfHost(h));
        Names::Add(*nameIt++, node);
        topo->AddHost(node);
        all.Add(node);
    }
    const uint32_t counts[3] = {spec.GetT0Count(), spec.GetT1Count(), spec.t2Count};
    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            for (uint32_t i = 0; i < counts[t]; ++i)
            {
                Ptr<Node> node = CreateObject<Node>(ranks.OfSwitch(MrcSwitchTier(t), i));
                Names::Add(*nameIt++, node);
                topo->AddSwitch(MrcSwitchTier(t), p, node);
                all.Add(node);
            }
        }
    }

    InternetStackHelper stack;
    stack.SetIpv4StackInstall(false);
    stack.Install(all);
    // Hosts route with a list (static routing inside), so that a data plane can add its own
    // endpoint protocol (MrcSrv6RoutingHelper does); switches' routing is replaced by the data
    // plane's. Replaced before any interface exists, so every notification reaches it.
    Ipv6StaticRoutingHelper staticRouting;
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        Ptr<MrcIpv6HostListRouting> list = CreateObject<MrcIpv6HostListRouting>();
        list->AddRoutingProtocol(CreateObject<Ipv6StaticRouting>(), 0);
        topo->GetHost(h)->GetObject<Ipv6>()->SetRoutingProtocol(list);
    }
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        // A static fabric: no duplicate address detection, hence no router solicitations.
        (*it)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
    }

    std::array<LinkFactories, 3> p2p;
    for (uint32_t t = 0; t < 3; ++t)
    {
        p2p[t].device.SetTypeId(MrcFabricNetDevice::GetTypeId());
        p2p[t].device.Set("DataRate", DataRateValue(m_rate[t]));
        p2p[t].device.Set("Mtu", UintegerValue(m_mtu));
        p2p[t].channel.SetTypeId(MrcFabricChannel::GetTypeId());
        p2p[t].channel.Set("Delay", TimeValue(m_delay[t]));
        p2p[t].queue.SetTypeId(MrcPfcDeviceQueue::GetTypeId());
        p2p[t].queue.Set("MaxSize", QueueSizeValue(QueueSize(m_deviceQueueSize)));
    }
    std::array<TrafficControlHelper, 3> qdisc = m_qdisc;

    auto connect = [&](MrcLinkTier tier,
                       uint32_t plane,
                       Ptr<Node> lower,
                       Ptr<Node> upper,
                       MrcPortRole lowerRole,
                       MrcPortRole upperRole) -> MrcFabricLink {
        NetDeviceContainer d = InstallLink(p2p[uint32_t(tier)], lower, upper);
        qdisc[uint32_t(lowerRole)].Install(d.Get(0));
        qdisc[uint32_t(upperRole)].Install(d.Get(1));
        MrcFabricLink link;
        link.tier = tier;
        link.plane = plane;
        link.lower = lower;
        link.upper = upper;
        link.lowerDevice = d.Get(0);
        link.upperDevice = d.Get(1);
        link.lowerInterface = lower->GetObject<Ipv6>()->AddInterface(d.Get(0));
        link.upperInterface = upper->GetObject<Ipv6>()->AddInterface(d.Get(1));
        return link;
    };

    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        // Hosts to T0s.
        for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
        {
            const uint32_t t0 = h / spec.hostsPerT0;
            MrcFabricLink link = connect(MrcLinkTier::HOST_T0,
                                         p,
                                         topo->GetHost(h),
                                         topo->GetSwitch(MrcSwitchTier::T0, p, t0),
                                         MrcPortRole::HOST_NIC,
                                         MrcPortRole::HOST_FACING);
            Ptr<Ipv6> ipv6 = link.lower->GetObject<Ipv6>();
            ipv6->AddAddress(
                link.lowerInterface,
                Ipv6InterfaceAddress(MrcFabricAddressPlan::HostAddress(p, t0, h % spec.hostsPerT0),
                                     Ipv6Prefix(MrcFabricAddressPlan::kHostLinkPrefixLength)));
            topo->AddLink(link);
        }
        // T0s to the T1s of their pod.
        for (uint32_t t0 = 0; t0 < spec.GetT0Count(); ++t0)
        {
            const uint32_t pod = t0 / spec.t0PerPod;
            for (uint32_t u = 0; u < spec.t0Uplinks; ++u)
            {
                const uint32_t t1 = pod * spec.t1PerPod + u % spec.t1PerPod;
                topo->AddLink(connect(MrcLinkTier::T0_T1,
                                      p,
                                      topo->GetSwitch(MrcSwitchTier::T0, p, t0),
                                      topo->GetSwitch(MrcSwitchTier::T1, p, t1),
                                      MrcPortRole::FABRIC,
                                      MrcPortRole::FABRIC));
            }
        }
        // T1s to their T2 group.
        if (spec.GetTiers() == 3)
        {
            const uint32_t group = spec.GetT2GroupSize();
            for (uint32_t t1 = 0; t1 < spec.GetT1Count(); ++t1)
            {
                const uint32_t j = t1 % spec.t1PerPod;
                for (uint32_t u = 0; u < spec.t1Uplinks; ++u)
                {
                    const uint32_t t2 = j * group + u % group;
                    topo->AddLink(connect(MrcLinkTier::T1_T2,
                                          p,
                                          topo->GetSwitch(MrcSwitchTier::T1, p, t1),
                                          topo->GetSwitch(MrcSwitchTier::T2, p, t2),
                                          MrcPortRole::FABRIC,
                                          MrcPortRole::FABRIC));
                }
            }
        }
    }

    // Bring interfaces up (adds link-local addresses), switches forward.
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        Ptr<Ipv6> ipv6 = (*it)->GetObject<Ipv6>();
        for (uint32_t i = 1; i < ipv6->GetNInterfaces(); ++i)
        {
            ipv6->SetUp(i);
        }
        if (topo->GetSwitchPosition(*it))
        {
            ipv6->SetAttribute("SendIcmpv6Redirect", BooleanValue(false));
            ipv6->SetAttribute("IpForward", BooleanValue(true));
            MrcSwitchPipeline::Install(*it); // unless MrcSwitchPipeline::Enabled is false
        }
    }
    // Hosts: the destination address selects the plane.
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        Ptr<Ipv6StaticRouting> routing =
            staticRouting.GetStaticRouting(topo->GetHost(h)->GetObject<Ipv6>());
        for (uint32_t p = 0; p < spec.planes; ++p)
        {
            routing->AddNetworkRouteTo(MrcFabricAddressPlan::PlanePrefix(p),
                                       Ipv6Prefix(MrcFabricAddressPlan::kPlanePrefixLength),
                                       topo->GetHostInterface(h, p));
        }
    }
    return topo;
}

int64_t
MrcClosTopologyHelper::AssignStreams(Ptr<MrcFabricTopology> topo, int64_t stream)
{
    NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
    int64_t current = stream;
    InternetStackHelper stack;
    current += stack.AssignStreams(all, current);
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        Ptr<Node> node = *it;
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<NetDevice> dev = node->GetDevice(i);
            if (tc)
            {
                Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(dev);
                if (auto q = DynamicCast<MrcTrimmingQueueDisc>(root))
                {
                    current += q->AssignStreams(current);
                }
                else if (auto pfc = DynamicCast<MrcPfcQueueDisc>(root))
                {
                    current += pfc->AssignStreams(current); // its ECN marking draws
                }
            }
            if (auto f = DynamicCast<MrcFabricNetDevice>(dev))
            {
                current += f->AssignStreams(current);
            }
        }
    }
    return current - stream;
}

} // namespace ns3
