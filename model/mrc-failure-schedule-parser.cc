/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-schedule-parser.h"

#include "mrc-value-parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
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
 * \return its white-space separated words
 */
std::vector<std::string>
Words(const std::string& s)
{
    std::istringstream is(s);
    std::vector<std::string> words;
    std::string w;
    while (is >> w)
    {
        words.push_back(w);
    }
    return words;
}

/// \return every field a schedule entry may have, in documentation order
const std::vector<std::string>&
FieldNames()
{
    static const std::vector<std::string> names = Words(
        "at kind link index switch host plane duration direction probability rate period duty "
        "times comment");
    return names;
}

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

/**
 * \param s text
 * \return it with every byte that is not printable ASCII written as \xNN, so that a message
 *         shows it (a NUL would end the C string what() returns)
 */
std::string
Escape(const std::string& s)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (const char c : s)
    {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7f)
        {
            out += c;
        }
        else
        {
            out += std::string("\\x") + hex[b >> 4] + hex[b & 0xf];
        }
    }
    return out;
}

/**
 * \param field field name
 * \param text its value
 * \throws std::invalid_argument showing the value escaped if it holds a control character, or
 *         (other than a comment, which may be any UTF-8 text) a byte that is not printable ASCII
 */
void
CheckBytes(const std::string& field, const std::string& text)
{
    const bool comment = field == "comment";
    for (const char c : text)
    {
        const auto b = static_cast<unsigned char>(c);
        const bool control = (b < 0x20 && c != '\t') || b == 0x7f;
        if (control || (!comment && b >= 0x80))
        {
            throw std::invalid_argument(
                field + " (=\"" + Escape(text) + "\") holds "
                + (comment ? "a control character" : "a byte that is not printable ASCII")
                + " (shown as \\xNN)");
        }
    }
}

/**
 * \param field field name
 * \param text value
 * \return the value as an unsigned 32-bit integer
 * \throws std::invalid_argument if it is not one
 */
uint32_t
ParseIndex(const std::string& field, const std::string& text)
{
    const bool digits = !text.empty() && text.size() <= 10
                        && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoull(text) > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(field + " (=\"" + text
                                    + "\") must be an integer in 0..4294967295");
    }
    return static_cast<uint32_t>(std::stoul(text));
}

/**
 * \param field field name
 * \param text value
 * \param range the accepted range, for the message
 * \return the value as a finite number
 * \throws std::invalid_argument if it is not one
 */
double
ParseNumber(const std::string& field, const std::string& text, const std::string& range)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    {
        throw std::invalid_argument(field + " (=\"" + text + "\") must be a number in " + range);
    }
    return v;
}

/**
 * \param field field name
 * \param text value
 * \return a time > 0
 * \throws std::invalid_argument otherwise
 */
Time
ParsePositiveTime(const std::string& field, const std::string& text)
{
    const Time t = MrcValueParser::ParseTime(field, text);
    if (!t.IsStrictlyPositive())
    {
        throw std::invalid_argument(field + " (=\"" + text + "\") must be > 0");
    }
    return t;
}

/**
 * \param kind a kind
 * \return the fields an entry of that kind may have
 */
std::vector<std::string>
FieldsOf(MrcFailureKind kind)
{
    std::vector<std::string> f = {"at", "kind"};
    switch (MrcFailureSpec::GetTarget(kind))
    {
        case MrcFailureTarget::LINK:
            f.insert(f.end(), {"link", "index"});
            break;
        case MrcFailureTarget::SWITCH:
            f.push_back("switch");
            break;
        case MrcFailureTarget::HOST_PORT:
            f.insert(f.end(), {"host", "plane"});
            break;
    }
    if (MrcFailureSpec::TakesDuration(kind))
    {
        f.push_back("duration");
    }
    if (MrcFailureSpec::TakesDirection(kind))
    {
        f.push_back("direction");
    }
    if (kind == MrcFailureKind::GRAY_LOSS)
    {
        f.push_back("probability");
    }
    if (kind == MrcFailureKind::RATE)
    {
        f.push_back("rate");
    }
    if (kind == MrcFailureKind::FLAP)
    {
        f.insert(f.end(), {"period", "duty", "duration", "times"});
    }
    f.push_back("comment");
    return f;
}

/**
 * \param list names
 * \return them, comma-separated
 */
std::string
Join(const std::vector<std::string>& list)
{
    std::string s;
    for (const std::string& item : list)
    {
        s += (s.empty() ? "" : ", ") + item;
    }
    return s;
}

} // namespace

std::string
MrcFailureScheduleParser::GetFieldNames()
{
    return Join(FieldNames());
}

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

