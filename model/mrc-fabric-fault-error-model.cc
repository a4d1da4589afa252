/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-fault-error-model.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricFaultErrorModel");

NS_OBJECT_ENSURE_REGISTERED(MrcFabricFaultErrorModel);

std::ostream&
operator<<(std::ostream& os, MrcFabricLossCause cause)
{
    switch (cause)
    {
        case MrcFabricLossCause::LINK_DOWN:
            return os << "link-down";
        case MrcFabricLossCause::IN_FLIGHT:
            return os << "in-flight";
        case MrcFabricLossCause::BLACKHOLE:
            return os << "blackhole";
        case MrcFabricLossCause::RANDOM_LOSS:
            return os << "random-loss";
    }
    return os << "?";
}

TypeId
MrcFabricFaultErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFabricFaultErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcFabricFaultErrorModel>()
            .AddAttribute("Blackhole",
                          "Drop every arriving frame (the carrier stays up).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcFabricFaultErrorModel::SetBlackhole,
                                              &MrcFabricFaultErrorModel::IsBlackhole),
                          MakeBooleanChecker())
            .AddAttribute("LossProbability",
                          "Probability of losing each arriving frame (gray failure), 0..1.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&MrcFabricFaultErrorModel::SetLossProbability,
                                             &MrcFabricFaultErrorModel::GetLossProbability),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Drop",
                            "A frame was dropped by a fault: frame, cause.",
                            MakeTraceSourceAccessor(&MrcFabricFaultErrorModel::m_dropTrace),
                            "ns3::MrcFabricFaultErrorModel::DropTracedCallback");
    return tid;
}

MrcFabricFaultErrorModel::MrcFabricFaultErrorModel()
{
    NS_LOG_FUNCTION(this);
}

MrcFabricFaultErrorModel::~MrcFabricFaultErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
MrcFabricFaultErrorModel::DoDispose()
{
    m_uniform = nullptr;
    m_inner = nullptr;
    ErrorModel::DoDispose();
}

void
MrcFabricFaultErrorModel::SetBlackhole(bool blackhole)
{
    NS_LOG_FUNCTION(this << blackhole);
    m_blackhole = blackhole;
}

bool
MrcFabricFaultErrorModel::IsBlackhole() const
{
    return m_blackhole;
}

void
MrcFabricFaultErrorModel::SetLossProbability(double probability)
{
    NS_LOG_FUNCTION(this << probability);
    if (!(probability >= 0 && probability <= 1))
    {
        throw std::invalid_argument("MrcFabricFaultErrorModel: LossProbability (="
                                    + std::to_string(probability) + ") must be in [0, 1]");
    }
    m_lossProbability = probability;
    if (probability > 0)
    {
        GetUniform();
    }
}

double
MrcFabricFaultErrorModel::GetLossProbability() const
{
    return m_lossProbability;
}

void
MrcFabricFaultErrorModel::SetInner(Ptr<ErrorModel> inner)
{
    NS_ASSERT_MSG(inner != this, "an error model cannot be its own inner model");
    m_inner = inner;
}

Ptr<ErrorModel>
MrcFabricFaultErrorModel::GetInner() const
{
    return m_inner;
}

void
MrcFabricFaultErrorModel::NotifyCarrier(bool up, Time delay, DataRate senderRate)
{
    NS_LOG_FUNCTION(this << up << delay << senderRate);
    if (up == m_carrier)
    {
        return;
    }
    m_carrier = up;
    if (!up)
    {
        m_everDown = true;
        m_downAt = Simulator::Now();
        m_delay = delay;
        m_senderRate = senderRate;
    }
}

int64_t
MrcFabricFaultErrorModel::AssignStreams(int64_t stream)
{
    GetUniform()->SetStream(stream);
    return 1;
}

uint64_t
MrcFabricFaultErrorModel::GetDropped(MrcFabricLossCause cause) const
{
    return m_dropped.at(uint32_t(cause));
}

Ptr<UniformRandomVariable>
MrcFabricFaultErrorModel::GetUniform()
{
    if (!m_uniform)
    {
        m_uniform = CreateObject<UniformRandomVariable>();
    }
    return m_uniform;
}

bool
MrcFabricFaultErrorModel::Drop(Ptr<const Packet> p, MrcFabricLossCause cause)
{
    NS_LOG_LOGIC("drop " << p->GetUid() << " (" << cause << ")");
    m_dropped[uint32_t(cause)]++;
    m_dropTrace(p, cause);
    return true;
}

bool
MrcFabricFaultErrorModel::DoCorrupt(Ptr<Packet> p)
{
    if (IsEnabled())
    {
        if (m_everDown)
        {
            // When did this frame's first bit leave the sender? Arrival = start + serialization
            // + delay, exactly as PointToPointNetDevice and PointToPointChannel schedule it.
            const Time start =
                Simulator::Now() - m_delay - m_senderRate.CalculateBytesTxTime(p->GetSize());
            const bool sentBeforeFall = start <= m_downAt;
            if (!m_carrier)
            {
                return Drop(p,
                            sentBeforeFall ? MrcFabricLossCause::IN_FLIGHT
                                           : MrcFabricLossCause::LINK_DOWN);
            }
            if (sentBeforeFall)
            {
                return Drop(p, MrcFabricLossCause::IN_FLIGHT);
            }
        }
        if (m_blackhole)
        {
            return Drop(p, MrcFabricLossCause::BLACKHOLE);
        }
        if (m_lossProbability > 0 && GetUniform()->GetValue() < m_lossProbability)
        {
            return Drop(p, MrcFabricLossCause::RANDOM_LOSS);
        }
    }
    return m_inner && m_inner->IsCorrupt(p);
}

void
MrcFabricFaultErrorModel::DoReset()
{
    if (m_inner)
    {
        m_inner->Reset();
    }
}

} // namespace ns3
