/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_PORT_H
#define MRC_PFC_PORT_H

#include "mrc-pfc-pause-header.h"
#include "mrc-pfc-shared-buffer.h"
#include "mrc-pfc-thresholds.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <bitset>
#include <string>

namespace ns3
{

class PointToPointNetDevice;

/**
 * \ingroup mrc
 * \brief IEEE 802.1Qbb priority flow control at one end of a fabric link (a switch port or a
 * host NIC): what an MrcFabricNetDevice does with PAUSE frames.
 *
 * Transmit side (every PFC-enabled device): a PAUSE frame from the peer (ReceivePause) stops
 * the priorities it enables for pause time x 512 bit times at the link rate, or resumes them
 * at once if the time is 0 (XON); a later frame replaces the running time. The egress queue
 * disc (MrcPfcQueueDisc) asks IsPaused() before it serves a priority and is run again, through
 * the resume callback, when one resumes.
 *
 * Receive side (switch ports): the switch's egress queue discs report the bytes of lossless
 * priorities that arrived on this port while they wait (NotifyIngress when queued,
 * NotifyEgress when they leave). Above the XOFF threshold the port sends its peer a PAUSE for
 * the priority with PauseQuanta, refreshed every half pause time while the backlog stays above
 * XON; at or below XON it sends an XON. A backlog above XOFF + GetHeadroom() means the
 * configuration cannot keep the class lossless: it is counted (GetHeadroomOverflows), traced
 * and logged with NS_LOG_WARN; the packet is still queued (the model never drops a lossless
 * packet).
 *
 * Watchdog (as switches ship it: "PFC watchdog", storm detection), off by default: a priority
 * that stays paused continuously for WatchdogTime is declared stuck (a deadlock or a PAUSE
 * storm). The port then ignores PAUSE frames for it (IsPaused is false, the queue disc serves
 * it) and, with WatchdogAction "drop", the egress MrcPfcQueueDisc drops what it holds of the
 * priority and every packet of it that arrives; with "forward" it forwards them ignoring the
 * pauses. The priority is restored (PAUSE honoured again) once WatchdogRestoreTime passes
 * without a PAUSE frame for it. Counted (GetWatchdogTriggers), traced (WatchdogTrigger) and
 * logged with NS_LOG_WARN.
 *
 * Headroom (bytes): 2 x channel delay x rate / 8 + (2 + D) x (MTU + 2) + ResponseDelay x rate / 8,
 * where D is the capacity in frames of the peer's device transmit queue (frames already handed
 * to it are sent even while paused) and MTU + 2 the largest PPP frame.
 */
class MrcPfcPort : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPfcPort();
    ~MrcPfcPort() override;

    /**
     * TracedCallback signature of PauseSent and PauseReceived.
     * \param priority the priority
     * \param quanta the pause time in quanta (0: XON)
     */
    typedef void (*PauseTracedCallback)(uint8_t priority, uint16_t quanta);

    /**
     * TracedCallback signature of PauseStateChange.
     * \param priority the priority
     * \param paused true when transmission of the priority stops, false when it resumes
     */
    typedef void (*PauseStateTracedCallback)(uint8_t priority, bool paused);

    /**
     * TracedCallback signature of HeadroomOverflow.
     * \param priority the priority
     * \param bytes the port's backlog of the priority after the arrival
     */
    typedef void (*OverflowTracedCallback)(uint8_t priority, uint64_t bytes);

    /**
     * TracedCallback signature of WatchdogTrigger.
     * \param priority the priority
     * \param stuck true when the watchdog declares it stuck, false when it is restored
     */
    typedef void (*WatchdogTracedCallback)(uint8_t priority, bool stuck);

    /// What the watchdog does with the packets of a stuck priority (WatchdogAction).
    enum class WatchdogAction
    {
        DROP,    //!< "drop": the queue disc drops them (queued and arriving)
        FORWARD, //!< "forward": they are sent, ignoring PAUSE frames
    };

    /**
     * \param list comma-separated priorities in 0..7 (may be empty)
     * \return the set
     * \throws std::invalid_argument naming LosslessPriorities if malformed
     */
    static std::bitset<MrcPfcPauseHeader::kPriorities> ParsePriorities(const std::string& list);

    /**
     * \param text comma-separated dscp:priority pairs (DSCP 0..63, priority 0..7), each
     *        overriding the class-selector default DSCP >> 3 (may be empty)
     * \return the priority of every DSCP
     * \throws std::invalid_argument naming PriorityOfDscp if malformed
     */
    static std::array<uint8_t, 64> ParseDscpMap(const std::string& text);

