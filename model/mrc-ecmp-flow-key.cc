/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-flow-key.h"

#include "ns3/hash.h"
#include "ns3/ipv6-header.h"
#include "ns3/packet.h"

#include <array>
#include <cstring>
#include <tuple>

namespace ns3
{

namespace
{
constexpr uint8_t kProtoTcp = 6;  //!< IANA protocol number of TCP
constexpr uint8_t kProtoUdp = 17; //!< IANA protocol number of UDP
} // namespace

MrcEcmpFlowKey::MrcEcmpFlowKey(Ipv6Address src,
                               Ipv6Address dst,
                               uint8_t protocol,
                               uint16_t srcPort,
                               uint16_t dstPort,
                               uint32_t flowLabel)
    : m_src(src)
    , m_dst(dst)
    , m_protocol(protocol)
    , m_srcPort(srcPort)
    , m_dstPort(dstPort)
    , m_flowLabel(flowLabel & 0xfffff)
{
}

MrcEcmpFlowKey
MrcEcmpFlowKey::FromPacket(const Ipv6Header& header, Ptr<const Packet> payload)
{
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    const uint8_t proto = header.GetNextHeader();
    if ((proto == kProtoTcp || proto == kProtoUdp) && payload && payload->GetSize() >= 4)
    {
        // Both TCP and UDP start with the 16-bit source and destination ports.
        std::array<uint8_t, 4> ports{};
        payload->CopyData(ports.data(), ports.size());
        srcPort = static_cast<uint16_t>((ports[0] << 8) | ports[1]);
        dstPort = static_cast<uint16_t>((ports[2] << 8) | ports[3]);
    }
    return MrcEcmpFlowKey(header.GetSource(),
                          header.GetDestination(),
                          proto,
                          srcPort,
                          dstPort,
                          header.GetFlowLabel());
}

uint32_t
MrcEcmpFlowKey::Hash(uint32_t seed) const
{
    // Seed first, then the fields in network byte order: 4 + 16 + 16 + 1 + 2 + 2 + 3 = 44 bytes.
    std::array<uint8_t, 44> buf{};
    size_t i = 0;
    for (int shift = 24; shift >= 0; shift -= 8)
    {
        buf[i++] = static_cast<uint8_t>(seed >> shift);
    }
    m_src.Serialize(&buf[i]);
    i += 16;
    m_dst.Serialize(&buf[i]);
    i += 16;
    buf[i++] = m_protocol;
    buf[i++] = static_cast<uint8_t>(m_srcPort >> 8);
    buf[i++] = static_cast<uint8_t>(m_srcPort);
    buf[i++] = static_cast<uint8_t>(m_dstPort >> 8);
    buf[i++] = static_cast<uint8_t>(m_dstPort);
    buf[i++] = static_cast<uint8_t>(m_flowLabel >> 16);
    buf[i++] = static_cast<uint8_t>(m_flowLabel >> 8);
    buf[i++] = static_cast<uint8_t>(m_flowLabel);
    return Hash32(reinterpret_cast<const char*>(buf.data()), i);
}

Ipv6Address
MrcEcmpFlowKey::GetSource() const
{
    return m_src;
}

Ipv6Address
MrcEcmpFlowKey::GetDestination() const
{
    return m_dst;
}

uint8_t
MrcEcmpFlowKey::GetProtocol() const
{
    return m_protocol;
}

uint16_t
MrcEcmpFlowKey::GetSourcePort() const
{
    return m_srcPort;
}

uint16_t
MrcEcmpFlowKey::GetDestinationPort() const
{
    return m_dstPort;
}

uint32_t
MrcEcmpFlowKey::GetFlowLabel() const
{
    return m_flowLabel;
}

bool
MrcEcmpFlowKey::operator==(const MrcEcmpFlowKey& other) const
{
    return m_src == other.m_src && m_dst == other.m_dst && m_protocol == other.m_protocol
           && m_srcPort == other.m_srcPort && m_dstPort == other.m_dstPort
           && m_flowLabel == other.m_flowLabel;
}

bool
MrcEcmpFlowKey::operator<(const MrcEcmpFlowKey& other) const
{
    return std::tie(m_src, m_dst, m_protocol, m_srcPort, m_dstPort, m_flowLabel)
           < std::tie(other.m_src,
                      other.m_dst,
                      other.m_protocol,
                      other.m_srcPort,
                      other.m_dstPort,
                      other.m_flowLabel);
}

std::ostream&
operator<<(std::ostream& os, const MrcEcmpFlowKey& key)
{
    os << "[" << key.GetSource() << "]:" << key.GetSourcePort() << " -> [" << key.GetDestination()
       << "]:" << key.GetDestinationPort() << " proto " << unsigned(key.GetProtocol()) << " fl "
       << key.GetFlowLabel();
    return os;
}

} // namespace ns3
