/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_FAILURE_STATE_H
#define MRC_FABRIC_FAILURE_STATE_H

#include "mrc-fabric-topology.h"
#include "mrc-failure-spec.h"

#include "ns3/mrc-fabric-net-device.h"

#include <bitset>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The failure state of a fabric's links, applied to their FabricNetDevices: why each
 * link is down or black-holed, the rates degraded links had, and the loss counters.
 * MrcFailureHelper drives it; it is also usable directly (no scheduling, no log).
 *
 * A link is down while any of its DownCauses holds, and a device's receive side is black-holed
 * while any of its BlackholeCauses holds, so overlapping failures (a link down on its own and
 * its switch down) end independently. When a host's link changes state and the host has an
 * MrcL4Protocol with a port on that plane, the port follows (MrcL4Protocol::SetPortUp).
 */
class MrcFabricFailureState
{
  public:
    /// What holds a link down.
    enum class DownCause : uint8_t
    {
        LINK = 0,         //!< link-down, flap
        PORT = 1,         //!< port-down of the host port
        LOWER_SWITCH = 2, //!< switch-down of the lower end
        UPPER_SWITCH = 3, //!< switch-down of the upper end
    };

    /// What black-holes a device's receive side.
    enum class BlackholeCause : uint8_t
    {
        LINK = 0,   //!< blackhole of the link
        SWITCH = 1, //!< switch-blackhole of the device's node
    };

    /// One end of a link.
    enum class LinkEnd : uint8_t
    {
        LOWER = 0, //!< MrcFabricLink::lowerDevice
        UPPER = 1, //!< MrcFabricLink::upperDevice
    };

    /**
     * \param topo the fabric
     * \throws std::invalid_argument if a link's devices are not FabricNetDevices
     */
    explicit MrcFabricFailureState(Ptr<MrcFabricTopology> topo);

    /// \return the fabric
    Ptr<MrcFabricTopology> GetTopology() const;

    /**
     * \param link link id
     * \param end an end
     * \return its device
     */
    Ptr<MrcFabricNetDevice> GetDevice(uint32_t link, LinkEnd end) const;

    /**
     * \param direction a direction
     * \param receiving the ends that receive in that direction (true) or transmit (false)
     * \return those ends
     */
    static std::vector<LinkEnd> GetEnds(MrcLinkDirection direction, bool receiving);

    /**
     * \param link link id
     * \param cause a cause
     * \param down set (true) or clear it; the carrier of both ends changes when the link goes
     *        from no cause to some cause or back
     */
    void SetDown(uint32_t link, DownCause cause, bool down);

    /**
     * \param link link id
     * \return whether some cause holds it down
     */
    bool IsDown(uint32_t link) const;

    /**
     * \param link link id
     * \param end the receiving end
     * \param cause a cause
     * \param on set or clear it
     */
    void SetBlackhole(uint32_t link, LinkEnd end, BlackholeCause cause, bool on);

    /**
     * \param link link id
     * \param end the receiving end
     * \param probability loss probability of frames arriving there, [0, 1]
     */
    void SetLossProbability(uint32_t link, LinkEnd end, double probability);

    /**
     * \param link link id
     * \param end the transmitting end
     * \param rate its new DataRate (the rate before the first degradation is kept)
     */
    void DegradeRate(uint32_t link, LinkEnd end, DataRate rate);

    /**
     * \param link link id
     * \param end the transmitting end
     * \return the rate given back, if the end was degraded
     */
    std::optional<DataRate> RestoreRate(uint32_t link, LinkEnd end);

    /**
     * \param a a node name
     * \param b another node name
     * \param index which parallel link (needed only if there are several)
     * \return the link id
     * \throws std::invalid_argument if there is no such node or link, or index is needed or out
     *         of range
     */
    uint32_t FindLink(const std::string& a,
                      const std::string& b,
                      std::optional<uint32_t> index) const;

    /**
     * \param link link id
     * \return "link <lower> <upper>", plus " index <i>" if it has parallel links
     * \throws std::invalid_argument if there is no such link
     */
    std::string DescribeLink(uint32_t link) const;

    /**
     * \param host host index
     * \param plane plane
     * \return the host's link on that plane
     */
    uint32_t GetHostLink(uint32_t host, uint32_t plane) const;

    /**
     * \param cause a cause
     * \return packets lost for it on every link
     */
    uint64_t GetLostPackets(MrcFabricLossCause cause) const;

    /**
     * \param link link id
     * \param cause a cause
     * \return packets lost for it on that link
     */
    uint64_t GetLinkLostPackets(uint32_t link, MrcFabricLossCause cause) const;

    /**
     * \param stream first stream index: two per link, lower end first, in link order
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    Ptr<MrcFabricTopology> m_topo;                  //!< the fabric
    std::vector<Ptr<MrcFabricNetDevice>> m_devices; //!< 2 per link: lower, upper
    std::vector<std::bitset<4>> m_down;             //!< per link: DownCauses
    std::vector<std::bitset<2>> m_blackhole;        //!< per device: BlackholeCauses
    std::map<uint32_t, DataRate> m_originalRate;    //!< per degraded device
};

} // namespace ns3

#endif /* MRC_FABRIC_FAILURE_STATE_H */
