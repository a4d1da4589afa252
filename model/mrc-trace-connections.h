/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRACE_CONNECTIONS_H
#define MRC_TRACE_CONNECTIONS_H

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The trace connections an observer made, so that it can undo them all when it is
 * disposed (MrcFlowProbe, MrcFabricDropMonitor, MrcLinkMonitor).
 *
 * Each connection is made with TraceConnectWithoutContext and remembered with its source, name
 * and callback; DisconnectAll undoes them in the order they were made. An observer disposed
 * before the objects it watched leaves no callback behind that points at it.
 */
class MrcTraceConnections
{
  public:
    /**
     * Connect a trace source and remember the connection.
     * \param source traced object
     * \param name trace source name
     * \param callback the callback
     * \return false, with nothing remembered, if the object has no trace source of that name
     */
    bool Connect(Ptr<Object> source, const std::string& name, const CallbackBase& callback);

    /// Disconnect every remembered connection and forget them.
    void DisconnectAll();

    /// \return the connections held
    std::size_t GetN() const;

  private:
    /// One connection.
    struct Connection
    {
        Ptr<Object> source;    //!< traced object
        std::string name;      //!< trace source name
        CallbackBase callback; //!< connected callback
    };

    std::vector<Connection> m_connections; //!< in the order made
};

} // namespace ns3

#endif /* MRC_TRACE_CONNECTIONS_H */
