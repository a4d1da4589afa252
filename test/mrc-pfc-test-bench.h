/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fixture of the PFC test suite: a chain of nodes (sending host, switches, receiving host)
 * with fabric links, PfcQueueDiscs and optionally PFC, and UDP bursts at a DSCP.
 */

#ifndef MRC_PFC_TEST_BENCH_H
#define MRC_PFC_TEST_BENCH_H

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-fabric-channel.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/mrc-pfc-device-queue.h"
#include "ns3/mrc-pfc-helper.h"
#include "ns3/mrc-pfc-queue-disc.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace pfctest
{

constexpr uint8_t kLosslessDscp = 26;             //!< RoCEv2 data: priority 3
constexpr uint8_t kLossyDscp = 8;                 //!< priority 1
constexpr uint16_t kLosslessPort = 9;             //!< sink of the lossless flow
constexpr uint16_t kLossyPort = 10;               //!< sink of the lossy flow
constexpr uint32_t kPayload = 1000;               //!< UDP payload bytes
constexpr uint32_t kWire = kPayload + 8 + 20 + 2; //!< bytes on the wire (UDP, IPv4, PPP)

/**
 * A chain of nodes: node 0 (the sending host), switches, the last node (the receiving host);
 * link i joins node i and node i+1 at rates[i], 1 us each way, as MrcClosTopologyHelper builds a
 * link (MrcFabricNetDevice, MrcPfcDeviceQueue of 1 frame, MrcFabricChannel), IPv4 with global
 * routing. Every device has an MrcPfcQueueDisc (hosts: 64 MiB per lossy priority, switches: 128
 * KiB).
 */
class PfcChain
{
  public:
    /**
     * \param rates link rates, first link first
     * \param pfc install PFC on every device (static XOFF 64 KiB, XON 48 KiB)
     */
    PfcChain(const std::vector<std::string>& rates, bool pfc)
        : PfcChain(rates, pfc ? std::optional<MrcPfcHelper>(MrcPfcHelper()) : std::nullopt)
    {
    }

    /**
     * \param rates link rates, first link first
     * \param pfc the helper that installs PFC on every device, or nothing
     */
    PfcChain(const std::vector<std::string>& rates, const std::optional<MrcPfcHelper>& pfc)
    {
        m_nodes.Create(rates.size() + 1);
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(m_nodes);
        Ipv4AddressHelper address;
        for (uint32_t i = 0; i < rates.size(); ++i)
        {
            NetDeviceContainer d = Link(m_nodes.Get(i), m_nodes.Get(i + 1), rates[i]);
            for (uint32_t end = 0; end < 2; ++end)
            {
                const uint32_t node = i + end;
                const bool host = node == 0 || node == rates.size();
                MrcPfcHelper::QueueDiscHelper(host ? "64MiB" : "128KiB").Install(d.Get(end));
            }
            address.SetBase(Ipv4Address(("10.0." + std::to_string(i) + ".0").c_str()),
                            "255.255.255.0");
            m_interfaces.push_back(address.Assign(d));
            m_devices.push_back(d);
        }
        if (pfc)
        {
            for (const auto& d : m_devices)
            {
                pfc->Install(d);
            }
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }

    /**
     * \param link a link
     * \param end 0: the end nearer the sender, 1: the other
     * \return the device
     */
    Ptr<NetDevice> Device(uint32_t link, uint32_t end) const
    {
        return m_devices.at(link).Get(end);
    }

    /**
     * \param link a link
     * \param end its end
     * \return the device's MrcPfcPort (may be null)
     */
    Ptr<MrcPfcPort> Port(uint32_t link, uint32_t end) const
    {
        return MrcPfcHelper::GetPort(Device(link, end));
    }

    /**
     * \param link a link
     * \param end its end
     * \return the device's queue disc
     */
    Ptr<MrcPfcQueueDisc> Qdisc(uint32_t link, uint32_t end) const
    {
        Ptr<NetDevice> dev = Device(link, end);
        return DynamicCast<MrcPfcQueueDisc>(
            dev->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev));
    }

    /// \return packets dropped by every queue disc and device queue
    uint64_t Drops() const
    {
        uint64_t drops = 0;
        for (uint32_t l = 0; l < m_devices.size(); ++l)
        {
            for (uint32_t e = 0; e < 2; ++e)
            {
                drops += Qdisc(l, e)->GetStats().nTotalDroppedPackets;
                auto dev = DynamicCast<PointToPointNetDevice>(Device(l, e));
                drops += dev->GetQueue()->GetTotalDroppedPackets();
            }
        }
        return drops;
    }

    /// \return the sending host
    Ptr<Node> Sender() const
    {
        return m_nodes.Get(0);
    }

    /// \return the receiving host
    Ptr<Node> Receiver() const
    {
        return m_nodes.Get(m_nodes.GetN() - 1);
    }

    /// \return the receiving host's address
    Ipv4Address ReceiverAddress() const
    {
        return m_interfaces.back().GetAddress(1);
    }

    /**
     * A fabric link as MrcClosTopologyHelper builds it (also used by other fixtures).
     * \param a one node
     * \param b the other
     * \param rate the link rate
     * \return the two devices, a's first
     */
    static NetDeviceContainer Link(Ptr<Node> a, Ptr<Node> b, const std::string& rate)
    {
        Ptr<MrcFabricChannel> channel = CreateObject<MrcFabricChannel>();
        channel->SetAttribute("Delay", StringValue("1us"));
        NetDeviceContainer c;
        for (Ptr<Node> n : {a, b})
        {
            Ptr<MrcFabricNetDevice> dev = CreateObject<MrcFabricNetDevice>();
            dev->SetAttribute("DataRate", StringValue(rate));
            dev->SetAddress(Mac48Address::Allocate());
            n->AddDevice(dev);
            Ptr<MrcPfcDeviceQueue> queue = CreateObject<MrcPfcDeviceQueue>();
            queue->SetMaxSize(QueueSize("1p"));
            dev->SetQueue(queue);
            Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
            ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
            dev->AggregateObject(ndqi);
            dev->Attach(channel);
            c.Add(dev);
        }
        return c;
    }

  private:
    NodeContainer m_nodes;                            //!< the chain
    std::vector<NetDeviceContainer> m_devices;        //!< per link
    std::vector<Ipv4InterfaceContainer> m_interfaces; //!< per link
};

/**
 * Hand \p count UDP datagrams to the socket at once (the host's queue disc paces them out).
 * \param node sender
 * \param dst destination
 * \param port destination port
 * \param dscp DSCP of the datagrams
 * \param count how many
 */
inline void
SendBurst(Ptr<Node> node, Ipv4Address dst, uint16_t port, uint8_t dscp, uint32_t count)
{
    Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    s->Bind();
    s->Connect(InetSocketAddress(dst, port));
    s->SetIpTos(static_cast<uint8_t>(dscp << 2));
    for (uint32_t i = 0; i < count; ++i)
    {
        s->Send(Create<Packet>(kPayload));
    }
}

/**
 * \param rate a link rate
 * \return the serialisation time of one datagram's frame
 */
inline Time
Frame(const std::string& rate)
{
    return DataRate(rate).CalculateBytesTxTime(kWire);
}

/**
 * \param node a node
 * \param port a UDP port
 * \return a packet sink on it
 */
inline Ptr<PacketSink>
Sink(Ptr<Node> node, uint16_t port)
{
    PacketSinkHelper helper("ns3::UdpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer apps = helper.Install(node);
    apps.Start(Seconds(0));
    return DynamicCast<PacketSink>(apps.Get(0));
}

} // namespace pfctest
} // namespace ns3

#endif /* MRC_PFC_TEST_BENCH_H */
