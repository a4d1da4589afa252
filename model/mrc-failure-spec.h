/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_SPEC_H
#define MRC_FAILURE_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * What a failure event does. Each "start" kind may carry a duration, after which its "end"
 * kind is applied.
 */
enum class MrcFailureKind : uint8_t
{
    LINK_DOWN,            //!< "link-down": carrier lost at both ends
    LINK_UP,              //!< "link-up": carrier back
    BLACKHOLE,            //!< "blackhole": carrier up, every frame dropped
    BLACKHOLE_END,        //!< "blackhole-end"
    GRAY_LOSS,            //!< "gray-loss": random loss with a probability
    GRAY_LOSS_END,        //!< "gray-loss-end"
    RATE,                 //!< "rate": the link's DataRate changes
    RATE_RESTORE,         //!< "rate-restore": the rate the link had before
    FLAP,                 //!< "flap": down/up cycles (period and duty, or explicit offsets)
    SWITCH_DOWN,          //!< "switch-down": every link of the switch down
    SWITCH_UP,            //!< "switch-up"
    SWITCH_BLACKHOLE,     //!< "switch-blackhole": the switch drops all it receives
    SWITCH_BLACKHOLE_END, //!< "switch-blackhole-end"
    PORT_DOWN,            //!< "port-down": a host's NIC port (its host-T0 link) down
    PORT_UP,              //!< "port-up"
};

/**
 * \ingroup mrc
 * What a failure event acts on.
 */
enum class MrcFailureTarget : uint8_t
{
    LINK,      //!< one link (both ends)
    SWITCH,    //!< every link of a switch
    HOST_PORT, //!< a host's NIC port on one plane
};

/**
 * \ingroup mrc
 * Which direction of a link an event affects. "Lower" is the host or the switch nearer the
 * hosts (MrcFabricLink).
 */
enum class MrcLinkDirection : uint8_t
{
    BOTH, //!< "both"
    UP,   //!< "up": frames from the lower node to the upper node
    DOWN, //!< "down": frames from the upper node to the lower node
};

/**
 * \ingroup mrc
 * \brief One entry of a failure schedule, as written (node names unresolved): what
 * MrcFailureScheduleParser reads and MrcFailureHelper::Schedule applies to a fabric.
 */
struct MrcFailureSpec
{
    MrcFailureKind kind{MrcFailureKind::LINK_DOWN}; //!< what happens
    Time at;                                        //!< when (absolute simulation time)
    std::string origin;                             //!< where it was written ("plan.csv:7", "api")

    /// \name Target (the fields its kind uses)
    /// @{
    std::string nodeA;              //!< link: one node name
    std::string nodeB;              //!< link: the other node name
    std::optional<uint32_t> linkId; //!< link: MrcFabricLink id instead of names
    std::optional<uint32_t> index;  //!< link: which of several parallel links (0-based)
    std::string switchName;         //!< switch: node name
    uint32_t host{0};               //!< host port: host index
    uint32_t plane{0};              //!< host port: plane
    /// @}

    /// \name Parameters
    /// @{
    Time duration;                                      //!< > 0: the end kind follows after it
    MrcLinkDirection direction{MrcLinkDirection::BOTH}; //!< blackhole, gray-loss, rate
    double probability{0};                              //!< gray-loss, in [0, 1]
    DataRate rate;                                      //!< rate
    Time period;                                        //!< flap: cycle length
    double duty{0};            //!< flap: fraction of each period down, (0, 1)
    std::vector<Time> offsets; //!< flap: down, up, down, ... after `at`
    /// @}

    /**
     * \param kind a kind
     * \return its name in schedule files ("link-down", ...)
     */
    static std::string GetKindName(MrcFailureKind kind);

    /**
     * \param name a kind's name in schedule files
     * \return the kind, if the name is one
     */
    static std::optional<MrcFailureKind> ParseKind(const std::string& name);

    /// \return every kind's name, comma-separated, for messages
    static std::string GetKindNames();

    /**
     * \param time a time
     * \return it in the largest of s, ms, us, ns that keeps it exact ("100us", "1500ns")
     */
    static std::string FormatTime(Time time);

    /**
     * \param x a number
     * \return it with the fewest digits that read back as the same double ("0.05")
     */
    static std::string FormatNumber(double x);

    /**
     * \param rate a rate
     * \return it in the largest of Gbps, Mbps, kbps, bps that keeps it exact
     */
    static std::string FormatRate(DataRate rate);

    /**
     * \param kind a kind
     * \return what it acts on
     */
    static MrcFailureTarget GetTarget(MrcFailureKind kind);

    /**
     * \param kind a kind
     * \return whether it may carry a duration (a "start" kind other than flap)
     */
    static bool TakesDuration(MrcFailureKind kind);

    /**
     * \param kind a "start" kind
     * \return the kind that ends it (the kind itself if it has none)
     */
    static MrcFailureKind GetEndKind(MrcFailureKind kind);

    /**
     * \param kind a kind
     * \return whether it takes a direction
     */
    static bool TakesDirection(MrcFailureKind kind);

    /**
     * \param direction a direction
     * \return its name ("both", "up", "down")
     */
    static std::string GetDirectionName(MrcLinkDirection direction);

    /// \return the target as written: "link p0-t0-3 p0-t1-1", "switch p0-t1-0", "host 3 plane 1"
    std::string DescribeTarget() const;

    /**
     * \return a key that is equal for entries naming the same target the same way (link node
     *         names in either order)
     */
    std::string GetTargetKey() const;

    /**
     * The flap's transitions.
     * \return absolute times of down, up, down, up, ... (even positions are downs); the last
     *         up is clipped to the end of the flap's duration
     */
    std::vector<Time> GetFlapTimes() const;

    /**
     * The simulator events MrcFailureHelper schedules for this entry, counted without expanding a
     * flap: a flap has one per transition (two per period started within its duration, or one
     * per offset), a start kind with a duration two (start and end), any other entry one.
     * \return the count (saturates at the largest uint64_t)
     */
    uint64_t GetEventCount() const;
};

/**
 * \param os stream
 * \param kind kind
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcFailureKind kind);

/**
 * \param os stream
 * \param direction direction
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcLinkDirection direction);

} // namespace ns3

#endif /* MRC_FAILURE_SPEC_H */
