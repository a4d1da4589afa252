/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nic-port.h"

#include "mrc-l4-protocol.h"
#include "mrc-pfc-port.h"
#include "mrc-pfc-queue-disc.h"
#include "mrc-queue-pair.h"

#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNicPort");

MrcNicPort::MrcNicPort(MrcL4Protocol* l4, uint32_t plane, DataRate rate)
    : m_l4(l4)
    , m_plane(plane)
    , m_rate(rate)
{
}

void
MrcNicPort::Request(Ptr<MrcQueuePair> qp)
{
    if (std::find(m_ready.begin(), m_ready.end(), qp) == m_ready.end())
    {
        m_ready.push_back(qp);
    }
    Run();
}

void
MrcNicPort::SendControl(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp)
{
    m_control.emplace_back(packet, path, dscp);
    Run();
}

void
MrcNicPort::SetUp(bool up)
{
    m_up = up;
    if (!up)
    {
        m_control.clear();
    }
    Run();
}

bool
MrcNicPort::IsUp() const
{
    return m_up;
}

DataRate
MrcNicPort::GetRate() const
{
    return m_rate;
}

void
MrcNicPort::Clear()
{
    Simulator::Cancel(m_doneEvent);
    m_ready.clear();
    m_control.clear();
    m_busy = false;
    if (m_pfc)
    {
        m_pfc->TraceDisconnectWithoutContext("PauseStateChange",
                                             MakeCallback(&MrcNicPort::OnPauseState, this));
    }
    m_pfc = nullptr;
    m_device = nullptr;
}

void
MrcNicPort::SetDevice(Ptr<NetDevice> device)
{
    m_device = device;
}

uint64_t
MrcNicPort::GetPausedHolds() const
{
    return m_pausedHolds;
}

MrcPfcPort*
MrcNicPort::Pfc()
{
    if (!m_pfc && m_device)
    {
        // Looked up until found: MrcPfcHelper::Install may come after MrcHelper::Install. A
        // fabric channel keeps its ends' ports (told when one is installed): asking it is
        // cheap, searching the device's aggregates on every send was not (1.5 % of a run).
        if (!m_channel)
        {
            m_channel = DynamicCast<MrcFabricChannel>(m_device->GetChannel());
        }
        m_pfc = m_channel ? m_channel->GetPfcPort(m_device) : m_device->GetObject<MrcPfcPort>();
        if (m_pfc)
        {
            m_pfc->TraceConnectWithoutContext("PauseStateChange",
                                              MakeCallback(&MrcNicPort::OnPauseState, this));
        }
    }
    return PeekPointer(m_pfc);
}

bool
MrcNicPort::IsPaused(const MrcPfcPort* pfc, uint8_t dscp)
{
    return pfc && pfc->IsPaused(pfc->GetPriority(dscp));
}

void
MrcNicPort::OnPauseState(uint8_t priority, bool paused)
{
    NS_LOG_FUNCTION(this << unsigned(priority) << paused);
    if (!paused)
    {
        Run();
    }
}

void
MrcNicPort::Busy(uint32_t size)
{
    m_busy = true;
    // DataRate's division costs about 600 instructions (a 128-bit divide); a port sends a few
    // sizes over and over (full data packets and SACKs), so the last two sizes' times are kept.
    if (m_txTimes[0].first != size)
    {
        std::swap(m_txTimes[0], m_txTimes[1]);
        if (m_txTimes[0].first != size)
        {
            m_txTimes[0] = {size, m_rate.CalculateBytesTxTime(size)};
        }
    }
    m_doneEvent = Simulator::Schedule(m_txTimes[0].second, &MrcNicPort::Done, this);
}

void
MrcNicPort::Done()
{
    m_busy = false;
    Run();
}

void
MrcNicPort::Run()
{
    if (m_busy || !m_up)
    {
        return;
    }
    const MrcPfcPort* pfc = Pfc();
    bool held = false;
    // Control packets first, in order, except those of a paused priority.
    for (auto it = m_control.begin(); it != m_control.end(); ++it)
    {
        if (IsPaused(pfc, std::get<2>(*it)))
        {
            held = true;
            continue;
        }
        auto [packet, path, dscp] = *it;
        m_control.erase(it);
        const uint32_t size = MrcL4Protocol::GetWireSize(packet->GetSize(), path);
        m_l4->Transmit(packet, path, dscp, false);
        Busy(size);
        return;
    }
    // Round robin over the ready QPs; one that has nothing leaves the list, one whose next
    // packet's priority is paused stays (it goes when the priority resumes).
    for (std::size_t n = m_ready.size(); n > 0 && !m_ready.empty(); --n)
    {
        Ptr<MrcQueuePair> qp = m_ready.front();
        m_ready.pop_front();
        if (IsPaused(pfc, qp->GetNextDscp()))
        {
            m_ready.push_back(qp);
            held = true;
            continue;
        }
        std::optional<MrcQueuePair::TxPacket> tx = qp->PullPacket(m_plane);
        if (!tx)
        {
            continue;
        }
        m_ready.push_back(qp);
        const uint32_t size = MrcL4Protocol::GetWireSize(tx->packet->GetSize(), tx->path);
        m_l4->Transmit(tx->packet, tx->path, tx->dscp, true);
        Busy(size);
        m_holding = false;
        return;
    }
    if (held && !m_holding)
    {
        NS_LOG_LOGIC("NIC port " << m_plane << ": packets held by a PFC pause");
        m_pausedHolds++;
    }
    m_holding = held;
}

} // namespace ns3
