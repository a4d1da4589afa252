/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLOS_TOPOLOGY_HELPER_H
#define MRC_CLOS_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/mrc-clos-spec.h"
#include "ns3/mrc-fabric-link.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/nstime.h"
#include "ns3/traffic-control-helper.h"

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Builds a multi-plane two-tier Clos or three-tier fat-tree out of ns-3 nodes,
 * point-to-point links (MrcFabricNetDevice), the IPv6 internet stack and traffic-control queue
 * discs.
 *
 * \code
 *   MrcClosTopologyHelper topo;
 *   topo.SetLinkRate(MrcLinkTier::T0_T1, DataRate("400Gbps"));
 *   Ptr<MrcFabricTopology> fabric = topo.Build(MrcClosSpec::TwoTier(4, 8, 16, 16));
 *   MrcEcmpRoutingHelper().Install(*fabric);
 * \endcode
 *
 * What Build() makes:
 *  - nodes: hosts first, then switches plane by plane and tier by tier (deterministic ids);
 *  - one MrcFabricNetDevice pair per link (a PointToPointNetDevice whose carrier can fail, for
 *    MrcFailureHelper), with the tier's DataRate and Delay and the common Mtu; each device's own
 *    transmit queue is kept tiny (DeviceQueueSize) so that queueing, and later trimming and
 *    marking, happens in the port's queue disc;
 *  - a root queue disc per device, from the TrafficControlHelper of the port's role;
 *  - IPv6 only (no IPv4), addresses from MrcFabricAddressPlan, no duplicate address detection or
 *    router solicitation (static fabric), forwarding on switches, and on each host one route per
 *    plane (`fd00:p::/32` out of the plane's NIC port), so the destination address picks the
 *    plane. Switch routing is installed separately (MrcEcmpRoutingHelper, or the SRv6 helper);
 *  - on every switch an MrcSwitchPipeline, the lean forwarding path, unless
 *    `ns3::MrcSwitchPipeline::Enabled` is false (then switches forward through Ipv6L3Protocol).
 */
class MrcClosTopologyHelper
{
  public:
    /// Default MTU: a 4096-byte payload plus MRC's header stack (outer IPv6 40, UDP 8, inner
    /// IPv6 40, BTH 12, METH 4, TSETH 4, RETH 16, ICRC 4 = 128 B) plus 128 B for an SRH.
    static constexpr uint16_t kDefaultMtu = 4352;
    static constexpr uint16_t kMinMtu = 1280; //!< IPv6 minimum link MTU (RFC 8200)

    MrcClosTopologyHelper();

    /**
     * \param tier link tier
     * \param rate its data rate (> 0)
     */
    void SetLinkRate(MrcLinkTier tier, DataRate rate);

    /**
     * \param tier link tier
     * \param delay its propagation delay (>= 0)
     */
    void SetLinkDelay(MrcLinkTier tier, Time delay);

    /// \param tier link tier \return its data rate
    DataRate GetLinkRate(MrcLinkTier tier) const;
    /// \param tier link tier \return its delay
    Time GetLinkDelay(MrcLinkTier tier) const;

    /**
     * \param mtu IP MTU of every link, kMinMtu..65535 (9000-byte jumbo frames are fine)
     */
    void SetMtu(uint32_t mtu);
    /// \return the MTU
    uint16_t GetMtu() const;

    /**
     * \param role port role
     * \param helper the queue disc to install as root on every port of that role
     */
    void SetQueueDisc(MrcPortRole role, const TrafficControlHelper& helper);

    /**
     * MRC's switch ports: MrcTrimmingQueueDisc on every fabric port, and on every host-facing port
     * with LastHop (the TRIMMED_LASTHOP codepoint) and without ECN marking (an ECN mark then
     * means "this path is loaded"). Other MrcTrimmingQueueDisc attributes keep their defaults
     * (Config::SetDefault changes them).
     * \param trimming TrimmingEnabled (false: the same queues, dropping instead of trimming)
     */
    void SetTrimmingQueues(bool trimming = true);

    /**
     * RoCEv2 switch ports (the DCQCN baseline): MrcTrimmingQueueDisc with TrimmingEnabled false
     * (a full queue drops) and ECN marking on every port, host-facing ones included, since
     * DCQCN reacts to the marks of the last hop as to any other.
     */
    void SetEcnQueues();

    /**
     * Lossless RoCEv2 ports (the PFC baseline): MrcPfcQueueDisc (eight strict priorities, DSCP >>
     * 3, ECN marking per priority) on every port, the hosts' NIC ports included, so that a PAUSE
     * holds back exactly its priority wherever it arrives (the hosts' without ECN marking and
     * with 64 MiB per lossy priority, as the default host FIFO). Which priorities are lossless is
     * an MrcPfcPort attribute (MrcPfcHelper); a lossy priority keeps lossyMaxSize and drops beyond
     * it. \param lossyMaxSize LossyMaxSize of each port's lossy priorities \throws
     * std::invalid_argument if lossyMaxSize is not a positive queue size
     */
    void SetPfcQueues(const std::string& lossyMaxSize = "512KiB");

    /**
     * \param size the NetDevice transmit queue size (e.g. "1p"), kept small so that packets
     *        wait in the queue disc
     */
    void SetDeviceQueueSize(const std::string& size);

    /**
     * \param prefix prepended to every node name ("" by default); use one per fabric when a
     *        simulation builds several
     */
    void SetNamePrefix(const std::string& prefix);

    /**
     * \param links the most links Build() makes (MrcClosSpec::GetLinkCount; default
     *        MrcClosSpec::kDefaultMaxLinks); above MrcClosSpec::kWarnLinks it logs a warning
     * \param knob how a user raises it, named when Build() refuses a larger fabric
     */
    void SetMaxLinks(uint64_t links,
                     const std::string& knob = "MrcClosTopologyHelper::SetMaxLinks");
    /// \return the most links Build() makes
    uint64_t GetMaxLinks() const;

    /**
     * Spread the nodes over the ranks of a distributed run (ns-3's MPI engine): each node is
     * created with the system id MrcRankPlan gives it (hosts with their T0, T0s in contiguous
     * blocks, pods kept whole where the ranks divide them), and links between two ranks carry
     * frames with MpiInterface (MrcFabricChannel::SetUpRanks). The program must enable
     * MpiInterface and a distributed simulator implementation first, with as many processes
     * as ranks. Default 1: every node on system id 0, as in an ordinary run.
     * \param ranks number of ranks, >= 1; Build() also requires at most the T0 count
     * \throws std::invalid_argument if ranks is 0
     */
    void SetRanks(uint32_t ranks);
    /// \return the number of ranks Build() spreads the nodes over
    uint32_t GetRanks() const;

    /**
     * Build the fabric.
     * \param spec its shape
     * \return the fabric
     * \throws std::invalid_argument if the spec is impossible, has more links than the cap
     *         (SetMaxLinks), a parameter is out of range, the fabric has fewer T0s per plane
     *         than ranks (SetRanks) or a node name is already taken
     */
    Ptr<MrcFabricTopology> Build(const MrcClosSpec& spec) const;

    /**
     * Fix the RNG streams of what Build() installed: the internet stacks (ICMPv6),
     * MrcTrimmingQueueDisc root queue discs, MrcPfcQueueDisc root queue discs (MrcPfcHelper's)
     * and MrcFabricNetDevice fault models, in node and device order. Without it their streams come
     * from ns-3's global counter, so a second fabric built in the same process draws differently.
     * \param topo a fabric built by this helper
     * \param stream first stream
     * \return the number of streams used
     */
    static int64_t AssignStreams(Ptr<MrcFabricTopology> topo, int64_t stream);

  private:
    std::array<DataRate, 3> m_rate;                     //!< per MrcLinkTier
    std::array<Time, 3> m_delay;                        //!< per MrcLinkTier
    uint16_t m_mtu{kDefaultMtu};                        //!< IP MTU
    std::array<TrafficControlHelper, 3> m_qdisc;        //!< per MrcPortRole
    std::string m_deviceQueueSize{"1p"};                //!< NetDevice TxQueue size
    std::string m_namePrefix;                           //!< node name prefix
    uint64_t m_maxLinks{MrcClosSpec::kDefaultMaxLinks}; //!< cap on the links Build() makes
    std::string m_maxLinksKnob{"MrcClosTopologyHelper::SetMaxLinks"}; //!< how to raise it
    uint32_t m_ranks{1}; //!< ranks of a distributed run the nodes are spread over
};

} // namespace ns3

#endif /* MRC_CLOS_TOPOLOGY_HELPER_H */
