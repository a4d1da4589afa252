/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcFailureScheduleParser, first part: reading a schedule file (JSON or CSV) into records.
// Their fields and interpretation: mrc-failure-schedule-parser-interpret.cc.

#include "mrc-failure-schedule-parser.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

// Boost.PropertyTree's JSON reader includes boost/bind.hpp, which otherwise prints a
// deprecation note about its global placeholders on every compilation.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

namespace ns3
{

namespace
{

/**
 * \param s text
 * \return s without leading and trailing white space
 */
std::string
Trim(const std::string& s)
{
    const auto begin = s.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos)
    {
        return "";
    }
    return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

} // namespace

MrcFailureScheduleParser::Format
MrcFailureScheduleParser::GetFormat(const std::string& path)
{
    auto endsWith = [&path](const std::string& ext) {
        return path.size() > ext.size()
               && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
    };
    if (endsWith(".json"))
    {
        return Format::JSON;
    }
    if (endsWith(".csv"))
    {
        return Format::CSV;
    }
    throw std::invalid_argument(path + ": a failure schedule must be a .json or a .csv file");
}

std::vector<MrcFailureSpec>
MrcFailureScheduleParser::ParseFile(const std::string& path)
{
    const Format format = GetFormat(path);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        throw std::invalid_argument(path + ": is a directory, not a failure schedule file");
    }
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxBytes)
    {
        throw std::invalid_argument(path + ": " + std::to_string(size)
                                    + " bytes is larger than a failure schedule may be ("
                                    + std::to_string(kMaxBytes) + " bytes)");
    }
    std::ifstream in(path);
    if (!in)
    {
        throw std::invalid_argument(path + ": cannot open the failure schedule");
    }
    return Parse(in, path, format);
}

std::string
MrcFailureScheduleParser::ReadLimited(std::istream& in, const std::string& name)
{
    std::string text;
    char chunk[65536];
    while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0)
    {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxBytes)
        {
            throw std::invalid_argument(name + ": more than " + std::to_string(kMaxBytes)
                                        + " bytes, larger than a failure schedule may be");
        }
    }
    return text;
}

void
MrcFailureScheduleParser::CheckJsonDepth(const std::string& text, const std::string& name)
{
    uint32_t depth = 0;
    uint32_t line = 1;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if (inString)
        {
            i += c == '\\' ? 1 : 0; // skip the escaped character
            inString = c != '"';
            continue;
        }
        line += c == '\n' ? 1 : 0;
        inString = c == '"';
        if ((c == '[' || c == '{') && ++depth > kMaxJsonDepth)
        {
            throw std::invalid_argument(name + ":" + std::to_string(line)
                                        + ": JSON nested deeper than "
                                        + std::to_string(kMaxJsonDepth)
                                        + " levels of arrays and objects (a schedule needs 4)");
        }
        depth -= (c == ']' || c == '}') && depth > 0 ? 1 : 0;
    }
}

std::vector<MrcFailureSpec>
MrcFailureScheduleParser::Parse(std::istream& in, const std::string& name, Format format)
{
    // Bounded before parsing: Boost's JSON reader recurses once per nesting level.
    std::string text = ReadLimited(in, name);
    // Spreadsheets (and some editors) start UTF-8 text with a byte order mark.
    const std::string bom = "\xEF\xBB\xBF";
    if (text.compare(0, bom.size(), bom) == 0)
    {
        text.erase(0, bom.size());
    }
    if (format == Format::JSON)
    {
        CheckJsonDepth(text, name);
    }
    std::istringstream bounded(text);
    const std::vector<Record> records =
        format == Format::JSON ? ReadJson(bounded, name) : ReadCsv(bounded, name);
    std::vector<MrcFailureSpec> specs;
    for (const Record& r : records)
    {
        try
        {
            specs.push_back(Interpret(r));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(r.where + ": " + e.what());
        }
    }
    CheckTimeOrder(specs, [](const MrcFailureSpec& s) {
        return s.GetTargetKey();
    });
    return specs;
}

void
MrcFailureScheduleParser::CheckTimeOrder(
    const std::vector<MrcFailureSpec>& specs,
    const std::function<std::string(const MrcFailureSpec&)>& key)
{
    std::map<std::string, const MrcFailureSpec*> last;
    for (const MrcFailureSpec& s : specs)
    {
        auto [it, inserted] = last.emplace(key(s), &s);
        if (!inserted)
        {
            if (s.at < it->second->at)
            {
                throw std::invalid_argument(
                    s.origin + ": at (=" + MrcFailureSpec::FormatTime(s.at)
                    + ") goes back in time: an earlier entry for " + s.DescribeTarget() + " ("
                    + it->second->origin + ") is at " + MrcFailureSpec::FormatTime(it->second->at)
                    + "; list the events of each target in time order");
            }
            it->second = &s;
        }
    }
}

