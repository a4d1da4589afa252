/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcValueParser, second part: checks of values found by name (a TypeId's attribute, a
// GlobalValue, the ns-3 arguments of a command line). Values and the check of an attribute's
// text by its checker: mrc-value-parser.cc.

#include "mrc-value-parser.h"

#include "ns3/global-value.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \param name a GlobalValue's name
 * \return its checker, or nullptr if there is none of that name
 */
Ptr<const AttributeChecker>
GlobalChecker(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return (*it)->GetChecker();
        }
    }
    return nullptr;
}

} // namespace

void
MrcValueParser::CheckAttributeText(TypeId typeId,
                                   const std::string& attribute,
                                   const std::string& text)
{
    TypeId::AttributeInformation info;
    if (typeId.LookupAttributeByName(attribute, &info))
    {
        CheckAttributeText(attribute, info.checker, text);
    }
}

void
MrcValueParser::CheckGlobalValueText(const std::string& name, const std::string& text)
{
    CheckAttributeText(name, GlobalChecker(name), text);
}

void
MrcValueParser::CheckCommandLine(const std::vector<std::string>& args)
{
    for (size_t i = 1; i < args.size(); ++i)
    {
        // As CommandLine reads an option: "--name=value" or "-name=value".
        const std::string& arg = args[i];
        if (arg.empty() || arg[0] != '-')
        {
            continue; // not an option
        }
        const size_t dashes = arg.compare(0, 2, "--") == 0 ? 2 : 1;
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(dashes, eq == std::string::npos ? eq : eq - dashes);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        const size_t colons = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (colons != std::string::npos
            && TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid)
            && tid.LookupAttributeByName(name.substr(colons + 2), &info))
        {
            CheckAttributeText("--" + name, info.checker, value);
        }
        else
        {
            CheckAttributeText("--" + name, GlobalChecker(name), value);
        }
    }
}

void
MrcValueParser::ParseCommandLine(CommandLine& cmd, int argc, char* argv[])
{
    try
    {
        CheckCommandLine(std::vector<std::string>(argv, argv + argc));
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << cmd.GetName() << ": " << e.what() << std::endl;
        std::exit(1);
    }
    cmd.Parse(argc, argv);
}

} // namespace ns3
