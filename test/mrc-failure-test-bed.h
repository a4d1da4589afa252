/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test bed of the failure-injection suites: a fabric with ECMP routing, an MrcFailureHelper and
 * numbered UDP datagrams between hosts, with their one-way delays at the receiver.
 */

#ifndef MRC_FAILURE_TEST_BED_H
#define MRC_FAILURE_TEST_BED_H

#include "ns3/inet6-socket-address.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

#include <map>

namespace ns3
{
namespace mrctest
{

/// A fabric, a failure helper, and numbered UDP datagrams between two hosts.
struct FlowBed
{
    Ptr<MrcFabricTopology> topo;        //!< fabric
    Ptr<MrcFailureHelper> failures;     //!< failures
    std::map<uint32_t, Ptr<Socket>> tx; //!< sending socket per source host
    std::map<uint32_t, Time> delay;     //!< received sequence number -> one-way delay
    uint32_t sent{0};                   //!< datagrams sent
    uint32_t linkChanges{0};            //!< link-change callbacks seen

    /// \param spec fabric shape
    explicit FlowBed(const MrcClosSpec& spec = MrcClosSpec::TwoTier(1, 2, 1, 1))
    {
        topo = MrcClosTopologyHelper().Build(spec);
        MrcEcmpRoutingHelper().Install(*topo);
        failures = CreateObject<MrcFailureHelper>(topo);
        for (uint32_t h = 0; h < topo->GetHostCount(); ++h)
        {
            Ptr<Socket> rx = Socket::CreateSocket(topo->GetHost(h), UdpSocketFactory::GetTypeId());
            rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
            rx->SetRecvCallback(MakeCallback(&FlowBed::OnRx, this));
            tx[h] = Socket::CreateSocket(topo->GetHost(h), UdpSocketFactory::GetTypeId());
        }
    }

    ~FlowBed()
    {
        Simulator::Destroy();
        Names::Clear();
    }

    /**
     * Send datagram number `sent` (its send time inside) at a given time.
     * \param at when
     * \param src source host
     * \param dst destination host
     * \param size UDP payload bytes (>= 12)
     * \return its sequence number
     */
    uint32_t SendAt(Time at, uint32_t src, uint32_t dst, uint32_t size = 100)
    {
        const Inet6SocketAddress to(topo->GetHostAddress(dst, 0), 9);
        Simulator::Schedule(at, &FlowBed::Send, this, tx[src], to, sent, size);
        return sent++;
    }

    /**
     * \param socket socket
     * \param to destination
     * \param seq sequence number
     * \param size payload bytes
     */
    void Send(Ptr<Socket> socket, Inet6SocketAddress to, uint32_t seq, uint32_t size)
    {
        SeqTsHeader h;
        h.SetSeq(seq);
        Ptr<Packet> p = Create<Packet>(size - h.GetSerializedSize());
        p->AddHeader(h);
        socket->SendTo(p, 0, to);
    }

    /// \param socket a receiving socket
    void OnRx(Ptr<Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            SeqTsHeader h;
            p->RemoveHeader(h);
            delay[h.GetSeq()] = Simulator::Now() - h.GetTs();
        }
    }

    /// Link-change callback.
    void OnLinkChange()
    {
        ++linkChanges;
    }

    /**
     * \param first first sequence number
     * \param count how many
     * \return how many of them arrived
     */
    uint32_t Arrived(uint32_t first, uint32_t count) const
    {
        uint32_t n = 0;
        for (uint32_t s = first; s < first + count; ++s)
        {
            n += delay.count(s);
        }
        return n;
    }

    /**
     * \param link link id
     * \param end 0 lower, 1 upper
     * \return that device
     */
    Ptr<MrcFabricNetDevice> Device(uint32_t link, uint32_t end) const
    {
        const MrcFabricLink& l = topo->GetLinks().at(link);
        return DynamicCast<MrcFabricNetDevice>(end == 0 ? l.lowerDevice : l.upperDevice);
    }
};

/**
 * \param bed test bed
 * \param first first datagram's time
 * \param n how many, 1 us apart
 * \param src source host
 * \param dst destination host
 * \return the first sequence number
 */
inline uint32_t
Burst(FlowBed& bed, Time first, uint32_t n, uint32_t src = 0, uint32_t dst = 1)
{
    const uint32_t seq = bed.sent;
    for (uint32_t i = 0; i < n; ++i)
    {
        bed.SendAt(first + MicroSeconds(i), src, dst);
    }
    return seq;
}

} // namespace mrctest
} // namespace ns3

#endif /* MRC_FAILURE_TEST_BED_H */
