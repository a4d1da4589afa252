/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PERMUTATION_HELPER_H
#define MRC_PERMUTATION_HELPER_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/mrc-ecmp-flow-key.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class Packet;
class Ipv6Header;

/**
 * \ingroup mrc
 * Transport that MrcPermutationHelper runs its flows on.
 */
enum class MrcPermutationTransport : uint8_t
{
    TCP, //!< ns-3 TCP: BulkSendApplication to PacketSink
    UDP, //!< UDP at line rate: OnOffApplication (always on) to PacketSink
};

/**
 * \ingroup mrc
 * \brief A random permutation workload on a fabric: every host sends N bytes to a distinct
 * host (a derangement: nobody sends to itself), on a random plane, with ns-3's own TCP or UDP.
 *
 * Records each flow's completion time (last byte received) and, through the switches'
 * MrcIpv6EcmpRouting Forward traces, the directed links each flow's data took, so that ECMP
 * collisions can be counted. Randomness comes from ns-3's RNG (seed and run number).
 */
class MrcPermutationHelper
{
  public:
    /// What happened to one flow.
    struct Flow
    {
        uint32_t src{0};        //!< source host
        uint32_t dst{0};        //!< destination host
        uint32_t plane{0};      //!< plane used
        uint64_t bytes{0};      //!< bytes sent (UDP: whole packets)
        uint64_t received{0};   //!< bytes received so far
        Time start;             //!< start time
        Time finish{Time(-1)};  //!< time the last byte arrived; negative if not (yet) complete
        uint32_t switchHops{0}; //!< switches on the path
        bool collided{false};   //!< shared at least one directed link with another flow
    };

    /**
     * \param topo the fabric (routing must be installed)
     */
    explicit MrcPermutationHelper(Ptr<MrcFabricTopology> topo);

    /// \param bytes bytes per flow (> 0); UDP flows round up to whole packets (Flow::bytes)
    void SetBytesPerFlow(uint64_t bytes);
    /// \param transport TCP or UDP
    void SetTransport(MrcPermutationTransport transport);
    /// \param size UDP payload per packet, 1..65507 (TCP segment size is ns3::TcpSocket's)
    void SetPacketSize(uint32_t size);
    /// \param start time at which every flow starts
    void SetStartTime(Time start);
    /**
     * \param stream the RNG stream of the permutation and plane choices (ns-3's AssignStreams
     *        convention: a fixed stream makes the draw independent of what else was created)
     */
    void SetStream(int64_t stream);
    /// \param track record each flow's links to count collisions (costs a map update per hop)
    void SetTrackCollisions(bool track);

    /**
     * A random derangement (nobody maps to itself): Fisher-Yates, then fixed points swapped
     * with their neighbour.
     * \param n number of hosts (>= 2)
     * \param rng the random variable to draw from
     * \return dst[i] for every source i
     */
    static std::vector<uint32_t> Derangement(uint32_t n, Ptr<UniformRandomVariable> rng);

    /**
     * Draw the permutation and install senders and sinks.
     * \return the sender applications
     */
    ApplicationContainer Install();

    /// \return every flow (index = source host)
    const std::vector<Flow>& GetFlows() const;

    /// \return number of directed links that carried data of more than one flow
    uint32_t GetCollidedLinks() const;

    /**
     * The line-rate completion time of one flow: its packets back to back at the host link rate
     * plus, per link on the path, one packet's store-and-forward and the propagation delay.
     * \param flow the flow
     * \param hostRate host link rate
     * \param fabricRate fabric link rate
     * \param delay per-link delay
     * \return the ideal completion time
     */
    Time GetIdealTime(const Flow& flow, DataRate hostRate, DataRate fabricRate, Time delay) const;

    /// \return wire bytes per full packet (payload + transport + IPv6 + PPP headers)
    uint32_t GetWirePacketSize() const;

  private:
    /**
     * PacketSink Rx trace.
     * \param flow index of the flow
     * \param packet the packet
     * \param from its sender
     */
    void OnRx(uint32_t flow, Ptr<const Packet> packet, const Address& from);

    /**
     * MrcIpv6EcmpRouting Forward trace.
     * \param context the switch's node id
     * \param packet the packet
     * \param header its header
     * \param interface outgoing interface
     * \param hash flow hash
     */
    void OnForward(std::string context,
                   Ptr<const Packet> packet,
                   const Ipv6Header& header,
                   uint32_t interface,
                   uint32_t hash);

    Ptr<MrcFabricTopology> m_topo;                                     //!< the fabric
    uint64_t m_bytes{1 << 20};                                         //!< bytes per flow
    MrcPermutationTransport m_transport{MrcPermutationTransport::UDP}; //!< transport
    uint32_t m_packetSize{4096};                                       //!< UDP payload per packet
    Time m_start;                                                      //!< start time
    uint16_t m_port{9000};                                             //!< sink port
    std::vector<Flow> m_flows;                                         //!< flows, by source host
    std::map<Ipv6Address, uint32_t> m_flowByDst; //!< destination address -> flow
    /// directed link (node id, interface) -> flows whose data crossed it
    std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> m_linkFlows;
    uint32_t m_collidedLinks{0};  //!< links with more than one flow
    bool m_trackCollisions{true}; //!< record links per flow
    int64_t m_stream{0};          //!< RNG stream
};

} // namespace ns3

#endif /* MRC_PERMUTATION_HELPER_H */
