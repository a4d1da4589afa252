/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-drop-monitor.h"

#include "mrc-csv-field.h"

#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/mrc-trimming-queue-disc.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricDropMonitor");

NS_OBJECT_ENSURE_REGISTERED(MrcFabricDropMonitor);

std::ostream&
operator<<(std::ostream& os, MrcFabricDropKind kind)
{
    switch (kind)
    {
        case MrcFabricDropKind::QUEUE_DROP:
            return os << "queue-drop";
        case MrcFabricDropKind::ECN_MARK:
            return os << "ecn-mark";
        case MrcFabricDropKind::TRIM:
            return os << "trim";
        case MrcFabricDropKind::LINK_LOSS:
            return os << "link-loss";
        case MrcFabricDropKind::ROUTING_DROP:
            return os << "routing-drop";
    }
    return os << "?";
}

namespace
{

/**
 * \param stats a queue disc's statistics
 * \return its drops by reason, before enqueue and after dequeue added up
 */
std::map<std::string, uint64_t>
Drops(const QueueDisc::Stats& stats)
{
    std::map<std::string, uint64_t> out;
    for (const auto& [reason, n] : stats.nDroppedPacketsBeforeEnqueue)
    {
        out[reason] += n;
    }
    for (const auto& [reason, n] : stats.nDroppedPacketsAfterDequeue)
    {
        out[reason] += n;
    }
    return out;
}

/**
 * \param stats a queue disc's statistics
 * \return its marks by reason
 */
std::map<std::string, uint64_t>
Marks(const QueueDisc::Stats& stats)
{
    std::map<std::string, uint64_t> out;
    for (const auto& [reason, n] : stats.nMarkedPackets)
    {
        out[reason] += n;
    }
    return out;
}

/**
 * \param value a value with operator<<
 * \return it as text
 */
template<typename T>
std::string
Text(const T& value)
{
    std::ostringstream os;
    os << value;
    return os.str();
}

} // namespace

TypeId
MrcFabricDropMonitor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFabricDropMonitor")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFabricDropMonitor>();
    return tid;
}

MrcFabricDropMonitor::MrcFabricDropMonitor()
{
    NS_LOG_FUNCTION(this);
}

MrcFabricDropMonitor::~MrcFabricDropMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
MrcFabricDropMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_traces.DisconnectAll();
    m_nodes.clear();
    Object::DoDispose();
}

void
MrcFabricDropMonitor::Install(Ptr<MrcFabricTopology> topo)
{
    NS_LOG_FUNCTION(this);
    if (m_installed)
    {
        throw std::invalid_argument("MrcFabricDropMonitor::Install: already installed");
    }
    if (!topo)
    {
        throw std::invalid_argument("MrcFabricDropMonitor::Install: no fabric");
    }
    m_installed = true;
    for (uint32_t h = 0; h < topo->GetHostCount(); ++h)
    {
        NodeCounts c;
        c.node = topo->GetHost(h);
        c.tier = "host";
        c.plane = -1;
        c.index = h;
        m_nodes.push_back(std::move(c));
    }
    const MrcClosSpec& spec = topo->GetSpec();
    for (uint32_t t = 0; t < spec.GetTiers(); ++t)
    {
        for (uint32_t p = 0; p < spec.planes; ++p)
        {
            const NodeContainer& switches = topo->GetSwitches(MrcSwitchTier(t), p);
            for (uint32_t i = 0; i < switches.GetN(); ++i)
            {
                NodeCounts c;
                c.node = switches.Get(i);
                c.tier = Text(MrcSwitchTier(t));
                c.plane = int32_t(p);
                c.index = i;
                m_nodes.push_back(std::move(c));
            }
        }
    }
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
    {
        Watch(n);
    }
}

std::vector<Ptr<Ipv6RoutingProtocol>>
MrcFabricDropMonitor::GetRoutingProtocols(Ptr<Node> node)
{
    Ptr<Ipv6> ipv6 = node ? node->GetObject<Ipv6>() : nullptr;
    std::vector<Ptr<Ipv6RoutingProtocol>> protocols;
    if (Ptr<Ipv6RoutingProtocol> top = ipv6 ? ipv6->GetRoutingProtocol() : nullptr)
    {
        protocols.push_back(top);
        if (Ptr<Ipv6ListRouting> list = DynamicCast<Ipv6ListRouting>(top))
        {
            for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
            {
                int16_t priority = 0;
                protocols.push_back(list->GetRoutingProtocol(i, priority));
            }
        }
    }
    return protocols;
}

void
MrcFabricDropMonitor::Connect(Ptr<Object> source,
                              const std::string& name,
                              const CallbackBase& callback)
{
    if (!m_traces.Connect(source, name, callback))
    {
        throw std::invalid_argument("MrcFabricDropMonitor::Install: cannot connect trace " + name);
    }
}

