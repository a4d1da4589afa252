/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nic-port.h"

#include "mrc-l4-protocol.h"
#include "mrc-queue-pair.h"

#include "ns3/log.h"
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
}

void
MrcNicPort::Busy(uint32_t size)
{
    m_busy = true;
    m_doneEvent = Simulator::Schedule(m_rate.CalculateBytesTxTime(size), &MrcNicPort::Done, this);
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
    if (!m_control.empty())
    {
        auto [packet, path, dscp] = m_control.front();
        m_control.pop_front();
        const uint32_t size = MrcL4Protocol::GetWireSize(packet->GetSize(), path);
        m_l4->Transmit(packet, path, dscp, false);
        Busy(size);
        return;
    }
    // Round robin over the ready QPs; one that has nothing leaves the list.
    while (!m_ready.empty())
    {
        Ptr<MrcQueuePair> qp = m_ready.front();
        m_ready.pop_front();
        std::optional<MrcQueuePair::TxPacket> tx = qp->PullPacket(m_plane);
        if (!tx)
        {
            continue;
        }
        m_ready.push_back(qp);
        const uint32_t size = MrcL4Protocol::GetWireSize(tx->packet->GetSize(), tx->path);
        m_l4->Transmit(tx->packet, tx->path, tx->dscp, true);
        Busy(size);
        return;
    }
}

} // namespace ns3