    /**
     * \param dscp a DSCP (0..63)
     * \return its priority on this port (PriorityOfDscp; DSCP >> 3 unless mapped): the class
     *         the port's queue disc queues it in, and the priority a PAUSE must name to hold it
     */
    uint8_t GetPriority(uint8_t dscp) const;

    /// \param buffer the switch's shared buffer (needed by DYNAMIC thresholds)
    void SetSharedBuffer(Ptr<MrcPfcSharedBuffer> buffer);

    /**
     * \param callback called when a paused priority resumes (MrcPfcQueueDisc runs itself again)
     */
    void SetResumeCallback(Callback<void> callback);

    /**
     * \param priority 0..7
     * \return true if the priority is lossless (LosslessPriorities)
     */
    bool IsLossless(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return true while the peer has paused the priority
     */
    bool IsPaused(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return true while the watchdog holds the priority stuck (PAUSE frames ignored)
     */
    bool IsStuck(uint8_t priority) const;

    /// \return the parsed WatchdogAction
    WatchdogAction GetWatchdogAction() const;

    /**
     * Set WatchdogAction (parsed at once, so that it may change after Initialize).
     * \param text "drop" or "forward"
     * \throws std::invalid_argument naming WatchdogAction otherwise
     */
    void SetWatchdogActionText(std::string text);

    /// \return WatchdogAction as text
    std::string GetWatchdogActionText() const;

    /**
     * \param priority 0..7
     * \return times the watchdog declared the priority stuck
     */
    uint64_t GetWatchdogTriggers(uint8_t priority) const;

    /**
     * A PAUSE frame arrived from the peer (MrcFabricChannel calls it).
     * \param header the frame's payload
     */
    void ReceivePause(const MrcPfcPauseHeader& header);

    /**
     * A packet that arrived on this port was queued for transmission on some port of the node.
     * \param priority its priority
     * \param bytes its size
     */
    void NotifyIngress(uint8_t priority, uint32_t bytes);

    /**
     * A packet counted by NotifyIngress left its egress queue.
     * \param priority its priority
     * \param bytes its size, as given to NotifyIngress
     */
    void NotifyEgress(uint8_t priority, uint32_t bytes);

    /// \return the headroom the port needs above XOFF, in bytes (see the class description)
    uint64_t GetHeadroom() const;

    /// \return the current XOFF threshold in bytes
    uint64_t GetXoff() const;

    /// \return the current XON threshold in bytes
    uint64_t GetXon() const;

    /**
     * \param priority 0..7
     * \return bytes of the priority received here and not yet transmitted
     */
    uint64_t GetIngressBytes(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return the largest GetIngressBytes seen
     */
    uint64_t GetMaxIngressBytes(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return PAUSE frames (pause time > 0) sent for the priority, refreshes included
     */
    uint64_t GetPausesSent(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return XON frames (pause time 0) sent for the priority
     */
    uint64_t GetXonsSent(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return PAUSE frames enabling the priority received (XON included)
     */
    uint64_t GetPausesReceived(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return total time the priority has been paused here, the running pause included
     */
    Time GetPausedTime(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return arrivals that found the backlog above XOFF + headroom
     */
    uint64_t GetHeadroomOverflows(uint8_t priority) const;

  protected:
    void DoDispose() override;
    void DoInitialize() override;
    /// Find the PointToPointNetDevice the port is aggregated to.
    void NotifyNewAggregate() override;

  private:
    /// Parse and check the attributes (thrown errors name the attribute).
    void Configure();

    /**
     * Send the peer a PAUSE frame for one priority.
     * \param priority the priority
     * \param quanta pause time (0: XON)
     */
    void SendPause(uint8_t priority, uint16_t quanta);

    /**
     * Set an attribute that Configure() reads; once configured, reconfigure at once (restoring
     * the old value and rethrowing if the new one is refused).
     * \param field the member
     * \param value its new value
     */
    template<typename T>
    void SetAndReconfigure(T& field, const T& value);

    /// \param text LosslessPriorities
    void SetLosslessText(std::string text);
    /// \return LosslessPriorities
    std::string GetLosslessText() const;
    /// \param text PriorityOfDscp
    void SetDscpMapText(std::string text);
    /// \return PriorityOfDscp
    std::string GetDscpMapText() const;
    /// \param text ThresholdMode
    void SetModeText(std::string text);
    /// \return ThresholdMode
    std::string GetModeText() const;
    /// \param bytes XoffThreshold
    void SetXoffThreshold(uint32_t bytes);
    /// \return XoffThreshold
    uint32_t GetXoffThreshold() const;
    /// \param bytes XonThreshold
    void SetXonThreshold(uint32_t bytes);
    /// \return XonThreshold
    uint32_t GetXonThreshold() const;
    /// \param alpha DynamicAlpha
    void SetDynamicAlpha(double alpha);
    /// \return DynamicAlpha
    double GetDynamicAlpha() const;
    /// \param bytes XonOffset
    void SetXonOffset(uint32_t bytes);
    /// \return XonOffset
    uint32_t GetXonOffset() const;

    /**
     * Refresh a PAUSE while the backlog stays above XON.
     * \param priority the priority
     */
    void Refresh(uint8_t priority);

    /**
     * The priority may be sent again (expiry or XON).
     * \param priority the priority
     */
    void Resume(uint8_t priority);

    /**
     * The priority has been paused for WatchdogTime: declare it stuck.
     * \param priority the priority
     */
    void WatchdogFire(uint8_t priority);

    /**
     * WatchdogRestoreTime passed without a PAUSE: honour PAUSE frames again.
     * \param priority the priority
     */
    void WatchdogRestore(uint8_t priority);

    /// \return the link's rate in bit/s
    uint64_t GetBitRate() const;

    /**
     * \param priority a priority
     * \throws std::invalid_argument if not 0..7
     */
    static void CheckPriority(uint8_t priority);

    static constexpr uint32_t N = MrcPfcPauseHeader::kPriorities; //!< priorities

    // Attributes
    std::string m_losslessText; //!< LosslessPriorities
    std::string m_dscpMapText;  //!< PriorityOfDscp
    std::string m_modeText;     //!< ThresholdMode
    uint32_t m_xoffThreshold;   //!< static XOFF bytes
    uint32_t m_xonThreshold;    //!< static XON bytes
    double m_alpha;             //!< dynamic: fraction of the free shared buffer
    uint32_t m_xonOffset;       //!< dynamic: XON below XOFF
    uint16_t m_pauseQuanta;     //!< pause time sent
    Time m_responseDelay;       //!< the peer's reaction time (headroom)
    Time m_watchdogTime;        //!< continuous pause that triggers the watchdog (0: off)
    Time m_watchdogRestore;     //!< quiet time after which a stuck priority is restored

    // State
    PointToPointNetDevice* m_device{nullptr}; //!< the device (an aggregate: no reference)
    Ptr<MrcPfcSharedBuffer> m_buffer;         //!< the switch's shared buffer
    Callback<void> m_resume;                  //!< run the egress queue disc
    bool m_configured{false};                 //!< Configure() done
    std::bitset<N> m_lossless;                //!< parsed LosslessPriorities
    std::array<uint8_t, 64> m_priorityOfDscp; //!< parsed PriorityOfDscp
    MrcPfcThresholds m_thresholds{MrcPfcThresholds::Static(0, 0)}; //!< parsed thresholds
    std::array<uint64_t, N> m_ingress{};                           //!< backlog per priority
    std::array<uint64_t, N> m_maxIngress{};                        //!< largest backlog
    std::array<bool, N> m_xoff{};                                  //!< the peer was told to pause
    std::array<EventId, N> m_refresh;                              //!< refresh of a PAUSE sent
    std::array<bool, N> m_paused{};                                //!< transmit side paused
    std::array<Time, N> m_pausedSince;                             //!< when the running pause began
    std::array<Time, N> m_pausedTotal;                             //!< finished pauses
    std::array<EventId, N> m_expiry;                               //!< end of the running pause
    std::array<uint64_t, N> m_pausesSent{};                        //!< counters
    std::array<uint64_t, N> m_xonsSent{};                          //!< counters
    std::array<uint64_t, N> m_pausesReceived{};                    //!< counters
    std::array<uint64_t, N> m_overflows{};                         //!< counters
    WatchdogAction m_action{WatchdogAction::DROP};                 //!< parsed WatchdogAction
    std::array<EventId, N> m_watchdog;                             //!< fires after WatchdogTime
    std::array<EventId, N> m_restore;                              //!< ends a stuck state
    std::array<bool, N> m_stuck{};                                 //!< declared stuck
    std::array<uint64_t, N> m_watchdogTriggers{};                  //!< counters
    TracedCallback<uint8_t, bool> m_watchdogTrace;                 //!< WatchdogTrigger
    TracedCallback<uint8_t, uint16_t> m_pauseSentTrace;            //!< PauseSent
    TracedCallback<uint8_t, uint16_t> m_pauseReceivedTrace;        //!< PauseReceived
    TracedCallback<uint8_t, bool> m_pauseStateTrace;               //!< PauseStateChange
    TracedCallback<uint8_t, uint64_t> m_overflowTrace;             //!< HeadroomOverflow
};

} // namespace ns3

#endif /* MRC_PFC_PORT_H */