std::vector<MrcFailureScheduleParser::Record>
MrcFailureScheduleParser::ReadJson(std::istream& in, const std::string& name)
{
    namespace pt = boost::property_tree;
    pt::ptree root;
    try
    {
        pt::read_json(in, root);
    }
    catch (const pt::json_parser_error& e)
    {
        throw std::invalid_argument(name + ":" + std::to_string(e.line())
                                    + ": JSON syntax error: " + e.message());
    }
    const std::string form =
        " (expected {\"events\": [{\"at\": \"100us\", \"kind\": \"link-down\", ...}, ...]})";
    for (const auto& [key, value] : root)
    {
        if (key != "events" && key != "comment")
        {
            throw std::invalid_argument(name + ": unknown top-level key '" + Escape(key)
                                        + "' (accepted: events, comment)" + form);
        }
    }
    if (root.count("events") != 1)
    {
        throw std::invalid_argument(name + ": needs exactly one top-level \"events\" array" + form);
    }
    const pt::ptree& events = root.get_child("events");
    if (events.empty() && !Trim(events.data()).empty())
    {
        throw std::invalid_argument(name + ": \"events\" must be an array" + form);
    }
    std::vector<Record> records;
    for (const auto& [key, event] : events)
    {
        Record r;
        r.where = name + ": events[" + std::to_string(records.size()) + "]";
        if (!key.empty())
        {
            throw std::invalid_argument(name + ": \"events\" must be an array, not an object"
                                        + form);
        }
        if (event.empty())
        {
            throw std::invalid_argument(r.where
                                        + ": must be an object with at least \"at\" and "
                                          "\"kind\""
                                        + form);
        }
        std::set<std::string> seen;
        for (const auto& [field, value] : event)
        {
            std::string text = value.data();
            if (!value.empty())
            {
                // Only "times" may be an array (of scalars); it becomes a space-separated list.
                bool list = field == "times";
                text.clear();
                for (const auto& [k, item] : value)
                {
                    list = list && k.empty() && item.empty();
                    text += (text.empty() ? "" : " ") + item.data();
                }
                if (!list)
                {
                    throw std::invalid_argument(r.where + ": field '" + Escape(field)
                                                + "' must be a single value, not an object or "
                                                  "array");
                }
            }
            if (!seen.insert(field).second)
            {
                throw std::invalid_argument(r.where + ": duplicate field '" + Escape(field) + "'");
            }
            if (!Trim(text).empty())
            {
                r.field[field] = Trim(text); // an empty value is an absent field, as in CSV
            }
        }
        records.push_back(r);
    }
    return records;
}

std::vector<MrcFailureScheduleParser::Record>
MrcFailureScheduleParser::ReadCsv(std::istream& in, const std::string& name)
{
    const std::set<std::string> known(FieldNames().begin(), FieldNames().end());
    std::vector<std::string> header;
    std::vector<Record> records;
    std::string line;
    for (uint32_t n = 1; std::getline(in, line); ++n)
    {
        line = Trim(line);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::vector<std::string> cells;
        std::istringstream is(line);
        for (std::string cell; std::getline(is, cell, ',');)
        {
            cells.push_back(Trim(cell));
        }
        if (line.back() == ',')
        {
            cells.emplace_back(); // getline drops a trailing empty cell
        }
        const std::string where = name + ":" + std::to_string(n);
        if (header.empty())
        {
            std::set<std::string> seen;
            for (const std::string& c : cells)
            {
                if (known.count(c) == 0)
                {
                    throw std::invalid_argument(where + ": unknown column '" + Escape(c)
                                                + "' in the header (accepted: " + GetFieldNames()
                                                + ")");
                }
                if (!seen.insert(c).second)
                {
                    throw std::invalid_argument(where + ": column '" + c + "' appears twice");
                }
            }
            if (seen.count("at") == 0 || seen.count("kind") == 0)
            {
                throw std::invalid_argument(where
                                            + ": the header must name the columns 'at' "
                                              "and 'kind' (and those the events need, "
                                              "e.g. at,kind,link,duration)");
            }
            header = cells;
            continue;
        }
        if (cells.size() != header.size())
        {
            throw std::invalid_argument(where + ": " + std::to_string(cells.size())
                                        + " cells, but the header has "
                                        + std::to_string(header.size()) + " columns");
        }
        Record r;
        r.where = where;
        for (size_t i = 0; i < cells.size(); ++i)
        {
            if (!cells[i].empty())
            {
                r.field[header[i]] = cells[i];
            }
        }
        records.push_back(r);
    }
    if (header.empty())
    {
        throw std::invalid_argument(name
                                    + ":1: no header line (expected column names such as "
                                      "at,kind,link,duration)");
    }
    return records;
}

} // namespace ns3
