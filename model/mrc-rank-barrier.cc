/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rank-barrier.h"

#include "mrc-rank-barrier-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#ifdef NS3_MPI
#    include "ns3/channel-list.h"
#    include "ns3/channel.h"
#    include "ns3/mpi-interface.h"
#    include "ns3/mpi-receiver.h"
#    include "ns3/simple-net-device.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRankBarrier");

NS_OBJECT_ENSURE_REGISTERED(MrcRankBarrier);

TypeId
MrcRankBarrier::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRankBarrier")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRankBarrier>();
    return tid;
}

MrcRankBarrier::MrcRankBarrier() = default;

MrcRankBarrier::~MrcRankBarrier() = default;

void
MrcRankBarrier::DoDispose()
{
    m_send = MakeNullCallback<void, uint32_t, Ptr<Packet>>();
    m_outcome = MakeNullCallback<void, uint64_t, Time, bool>();
    m_endpoints.clear();
    Object::DoDispose();
}

void
MrcRankBarrier::Setup()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        const uint32_t ranks = MpiInterface::GetSize();
        const uint32_t self = MpiInterface::GetSystemId();
        // Each rank's least delay over its links to other ranks (as ns-3's distributed
        // simulator computes its lookahead); the largest of them is safe for every rank.
        std::vector<std::optional<Time>> least(ranks);
        for (auto it = ChannelList::Begin(); it != ChannelList::End(); ++it)
        {
            Ptr<Channel> channel = *it;
            TimeValue delay;
            if (channel->GetNDevices() != 2 || !channel->GetAttributeFailSafe("Delay", delay))
            {
                continue;
            }
            const uint32_t a = channel->GetDevice(0)->GetNode()->GetSystemId();
            const uint32_t b = channel->GetDevice(1)->GetNode()->GetSystemId();
            for (uint32_t r : {a, b})
            {
                if (a != b && r < ranks)
                {
                    least[r] = least[r] ? std::min(*least[r], delay.Get()) : delay.Get();
                }
            }
        }
        Time delay;
        for (uint32_t r = 0; r < ranks && ranks > 1; ++r)
        {
            if (!least[r])
            {
                throw std::logic_error("MrcRankBarrier: rank " + std::to_string(r)
                                       + " simulates no node linked to another rank's, so the "
                                         "run has no lookahead to exchange step ends with");
            }
            delay = std::max(delay, *least[r]);
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            Ptr<Node> node = CreateObject<Node>(r);
            Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
            node->AddDevice(device);
            if (r == self)
            {
                Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
                receiver->SetReceiveCallback(MakeCallback(&MrcRankBarrier::Receive, this));
                device->AggregateObject(receiver);
            }
            m_endpoints.push_back(node);
        }
        NS_LOG_INFO("rank " << self << " of " << ranks << ": posts take " << delay.As(Time::US));
        SetRanks(ranks, self, delay, MakeCallback(&MrcRankBarrier::SendToRank, this));
        return;
    }
#endif
    SetRanks(1, 0, Time(0), MakeNullCallback<void, uint32_t, Ptr<Packet>>());
}

void
MrcRankBarrier::SendToRank(uint32_t rank, Ptr<Packet> p)
{
#ifdef NS3_MPI
    Ptr<Node> node = m_endpoints.at(rank);
    MpiInterface::SendPacket(p,
                             Simulator::Now() + m_delay,
                             node->GetId(),
                             node->GetDevice(0)->GetIfIndex());
#endif
}

void
MrcRankBarrier::SetRanks(uint32_t ranks,
                         uint32_t self,
                         Time delay,
                         Callback<void, uint32_t, Ptr<Packet>> send)
{
    if (ranks == 0 || self >= ranks)
    {
        throw std::invalid_argument("MrcRankBarrier::SetRanks: rank " + std::to_string(self)
                                    + " of " + std::to_string(ranks)
                                    + " (ranks at least 1, the rank below them)");
    }
    m_ranks = ranks;
    m_self = self;
    m_delay = delay;
    m_send = send;
}

Time
MrcRankBarrier::GetDelay() const
{
    return m_delay;
}

uint32_t
MrcRankBarrier::GetRanks() const
{
    return m_ranks;
}

uint64_t
MrcRankBarrier::GetMalformed() const
{
    return m_malformed;
}

void
MrcRankBarrier::SetOutcomeCallback(Callback<void, uint64_t, Time, bool> cb)
{
    m_outcome = cb;
}

void
MrcRankBarrier::Post(uint64_t key, bool failed)
{
    const Time now = Simulator::Now();
    NS_LOG_FUNCTION(this << key << failed << now);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (r == m_self)
        {
            Simulator::Schedule(m_delay, &MrcRankBarrier::Learn, this, key, m_self, now, failed);
            continue;
        }
        MrcRankBarrierHeader h;
        h.SetKey(key);
        h.SetWhen(now);
        h.SetRank(m_self);
        h.SetFailed(failed);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        m_send(r, p);
    }
}

void
MrcRankBarrier::Receive(Ptr<Packet> p)
{
    MrcRankBarrierHeader h;
    p->RemoveHeader(h);
    if (!h.IsValid() || h.GetRank() >= m_ranks || h.GetRank() == m_self)
    {
        m_malformed++;
        NS_LOG_WARN("post dropped: " << (h.IsValid() ? "rank " + std::to_string(h.GetRank())
                                                           + " is not another rank of the run"
                                                     : h.GetError()));
        return;
    }
    Learn(h.GetKey(), h.GetRank(), h.GetWhen(), h.IsFailed());
}

void
MrcRankBarrier::Learn(uint64_t key, uint32_t rank, Time when, bool failed)
{
    Shares& s = m_shares[key];
    if (s.decided)
    {
        return;
    }
    if (failed)
    {
        s.failure = s.failure ? std::min(*s.failure, when) : when;
    }
    else
    {
        s.ended.resize(m_ranks, false);
        if (!s.ended[rank])
        {
            s.ended[rank] = true;
            s.endedCount++;
            s.latest = std::max(s.latest, when);
        }
    }
    if (!s.evaluating)
    {
        // After every post due at this instant: posts to arrive now were all queued before
        // this instant began (they left at least one lookahead ago), so a fresh event runs
        // after them.
        s.evaluating = true;
        Simulator::ScheduleNow(&MrcRankBarrier::Evaluate, this, key);
    }
}

void
MrcRankBarrier::Evaluate(uint64_t key)
{
    Shares& s = m_shares[key];
    s.evaluating = false;
    if (s.decided)
    {
        return;
    }
    const bool allEnded = s.endedCount == m_ranks;
    bool failed = false;
    Time when;
    if (s.failure && (!allEnded || *s.failure < s.latest))
    {
        failed = true;
        when = *s.failure;
    }
    else if (allEnded)
    {
        when = s.latest;
    }
    else
    {
        return;
    }
    s.decided = true;
    s.ended.clear();
    NS_LOG_INFO("activity " << key << (failed ? " failed at " : " ended at ") << when.As(Time::US)
                            << ", learnt at " << Simulator::Now().As(Time::US));
    if (!m_outcome.IsNull())
    {
        m_outcome(key, when, failed);
    }
}

} // namespace ns3
