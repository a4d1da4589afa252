/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_STRICT_OPTIONS_H
#define MRC_STRICT_OPTIONS_H

#include "ns3/command-line.h"

#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Numeric program options that ns3::CommandLine parses strictly.
 *
 * CommandLine reads a program's own numeric option with `istream >> value` and accepts what a
 * stream accepts: `--planes=2.5` gives 2, `--bytes=1e5` gives 1, `--count=-1` gives the largest
 * unsigned value, all silently. An option registered here is checked as the module checks
 * attribute values (MrcValueParser::CheckAttributeText): the whole text must be a number of the
 * option's type and range, else the program prints "--<name> (="<text>") must be ..." and
 * CommandLine exits with status 1. Other types (bool, std::string) go to CommandLine as they are.
 *
 * \code
 *   CommandLine cmd(__FILE__);
 *   MrcStrictOptions strict;          // lives until cmd.Parse has run
 *   strict.Add(cmd, "planes", "planes, 1..16", planes);
 *   cmd.Parse(argc, argv);
 * \endcode
 */
class MrcStrictOptions
{
  public:
    /**
     * Register a program option.
     * \param cmd the command line
     * \param name option name (without dashes)
     * \param help help text
     * \param value where the value goes (its value now is the default shown by --help)
     */
    template<class T>
    void Add(CommandLine& cmd, const std::string& name, const std::string& help, T& value)
    {
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
        {
            auto holder = std::make_unique<Holder<T>>(name, value);
            cmd.AddValue(name, help, *holder);
            m_holders.push_back(std::move(holder));
        }
        else
        {
            cmd.AddValue(name, help, value);
        }
    }

  private:
    /// What CommandLine holds for one option.
    struct HolderBase
    {
        virtual ~HolderBase() = default;
    };

    /// Reads one numeric option strictly into the program's variable.
    template<class T>
    struct Holder : HolderBase
    {
        /**
         * \param n option name
         * \param v the program's variable
         */
        Holder(const std::string& n, T& v)
            : name(n)
            , value(&v)
        {
        }

        std::string name; //!< option name
        T* value;         //!< the program's variable

        /// \param text the option's text \return whether it was stored (else refused)
        bool Read(const std::string& text)
        {
            return MrcStrictOptions::Parse(name, text, *value);
        }

        /**
         * \param is the option's text
         * \param h the option
         * \return is, failed if the text is not a number of T's type and range
         */
        friend std::istream& operator>>(std::istream& is, Holder& h)
        {
            std::string text;
            std::getline(is, text);
            if (!h.Read(text))
            {
                is.setstate(std::ios::failbit);
            }
            return is;
        }

        /**
         * \param os a stream
         * \param h the option
         * \return os, with the variable's value (the default --help shows)
         */
        friend std::ostream& operator<<(std::ostream& os, const Holder& h)
        {
            return os << *h.value;
        }
    };

    /**
     * \param name option name
     * \param text its text
     * \param value where the number goes
     * \return whether the text was a number of the type and range (else the reason is printed
     *         on stderr)
     */
    static bool Parse(const std::string& name, const std::string& text, uint64_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, uint32_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, uint16_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, uint8_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, int64_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, int32_t& value);
    /// \copydoc Parse(const std::string&,const std::string&,uint64_t&)
    static bool Parse(const std::string& name, const std::string& text, double& value);

    std::vector<std::unique_ptr<HolderBase>> m_holders; //!< one per numeric option
};

} // namespace ns3

#endif /* MRC_STRICT_OPTIONS_H */
