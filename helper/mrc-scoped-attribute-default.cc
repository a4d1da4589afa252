/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scoped-attribute-default.h"

#include "ns3/config.h"
#include "ns3/type-id.h"

#include <stdexcept>

namespace ns3
{

MrcScopedAttributeDefault::MrcScopedAttributeDefault(const std::string& typeId,
                                                     const std::string& attribute,
                                                     const AttributeValue& value)
    : m_path(typeId + "::" + attribute)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) || !tid.LookupAttributeByName(attribute, &info))
    {
        throw std::invalid_argument("MrcScopedAttributeDefault: " + m_path + " does not exist");
    }
    m_old = info.initialValue;
    if (!Config::SetDefaultFailSafe(m_path, value))
    {
        throw std::invalid_argument("MrcScopedAttributeDefault: " + m_path + " refuses the value");
    }
}

MrcScopedAttributeDefault::~MrcScopedAttributeDefault()
{
    Config::SetDefaultFailSafe(m_path, *m_old);
}

} // namespace ns3
