/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The DCQCN test case of the mrc-roce suite (the suite and its other cases:
 * mrc-roce-test-suite.cc).
 */

#ifndef MRC_DCQCN_TEST_CASE_H
#define MRC_DCQCN_TEST_CASE_H

#include "ns3/nstime.h"
#include "ns3/test.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mrctest
{

/**
 * \ingroup mrc-test
 * DCQCN: two RoCEv2 senders into one receiver port that marks ECN (RED on the instantaneous
 * queue, drop-tail, no PFC). Each receiving queue pair sends at most one CNP per CnpInterval;
 * the first CNP halves the sender's rate (alpha = 1: Rc (1 - alpha / 2)), every later cut
 * follows Rc (1 - alpha / 2) with the alpha of the moment, never below MinRate, at most one per
 * RateDecreaseInterval and never without a CNP; once the flows end the marks stop
 * and the rate climbs back to line rate, after which DCQCN's timers stop.
 */
class MrcDcqcnTestCase : public TestCase
{
  public:
    /// Create the test case.
    MrcDcqcnTestCase();

  private:
    /// A rate change of the long flow's sender.
    struct Change
    {
        Time at;         //!< when
        double from{0};  //!< old rate
        double to{0};    //!< new rate
        double alpha{0}; //!< alpha just before
    };

    /// The long flow's DCQCN, observed.
    struct RateLog
    {
        double alpha{1};             //!< current alpha
        Time lastAlphaChange;        //!< when alpha last changed
        std::vector<Change> changes; //!< rate changes
    };

    /**
     * \param log log
     * \param from old alpha
     * \param to new alpha
     */
    static void OnAlpha(RateLog* log, double from, double to);

    /**
     * \param log log
     * \param from old rate
     * \param to new rate
     */
    static void OnRate(RateLog* log, double from, double to);

    /**
     * \param times CNP send times
     * \param ev EV
     */
    static void OnCnp(std::vector<Time>* times, uint32_t ev);

    void DoRun() override;
};

} // namespace mrctest
} // namespace ns3

#endif /* MRC_DCQCN_TEST_CASE_H */
