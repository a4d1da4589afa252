/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_DROP_MONITOR_H
#define MRC_FABRIC_DROP_MONITOR_H

#include "mrc-fabric-topology.h"
#include "mrc-trace-connections.h"

#include "ns3/callback.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/mrc-fabric-fault-error-model.h"
#include "ns3/mrc-ipv6-ecmp-routing.h"
#include "ns3/mrc-ipv6-srv6-host-routing.h"
#include "ns3/mrc-ipv6-srv6-routing.h"
#include "ns3/mrc-switch-pipeline.h"
#include "ns3/object.h"
#include "ns3/queue-disc.h"

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * What happened to a packet that did not leave a node as it arrived.
 */
enum class MrcFabricDropKind : uint8_t
{
    QUEUE_DROP = 0,   //!< dropped by a root queue disc ("queue-drop")
    ECN_MARK = 1,     //!< CE-marked by a root queue disc ("ecn-mark"; not a loss)
    TRIM = 2,         //!< trimmed by an MrcTrimmingQueueDisc ("trim"; not a loss)
    LINK_LOSS = 3,    //!< lost to a link fault of an MrcFabricNetDevice ("link-loss")
    ROUTING_DROP = 4, //!< refused by the fabric routing ("routing-drop")
};

/**
 * \param os stream
 * \param kind a kind
 * \return the stream ("queue-drop", "ecn-mark", "trim", "link-loss", "routing-drop")
 */
std::ostream& operator<<(std::ostream& os, MrcFabricDropKind kind);

/**
 * \ingroup mrc
 * \brief Counts, per node of a fabric, every packet dropped, marked or trimmed, by kind and
 * reason: where a fabric loses or degrades packets, and why.
 *
 * Install() covers every host and switch of the fabric:
 *  - QUEUE_DROP and ECN_MARK: the drop and mark reasons of every root queue disc of the node
 *    (QueueDisc::GetStats(), drops before enqueue and after dequeue added up), read at report
 *    time minus their values at Install(); e.g. MrcTrimmingQueueDisc::kDropNotTrimmable,
 *    kDropPriorityFull, kMarkEcn. Reasons are QueueDisc's strings, as they are.
 *  - TRIM: MrcTrimmingQueueDisc's Trim trace; reason `arrival` (the arriving packet was trimmed)
 *    or `victim` (a queued packet was trimmed in favour of the arrival).
 *  - LINK_LOSS: MrcFabricNetDevice's FaultDrop trace, reason the MrcFabricLossCause (`link-down`,
 *    `in-flight`, `blackhole`, `random-loss`). A loss counts at the node whose device traced
 *    it: the receiving node for frames dropped on arrival (every cause), the transmitting node
 *    for frames refused or discarded by a port without carrier (`link-down`).
 *  - ROUTING_DROP: the Drop trace of the fabric routing found on the node — MrcIpv6EcmpRouting or
 *    MrcIpv6Srv6Routing on switches, MrcIpv6Srv6HostRouting on hosts, also inside an
 *    Ipv6ListRouting — reason the protocol's DropReason (`NO_ROUTE`, `MALFORMED_SRH`, ...).
 *    Install the data plane before this monitor, or these are not watched.
 * Traced kinds count from Install() on; nothing is counted before.
 *
 * \code
 *   Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
 *   drops->Install(topo);     // after the data plane
 *   Simulator::Run();
 *   drops->WriteCsv(std::cout);
 * \endcode
 */
class MrcFabricDropMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFabricDropMonitor();
    ~MrcFabricDropMonitor() override;

    /// One non-zero count.
    struct Row
    {
        Ptr<Node> node;    //!< the node
        std::string name;  //!< its ns-3 name (or node-<id>)
        std::string tier;  //!< host, T0, T1 or T2
        int32_t plane{-1}; //!< the switch's plane (-1 for a host)
        uint32_t index{0}; //!< host index, or switch index within tier and plane
        MrcFabricDropKind kind{MrcFabricDropKind::QUEUE_DROP}; //!< kind
        std::string reason;                                    //!< reason
        uint64_t count{0};                                     //!< packets
    };

    /**
     * Watch every host and switch of a fabric. Call once, after the data plane is installed.
     * \param topo the fabric
     * \throws std::invalid_argument if called twice or topo is null
     */
    void Install(Ptr<MrcFabricTopology> topo);

    /**
     * \return every non-zero count: nodes in the order hosts (by index), then switches by tier,
     *         plane and index; within a node by kind, then reason
     */
    std::vector<Row> GetRows() const;

    /**
     * \param node a node
     * \return its non-zero counts (GetRows() order)
     */
    std::vector<Row> GetRows(Ptr<const Node> node) const;

    /**
     * \param kind a kind
     * \return packets of that kind over every node
     */
    uint64_t GetTotal(MrcFabricDropKind kind) const;

    /**
     * \param kind a kind
     * \param reason a reason, as it appears in the rows
     * \return packets of that kind and reason over every node
     */
    uint64_t GetTotal(MrcFabricDropKind kind, const std::string& reason) const;

    /**
     * Write GetRows(): `node,tier,plane,index,kind,reason,count` (plane -1 for hosts; a reason
     * containing a comma or a quote is quoted as in RFC 4180).
     * \param os where
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * This monitor's non-zero counts, for another rank: a line per row, `slot<TAB>kind<TAB>
     * reason<TAB>count`. On MPI ranks each rank counts only at its own nodes.
     * \return the rows as text
     */
    std::string ExportRows() const;

    /**
     * From now on report the rows of these exports (every rank's ExportRows(), this one's
     * included) instead of this monitor's own counts, nodes in GetRows() order.
     * \param exports the exports, in any order
     * \throws std::invalid_argument if a line is malformed or names an unknown slot or kind
     */
    void ImportRows(const std::vector<std::string>& exports);

    /**
     * \param node a node (or null)
     * \return its IPv6 routing protocol and, when that is an Ipv6ListRouting, the protocols in
     *         the list (list order); empty without IPv6 or routing
     */
    static std::vector<Ptr<Ipv6RoutingProtocol>> GetRoutingProtocols(Ptr<Node> node);

  protected:
    void DoDispose() override;

  private:
    /// A watched root queue disc and its counts at Install().
    struct Queue
    {
        Ptr<QueueDisc> disc;                    //!< the queue disc
        std::map<std::string, uint64_t> drops0; //!< drops by reason at Install()
        std::map<std::string, uint64_t> marks0; //!< marks by reason at Install()
    };

    /// What one node counts.
    struct NodeCounts
    {
        Ptr<Node> node;                                              //!< the node
        std::string name;                                            //!< name
        std::string tier;                                            //!< host, T0, T1, T2
        int32_t plane{-1};                                           //!< plane (-1: host)
        uint32_t index{0};                                           //!< index
        std::vector<Queue> queues;                                   //!< root queue discs
        std::array<uint64_t, 2> trims{};                             //!< [arrival, victim]
        std::array<uint64_t, kMrcFabricLossCauses> linkLoss{};       //!< by MrcFabricLossCause
        std::map<MrcIpv6EcmpRouting::DropReason, uint64_t> ecmp;     //!< ECMP routing drops
        std::map<MrcIpv6Srv6Routing::DropReason, uint64_t> srv6;     //!< SRv6 switch drops
        std::map<MrcIpv6Srv6HostRouting::DropReason, uint64_t> host; //!< SRv6 host drops
        std::map<MrcSwitchPipeline::DropReason, uint64_t> pipeline;  //!< switch pipeline drops
    };

    /**
     * Find the node's queue discs, devices and routing, and connect their traces.
     * \param n node slot (m_nodes[n].node is set)
     */
    void Watch(uint32_t n);

    /**
     * \param source traced object
     * \param name trace source
     * \param callback callback
     */
    void Connect(Ptr<Object> source, const std::string& name, const CallbackBase& callback);

    /**
     * \param n node slot
     * \param original packet as it arrived
     * \param trimmed trimmed packet
     * \param victim a queued victim was trimmed
     */
    void OnTrim(uint32_t n,
                Ptr<const QueueDiscItem> original,
                Ptr<const QueueDiscItem> trimmed,
                bool victim);
    /**
     * \param n node slot
     * \param packet the packet
     * \param cause why
     */
    void OnFaultDrop(uint32_t n, Ptr<const Packet> packet, MrcFabricLossCause cause);
    /**
     * \param n node slot
     * \param packet the packet
     * \param header its header
     * \param reason why
     */
    void OnEcmpDrop(uint32_t n,
                    Ptr<const Packet> packet,
                    const Ipv6Header& header,
                    MrcIpv6EcmpRouting::DropReason reason);
    /**
     * \param n node slot
     * \param packet the packet
     * \param header its header
     * \param reason why
     */
    void OnSrv6Drop(uint32_t n,
                    Ptr<const Packet> packet,
                    const Ipv6Header& header,
                    MrcIpv6Srv6Routing::DropReason reason);
    /**
     * \param n node slot
     * \param packet the packet
     * \param header its header
     * \param reason why
     */
    void OnHostDrop(uint32_t n,
                    Ptr<const Packet> packet,
                    const Ipv6Header& header,
                    MrcIpv6Srv6HostRouting::DropReason reason);
    /**
     * \param n node slot
     * \param packet the packet
     * \param header its header
     * \param reason why
     */
    void OnPipelineDrop(uint32_t n,
                        Ptr<const Packet> packet,
                        const Ipv6Header& header,
                        MrcSwitchPipeline::DropReason reason);

    /**
     * \param n node slot
     * \param rows where the node's non-zero counts are appended
     */
    void AppendRows(const NodeCounts& n, std::vector<Row>& rows) const;

    bool m_installed{false};         //!< Install() was called
    std::vector<NodeCounts> m_nodes; //!< by slot
    bool m_imported{false};          //!< ImportRows was called
    std::vector<Row> m_importedRows; //!< its rows
    MrcTraceConnections m_traces;    //!< trace connections
};

} // namespace ns3

#endif /* MRC_FABRIC_DROP_MONITOR_H */
