/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RACK_RECOVERY_H
#define MRC_RACK_RECOVERY_H

#include "mrc-rack-loss-detector.h"
#include "mrc-selective-recovery.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC's selective recovery with the time-domain loss rule of RACK (RFC 8985) in place of
 * the out-of-order count: a PSN is lost when a PSN sent after it was acknowledged and it is older
 * than that PSN's RTT plus a reorder window (ReorderWindowFraction of the minimum RTT). A timer
 * fires when the next waiting PSN becomes due. Tail-loss probes, the loss timer and the NACK
 * handling are MrcSelectiveRecovery's. Select with MrcQueuePair::LossRecovery =
 * ns3::MrcRackRecovery (both ends).
 */
class MrcRackRecovery : public MrcSelectiveRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRackRecovery();
    ~MrcRackRecovery() override;

    void Start(const Context& context) override;

    /// \return the detector (minimum RTT, reorder window)
    const MrcRackLossDetector& GetDetector() const;

  protected:
    std::vector<uint32_t> DetectLosses(const MrcAckFeedback& feedback) override;
    void DoStop() override;

  private:
    /// The reorder timer: PSNs waiting for their reorder window may be due now.
    void OnReorderTimer();
    /**
     * Run the rule now and arm the reorder timer for the next PSN due.
     * \return the PSNs lost
     */
    std::vector<uint32_t> Run();

    double m_reorderFraction;       //!< ReorderWindowFraction
    MrcRackLossDetector m_detector; //!< the rule
    EventId m_reorderEvent;         //!< reorder timer
};

} // namespace ns3

#endif /* MRC_RACK_RECOVERY_H */
