/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_THRESHOLDS_H
#define MRC_PFC_THRESHOLDS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// How an MrcPfcPort sets its XOFF and XON thresholds.
enum class MrcPfcThresholdMode
{
    STATIC,  //!< fixed XOFF and XON bytes
    DYNAMIC, //!< XOFF = alpha x free shared buffer, XON = XOFF - offset
};

/**
 * \ingroup mrc
 * \brief The XOFF/XON thresholds of a PFC ingress port and the headroom above XOFF
 * (pure logic, no simulator state).
 *
 * Static: XOFF and XON are fixed byte counts (XON <= XOFF). Dynamic: XOFF is a fraction alpha
 * of the switch's free shared buffer and XON lies a fixed offset below it (0 at least), so a
 * port may hold more while the switch is idle and less while it is full.
 */
class MrcPfcThresholds
{
  public:
    /**
     * \param xoff XOFF bytes
     * \param xon XON bytes
     * \return static thresholds
     * \throws std::invalid_argument naming XonThreshold if xon > xoff
     */
    static MrcPfcThresholds Static(uint64_t xoff, uint64_t xon);

    /**
     * \param alpha fraction of the free shared buffer, in (0, 64]
     * \param xonOffset XON this many bytes below XOFF
     * \return dynamic thresholds
     * \throws std::invalid_argument naming DynamicAlpha if alpha is out of range
     */
    static MrcPfcThresholds Dynamic(double alpha, uint64_t xonOffset);

    /**
     * \param text "static" or "dynamic"
     * \return the mode
     * \throws std::invalid_argument naming ThresholdMode otherwise
     */
    static MrcPfcThresholdMode ParseMode(const std::string& text);

    /**
     * Headroom a port needs above XOFF so that nothing in flight overflows: the bytes the
     * peer sends in two propagation delays and its response delay, plus \p committedFrames
     * frames (the one on the wire at each end and those already in the peer's device queue).
     * \param bitRate link rate in bit/s
     * \param delay one-way propagation delay
     * \param frameBytes largest frame on the wire
     * \param committedFrames frames that go out whatever the pause
     * \param responseDelay time the peer takes to act on a PAUSE
     * \return bytes, rounded up
     */
    static uint64_t Headroom(uint64_t bitRate,
                             Time delay,
                             uint32_t frameBytes,
                             uint32_t committedFrames,
                             Time responseDelay);

    /// \return the mode
    MrcPfcThresholdMode GetMode() const;

    /**
     * \param freeBuffer free bytes of the shared buffer (ignored in static mode)
     * \return the XOFF threshold in bytes
     */
    uint64_t GetXoff(uint64_t freeBuffer) const;

    /**
     * \param freeBuffer free bytes of the shared buffer (ignored in static mode)
     * \return the XON threshold in bytes
     */
    uint64_t GetXon(uint64_t freeBuffer) const;

  private:
    MrcPfcThresholds() = default;

    MrcPfcThresholdMode m_mode{MrcPfcThresholdMode::STATIC}; //!< mode
    uint64_t m_xoff{0};                                      //!< static XOFF
    uint64_t m_xon{0};                                       //!< static XON
    double m_alpha{0};                                       //!< dynamic fraction
    uint64_t m_xonOffset{0};                                 //!< dynamic XON offset
};

} // namespace ns3

#endif /* MRC_PFC_THRESHOLDS_H */
