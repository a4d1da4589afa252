/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SELECTIVE_RECOVERY_H
#define MRC_SELECTIVE_RECOVERY_H

#include "mrc-loss-recovery.h"
#include "mrc-path-order-loss-detector.h"
#include "mrc-plane-order-loss-detector.h"
#include "mrc-sack-loss-detector.h"

#include "ns3/event-id.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC's loss recovery (the default): selective retransmission of exactly the PSNs that are
 * known or presumed lost; the receiver places packets in any order.
 *
 * Fast loss detection ("fast selective retransmission, using SACKs to indicate precisely which
 * packets have arrived"), in three layers, each a silent loss that retires its EV at once
 * (MrcPathSelection::OnSilentLoss) and is resent:
 *  - SACKs: the receiver's out-of-order count against a threshold of about one and a half
 *    windows (MrcSackLossDetector, the UEC reference simulator's rule; OutOfOrderWindows,
 *    OutOfOrderMinPackets). MrcRackRecovery replaces this layer with a time rule (RFC 8985).
 *  - Tail-loss probe: when acknowledgements stop while PSNs are outstanding, an acknowledgement
 *    request (a probe with the A flag, in the data class so that it queues behind the data it
 *    stands for) goes out TailProbeDelay after the newest transmission (base RTT + target delay
 *    when nothing new is left to send, TailProbeBusyDelay otherwise) and at least a target delay
 *    after the last acknowledgement, and again every TailProbeRetry. A trimmed probe is not
 *    answered (the queue was full: the data is late, not lost). The peer answers with a SACK of all
 * it holds, then the probe response on the same path; a response within base RTT + target delay
 * means the path is empty, so every PSN sent before the probe and still unacknowledged is lost (the
 * reference simulator's probe rule). A lost last packet then costs about three RTTs instead of a
 * loss timer.
 *  - Loss timer (the queue pair's LossTimeout after each transmission): the backstop for what
 *    the other two miss; congestion control hears of the loss.
 *
 * NACKs: TRIMMED resends at once and puts the EV in SKIP; TRIMMED_LASTHOP resends without
 * penalty (incast is not the path's fault); NO_BITMAP, PSN_OOR_WINDOW (and a SEQUENCE_ERROR from
 * a misconfigured go-back-N peer) resend without penalty; congestion control hears of trims;
 * UNEXP_EVENT fails the queue pair. A local NIC port going down: the packets in flight on it are
 * resent on the other planes.
 */
class MrcSelectiveRecovery : public MrcLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSelectiveRecovery();
    ~MrcSelectiveRecovery() override;

    void Start(const Context& context) override;
    MrcReceiveOrder GetReceiveOrder() const override;
    MrcSendQueue::Record* PeekRetransmission() override;
    void PopRetransmission() override;
    void OnSent(MrcSendQueue::Record& r, bool retransmission) override;
    void OnAcknowledged(const MrcAckFeedback& feedback) override;
    void OnNack(const MrcNackHeader& nack) override;
    void OnPortDown(uint32_t plane) override;
    void OnTailProbeAnswer(uint32_t sequence) override;

    /// \return the delay before a tail-loss probe when nothing new is left to send
    Time GetTailProbeDelay() const;

  protected:
    void DoStop() override;

    /**
     * The SACK-driven loss rule, after a SACK (MrcSackLossDetector by default).
     * \param feedback what the SACK said
     * \return the PSNs lost
     */
    virtual std::vector<uint32_t> DetectLosses(const MrcAckFeedback& feedback);

    /**
     * Declare a PSN lost silently: its EV is retired, it is resent.
     * \param psn the PSN
     * \param cause why (the Retransmit trace's cause)
     */
    void DeclareLost(uint32_t psn, const std::string& cause);
    /**
     * A located loss of a packet sent on an EV: when RetirePathEvs distinct EVs of its path
     * have lost packets sent within RetirePathSpan of each other, the path is retired
     * (MrcPathSelection::OnPathLoss).
     * \param ev the EV of the lost transmission
     * \param sentAt its send time
     */
    void NotePathLoss(uint32_t ev, Time sentAt);

    /**
     * Declare a PSN lost on evidence of the whole queue pair (the SACK rule's out-of-order
     * count, the tail reorder timer), which does not say where the packet was lost: a packet
     * still queued on a slower path looks the same. It is resent; its EV is retired only if the
     * packet is overdue on its own path, judged by that path's latest RTT (the last packet
     * acknowledged on the EV) plus the reorder window, or if the EV never delivered anything.
     * A slow path keeps delivering older packets with RTTs that grow with its queue; a dead path
     * stops, and its latest RTT is that of before the failure. A real drop on a path that keeps
     * delivering shows as a later packet of the same EV delivered (path-order rule), which
     * retires it. A second such loss on one path locates both when the path has gone silent:
     * nothing sent on it since the first was delivered, though a packet sent after the first is
     * overdue too.
     * \param psn the PSN
     * \param cause why (the Retransmit trace's cause)
     */
    void DeclareLostUnlocated(uint32_t psn, const std::string& cause);

  private:
    /**
     * Queue a retransmission.
     * \param r the record
     * \param cause why
     */
    void Queue(MrcSendQueue::Record& r, const std::string& cause);
    /// Re-arm the loss timer for the oldest transmission.
    void ArmLossTimer();
    /// Loss timer expiry.
    void OnLossTimer();
    /**
     * (Re)arm the tail-loss probe timer.
     * \param restart restart it if running (an acknowledgement arrived); else only arm it if idle
     */
    void ArmTailProbe(bool restart);
    /// Tail-loss probe timer expiry: send a probe.
    void OnTailProbeTimer();
    /// At the tail, apply RACK's time rule now and arm its timer for the next candidate.
    void RunTailReorder();
    /**
     * An EV was retired for a silent loss: sweep it (and the EVs of its path retired too)
     * once what is in flight on it has had an RTT of that path (plus a target delay) to arrive;
     * what was sent that long before now is swept at once.
     * \param ev the EV
     */
    void ScheduleSweep(uint32_t ev);
    /**
     * Declare lost every packet still unacknowledged whose last transmission went on the EV
     * before its retirement (RetiredEvSweep).
     * \param ev the EV
     * \param retiredAt when it was retired (or earlier: sent up to then)
     */
    void SweepRetiredEv(uint32_t ev, Time retiredAt);
    /**
     * \param ev an EV
     * \return the RTT of the latest-sent packet acknowledged (sent once) on its path (the EVs
     *         of one source-routed path share its queues, MrcPathSelection::GetPathId), if any
     */
    std::optional<Time> GetLatestRtt(uint32_t ev) const;

    /**
     * \param ev an EV
     * \return the SACK rule's reorder window for a packet sent on it: its plane's queueing
     *         spread with PlaneReorderWindow, else the queue pair's
     */
    Time GetReorderWindow(uint32_t ev) const;

    /**
     * \param plane a plane
     * \return that plane's reorder window: ReorderWindow when set, else its queueing spread
     *         (the longest RTT of its last 4-8 base RTTs over the base RTT, at least the target
     *         delay; the queue pair's when nothing was heard on it)
     */
    Time GetPlaneReorderWindow(uint32_t plane) const;

    /**
     * \param ev an EV
     * \param[out] plane its plane
     * \return whether the EV is in the path set (probes' and control EVs are not)
     */
    bool PlaneOf(uint32_t ev, uint32_t& plane) const;

    /**
     * \param ev the EV a transmission took
     * \param sentAt its send time
     * \return whether it is overdue on its path: sent longer ago than the path's latest RTT
     *         plus the reorder window (its plane's with PlaneOrderLoss), or on a path that never
     *         delivered anything
     */
    bool IsOverdueOnPath(uint32_t ev, Time sentAt) const;

    /**
     * Locate an unlocated loss by its path's silence (see DeclareLostUnlocated).
     * \param r the record of the declared packet
     * \return whether the path has gone silent: r's loss is located (retire its EV); an
     *         earlier loss on the path has been located already
     */
    bool LocateBySilence(const MrcSendQueue::Record& r);

    /**
     * \param longestRtt the longest RTT of the last 4-8 base RTTs (of the queue pair or a plane)
     * \return the derived reorder window: that RTT over the base RTT, at least the target delay
     */
    Time SpreadWindow(Time longestRtt) const;

    // Attributes
    double m_oooWindows;       //!< OutOfOrderWindows
    uint32_t m_oooMinPackets;  //!< OutOfOrderMinPackets
    Time m_reorderWindowAttr;  //!< ReorderWindow (0: derived)
    bool m_pathOrder;          //!< PathOrderLoss
    bool m_planeReorder;       //!< PlaneReorderWindow
    bool m_planeOrder;         //!< PlaneOrderLoss
    bool m_tailReorder;        //!< TailReorderTimer
    bool m_tailProbe;          //!< TailLossProbe
    Time m_tlpDelayAttr;       //!< TailProbeDelay (0: derived)
    Time m_tlpBusyAttr;        //!< TailProbeBusyDelay (0: derived)
    Time m_tlpRetryAttr;       //!< TailProbeRetry (0: derived)
    bool m_retiredEvSweep;     //!< RetiredEvSweep
    uint32_t m_retirePathEvs;  //!< RetirePathEvs (0: never)
    bool m_retireSilentPath;   //!< RetireSilentPath
    Time m_retirePathSpanAttr; //!< RetirePathSpan (0: one base RTT)
    Time m_retirePathSpan;     //!< the span in use
    /// Per path (GetPathId), its recent located losses: (send time, EV), in the order found.
    std::unordered_map<uint64_t, std::deque<std::pair<Time, uint32_t>>> m_pathLosses;

    MrcSackLossDetector m_detector;                    //!< SACK rule
    MrcPathOrderLossDetector m_pathOrderDetector;      //!< per-EV order rule
    MrcPlaneOrderLossDetector m_planeOrderDetector;    //!< per-plane order rule
    std::deque<uint32_t> m_rtxQueue;                   //!< PSNs to retransmit
    std::deque<std::pair<Time, uint32_t>> m_lossQueue; //!< (deadline, PSN), in send order
    EventId m_lossEvent;                               //!< loss timer
    Time m_tlpDelay;                                   //!< probe delay, nothing new to send
    Time m_tlpBusy;                                    //!< probe delay, new data waiting
    Time m_tlpRetry;                                   //!< probe retry
    Time m_tlpAnswerLimit;                             //!< an answer this fast: path empty
    Time m_tlpAckGap;                                  //!< no probe this soon after an ACK
    Time m_lastSend;                                   //!< newest transmission
    Time m_lastAck;                                    //!< last acknowledgement
    EventId m_tlpEvent;                                //!< tail-loss probe timer
    EventId m_reorderEvent;                            //!< tail reorder timer
    std::map<uint32_t, EventId> m_sweeps;              //!< per retired EV: its pending sweep
    Time m_rttMaxCur;                                  //!< longest RTT, this 4-base-RTT span
    Time m_rttMaxPrev;                                 //!< longest RTT, the span before
    Time m_rttMaxStart;                                //!< start of this span
    std::vector<std::pair<Time, Time>> m_planeRttMax;  //!< per plane: (this span, the one before)
    /// PSNs an unlocated rule declared on an EV it kept: PSN -> (EV, send time of that
    /// transmission). If the per-EV order rule later finds that transmission overtaken, the loss
    /// was real and on that path: the EV is retired then.
    std::unordered_map<uint32_t, std::pair<uint32_t, Time>> m_suspects;
    /// Per path (GetPathId), its latest-sent packet acknowledged (sent once): (send time,
    /// acknowledged at).
    std::unordered_map<uint64_t, std::pair<Time, Time>> m_lastAckOnPath;

    /// An unlocated loss kept on its EV, the first on its path since the path last delivered.
    struct PathSuspect
    {
        Time sentAt;   //!< send time of that transmission
        uint32_t ev;   //!< its EV
        Time nextSent; //!< the next transmission on the path after it (negative: none yet)
    };

    /// Per path (GetPathId), its PathSuspect.
    std::unordered_map<uint64_t, PathSuspect> m_pathSuspects;
    uint32_t m_tlpSequence{0};  //!< last probe's sequence number
    Time m_tlpSentAt{Time(-1)}; //!< last probe's send time
};

} // namespace ns3

#endif /* MRC_SELECTIVE_RECOVERY_H */