void
MrcFabricDropMonitor::Watch(uint32_t n)
{
    NodeCounts& c = m_nodes[n];
    Ptr<Node> node = c.node;
    c.name = MrcNodeName(node);
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<NetDevice> device = node->GetDevice(d);
        if (Ptr<QueueDisc> q = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr)
        {
            const QueueDisc::Stats& stats = q->GetStats();
            c.queues.push_back(Queue{q, Drops(stats), Marks(stats)});
            if (DynamicCast<MrcTrimmingQueueDisc>(q))
            {
                Connect(q, "Trim", MakeCallback(&MrcFabricDropMonitor::OnTrim, this).Bind(n));
            }
        }
        if (Ptr<MrcFabricNetDevice> fd = DynamicCast<MrcFabricNetDevice>(device))
        {
            Connect(fd,
                    "FaultDrop",
                    MakeCallback(&MrcFabricDropMonitor::OnFaultDrop, this).Bind(n));
        }
    }

    // The fabric routing: the node's protocol itself, or one inside a list.
    for (Ptr<Ipv6RoutingProtocol> r : GetRoutingProtocols(node))
    {
        if (DynamicCast<MrcIpv6EcmpRouting>(r))
        {
            Connect(r, "Drop", MakeCallback(&MrcFabricDropMonitor::OnEcmpDrop, this).Bind(n));
        }
        else if (DynamicCast<MrcIpv6Srv6Routing>(r))
        {
            Connect(r, "Drop", MakeCallback(&MrcFabricDropMonitor::OnSrv6Drop, this).Bind(n));
        }
        else if (DynamicCast<MrcIpv6Srv6HostRouting>(r))
        {
            Connect(r, "Drop", MakeCallback(&MrcFabricDropMonitor::OnHostDrop, this).Bind(n));
        }
    }
    if (Ptr<MrcSwitchPipeline> pipeline = node->GetObject<MrcSwitchPipeline>())
    {
        Connect(pipeline,
                "Drop",
                MakeCallback(&MrcFabricDropMonitor::OnPipelineDrop, this).Bind(n));
    }
}

void
MrcFabricDropMonitor::OnTrim(uint32_t n,
                             Ptr<const QueueDiscItem> original,
                             Ptr<const QueueDiscItem> trimmed,
                             bool victim)
{
    m_nodes[n].trims[victim ? 1 : 0]++;
}

void
MrcFabricDropMonitor::OnFaultDrop(uint32_t n, Ptr<const Packet> packet, MrcFabricLossCause cause)
{
    m_nodes[n].linkLoss.at(uint32_t(cause))++;
}

void
MrcFabricDropMonitor::OnEcmpDrop(uint32_t n,
                                 Ptr<const Packet> packet,
                                 const Ipv6Header& header,
                                 MrcIpv6EcmpRouting::DropReason reason)
{
    m_nodes[n].ecmp[reason]++;
}

void
MrcFabricDropMonitor::OnSrv6Drop(uint32_t n,
                                 Ptr<const Packet> packet,
                                 const Ipv6Header& header,
                                 MrcIpv6Srv6Routing::DropReason reason)
{
    m_nodes[n].srv6[reason]++;
}

void
MrcFabricDropMonitor::OnPipelineDrop(uint32_t n,
                                     Ptr<const Packet> packet,
                                     const Ipv6Header& header,
                                     MrcSwitchPipeline::DropReason reason)
{
    m_nodes[n].pipeline[reason]++;
}

void
MrcFabricDropMonitor::OnHostDrop(uint32_t n,
                                 Ptr<const Packet> packet,
                                 const Ipv6Header& header,
                                 MrcIpv6Srv6HostRouting::DropReason reason)
{
    m_nodes[n].host[reason]++;
}

void
MrcFabricDropMonitor::AppendRows(const NodeCounts& n, std::vector<Row>& rows) const
{
    std::map<std::pair<MrcFabricDropKind, std::string>, uint64_t> counts;
    for (const Queue& q : n.queues)
    {
        const QueueDisc::Stats& stats = q.disc->GetStats();
        for (const auto& [reason, count] : Drops(stats))
        {
            auto it = q.drops0.find(reason);
            counts[{MrcFabricDropKind::QUEUE_DROP, reason}] +=
                count - (it == q.drops0.end() ? 0 : it->second);
        }
        for (const auto& [reason, count] : Marks(stats))
        {
            auto it = q.marks0.find(reason);
            counts[{MrcFabricDropKind::ECN_MARK, reason}] +=
                count - (it == q.marks0.end() ? 0 : it->second);
        }
    }
    counts[{MrcFabricDropKind::TRIM, "arrival"}] += n.trims[0];
    counts[{MrcFabricDropKind::TRIM, "victim"}] += n.trims[1];
    for (uint32_t cause = 0; cause < kMrcFabricLossCauses; ++cause)
    {
        counts[{MrcFabricDropKind::LINK_LOSS, Text(MrcFabricLossCause(cause))}] +=
            n.linkLoss[cause];
    }
    // Every routing layer's drops, whatever its DropReason type.
    const auto routingDrops = [&counts](const auto& byReason) {
        for (const auto& [reason, count] : byReason)
        {
            counts[{MrcFabricDropKind::ROUTING_DROP, Text(reason)}] += count;
        }
    };
    routingDrops(n.ecmp);
    routingDrops(n.srv6);
    routingDrops(n.host);
    routingDrops(n.pipeline);
    for (const auto& [key, count] : counts)
    {
        if (count > 0)
        {
            rows.push_back(
                Row{n.node, n.name, n.tier, n.plane, n.index, key.first, key.second, count});
        }
    }
}

