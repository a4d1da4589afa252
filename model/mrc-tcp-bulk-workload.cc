/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-tcp-bulk-workload.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/mrc-rank-barrier.h"
#include "ns3/mrc-rank-locality.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTcpBulkWorkload");

NS_OBJECT_ENSURE_REGISTERED(MrcTcpBulkWorkload);

bool
MrcTcpBulkWorkload::Flow::IsComplete() const
{
    return !finish.IsStrictlyNegative();
}

Time
MrcTcpBulkWorkload::Flow::GetCompletionTime() const
{
    return IsComplete() ? finish - start : Time(-1);
}

TypeId
MrcTcpBulkWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcTcpBulkWorkload")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcTcpBulkWorkload>()
            .AddAttribute("BasePort",
                          "Destination port of the first flow; flow i uses BasePort + i.",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&MrcTcpBulkWorkload::m_basePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SendSize",
                          "Bytes BulkSendApplication hands to its socket per write (>= 1).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&MrcTcpBulkWorkload::m_sendSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("FlowComplete",
                            "The last byte of a flow arrived: its index and completion time.",
                            MakeTraceSourceAccessor(&MrcTcpBulkWorkload::m_flowComplete),
                            "ns3::MrcTcpBulkWorkload::FlowTracedCallback");
    return tid;
}

MrcTcpBulkWorkload::MrcTcpBulkWorkload()
{
    NS_LOG_FUNCTION(this);
}

MrcTcpBulkWorkload::~MrcTcpBulkWorkload() = default;

void
MrcTcpBulkWorkload::DoDispose()
{
    m_done = Callback<void>();
    if (m_barrier)
    {
        m_barrier->Dispose();
        m_barrier = nullptr;
    }
    Object::DoDispose();
}

void
MrcTcpBulkWorkload::AddFlow(uint32_t src,
                            uint32_t dst,
                            uint64_t bytes,
                            Time start,
                            std::optional<uint32_t> plane)
{
    const std::string name = "MrcTcpBulkWorkload: flow " + std::to_string(m_flows.size()) + " ";
    if (bytes == 0)
    {
        throw std::invalid_argument(name + "bytes must be > 0");
    }
    if (start.IsStrictlyNegative())
    {
        throw std::invalid_argument(name + "start (=" + std::to_string(start.GetSeconds())
                                    + " s) must be >= 0");
    }
    if (src == dst)
    {
        throw std::invalid_argument(name + "src and dst (=" + std::to_string(src)
                                    + ") must differ");
    }
    if (m_installed)
    {
        throw std::logic_error("MrcTcpBulkWorkload: AddFlow after Install");
    }
    Flow f;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.start = start;
    f.plane = plane.value_or(UINT32_MAX); // resolved by Install
    m_flows.push_back(f);
}

void
MrcTcpBulkWorkload::Install(Ptr<MrcFabricTopology> topo)
{
    NS_LOG_FUNCTION(this << topo);
    if (m_installed)
    {
        throw std::logic_error("MrcTcpBulkWorkload::Install: called twice");
    }
    const uint32_t hosts = topo->GetHostCount();
    const uint32_t planes = topo->GetSpec().planes;
    if (m_flows.size() > 65536u - m_basePort)
    {
        throw std::invalid_argument("MrcTcpBulkWorkload: " + std::to_string(m_flows.size())
                                    + " flows do not fit in the ports from BasePort (="
                                    + std::to_string(m_basePort) + ") to 65535");
    }
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        Flow& f = m_flows[i];
        const std::string name = "MrcTcpBulkWorkload: flow " + std::to_string(i) + " ";
        if (f.src >= hosts || f.dst >= hosts)
        {
            throw std::invalid_argument(name + "hosts (=" + std::to_string(f.src) + ", "
                                        + std::to_string(f.dst) + ") must be in 0.."
                                        + std::to_string(hosts - 1));
        }
        if (f.plane == UINT32_MAX)
        {
            f.plane = i % planes;
        }
        else if (f.plane >= planes)
        {
            throw std::invalid_argument(name + "plane (=" + std::to_string(f.plane)
                                        + ") must be in 0.." + std::to_string(planes - 1));
        }
    }
    m_installed = true;
    // On MPI ranks each end runs on its host's rank only (a copy of another rank's host must
    // not send), and the ranks agree on when the last flow completed (MrcRankBarrier).
    const bool distributed = MrcRankLocality::IsDistributed();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        Flow& f = m_flows[i];
        f.port = static_cast<uint16_t>(m_basePort + i);
        if (!distributed || MrcRankLocality::IsLocal(topo->GetHost(f.dst)))
        {
            m_localFlows++;
            const Address local = Inet6SocketAddress(Ipv6Address::GetAny(), f.port);
            PacketSinkHelper sink("ns3::TcpSocketFactory", local);
            ApplicationContainer s = sink.Install(topo->GetHost(f.dst));
            s.Start(Seconds(0));
            s.Get(0)->TraceConnectWithoutContext(
                "Rx",
                MakeCallback(&MrcTcpBulkWorkload::OnRx, this).Bind(i));
        }
        if (!distributed || MrcRankLocality::IsLocal(topo->GetHost(f.src)))
        {
            BulkSendHelper bulk("ns3::TcpSocketFactory",
                                Inet6SocketAddress(topo->GetHostAddress(f.dst, f.plane), f.port));
            bulk.SetAttribute("MaxBytes", UintegerValue(f.bytes));
            bulk.SetAttribute("SendSize", UintegerValue(m_sendSize));
            ApplicationContainer app = bulk.Install(topo->GetHost(f.src));
            // Applications start relative to now; flows are given in absolute time.
            app.Start(f.start - Simulator::Now());
        }
    }
    if (distributed)
    {
        m_barrier = CreateObject<MrcRankBarrier>();
        m_barrier->Setup();
        m_barrier->SetOutcomeCallback(MakeCallback(&MrcTcpBulkWorkload::OnOutcome, this));
        if (m_localFlows == 0)
        {
            // Nothing received here: this rank's share ended at the start.
            Simulator::ScheduleNow(&MrcRankBarrier::Post, m_barrier, uint64_t(0), false);
        }
    }
}

