/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-trace-connections.h"

namespace ns3
{

bool
MrcTraceConnections::Connect(Ptr<Object> source,
                             const std::string& name,
                             const CallbackBase& callback)
{
    if (!source->TraceConnectWithoutContext(name, callback))
    {
        return false;
    }
    m_connections.push_back(Connection{source, name, callback});
    return true;
}

void
MrcTraceConnections::DisconnectAll()
{
    for (const Connection& c : m_connections)
    {
        c.source->TraceDisconnectWithoutContext(c.name, c.callback);
    }
    m_connections.clear();
}

std::size_t
MrcTraceConnections::GetN() const
{
    return m_connections.size();
}

} // namespace ns3
