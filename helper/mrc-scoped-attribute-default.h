/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCOPED_ATTRIBUTE_DEFAULT_H
#define MRC_SCOPED_ATTRIBUTE_DEFAULT_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Config::SetDefault for one scope: the attribute's previous default comes back when the
 * object is destroyed, so that a scenario can set, e.g., ns3::TcpSocket::SegmentSize for the
 * sockets of its run without changing the next run in the same process.
 */
class MrcScopedAttributeDefault
{
  public:
    /**
     * \param typeId the type, e.g. "ns3::TcpSocket"
     * \param attribute its attribute, e.g. "SegmentSize"
     * \param value the default for this scope
     * \throws std::invalid_argument naming the type and attribute if either does not exist or
     *         the value is refused
     */
    MrcScopedAttributeDefault(const std::string& typeId,
                              const std::string& attribute,
                              const AttributeValue& value);
    ~MrcScopedAttributeDefault();

    MrcScopedAttributeDefault(const MrcScopedAttributeDefault&) = delete;
    MrcScopedAttributeDefault& operator=(const MrcScopedAttributeDefault&) = delete;

  private:
    std::string m_path;              //!< "<type>::<attribute>"
    Ptr<const AttributeValue> m_old; //!< the default before
};

} // namespace ns3

#endif /* MRC_SCOPED_ATTRIBUTE_DEFAULT_H */
