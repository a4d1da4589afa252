/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_VALUE_PARSER_H
#define MRC_VALUE_PARSER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Parses user-supplied strings (command line, scenario files) into ns-3 values.
 *
 * ns-3's own string constructors of DataRate and Time abort the program on a malformed string;
 * these throw std::invalid_argument naming the field and the accepted form instead.
 */
class ValueParser
{
  public:
    /**
     * \param field name of the parameter, for the message
     * \param text e.g. "100Gbps", "400Gb/s"
     * \return the rate, > 0
     * \throws std::invalid_argument if text is not a positive data rate
     */
    static DataRate ParseDataRate(const std::string& field, const std::string& text);

    /**
     * \param field name of the parameter, for the message
     * \param text e.g. "1us", "2.5ms", "0s"
     * \return the time, >= 0
     * \throws std::invalid_argument if text is not a non-negative time with a unit
     */
    static Time ParseTime(const std::string& field, const std::string& text);

    /**
     * Check attribute text before ns-3 reads it: TimeValue reads a malformed string by
     * aborting the program (Time's string constructor), where other values (DataRate,
     * QueueSize, numbers, enums) refuse it. Call before SetAttribute / Config::Set / SetDefault
     * with a StringValue. \param field the attribute, for the message \param checker its checker
     * \param text the value
     * \throws std::invalid_argument naming the field and the accepted form if the text would
     *         abort ns-3
     */
    static void CheckAttributeText(const std::string& field,
                                   Ptr<const AttributeChecker> checker,
                                   const std::string& text);

    /**
     * CheckAttributeText for an attribute known by type and name.
     * \param typeId the type, e.g. "ns3::MrcQueuePair"
     * \param attribute its attribute name
     * \param text the value
     * \throws std::invalid_argument as CheckAttributeText (an unknown type or attribute passes:
     *         ns-3 refuses it itself)
     */
    static void CheckAttributeText(TypeId typeId,
                                   const std::string& attribute,
                                   const std::string& text);
};

} // namespace ns3

#endif /* MRC_VALUE_PARSER_H */
