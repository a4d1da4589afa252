/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_RESULT_CODEC_H
#define MRC_SCENARIO_RESULT_CODEC_H

#include "ns3/mrc-scenario-result.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief An MrcScenarioResult as bytes and back, exactly: every field, times as ns-3 time
 * steps, the one floating-point field bit for bit.
 *
 * For a run done in another process (mrc-ai-cluster --jobs runs each fabric in a child process
 * and reads its result back through a pipe): the decoded result prints and writes the same
 * tables and files as the original. The bytes are for the same build of the module on the same
 * machine (native byte order, no version field); they are not a file format.
 */
class MrcScenarioResultCodec
{
  public:
    /**
     * \param r a result
     * \return its bytes
     */
    static std::string Encode(const MrcScenarioResult& r);

    /**
     * \param bytes what Encode returned
     * \return the result
     * \throws std::invalid_argument when the bytes are truncated or have bytes left over
     */
    static MrcScenarioResult Decode(const std::string& bytes);
};

} // namespace ns3

#endif /* MRC_SCENARIO_RESULT_CODEC_H */
