/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-benchmark --htsim=PATH (see mrc-benchmark-htsim.h).
 */

#include "mrc-benchmark-htsim.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace mrcbenchmark
{
namespace
{

/// Bytes of headers htsim counts in its MTU beyond the payload (its default MTU 4150 carries
/// 4096 B of payload).
constexpr uint32_t kHtsimHeaderBytes = 54;

/// Remove a directory tree when it goes out of scope.
class TempDir
{
  public:
    /// Create a fresh directory under the system's temporary directory.
    TempDir()
    {
        std::string name =
            (std::filesystem::temp_directory_path() / "mrc-benchmark-htsim-XXXXXX").string();
        std::vector<char> buf(name.begin(), name.end());
        buf.push_back('\0');
        if (!mkdtemp(buf.data()))
        {
            throw std::runtime_error(std::string("--htsim: cannot create a temporary directory: ")
                                     + std::strerror(errno));
        }
        m_path = buf.data();
    }

    ~TempDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }

    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// \return its path
    const std::filesystem::path& Path() const
    {
        return m_path;
    }

  private:
    std::filesystem::path m_path; //!< the directory
};

/**
 * The high-water mark of a process's resident set (VmHWM of /proc/PID/status), once PID has
 * left this program's image by an exec (its /proc/PID/exe is another file than ours).
 * \param pid the process \param ownExe this program's executable (/proc/self/exe's target;
 *        empty: unknown, no sample)
 * \return KiB, or nothing (not readable, or not exec'd yet)
 */
std::optional<uint64_t>
ExecdHighWaterKiB(pid_t pid, const std::filesystem::path& ownExe)
{
    const std::filesystem::path proc = "/proc/" + std::to_string(pid);
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink(proc / "exe", ec);
    if (ec || ownExe.empty() || exe == ownExe)
    {
        return std::nullopt;
    }
    std::ifstream status(proc / "status");
    for (std::string line; std::getline(status, line);)
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::strtoull(line.c_str() + 6, nullptr, 10);
        }
    }
    return std::nullopt;
}

/**
 * Waits between samples of a child: on a pidfd (Linux 5.3 on), which wakes at the child's exit,
 * else by sleeping. A plain sleep would add up to its length to the child's measured wall time
 * (10 ms: a quarter of a k = 4 htsim run). The pidfd is closed with the object.
 */
class ChildWait
{
  public:
    /// \param pid the child
    explicit ChildWait([[maybe_unused]] pid_t pid)
    {
#ifdef SYS_pidfd_open
        m_fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#endif
    }

    ~ChildWait()
    {
        if (m_fd >= 0)
        {
            close(m_fd);
        }
    }

    ChildWait(const ChildWait&) = delete;
    ChildWait& operator=(const ChildWait&) = delete;

    /// Return after limit, or earlier once the child has exited (with a pidfd).
    /// \param limit the longest wait
    void For(std::chrono::milliseconds limit) const
    {
        if (m_fd >= 0)
        {
            pollfd exited{m_fd, POLLIN, 0};
            poll(&exited, 1, static_cast<int>(limit.count()));
        }
        else
        {
            std::this_thread::sleep_for(limit);
        }
    }

  private:
    int m_fd{-1}; //!< the child's pidfd (-1: none, sleep instead)
};

/**
 * Run a program with its standard output and error into a file and wait for it.
 *
 * Its peak memory is sampled while it runs (every 10 ms, the process's own high-water mark
 * after its exec), not taken from wait4's ru_maxrss: Linux counts in a child's ru_maxrss the
 * memory of the process it was forked from (exec records the forked copy's high-water mark),
 * so a child of this program would show at least this program's own memory at the fork.
 * \param dir working directory \param args argv (args[0] the program) \param out output file
 * \param peakKiB set to the program's peak resident set, KiB (nothing if it ended before a
 *        sample after its exec)
 * \return its wait status
 */
