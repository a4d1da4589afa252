/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-congestion-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcCongestionOps);

TypeId
MrcCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCongestionOps").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

void
MrcCongestionOps::SetReceiverPenalty(uint8_t penalty)
{
    m_penalty = penalty > 127 ? 127 : penalty;
}

uint64_t
MrcCongestionOps::GetWindow() const
{
    return GetCwnd() * (128 - m_penalty) / 128;
}

std::optional<DataRate>
MrcCongestionOps::GetPacingRate() const
{
    return std::nullopt;
}

void
MrcCongestionOps::OnCongestionNotification(Time now)
{
}

void
MrcCongestionOps::OnDataSent(Time now, uint32_t wireBytes)
{
}

std::optional<Time>
MrcCongestionOps::GetCnpInterval() const
{
    return std::nullopt;
}

uint64_t
MrcCongestionOps::GetMaxCwnd() const
{
    return GetCwnd();
}

void
MrcCongestionOps::SetBytesInFlight(uint64_t bytes)
{
    m_bytesInFlight = bytes;
}

} // namespace ns3
