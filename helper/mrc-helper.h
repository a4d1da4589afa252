/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HELPER_H
#define MRC_HELPER_H

#include "mrc-data-plane-helper.h"

#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-qp-group.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Installs the MRC transport on a fabric's hosts and connects queue pairs.
 *
 * \code
 *   MrcDataPlaneHelper dataPlane;                 // SRv6 by default
 *   dataPlane.Install(fabric);
 *   MrcHelper mrc(fabric, dataPlane);
 *   mrc.SetQueuePairAttribute("EvSetSize", UintegerValue(64));
 *   mrc.Install();
 *   auto [a, b] = mrc.Connect(0, 5);           // a on host 0, b on host 5
 *   a->PostWrite(1 << 20);
 * \endcode
 *
 * EV sets: over SRv6 every EV names a distinct path, so each plane's candidates are the paths
 * between the two hosts (MrcSrv6RoutingHelper::GetEvs) in random order; the first
 * EvSetSize / planes are active, the rest are backups. Over ECMP (MRC's non-SRv6 mode) an EV is
 * only hashed by the switches: each plane gets 2 x EvSetSize / planes random EVs (plane in bits
 * 31..28), half active, half backups. The order comes from ns-3's RNG (SetStream).
 *
 * Base RTT (congestion control and timers): the links of the longest path between the hosts,
 * each crossed by a full data packet one way and a SACK back, at the host link's rate and delay.
 *
 * The RoCEv2 baseline is the same transport with other policies (SetRoceV2Baseline): one EV per
 * queue pair, go-back-N, DCQCN. Operators of single-path RoCEv2 connect several queue pairs per
 * host pair and stripe messages across them (ConnectGroup):
 * \code
 *   mrc.SetRoceV2Baseline(8);                  // before Install/Connect
 *   Ptr<MrcQpGroup> g = mrc.ConnectGroup(0, 5); // 8 QPs, each with its own UDP source port
 *   g->PostWrite(1 << 20);
 * \endcode
 */
class MrcHelper
{
  public:
    /**
     * \param topo the fabric
     * \param dataPlane its data plane (already installed)
     */
    MrcHelper(Ptr<MrcFabricTopology> topo, MrcDataPlaneHelper& dataPlane);

    /**
     * \param name an MrcQueuePair attribute
     * \param value its value, for every queue pair this helper creates
     * \throw std::invalid_argument for an unknown attribute or an invalid value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * The value the queue pairs this helper creates get, without creating one: the value set
     * on the helper, else the attribute's default (Config::SetDefault included).
     * \param name an MrcQueuePair attribute
     * \param value receives its value
     */
    void GetQueuePairAttribute(const std::string& name, AttributeValue& value) const;

    /**
     * Fix the RNG streams: `stream` for the EV choices and initial PSNs, stream + 1, + 2, ...
     * for the queue pairs created afterwards, one per end (default: 1, then 2, 3, ...). With
     * fixed streams a run gives the same draws whatever ran before it in the process.
     * \param stream first stream
     */
    void SetStream(int64_t stream);

    /// \param psn first PSN of both ends of the next connections (default: random)
    void SetInitialPsn(std::optional<uint32_t> psn);

    /**
     * Make every queue pair this helper connects from now on a RoCEv2 RC queue pair: one EV for
     * its life (MrcSinglePathSelection: one UDP source port, so ECMP pins it to one path),
     * go-back-N (MrcGoBackN) and DCQCN (MrcDcqcn). The same as setting the queue pair attributes
     * PathSelection, LossRecovery and CongestionControl; other attributes keep their values.
     * \param qpsPerPeer queue pairs ConnectGroup connects per host pair by default (>= 1)
     * \throws std::invalid_argument if qpsPerPeer is 0
     */
    void SetRoceV2Baseline(uint32_t qpsPerPeer = 1);

    /**
     * The congestion control of the queue pairs connected from now on, with attributes, as
     * ns-3's helpers take them, e.g. SetCongestionControl ("ns3::MrcFixedWindow", "Window",
     * UintegerValue (65536)). Sets the queue pair attribute CongestionControl and gives each
     * new queue pair a factory of the type (MrcQueuePair::SetPolicyFactory).
     * \param type a TypeId name of an MrcCongestionOps subclass
     * \param args attribute name, AttributeValue, name, value, ...
     * \throws std::invalid_argument naming the type, or the attribute, if the type is not such
     *         a policy or an attribute is unknown or its value invalid
     */
    template<typename... Args>
    void SetCongestionControl(const std::string& type, Args&&... args);
    /**
     * The path selection of the queue pairs connected from now on, with attributes (as
     * SetCongestionControl; an MrcPathSelection subclass, attribute PathSelection).
     * \param type a TypeId name
     * \param args attribute name, AttributeValue, ...
     * \throws std::invalid_argument as SetCongestionControl
     */
    template<typename... Args>
    void SetPathSelection(const std::string& type, Args&&... args);
    /**
     * The loss recovery of the queue pairs connected from now on, with attributes (as
     * SetCongestionControl; an MrcLossRecovery subclass, attribute LossRecovery).
     * \param type a TypeId name
     * \param args attribute name, AttributeValue, ...
     * \throws std::invalid_argument as SetCongestionControl
     */
    template<typename... Args>
    void SetLossRecovery(const std::string& type, Args&&... args);

    /// Aggregate an MrcL4Protocol with one port per plane to every host.
    void Install();

    /**
     * Create a queue pair on each host and connect them.
     * \param a a host
     * \param b another host
     * \return the QP on a and the QP on b
     */
    std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>> Connect(uint32_t a, uint32_t b);

    /**
     * Connect several queue pairs between two hosts as one MrcQpGroup (messages go a -> b,
     * striped across them). Members draw their EVs so that no two share a UDP source port
     * (EV[15:0]) where the candidates allow: over ECMP every member hashes independently.
     * \param a the sending host
     * \param b the receiving host
     * \param qps queue pairs (>= 1; default: SetRoceV2Baseline's qpsPerPeer, else 1)
     * \return the group
     * \throws std::invalid_argument if qps is 0 or the hosts are invalid
     */
    Ptr<MrcQpGroup> ConnectGroup(uint32_t a,
                                 uint32_t b,
                                 std::optional<uint32_t> qps = std::nullopt);

    /**
     * \param a a host
     * \param b another host
     * \return the base RTT used for them
     */
    Time GetBaseRtt(uint32_t a, uint32_t b) const;

    /**
     * \param node a host
     * \return its MrcL4Protocol, or nullptr
     */
    static Ptr<MrcL4Protocol> GetL4(Ptr<Node> node);

  private:
    /**
     * Check a value for an attribute of a type without creating an instance.
     * \param tid the type
     * \param name one of its settable attributes
     * \param value a value for it
     * \param what the setting, for the error message
     * \return the value as the attribute's checker converts it
     * \throws std::invalid_argument if the attribute is unknown, not settable, or the value
     *         invalid, naming the setting and the --PrintAttributes to read
     */
    static Ptr<AttributeValue> CheckedValue(TypeId tid,
                                            const std::string& name,
                                            const AttributeValue& value,
                                            const std::string& what);

    /// A policy's attributes: (name, value) in order.
    using AttributeList = std::vector<std::pair<std::string, Ptr<const AttributeValue>>>;

    /**
     * \param args attribute name, AttributeValue, name, value, ...
     * \return them as a list
     */
    template<typename... Args>
    static AttributeList Collect(Args&&... args);
    /// End of an attribute pack. \param out the attributes
    static void Append(AttributeList& out);
    /**
     * Append an attribute pack.
     * \param out the attributes
     * \param name an attribute
     * \param value its value
     * \param rest the others
     */
    template<typename... Rest>
    static void Append(AttributeList& out,
                       const std::string& name,
                       const AttributeValue& value,
                       Rest&&... rest);
    /**
     * Check a policy and its attributes, then make new queue pairs use it.
     * \param attribute the queue pair attribute that names it ("CongestionControl", ...)
     * \param base the policy base class
     * \param type its TypeId name
     * \param attributes its attributes
     * \throws std::invalid_argument (see SetCongestionControl)
     */
    void SetPolicy(const std::string& attribute,
                   TypeId base,
                   const std::string& type,
                   const AttributeList& attributes);

    /**
     * \param src a host
     * \param dst another host
     * \param avoid UDP source ports (EV[15:0]) already used: such EVs are not drawn (ECMP) or
     *        come last (SRv6)
     * \return candidate EVs per plane, in the order to use them
     */
    std::vector<std::vector<uint32_t>> CandidateEvs(uint32_t src,
                                                    uint32_t dst,
                                                    const std::set<uint32_t>& avoid);

    /**
     * Connect with EV avoidance (Connect and ConnectGroup).
     * \param a a host
     * \param b another host
     * \param usedAb UDP source ports used a -> b (updated with the new QP's active EVs)
     * \param usedBa UDP source ports used b -> a (updated likewise)
     * \return the two ends
     */
    std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>> ConnectPair(uint32_t a,
                                                                uint32_t b,
                                                                std::set<uint32_t>& usedAb,
                                                                std::set<uint32_t>& usedBa);

    /**
     * \param src a host
     * \param dst another host
     * \return EV -> wire path from src to dst
     */
    MrcPathResolver Resolver(uint32_t src, uint32_t dst) const;

    Ptr<MrcFabricTopology> m_topo;                             //!< the fabric
    MrcDataPlaneHelper& m_dataPlane;                           //!< its data plane
    std::map<std::string, Ptr<AttributeValue>> m_qpAttributes; //!< set for new QPs, by name
    std::map<std::string, ObjectFactory> m_policies; //!< per QP attribute: its policy's factory
    Ptr<UniformRandomVariable> m_rng;                //!< EV choices
    int64_t m_nextQpStream{2};                       //!< RNG stream of the next queue pair end
    std::optional<uint32_t> m_initialPsn;            //!< fixed first PSN
    uint32_t m_qpsPerPeer{1};                        //!< ConnectGroup's default size
};

template<typename... Args>
void
MrcHelper::SetCongestionControl(const std::string& type, Args&&... args)
{
    SetPolicy("CongestionControl",
              MrcCongestionOps::GetTypeId(),
              type,
              Collect(std::forward<Args>(args)...));
}

template<typename... Args>
void
MrcHelper::SetPathSelection(const std::string& type, Args&&... args)
{
    SetPolicy("PathSelection",
              MrcPathSelection::GetTypeId(),
              type,
              Collect(std::forward<Args>(args)...));
}

template<typename... Args>
void
MrcHelper::SetLossRecovery(const std::string& type, Args&&... args)
{
    SetPolicy("LossRecovery",
              MrcLossRecovery::GetTypeId(),
              type,
              Collect(std::forward<Args>(args)...));
}

template<typename... Args>
MrcHelper::AttributeList
MrcHelper::Collect(Args&&... args)
{
    AttributeList out;
    Append(out, std::forward<Args>(args)...);
    return out;
}

template<typename... Rest>
void
MrcHelper::Append(AttributeList& out,
                  const std::string& name,
                  const AttributeValue& value,
                  Rest&&... rest)
{
    out.emplace_back(name, value.Copy());
    Append(out, std::forward<Rest>(rest)...);
}

} // namespace ns3

#endif /* MRC_HELPER_H */
