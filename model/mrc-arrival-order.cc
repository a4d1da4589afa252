/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-arrival-order.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcArrivalOrder");

NS_OBJECT_ENSURE_REGISTERED(MrcArrivalOrder);

TypeId
MrcArrivalOrder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcArrivalOrder")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcArrivalOrder>();
    return tid;
}

MrcArrivalOrder::MrcArrivalOrder() = default;

MrcArrivalOrder::~MrcArrivalOrder() = default;

Ptr<MrcArrivalOrder>
MrcArrivalOrder::Get(Ptr<Node> node)
{
    Ptr<MrcArrivalOrder> order = node->GetObject<MrcArrivalOrder>();
    if (!order)
    {
        order = CreateObject<MrcArrivalOrder>();
        node->AggregateObject(order);
    }
    return order;
}

Time
MrcArrivalOrder::Lead()
{
    return TimeStep(1);
}

void
MrcArrivalOrder::Stage(Ptr<PointToPointNetDevice> device, Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << device->GetIfIndex() << p->GetSize());
    Frame f;
    f.ifIndex = device->GetIfIndex();
    f.device = device;
    f.packet = p;
    Keep(std::move(f));
}

void
MrcArrivalOrder::StageCall(uint32_t ifIndex, std::function<void()> deliver)
{
    NS_LOG_FUNCTION(this << ifIndex);
    Frame f;
    f.ifIndex = ifIndex;
    f.call = std::move(deliver);
    Keep(std::move(f));
}

void
MrcArrivalOrder::Keep(Frame frame)
{
    const int64_t step = (Simulator::Now() + Lead()).GetTimeStep();
    frame.step = step;
    m_frames.push_back(std::move(frame));
    m_staged++;
    if (m_scheduledStep != step)
    {
        m_scheduledStep = step;
        Simulator::Schedule(Lead(), &MrcArrivalOrder::Deliver, this);
    }
}

void
MrcArrivalOrder::Deliver()
{
    const int64_t step = Simulator::Now().GetTimeStep();
    m_now.clear();
    // Frames staged for a later step (staged in this step, before this event ran) stay.
    auto later = std::stable_partition(m_frames.begin(), m_frames.end(), [step](const Frame& f) {
        return f.step != step;
    });
    std::move(later, m_frames.end(), std::back_inserter(m_now));
    m_frames.erase(later, m_frames.end());
    std::stable_sort(m_now.begin(), m_now.end(), [](const Frame& a, const Frame& b) {
        return a.ifIndex < b.ifIndex;
    });
    NS_LOG_LOGIC(m_now.size() << " frame(s) at step " << step);
    for (Frame& f : m_now)
    {
        if (f.device)
        {
            f.device->Receive(f.packet);
        }
        else
        {
            f.call();
        }
    }
    m_now.clear();
}

uint64_t
MrcArrivalOrder::GetStagedFrames() const
{
    return m_staged;
}

void
MrcArrivalOrder::DoDispose()
{
    m_frames.clear();
    m_now.clear();
    Object::DoDispose();
}

} // namespace ns3