int
RunChild(const std::filesystem::path& dir,
         const std::vector<std::string>& args,
         const std::filesystem::path& out,
         std::optional<uint64_t>& peakKiB)
{
    std::vector<char*> argv;
    for (const std::string& a : args)
    {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
    {
        throw std::runtime_error(std::string("--htsim: fork failed: ") + std::strerror(errno));
    }
    if (pid == 0)
    {
        // The child: only async-signal-safe calls until exec.
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || chdir(dir.c_str()) != 0 || dup2(fd, STDOUT_FILENO) < 0
            || dup2(fd, STDERR_FILENO) < 0)
        {
            _exit(127);
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    peakKiB.reset();
    std::error_code ec;
    const std::filesystem::path ownExe = std::filesystem::read_symlink("/proc/self/exe", ec);
    const ChildWait waiter(pid);
    int status = 0;
    for (;;)
    {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
        {
            break;
        }
        if (done < 0 && errno != EINTR)
        {
            throw std::runtime_error(std::string("--htsim: wait failed: ") + std::strerror(errno));
        }
        if (const auto hwm = ExecdHighWaterKiB(pid, ownExe))
        {
            peakKiB = std::max(peakKiB.value_or(0), *hwm);
        }
        waiter.For(std::chrono::milliseconds(10));
    }
    return status;
}

} // namespace

std::string
HtsimFatTreeTopology(uint32_t k, DataRate rate, Time delay)
{
    const uint64_t bps = rate.GetBitRate();
    if (bps == 0 || bps % 1000000000 != 0)
    {
        throw std::invalid_argument("--htsim: the link rate (" + std::to_string(bps)
                                    + " b/s) must be a whole number of Gb/s for htsim's topology");
    }
    const int64_t ns = delay.GetNanoSeconds();
    if (ns < 0 || Time(NanoSeconds(ns)) != delay)
    {
        throw std::invalid_argument("--htsim: the link delay must be a whole number of ns, at "
                                    "least 0, for htsim's topology");
    }
    std::ostringstream t;
    t << "Nodes " << k * k * k / 4 << "\nTiers 3\nPodsize " << k * k / 4 << "\n";
    for (uint32_t tier = 0; tier < 3; ++tier)
    {
        t << "\nTier " << tier << "\n";
        if (tier < 2)
        {
            t << "Oversubscribed 1\n";
        }
        t << "Downlink_speed_Gbps " << bps / 1000000000 << "\nRadix_Down " << (tier < 2 ? k / 2 : k)
          << "\n";
        if (tier < 2)
        {
            t << "Radix_Up " << k / 2 << "\n";
        }
        t << "Downlink_Latency_ns " << ns << "\nSwitch_Latency_ns 0\n";
        if (tier > 0)
        {
            t << "Bundle 1\n";
        }
    }
    return t.str();
}

void
CheckHtsim(const std::string& binary, DataRate rate, Time delay)
{
    struct stat st
    {
    };

    if (stat(binary.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || access(binary.c_str(), X_OK) != 0)
    {
        throw std::invalid_argument("--htsim (=" + binary
                                    + ") must be an executable file (uet-htsim's htsim_uec)");
    }
    HtsimFatTreeTopology(4, rate, delay);
}

HtsimResult
RunHtsim(const HtsimSetup& setup)
{
    CheckHtsim(setup.binary, setup.rate, setup.delay);
    const std::string topology = HtsimFatTreeTopology(setup.k, setup.rate, setup.delay);
    const std::filesystem::path binary = std::filesystem::absolute(setup.binary);
    TempDir dir;
    {
        std::ofstream tm(dir.Path() / "perm.cm");
        tm << "Nodes " << setup.dst.size() << "\nConnections " << setup.dst.size() << "\n";
        for (uint32_t i = 0; i < setup.dst.size(); ++i)
        {
            tm << i << "->" << setup.dst[i] << " id " << i + 1 << " start 0 size " << setup.bytes
               << "\n";
        }
        std::ofstream(dir.Path() / "fat-tree.topo") << topology;
    }
    const std::vector<std::string> args{binary.string(),
                                        "-tm",
                                        "perm.cm",
                                        "-topo",
                                        "fat-tree.topo",
                                        "-mtu",
                                        std::to_string(setup.packetSize + kHtsimHeaderBytes),
                                        "-seed",
                                        std::to_string(setup.seed),
                                        "-end",
                                        "1000000",
                                        "-o",
                                        "htsim-log.dat"};
    HtsimResult r;
    r.flows = setup.dst.size();
    r.bytes = setup.bytes;
    for (size_t i = 0; i < args.size(); ++i)
    {
        r.commandLine += (i ? " " : "") + (i ? args[i] : binary.filename().string());
    }
    std::optional<uint64_t> peakKiB;
    const auto t0 = std::chrono::steady_clock::now();
    const int status = RunChild(dir.Path(), args, dir.Path() / "out.txt", peakKiB);
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (peakKiB)
    {
        r.peakRssMiB = *peakKiB / 1024.0;
    }
    std::ifstream out(dir.Path() / "out.txt");
    std::deque<std::string> tail; // the last lines, for an error message
    for (std::string line; std::getline(out, line);)
    {
        tail.push_back(line);
        if (tail.size() > 5)
        {
            tail.pop_front();
        }
        const size_t at = line.find(" finished at ");
        if (line.rfind("Flow ", 0) == 0 && at != std::string::npos)
        {
            r.done++;
            r.lastFinishUs = std::max(r.lastFinishUs, std::atof(line.c_str() + at + 13));
        }
        else if (line.rfind("New: ", 0) == 0)
        {
            std::istringstream words(line);
            std::string label;
            words >> label >> r.newPackets >> label >> r.rtxPackets;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::string last;
        for (const std::string& l : tail)
        {
            last += "\n  " + l;
        }
        throw std::runtime_error(
            "--htsim: " + r.commandLine + " failed ("
            + (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                 : "signal " + std::to_string(WTERMSIG(status)))
            + (WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ", could not be started" : "")
            + "); its last output:" + last);
    }
    return r;
}

} // namespace mrcbenchmark
} // namespace ns3
