/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_HELPER_H
#define MRC_FAILURE_HELPER_H

#include "ns3/mrc-fabric-failure-state.h"
#include "ns3/mrc-failure-log.h"
#include "ns3/mrc-failure-spec.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Schedules failures on the links, switches and host NIC ports of a fabric that
 * MrcClosTopologyHelper built (its links are MrcFabricNetDevice pairs).
 *
 * \code
 *   Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(fabric);
 *   uint32_t link = failures->FindLink("p0-t0-0", "p0-t1-1");
 *   failures->LinkDown(MicroSeconds(100), link, MicroSeconds(50)); // down 100 us .. 150 us
 *   failures->GrayLoss(Seconds(0), link, 0.01, MrcLinkDirection::UP);
 *   failures->SwitchDown(MicroSeconds(200), fabric->GetSwitch(MrcSwitchTier::T1, 0, 1));
 *   failures->LoadSchedule("failures.json");
 *   failures->AssignStreams(1000);
 *   Simulator::Run();
 *   failures->GetLog().WriteCsv("failure-log.csv");
 * \endcode
 *
 * Kinds (MrcFailureKind): a link down or up (carrier lost at both ends, link-change callbacks
 * fire, queued, sent and in-flight packets lost), black-holed (carrier up, every frame
 * dropped), with random loss (gray failure, per direction, from ns-3 RNG streams), flapping
 * (period and duty cycle, or explicit offsets), with a degraded DataRate; a switch down (all
 * its links) or black-holed (it drops all it receives); a host's NIC port down (its host-T0
 * link). A start kind given a duration > 0 is ended by its end kind that much later.
 *
 * A link is down while any of its causes holds (MrcFabricFailureState): its own link-down (or
 * flap), port-down of its host port, switch-down of either end; switch-up therefore leaves a
 * link that failed on its own down. Black holes combine the same way. The NIC port state of a
 * host's MrcL4Protocol, if one is aggregated to the host, follows the carrier of the host's
 * link on that plane (MrcL4Protocol::SetPortUp), whatever took it down.
 *
 * Every applied event is appended to the log (GetLog) and fires the Event trace. Invalid
 * arguments throw std::invalid_argument naming the argument, its value and the accepted range.
 *
 * Size: every failure becomes one or two simulator events, a flap one per transition (a 1 ns
 * period over 1 s is 2e9). Before anything is scheduled, the events of all calls so far are
 * counted (MrcFailureSpec::GetEventCount); above the MaxEvents attribute (kDefaultMaxEvents) the
 * call throws std::invalid_argument with the count, the cap and how to raise it; above
 * kWarnEvents it logs a warning (NS_LOG_WARN).
 */
class MrcFailureHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Default of the MaxEvents attribute: simulator events the schedules of one helper may make.
    static constexpr uint64_t kDefaultMaxEvents = 10000000;
    /// Above this many events a warning is logged (NS_LOG_WARN).
    static constexpr uint64_t kWarnEvents = 1000000;

    /**
     * \param topo the fabric (built by MrcClosTopologyHelper)
     * \throws std::invalid_argument if a link's devices are not FabricNetDevices
     */
    explicit MrcFailureHelper(Ptr<MrcFabricTopology> topo);
    ~MrcFailureHelper() override;

    /**
     * TracedCallback signature of the Event trace.
     * \param kind the MrcFailureKind name ("link-down", ...)
     * \param target what it acts on ("link p0-t0-0 p0-t1-1", "switch p0-t1-0", "host 3 plane 1")
     * \param parameters space-separated key=value pairs (may be empty)
     */
    typedef void (*EventTracedCallback)(const std::string& kind,
                                        const std::string& target,
                                        const std::string& parameters);

    /// \name Links (by MrcFabricLink id; FindLink names them)
    /// @{
    /**
     * \param at when (>= now)
     * \param link link id
     * \param duration > 0: up again that much later; 0: stays down
     */
    void LinkDown(Time at, uint32_t link, Time duration = Time(0));
    /**
     * \param at when
     * \param link link id
     */
    void LinkUp(Time at, uint32_t link);
    /**
     * \param at when
     * \param link link id
     * \param direction which frames vanish
     * \param duration > 0: ends that much later
     */
    void Blackhole(Time at,
                   uint32_t link,
                   MrcLinkDirection direction = MrcLinkDirection::BOTH,
                   Time duration = Time(0));
    /**
     * \param at when
     * \param link link id
     * \param direction which direction heals
     */
    void BlackholeEnd(Time at, uint32_t link, MrcLinkDirection direction = MrcLinkDirection::BOTH);
    /**
     * \param at when
     * \param link link id
     * \param probability loss probability of each frame, in [0, 1]
     * \param direction which direction
     * \param duration > 0: ends that much later
     */
    void GrayLoss(Time at,
                  uint32_t link,
                  double probability,
                  MrcLinkDirection direction = MrcLinkDirection::BOTH,
                  Time duration = Time(0));
    /**
     * \param at when
     * \param link link id
     * \param direction which direction
     */
    void GrayLossEnd(Time at, uint32_t link, MrcLinkDirection direction = MrcLinkDirection::BOTH);
    /**
     * \param at when
     * \param link link id
     * \param rate the new DataRate of the transmitting end(s)
     * \param direction which direction
     * \param duration > 0: restored that much later
     */
    void DegradeRate(Time at,
                     uint32_t link,
                     DataRate rate,
                     MrcLinkDirection direction = MrcLinkDirection::BOTH,
                     Time duration = Time(0));
    /**
     * Give back the rate the link had before its first DegradeRate.
     * \param at when
     * \param link link id
     * \param direction which direction
     */
    void RestoreRate(Time at, uint32_t link, MrcLinkDirection direction = MrcLinkDirection::BOTH);
    /**
     * Down at start + k * period, up duty * period later, while k * period < duration; up at
     * start + duration at the latest.
     * \param start first down
     * \param link link id
     * \param period cycle length (> 0)
     * \param duty fraction of each period down, in (0, 1)
     * \param duration how long the flapping lasts (> 0)
     */
    void Flap(Time start, uint32_t link, Time period, double duty, Time duration);
    /**
     * \param start reference time
     * \param link link id
     * \param offsets strictly increasing offsets from start of down, up, down, ... (an odd
     *        count leaves the link down)
     */
    void Flap(Time start, uint32_t link, const std::vector<Time>& offsets);
    /// @}

    /// \name Switches and host NIC ports
    /// @{
    /**
     * \param at when
     * \param node a switch of the fabric
     * \param duration > 0: up again that much later
     */
    void SwitchDown(Time at, Ptr<Node> node, Time duration = Time(0));
    /**
     * \param at when
     * \param node a switch of the fabric
     */
    void SwitchUp(Time at, Ptr<Node> node);
    /**
     * \param at when
     * \param node a switch of the fabric: it drops every frame it receives
     * \param duration > 0: ends that much later
     */
    void SwitchBlackhole(Time at, Ptr<Node> node, Time duration = Time(0));
    /**
     * \param at when
     * \param node a switch of the fabric
     */
    void SwitchBlackholeEnd(Time at, Ptr<Node> node);
    /**
     * \param at when
     * \param host host index
     * \param plane plane
     * \param duration > 0: up again that much later
     */
    void PortDown(Time at, uint32_t host, uint32_t plane, Time duration = Time(0));
    /**
     * \param at when
     * \param host host index
     * \param plane plane
     */
    void PortUp(Time at, uint32_t host, uint32_t plane);
    /// @}

    /// \name Schedules (node names resolved in this fabric)
    /// @{
    /**
     * \param spec one entry
     * \throws std::invalid_argument (prefixed with the entry's origin) if its target does not
     *         exist or a value is out of range; nothing is scheduled then
     */
    void Schedule(const MrcFailureSpec& spec);
    /**
     * All or nothing: every entry is checked (targets, ranges, time order per target) before
     * any is scheduled.
     * \param specs entries
     */
    void Schedule(const std::vector<MrcFailureSpec>& specs);
    /**
     * \param path a .json or .csv schedule (MrcFailureScheduleParser)
     */
    void LoadSchedule(const std::string& path);
    /// @}

    /**
     * \param a a node name ("p0-t0-0", "host-3")
     * \param b another node name
     * \param index which parallel link (needed only if there are several)
     * \return the MrcFabricLink id of the link between them
     * \throws std::invalid_argument if there is no such node or link, or index is needed or
     *         out of range
     */
    uint32_t FindLink(const std::string& a,
                      const std::string& b,
                      std::optional<uint32_t> index = std::nullopt) const;

    /**
     * \param link link id
     * \return "link <lower> <upper>", plus " index <i>" if it has parallel links
     */
    std::string DescribeLink(uint32_t link) const;

    /// \return the events applied so far
    const MrcFailureLog& GetLog() const;

    /// \return the simulator events scheduled so far (MrcFailureSpec::GetEventCount of each call)
    uint64_t GetScheduledEvents() const;

    /**
     * \param cause a cause
     * \return packets lost for it on every link of the fabric
     */
    uint64_t GetLostPackets(MrcFabricLossCause cause) const;

    /// \return packets lost on every link of the fabric, all causes together
    uint64_t GetLostPackets() const;

    /**
     * \param link link id
     * \param cause a cause
     * \return packets lost for it on that link (both directions)
     */
    uint64_t GetLinkLostPackets(uint32_t link, MrcFabricLossCause cause) const;

    /// \return the state of the fabric's links
    const MrcFabricFailureState& GetState() const;

    /**
     * Fix the random streams of gray loss: two per link (one per receiving end), in link order.
     * \param stream first stream index
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// A resolved event.
    struct Action
    {
        MrcFailureKind kind{MrcFailureKind::LINK_DOWN};     //!< what
        Time at;                                            //!< when
        std::string origin{"api"};                          //!< schedule entry
        std::string by;                                     //!< "duration", "flap" or ""
        uint32_t link{0};                                   //!< link target
        Ptr<Node> node;                                     //!< switch target
        uint32_t host{0};                                   //!< host-port target
        uint32_t plane{0};                                  //!< host-port target
        MrcLinkDirection direction{MrcLinkDirection::BOTH}; //!< direction
        double probability{0};                              //!< gray loss
        DataRate rate;                                      //!< new rate
        Time duration;                                      //!< > 0: the end follows
        Time period;                                        //!< flap
        double duty{0};                                     //!< flap
        std::vector<Time> offsets;                          //!< flap
    };

    /**
     * \param kind a link kind
     * \param at when
     * \param link link id
     * \param direction direction
     * \param duration duration
     * \return the action
     */
    static Action LinkAction(MrcFailureKind kind,
                             Time at,
                             uint32_t link,
                             MrcLinkDirection direction = MrcLinkDirection::BOTH,
                             Time duration = Time(0));

    /**
     * \param spec an entry
     * \return it resolved
     * \throws std::invalid_argument if its target does not exist
     */
    Action Resolve(const MrcFailureSpec& spec) const;
    /**
     * \param a an action
     * \throws std::invalid_argument if a value is out of range or the time is past
     */
    void Check(const Action& a) const;
    /**
     * \param a an action: checked, then scheduled with its end or its flap transitions
     */
    void Add(const Action& a);
    /**
     * \param a an action
     * \return its kind and timing as an MrcFailureSpec (for GetEventCount and GetFlapTimes)
     */
    static MrcFailureSpec Timing(const Action& a);
    /**
     * \param events events about to be scheduled (saturated sum)
     * \param largest the entry that makes most of them, for the message
     * \param largestEvents its events
     * \throws std::invalid_argument if they and those scheduled before exceed MaxEvents
     */
    void CheckEventCount(uint64_t events, const std::string& largest, uint64_t largestEvents) const;
    /**
     * \param a the action to apply now
     */
    void Apply(Action a);
    /**
     * \param a an action
     * \return the key of its target, for time-order checks
     */
    static std::string TargetKey(const Action& a);

    uint64_t m_maxEvents{kDefaultMaxEvents}; //!< MaxEvents attribute
    uint64_t m_events{0};                    //!< simulator events scheduled so far
    MrcFabricFailureState m_state;           //!< the links' state
    MrcFailureLog m_log;                     //!< applied events
    TracedCallback<const std::string&, const std::string&, const std::string&>
        m_eventTrace; //!< Event trace
};

} // namespace ns3

#endif /* MRC_FAILURE_HELPER_H */