MrcFailureSpec
MrcFailureScheduleParser::Interpret(const Record& record)
{
    const auto& f = record.field;
    for (const auto& [field, value] : f)
    {
        if (std::find(FieldNames().begin(), FieldNames().end(), field) == FieldNames().end())
        {
            throw std::invalid_argument("unknown field '" + Escape(field)
                                        + "' (accepted: " + GetFieldNames() + ")");
        }
        CheckBytes(field, value);
    }
    auto kindIt = f.find("kind");
    if (kindIt == f.end())
    {
        throw std::invalid_argument(
            "missing field 'kind' (one of: " + MrcFailureSpec::GetKindNames() + ")");
    }
    const std::optional<MrcFailureKind> kind = MrcFailureSpec::ParseKind(kindIt->second);
    if (!kind)
    {
        throw std::invalid_argument("kind (=\"" + kindIt->second
                                    + "\") is not a failure kind (accepted: "
                                    + MrcFailureSpec::GetKindNames() + ")");
    }
    const std::string kindName = kindIt->second;
    const std::vector<std::string> allowed = FieldsOf(*kind);
    for (const auto& [field, value] : f)
    {
        if (std::find(allowed.begin(), allowed.end(), field) == allowed.end())
        {
            throw std::invalid_argument("field '" + field + "' does not apply to " + kindName
                                        + " (its fields: " + Join(allowed) + ")");
        }
    }
    auto get = [&f](const std::string& field) -> std::optional<std::string> {
        auto it = f.find(field);
        return it == f.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto require = [&](const std::string& field) {
        auto v = get(field);
        if (!v)
        {
            throw std::invalid_argument("missing field '" + field + "' (" + kindName
                                        + " takes: " + Join(allowed) + ")");
        }
        return *v;
    };

    MrcFailureSpec s;
    s.kind = *kind;
    s.origin = record.where;
    s.at = MrcValueParser::ParseTime("at", require("at"));
    switch (MrcFailureSpec::GetTarget(s.kind))
    {
        case MrcFailureTarget::LINK: {
            const std::string link = require("link");
            const std::vector<std::string> nodes = Words(link);
            if (link.find_first_not_of("0123456789") == std::string::npos)
            {
                s.linkId = ParseIndex("link", link);
                if (get("index"))
                {
                    throw std::invalid_argument("index applies to a link named by its nodes, not "
                                                "to link id "
                                                + link);
                }
            }
            else if (nodes.size() != 2 || nodes[0] == nodes[1])
            {
                throw std::invalid_argument("link (=\"" + link
                                            + "\") must name two different nodes, such as "
                                              "\"p0-t0-3 p0-t1-1\", or be a link id (0, 1, ...)");
            }
            else
            {
                s.nodeA = nodes[0];
                s.nodeB = nodes[1];
            }
            if (auto index = get("index"))
            {
                s.index = ParseIndex("index", *index);
            }
            break;
        }
        case MrcFailureTarget::SWITCH:
            s.switchName = require("switch");
            if (Words(s.switchName).size() != 1)
            {
                throw std::invalid_argument("switch (=\"" + s.switchName
                                            + "\") must be one node name, such as \"p0-t1-0\"");
            }
            break;
        case MrcFailureTarget::HOST_PORT:
            s.host = ParseIndex("host", require("host"));
            s.plane = ParseIndex("plane", require("plane"));
            break;
    }
    if (auto d = get("direction"))
    {
        if (*d == "both" || *d == "up" || *d == "down")
        {
            s.direction = *d == "both"
                              ? MrcLinkDirection::BOTH
                              : (*d == "up" ? MrcLinkDirection::UP : MrcLinkDirection::DOWN);
        }
        else
        {
            throw std::invalid_argument("direction (=\"" + *d
                                        + "\") must be one of: both, up (frames from the lower "
                                          "node to the upper one), down");
        }
    }
    if (s.kind == MrcFailureKind::GRAY_LOSS)
    {
        s.probability = ParseNumber("probability", require("probability"), "[0, 1]");
        if (!(s.probability >= 0 && s.probability <= 1))
        {
            throw std::invalid_argument("probability (=" + require("probability")
                                        + ") must be in [0, 1]");
        }
    }
    if (s.kind == MrcFailureKind::RATE)
    {
        s.rate = MrcValueParser::ParseDataRate("rate", require("rate"));
    }
    if (s.kind == MrcFailureKind::FLAP)
    {
        if (auto times = get("times"))
        {
            if (get("period") || get("duty") || get("duration"))
            {
                throw std::invalid_argument("flap takes either times, or period, duty and "
                                            "duration, not both");
            }
            const std::vector<std::string> words = Words(*times);
            for (size_t i = 0; i < words.size(); ++i)
            {
                const std::string field = "times[" + std::to_string(i) + "]";
                s.offsets.push_back(MrcValueParser::ParseTime(field, words[i]));
                if (i > 0 && s.offsets[i] <= s.offsets[i - 1])
                {
                    throw std::invalid_argument("times must increase strictly: " + field
                                                + " (=" + words[i] + ") is not after times["
                                                + std::to_string(i - 1) + "] (=" + words[i - 1]
                                                + ")");
                }
            }
            if (words.empty())
            {
                throw std::invalid_argument("times is empty (expected offsets from at of down, "
                                            "up, down, ..., such as \"0us 5us 20us 25us\")");
            }
        }
        else
        {
            if (!get("period") && !get("duty") && !get("duration"))
            {
                throw std::invalid_argument("flap needs either times, or period, duty and "
                                            "duration");
            }
            s.period = ParsePositiveTime("period", require("period"));
            s.duty = ParseNumber("duty", require("duty"), "(0, 1)");
            if (!(s.duty > 0 && s.duty < 1))
            {
                throw std::invalid_argument("duty (=" + require("duty")
                                            + ") must be in (0, 1): the fraction of each period "
                                              "the link is down");
            }
            s.duration = ParsePositiveTime("duration", require("duration"));
        }
    }
    else if (auto d = get("duration"))
    {
        s.duration = ParsePositiveTime("duration", *d);
    }
    const Time span = s.offsets.empty() ? s.duration : s.offsets.back();
    if (span > Time::Max() - s.at)
    {
        throw std::invalid_argument(
            "at + " + std::string(s.offsets.empty() ? "duration" : "times")
            + " (=" + MrcFailureSpec::FormatTime(s.at) + " + " + MrcFailureSpec::FormatTime(span)
            + ") is beyond ns-3's time range: at most " + MrcValueParser::GetMaxTimeText());
    }
    return s;
}

} // namespace ns3
