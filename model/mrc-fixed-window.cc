/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fixed-window.h"

#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcFixedWindow);

TypeId
MrcFixedWindow::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFixedWindow")
                            .SetParent<MrcCongestionOps>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFixedWindow>()
                            .AddAttribute("Window",
                                          "Bytes in flight allowed (0: 1.5 x the bandwidth-delay "
                                          "product of one port).",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&MrcFixedWindow::m_window),
                                          MakeUintegerChecker<uint64_t>());
    return tid;
}

void
MrcFixedWindow::Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt)
{
    if (m_window == 0)
    {
        m_window = static_cast<uint64_t>(
            std::llround(1.5 * linkRate.GetBitRate() / 8.0 * baseRtt.GetSeconds()));
    }
    m_window = std::max<uint64_t>(m_window, mtu);
}

void
MrcFixedWindow::OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn)
{
}

void
MrcFixedWindow::OnNack(Time now, uint32_t nackedBytes, bool lastHop)
{
}

void
MrcFixedWindow::OnLoss(Time now, uint32_t lostBytes)
{
}

uint64_t
MrcFixedWindow::GetCwnd() const
{
    return m_window;
}

} // namespace ns3