std::vector<MrcFabricDropMonitor::Row>
MrcFabricDropMonitor::GetRows() const
{
    if (m_imported)
    {
        return m_importedRows;
    }
    std::vector<Row> rows;
    for (const NodeCounts& n : m_nodes)
    {
        AppendRows(n, rows);
    }
    return rows;
}

std::vector<MrcFabricDropMonitor::Row>
MrcFabricDropMonitor::GetRows(Ptr<const Node> node) const
{
    std::vector<Row> rows;
    if (m_imported)
    {
        std::copy_if(m_importedRows.begin(),
                     m_importedRows.end(),
                     std::back_inserter(rows),
                     [&node](const Row& r) {
                         return r.node == node;
                     });
        return rows;
    }
    for (const NodeCounts& n : m_nodes)
    {
        if (n.node == node)
        {
            AppendRows(n, rows);
        }
    }
    return rows;
}

namespace
{
/**
 * \param text a field
 * \param value its value
 * \return whether the whole field is a decimal number that fits
 */
bool
ParseCount(const std::string& text, uint64_t& value)
{
    const char* end = text.data() + text.size();
    const auto [at, error] = std::from_chars(text.data(), end, value);
    return !text.empty() && error == std::errc() && at == end;
}
} // namespace

std::string
MrcFabricDropMonitor::ExportRows() const
{
    std::ostringstream os;
    for (uint32_t slot = 0; slot < m_nodes.size(); ++slot)
    {
        std::vector<Row> rows;
        AppendRows(m_nodes[slot], rows);
        for (const Row& r : rows)
        {
            os << slot << '\t' << uint32_t(r.kind) << '\t' << r.reason << '\t' << r.count << '\n';
        }
    }
    return os.str();
}

void
MrcFabricDropMonitor::ImportRows(const std::vector<std::string>& exports)
{
    std::vector<std::pair<uint32_t, Row>> rows; // slot, row
    for (const std::string& text : exports)
    {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
        {
            std::vector<std::string> f;
            std::istringstream fields(line);
            for (std::string x; std::getline(fields, x, '\t');)
            {
                f.push_back(x);
            }
            uint64_t slot = 0;
            uint64_t kind = 0;
            uint64_t count = 0;
            const bool ok = f.size() == 4 && ParseCount(f[0], slot) && ParseCount(f[1], kind)
                            && ParseCount(f[3], count);
            if (!ok || slot >= m_nodes.size() || kind > uint64_t(MrcFabricDropKind::ROUTING_DROP))
            {
                const std::string slots = m_nodes.empty()
                                              ? "none (not installed)"
                                              : "0.." + std::to_string(m_nodes.size() - 1);
                throw std::invalid_argument("MrcFabricDropMonitor::ImportRows: line '" + line
                                            + "' (accepted: slot " + slots
                                            + ", kind 0..4, reason, count, separated by tabs)");
            }
            const NodeCounts& n = m_nodes[slot];
            rows.emplace_back(uint32_t(slot),
                              Row{n.node,
                                  n.name,
                                  n.tier,
                                  n.plane,
                                  n.index,
                                  MrcFabricDropKind(kind),
                                  f[2],
                                  count});
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    m_importedRows.clear();
    for (auto& [slot, row] : rows)
    {
        m_importedRows.push_back(std::move(row));
    }
    m_imported = true;
}

uint64_t
MrcFabricDropMonitor::GetTotal(MrcFabricDropKind kind) const
{
    uint64_t total = 0;
    for (const Row& r : GetRows())
    {
        total += r.kind == kind ? r.count : 0;
    }
    return total;
}

uint64_t
MrcFabricDropMonitor::GetTotal(MrcFabricDropKind kind, const std::string& reason) const
{
    uint64_t total = 0;
    for (const Row& r : GetRows())
    {
        total += (r.kind == kind && r.reason == reason) ? r.count : 0;
    }
    return total;
}

void
MrcFabricDropMonitor::WriteCsv(std::ostream& os) const
{
    os << "node,tier,plane,index,kind,reason,count\n";
    for (const Row& r : GetRows())
    {
        os << MrcCsvField(r.name) << "," << r.tier << "," << r.plane << "," << r.index << ","
           << r.kind << "," << MrcCsvField(r.reason) << "," << r.count << "\n";
    }
}

} // namespace ns3
