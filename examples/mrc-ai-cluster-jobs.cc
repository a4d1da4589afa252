/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-ai-cluster --jobs (see mrc-ai-cluster-jobs.h).
 */

#include "mrc-ai-cluster-jobs.h"

#include "ns3/mrc-distributed.h"
#include "ns3/mrc-scenario-result-codec.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{
namespace mrcaicluster
{
namespace
{

/// \param s a scenario \return its result, its wall time printed on stderr (on MPI ranks by
/// rank 0 alone, whose result holds the whole run's counts)
MrcScenarioResult
RunOne(const Ptr<MrcClusterScenario>& s)
{
    const auto wall = std::chrono::steady_clock::now();
    MrcScenarioResult r = s->Run();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    if (MrcDistributed::GetRank() != 0)
    {
        return r;
    }
    std::cerr << "mrc-ai-cluster: " << r.name << " took " << std::fixed << std::setprecision(1)
              << seconds << " s wall, " << r.events << " events (" << std::setprecision(2)
              << r.events / seconds / 1e6 << " M/s), " << r.linkTraversals / seconds / 1e6
              << " M packet-hops/s" << std::endl;
    return r;
}

/// A run in a child process.
struct Child
{
    size_t index{0};  //!< which scenario
    int fd{-1};       //!< read end of its pipe
    std::string data; //!< what it sent so far
};

/// \param fd a file descriptor \param data bytes to write, all of them \return true if written
bool
WriteAll(int fd, const std::string& data)
{
    size_t done = 0;
    while (done < data.size())
    {
        const ssize_t n = write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n <= 0)
        {
            return false;
        }
        done += size_t(n);
    }
    return true;
}

/**
 * Start a child that runs one scenario and writes 'R' and the encoded result, or 'E' and an
 * error message, to a pipe.
 * \param s the scenario \param index its position \return the child's pid and its pipe
 */
std::pair<pid_t, Child>
Start(const Ptr<MrcClusterScenario>& s, size_t index)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        throw std::runtime_error(std::string("--jobs: pipe failed: ") + std::strerror(errno));
    }
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid < 0)
    {
        throw std::runtime_error(std::string("--jobs: fork failed: ") + std::strerror(errno));
    }
    if (pid == 0)
    {
        close(fds[0]);
        std::string message;
        try
        {
            message = "R" + MrcScenarioResultCodec::Encode(RunOne(s));
        }
        catch (const std::exception& e)
        {
            message = std::string("E") + e.what();
        }
        const bool written = WriteAll(fds[1], message);
        close(fds[1]);
        std::cout.flush();
        std::cerr.flush();
        _exit(written ? 0 : 1); // no exit handlers: they belong to the parent
    }
    close(fds[1]);
    Child c;
    c.index = index;
    c.fd = fds[0];
    return {pid, c};
}

/**
 * \param name the run's fabric \param status its wait status \param data what it sent
 * \return its result \throws std::runtime_error if it failed
 */
MrcScenarioResult
Finish(const std::string& name, int status, const std::string& data)
{
    if (!data.empty() && data[0] == 'E')
    {
        throw std::runtime_error(data.substr(1));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || data.empty() || data[0] != 'R')
    {
        throw std::runtime_error("the run of " + name + " died ("
                                 + (WIFSIGNALED(status)
                                        ? "signal " + std::to_string(WTERMSIG(status))
                                        : "exit status " + std::to_string(WEXITSTATUS(status)))
                                 + ") before it sent its result");
    }
    return MrcScenarioResultCodec::Decode(data.substr(1));
}

} // namespace

void
RunScenarios(const std::vector<Ptr<MrcClusterScenario>>& scenarios,
             uint32_t jobs,
             const std::function<void(const MrcScenarioResult&)>& report)
{
    if (jobs <= 1 || scenarios.size() <= 1)
    {
        for (const Ptr<MrcClusterScenario>& s : scenarios)
        {
            report(RunOne(s));
        }
        return;
    }
    std::vector<std::optional<MrcScenarioResult>> results(scenarios.size());
    std::map<pid_t, Child> running;
    size_t next = 0;     // next scenario to start
    size_t reported = 0; // results reported so far
    auto stopAll = [&running]() {
        for (auto& [pid, c] : running)
        {
            kill(pid, SIGTERM);
            close(c.fd);
            waitpid(pid, nullptr, 0);
        }
        running.clear();
    };
    try
    {
        while (reported < scenarios.size())
        {
            while (running.size() < jobs && next < scenarios.size())
            {
                running.insert(Start(scenarios[next], next));
                next++;
            }
            // Read from every child until one closes its pipe (it has sent everything).
            std::vector<pollfd> fds;
            std::vector<pid_t> pids;
            for (const auto& [pid, c] : running)
            {
                fds.push_back({c.fd, POLLIN, 0});
                pids.push_back(pid);
            }
            if (poll(fds.data(), fds.size(), -1) < 0)
            {
                if (errno == EINTR)
                {
                    continue;
                }
                throw std::runtime_error(std::string("--jobs: poll failed: ")
                                         + std::strerror(errno));
            }
            for (size_t i = 0; i < fds.size(); ++i)
            {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                {
                    continue;
                }
                Child& c = running.at(pids[i]);
                char buf[65536];
                const ssize_t n = read(c.fd, buf, sizeof(buf));
                if (n > 0)
                {
                    c.data.append(buf, size_t(n));
                    continue;
                }
                if (n < 0 && errno == EINTR)
                {
                    continue;
                }
                // End of its output: collect the child and its result.
                close(c.fd);
                int status = 0;
                waitpid(pids[i], &status, 0);
                const Child done = c;
                running.erase(pids[i]);
                results[done.index] = Finish(scenarios[done.index]->GetKey(), status, done.data);
            }
            while (reported < scenarios.size() && results[reported])
            {
                report(*results[reported]);
                results[reported].reset();
                reported++;
            }
        }
    }
    catch (...)
    {
        stopAll();
        throw;
    }
}

} // namespace mrcaicluster
} // namespace ns3