void
MrcTcpBulkWorkload::OnOutcome(uint64_t key, Time end, bool failed)
{
    NS_LOG_FUNCTION(this << key << end << failed);
    m_allDone = true;
    if (!m_done.IsNull())
    {
        m_done();
    }
}

void
MrcTcpBulkWorkload::MergeFlows(const std::vector<uint64_t>& received,
                               const std::vector<int64_t>& finish)
{
    if (received.size() != m_flows.size() || finish.size() != m_flows.size())
    {
        throw std::invalid_argument(
            "MrcTcpBulkWorkload::MergeFlows: " + std::to_string(received.size()) + " and "
            + std::to_string(finish.size()) + " values (accepted: " + std::to_string(m_flows.size())
            + " each, one per flow)");
    }
    m_completed = 0;
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        m_flows[i].received = received[i];
        m_flows[i].finish = finish[i] < 0 ? Time(-1) : TimeStep(finish[i]);
        m_completed += m_flows[i].IsComplete() ? 1 : 0;
    }
}

void
MrcTcpBulkWorkload::OnRx(uint32_t index, Ptr<const Packet> packet, const Address& from)
{
    Flow& f = m_flows[index];
    f.received += packet->GetSize();
    if (f.received >= f.bytes && !f.IsComplete())
    {
        f.finish = Simulator::Now();
        ++m_completed;
        NS_LOG_INFO("TCP flow " << index << " h" << f.src << "->h" << f.dst << " complete in "
                                << f.GetCompletionTime().As(Time::US));
        m_flowComplete(index, f.GetCompletionTime());
        if (m_barrier)
        {
            if (m_completed == m_localFlows)
            {
                m_barrier->Post(0, false); // every flow received here is complete
            }
        }
        else if (IsDone() && !m_done.IsNull())
        {
            m_done();
        }
    }
}

const std::vector<MrcTcpBulkWorkload::Flow>&
MrcTcpBulkWorkload::GetFlows() const
{
    return m_flows;
}

uint32_t
MrcTcpBulkWorkload::GetCompletedCount() const
{
    return m_completed;
}

bool
MrcTcpBulkWorkload::IsDone() const
{
    return m_barrier ? m_allDone : m_completed == m_flows.size();
}

MrcCompletionStats
MrcTcpBulkWorkload::GetCompletionStats() const
{
    return GetCompletionStats(m_flows);
}

MrcCompletionStats
MrcTcpBulkWorkload::GetCompletionStats(const std::vector<Flow>& flows)
{
    std::vector<Time> fct;
    for (const Flow& f : flows)
    {
        if (f.IsComplete())
        {
            fct.push_back(f.GetCompletionTime());
        }
    }
    return MrcCompletionStats(fct);
}

void
MrcTcpBulkWorkload::SetDoneCallback(Callback<void> cb)
{
    m_done = cb;
}

} // namespace ns3
