/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_RECONVERGENCE_MODEL_H
#define MRC_BGP_RECONVERGENCE_MODEL_H

#include "mrc-bgp-fabric-rib.h"
#include "mrc-bgp-fib-programmer.h"
#include "mrc-fabric-topology.h"

#include "ns3/event-id.h"
#include "ns3/mrc-bgp-convergence-timing.h"
#include "ns3/mrc-ipv6-ecmp-routing.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief What a BGP-routed fabric does to its per-flow ECMP tables after a failure: each switch
 * drops the dead next hops from its groups at its own time, and puts them back after the repair.
 *
 * Every switch runs an eBGP speaker laid out as RFC 7938 describes (a unique ASN per T0, one per
 * pod's T1s, one for the T2s; one session per link, parallel links included); MrcBgpFabricRib holds
 * their state and MrcBgpFibProgrammer the switches' FIB programming. A failure of a link is
 * detected at both of its ends after a delay that depends on what failed and what is enabled
 * (MrcBgpConvergenceTiming: carrier loss, BFD, hold timer; a blackhole with neither BFD nor
 * hold-timer detection is never detected). Each end then runs the decision process; a speaker whose
 * advertised path changes sends an UPDATE on every session, which the neighbour processes
 * PerHopDelay + Mrai later, and so on hop by hop. Every switch whose ECMP group for a T0 prefix
 * changes reprograms its FIB in batches, one batch at a time, each taking FibBaseTime +
 * FibPerRouteTime x routes; only then does the data plane (MrcIpv6EcmpRouting::SetRouteNextHops)
 * change. Until then traffic hashed onto a dead next hop is black-holed; a route left without next
 * hops stops matching and its packets are dropped (MrcIpv6EcmpRouting counts them). A repair is
 * detected likewise; both ends then exchange their tables and the original groups come back, hop by
 * hop. Overlapping failures compose: the state is per session and per prefix.
 *
 * The model changes routing only; making the data plane fail is the caller's business (a
 * MrcFabricNetDevice losing carrier, an error model...). LinkFailed() / LinkRestored() tell the
 * model; AttachToDevices() makes NetDevice link-change callbacks call them.
 */
class MrcBgpReconvergenceModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcBgpReconvergenceModel();
    ~MrcBgpReconvergenceModel() override;

    /**
     * TracedCallback signature of ConvergenceStart and ConvergenceEnd.
     * \param nodeId the switch
     */
    typedef void (*SwitchTracedCallback)(uint32_t nodeId);

    /**
     * TracedCallback signature of RoutesChanged.
     * \param nodeId the switch
     * \param routes routes whose next hops the FIB batch changed
     */
    typedef void (*RoutesChangedTracedCallback)(uint32_t nodeId, uint32_t routes);

    /**
     * TracedCallback signature of SessionChange.
     * \param linkId the link (MrcFabricLink::id) carrying the session
     * \param up true when the session comes up, false when it goes down
     */
    typedef void (*SessionChangeTracedCallback)(uint32_t linkId, bool up);

    /**
     * Take over the ECMP tables of a fabric: build the speakers and compute the BGP steady
     * state, which must equal the installed tables.
     * \param topo the fabric, with MrcEcmpRoutingHelper's tables on every switch and every link up
     * \throws std::invalid_argument if an attribute is out of range, a switch has no
     *         MrcIpv6EcmpRouting, or a table differs from the BGP steady state
     * \throws std::logic_error if called twice
     */
    void Install(Ptr<MrcFabricTopology> topo);

    /**
     * Follow the carrier of every switch-to-switch link: NetDevice::AddLinkChangeCallback on
     * both devices; when either end reports IsLinkUp() false the link failed with CARRIER_LOSS,
     * when both report true again it is restored. Works with any NetDevice that implements
     * these (PointToPointNetDevice never goes down; MrcFabricNetDevice does).
     *
     * On MrcFabricNetDevice it also follows the receive-side faults (ReceiveFaultChange): a
     * black hole on either end (or random loss with probability 1) fails the link as
     * BLACKHOLE, which only an enabled BFD detects; its end restores the link. Gray loss with
     * a probability below 1 is not detected (BFD needs DetectMultiplier consecutive losses).
     */
    void AttachToDevices();

    /**
     * A link fails now. Its BGP session goes down after the detection delay of the fastest
     * enabled detector for this kind of failure (never, for an undetected blackhole). Calling
     * it again for a failed link only matters if it would be detected sooner.
     * \param link a switch-to-switch link of the fabric
     * \param kind what happened
     * \return the detector that will report it (NONE: nothing will)
     * \throws std::invalid_argument if the link is not a switch-to-switch link of the fabric,
     *         or an attribute is out of range
     */
    MrcFailureDetector LinkFailed(const MrcFabricLink& link, MrcLinkFailureKind kind);

    /**
     * A failed link works again now. If its session went down, it comes back up after the
     * detector's restore delay and both ends exchange their routes; if the failure was never
     * detected (or not yet), nothing changes in routing. No effect on a link that is not failed.
     * \param link a switch-to-switch link of the fabric
     * \throws std::invalid_argument if the link is not a switch-to-switch link of the fabric
     */
    void LinkRestored(const MrcFabricLink& link);

    /**
     * A switch fails now: LinkFailed() on each of its switch-to-switch links.
     * \param node a switch of the fabric
     * \param kind what its neighbours see (CARRIER_LOSS for a power loss)
     * \throws std::invalid_argument if node is not a switch of the fabric
     */
    void SwitchFailed(Ptr<Node> node, MrcLinkFailureKind kind);

    /**
     * A failed switch works again now: LinkRestored() on each of its switch-to-switch links.
     * \param node a switch of the fabric
     * \throws std::invalid_argument if node is not a switch of the fabric
     */
    void SwitchRestored(Ptr<Node> node);

    /**
     * \return the timing attributes, validated
     * \throws std::invalid_argument naming an attribute out of range
     */
    MrcBgpConvergenceTiming GetTiming() const;

    /// \param link a link \return whether LinkFailed() holds for it (data plane failed)
    bool IsLinkFailed(const MrcFabricLink& link) const;

    /// \param link a switch-to-switch link \return whether its BGP session is up
    bool IsSessionUp(const MrcFabricLink& link) const;

    /**
     * \return true when nothing is pending: no detection, no session coming up, no UPDATE in
     *         flight, no FIB batch being programmed
     */
    bool IsConverged() const;

    /// \return when the last FIB batch of any switch was programmed (0 if none yet)
    Time GetLastConvergenceTime() const;

    /**
     * \param node a switch of the fabric
     * \return its AS number (private 4-byte ASNs, RFC 6996)
     */
    uint32_t GetAsn(Ptr<const Node> node) const;

    /**
     * The control plane's view (Loc-RIB), which the FIB follows after its programming delay.
     * \param node a switch of the fabric
     * \param t0 index of a T0 of the switch's plane
     * \return the IPv6 interfaces BGP currently uses towards that T0's prefix, sorted
     */
    std::vector<uint32_t> GetRibNextHops(Ptr<const Node> node, uint32_t t0) const;

    /// \return packets switches forwarded onto failed links (lost there)
    uint64_t GetBlackholedPackets() const;

    /// \param link a link \return packets switches forwarded onto it while it was failed
    uint64_t GetBlackholedPackets(const MrcFabricLink& link) const;

    /// \return routes (T0 prefixes, over all switches) the FIBs hold with no next hop now
    uint32_t GetUnreachableRoutes() const;

  protected:
    void DoDispose() override;
    void NotifyConstructionCompleted() override;

  private:
    class CallbackSink;

    /// One link's failure state.
    struct LinkState
    {
        bool failed{false}; //!< data plane failed (LinkFailed)
        MrcLinkFailureKind kind{MrcLinkFailureKind::CARRIER_LOSS}; //!< how
        MrcFailureDetector detector{MrcFailureDetector::NONE};     //!< what took the session down
        EventId detection;                                         //!< pending session-down
        EventId establish;                                         //!< pending session-up
        uint32_t epoch{0};                                         //!< session incarnation
        uint64_t blackholed{0}; //!< packets forwarded onto it while failed
    };

    /**
     * \param link a link
     * \return its id
     * \throws std::invalid_argument unless it is a switch-to-switch link of the fabric
     */
    uint32_t CheckedLink(const MrcFabricLink& link) const;

    /**
     * \param node a node
     * \return its switch index
     * \throws std::invalid_argument unless it is a switch of the fabric
     */
    uint32_t CheckedSwitch(Ptr<const Node> node) const;

    /// Validate the attributes into m_timing (and the FIB programmer's copy).
    void RefreshTiming();

    /// \param linkId the link whose session goes down now
    void Detect(uint32_t linkId);
    /// \param linkId the link whose session comes up now
    void Establish(uint32_t linkId);

    /**
     * Deliver an UPDATE.
     * \param linkId the session's link
     * \param toEnd receiving end
     * \param epoch session incarnation it was sent in
     * \param update its content
     */
    void Deliver(uint32_t linkId, uint32_t toEnd, uint32_t epoch, MrcBgpPathVector::Update update);

    /**
     * Queue FIB changes and send UPDATEs after decisions at one switch.
     * \param sw switch index
     * \param decisions what changed
     */
    void Handle(uint32_t sw, const std::vector<MrcBgpPathVector::Decision>& decisions);

    /**
     * Send an UPDATE on one session.
     * \param linkId the session's link
     * \param fromEnd sending end
     * \param update its content
     */
    void Send(uint32_t linkId, uint32_t fromEnd, const MrcBgpPathVector::Update& update);

    /// \param linkId a link whose device reported a carrier change
    void OnLinkChange(uint32_t linkId);

    /**
     * An MrcFabricNetDevice of a link changed its receive-side fault: a black hole (or loss
     * probability 1) on either end fails the link as BLACKHOLE, its end restores it.
     * \param linkId the link
     */
    void OnFaultChange(uint32_t linkId);

    /**
     * \param link a link
     * \return either end drops every arriving frame while keeping carrier
     */
    static bool IsBlackholed(const MrcFabricLink& link);

    /**
     * Forward trace of a switch: count packets sent onto failed links.
     * \param sw switch index
     * \param interface outgoing interface
     */
    void OnForward(uint32_t sw, uint32_t interface);

    /// Validated timing, refreshed by Install and every public call that schedules.
    MrcBgpConvergenceTiming m_timing;
    Ptr<MrcFabricTopology> m_topo;          //!< the fabric
    std::shared_ptr<MrcBgpFabricRib> m_rib; //!< the speakers
    Ptr<MrcBgpFibProgrammer> m_fib;         //!< the switches' FIB programming
    std::vector<LinkState> m_links;         //!< by link id
    uint32_t m_failedLinks{0};              //!< links currently failed
    uint64_t m_inFlight{0};                 //!< UPDATEs sent, not delivered
    Ptr<CallbackSink> m_sink;               //!< what devices and traces call

    // Attributes (validated by GetTiming)
    Time m_carrierDetectionDelay;      //!< CarrierDetectionDelay
    bool m_bfdEnabled{false};          //!< BfdEnabled
    Time m_bfdInterval;                //!< BfdInterval
    uint32_t m_bfdDetectMultiplier{3}; //!< BfdDetectMultiplier
    bool m_holdTimerDetection{false};  //!< HoldTimerDetection
    Time m_holdTime;                   //!< HoldTime
    Time m_sessionEstablishDelay;      //!< SessionEstablishDelay
    Time m_perHopDelay;                //!< PerHopDelay
    Time m_mrai;                       //!< Mrai
    Time m_fibBaseTime;                //!< FibBaseTime
    Time m_fibPerRouteTime;            //!< FibPerRouteTime

    TracedCallback<uint32_t> m_convergenceStartTrace;        //!< ConvergenceStart
    TracedCallback<uint32_t> m_convergenceEndTrace;          //!< ConvergenceEnd
    TracedCallback<uint32_t, uint32_t> m_routesChangedTrace; //!< RoutesChanged
    TracedCallback<uint32_t, bool> m_sessionChangeTrace;     //!< SessionChange
};

} // namespace ns3

#endif /* MRC_BGP_RECONVERGENCE_MODEL_H */
