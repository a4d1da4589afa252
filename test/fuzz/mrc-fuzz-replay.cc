/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * main() of a fuzz target without libFuzzer (any compiler): the CTest smoke run, the replay of
 * a crash file, and the writer of the seed corpus. See mrc-fuzz.h.
 *
 *   mrc-fuzz-<name>-replay [--mutations=N] [--seed=S]   seeds + N mutations of each (default 50)
 *   mrc-fuzz-<name>-replay FILE|DIR...                  run these inputs (a directory: its files)
 *   mrc-fuzz-<name>-replay --write-seeds=DIR            write the seeds as files into DIR
 */

#include "mrc-fuzz.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>

namespace
{

using ns3::mrcfuzz::Input;

/// \param input one input \return 0 (runs it; a broken property aborts)
int
Run(const Input& input)
{
    return LLVMFuzzerTestOneInput(input.data(), input.size());
}

/**
 * One deterministic mutation of the kinds libFuzzer starts with.
 * \param in the input
 * \param other another seed (for splicing)
 * \param gen the generator
 * \return the mutated input
 */
Input
Mutate(Input in, const Input& other, std::mt19937& gen)
{
    auto pick = [&gen](size_t n) {
        return n == 0 ? size_t{0} : size_t(gen() % n);
    };
    static const uint8_t kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
    const int kinds = 6;
    const int kind = static_cast<int>(gen() % kinds);
    if (in.empty() && kind != 5)
    {
        in.push_back(static_cast<uint8_t>(gen()));
        return in;
    }
    switch (kind)
    {
        case 0: // flip one bit
            in[pick(in.size())] ^= static_cast<uint8_t>(1u << (gen() % 8));
            break;
        case 1: // an interesting byte value
            in[pick(in.size())] = kInteresting[pick(sizeof(kInteresting))];
            break;
        case 2: // truncate
            in.resize(pick(in.size()));
            break;
        case 3: { // erase a range
            const size_t at = pick(in.size());
            const size_t len = 1 + pick(std::min<size_t>(16, in.size() - at));
            in.erase(in.begin() + at, in.begin() + std::min(in.size(), at + len));
            break;
        }
        case 4: { // repeat a range
            const size_t at = pick(in.size());
            const size_t len = 1 + pick(std::min<size_t>(64, in.size() - at));
            const Input copy(in.begin() + at, in.begin() + std::min(in.size(), at + len));
            in.insert(in.begin() + pick(in.size() + 1), copy.begin(), copy.end());
            break;
        }
        default: { // splice with another seed's tail
            const size_t keep = pick(in.size() + 1);
            in.resize(keep);
            in.insert(in.end(), other.begin() + pick(other.size() + 1), other.end());
            break;
        }
    }
    return in;
}

/// \param path a file \return its bytes
Input
ReadFile(const std::filesystem::path& path)
{
    std::ifstream f(path, std::ios::binary);
    return Input(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// \param arg an argument \param name option name with "=" \return whether arg is that option
bool
IsOption(const std::string& arg, const std::string& name)
{
    return arg.rfind(name, 0) == 0;
}

} // namespace

int
main(int argc, char** argv)
{
    unsigned long mutations = 50;
    unsigned long seed = 1;
    std::string seedDir;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        try
        {
            if (IsOption(arg, "--mutations="))
            {
                mutations = std::stoul(arg.substr(12));
            }
            else if (IsOption(arg, "--seed="))
            {
                seed = std::stoul(arg.substr(7));
            }
            else if (IsOption(arg, "--write-seeds="))
            {
                seedDir = arg.substr(14);
            }
            else if (IsOption(arg, "-"))
            {
                throw std::invalid_argument("unknown option");
            }
            else
            {
                paths.push_back(arg);
            }
        }
        catch (const std::exception&)
        {
            std::cerr << argv[0] << ": bad argument '" << arg
                      << "' (accepted: --mutations=N, --seed=N, --write-seeds=DIR, files or "
                         "directories of inputs)"
                      << std::endl;
            return 2;
        }
    }
    const std::vector<Input> seeds = ns3::mrcfuzz::Seeds();
    if (!seedDir.empty())
    {
        std::filesystem::create_directories(seedDir);
        for (size_t i = 0; i < seeds.size(); ++i)
        {
            const auto name = std::filesystem::path(seedDir) / ("seed-" + std::to_string(i));
            std::ofstream f(name, std::ios::binary);
            f.write(reinterpret_cast<const char*>(seeds[i].data()),
                    static_cast<std::streamsize>(seeds[i].size()));
        }
        std::cout << seeds.size() << " seeds written to " << seedDir << std::endl;
        return 0;
    }
    size_t runs = 0;
    if (!paths.empty())
    {
        for (const auto& p : paths)
        {
            std::vector<std::filesystem::path> files;
            if (std::filesystem::is_directory(p))
            {
                for (const auto& e : std::filesystem::directory_iterator(p))
                {
                    if (e.is_regular_file())
                    {
                        files.push_back(e.path());
                    }
                }
                std::sort(files.begin(), files.end());
            }
            else if (std::filesystem::is_regular_file(p))
            {
                files.emplace_back(p);
            }
            else
            {
                std::cerr << argv[0] << ": no such file or directory: " << p << std::endl;
                return 2;
            }
            for (const auto& f : files)
            {
                Run(ReadFile(f));
                ++runs;
            }
        }
        std::cout << runs << " inputs replayed, every property held" << std::endl;
        return 0;
    }
    std::mt19937 gen(static_cast<std::mt19937::result_type>(seed));
    for (const auto& s : seeds)
    {
        Run(s);
        ++runs;
    }
    for (size_t i = 0; i < seeds.size(); ++i)
    {
        Input m = seeds[i];
        for (unsigned long k = 0; k < mutations; ++k)
        {
            // Stack up to four mutations, then start again from the seed.
            m = k % 4 == 0 ? seeds[i] : m;
            m = Mutate(m, seeds[(i + k + 1) % seeds.size()], gen);
            Run(m);
            ++runs;
        }
    }
    std::cout << seeds.size() << " seeds and " << runs - seeds.size()
              << " mutations run, every property held" << std::endl;
    return 0;
}
