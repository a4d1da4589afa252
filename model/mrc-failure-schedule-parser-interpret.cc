/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcFailureScheduleParser, second part: the fields of a schedule entry and their
// interpretation (Interpret). Reading the files into records: mrc-failure-schedule-parser.cc.

#include "mrc-failure-schedule-parser.h"
#include "mrc-value-parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

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

const std::vector<std::string>&
MrcFailureScheduleParser::FieldNames()
{
    static const std::vector<std::string> names = Words(
        "at kind link index switch host plane duration direction probability rate period duty "
        "times comment");
    return names;
}

std::string
MrcFailureScheduleParser::Escape(const std::string& s)
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

std::string
MrcFailureScheduleParser::GetFieldNames()
{
    return Join(FieldNames());
}

MrcFailureSpec
MrcFailureScheduleParser::Interpret(const Record& record)
{
    MrcFailureSpec s;
    s.kind = InterpretKind(record);
    s.origin = record.where;
    s.at = MrcValueParser::ParseTime("at", RequireField(record, "at"));
    InterpretTarget(record, s);
    InterpretDirection(record, s);
    if (s.kind == MrcFailureKind::GRAY_LOSS)
    {
        s.probability = InterpretProbability(record);
    }
    if (s.kind == MrcFailureKind::RATE)
    {
        s.rate = MrcValueParser::ParseDataRate("rate", RequireField(record, "rate"));
    }
    if (s.kind == MrcFailureKind::FLAP)
    {
        InterpretFlap(record, s);
    }
    else if (auto d = GetField(record, "duration"))
    {
        s.duration = ParsePositiveTime("duration", *d);
    }
    CheckTimeSpan(s);
    return s;
}

void
MrcFailureScheduleParser::CheckBytes(const std::string& field, const std::string& text)
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

MrcFailureKind
MrcFailureScheduleParser::InterpretKind(const Record& record)
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
    return *kind;
}

std::optional<std::string>
MrcFailureScheduleParser::GetField(const Record& record, const std::string& field)
{
    auto it = record.field.find(field);
    return it == record.field.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::string
MrcFailureScheduleParser::RequireField(const Record& record, const std::string& field)
{
    auto v = GetField(record, field);
    if (!v)
    {
        const std::string& kindName = record.field.at("kind");
        const std::vector<std::string> allowed = FieldsOf(*MrcFailureSpec::ParseKind(kindName));
        throw std::invalid_argument("missing field '" + field + "' (" + kindName
                                    + " takes: " + Join(allowed) + ")");
    }
    return *v;
}

void
MrcFailureScheduleParser::InterpretTarget(const Record& record, MrcFailureSpec& spec)
{
    switch (MrcFailureSpec::GetTarget(spec.kind))
    {
        case MrcFailureTarget::LINK:
            InterpretLink(record, spec);
            break;
        case MrcFailureTarget::SWITCH:
            spec.switchName = RequireField(record, "switch");
            if (Words(spec.switchName).size() != 1)
            {
                throw std::invalid_argument("switch (=\"" + spec.switchName
                                            + "\") must be one node name, such as \"p0-t1-0\"");
            }
            break;
        case MrcFailureTarget::HOST_PORT:
            spec.host = ParseIndex("host", RequireField(record, "host"));
            spec.plane = ParseIndex("plane", RequireField(record, "plane"));
            break;
    }
}

void
MrcFailureScheduleParser::InterpretLink(const Record& record, MrcFailureSpec& spec)
{
    const std::string link = RequireField(record, "link");
    const std::vector<std::string> nodes = Words(link);
    if (link.find_first_not_of("0123456789") == std::string::npos)
    {
        spec.linkId = ParseIndex("link", link);
        if (GetField(record, "index"))
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
        spec.nodeA = nodes[0];
        spec.nodeB = nodes[1];
    }
    if (auto index = GetField(record, "index"))
    {
        spec.index = ParseIndex("index", *index);
    }
}

void
MrcFailureScheduleParser::InterpretDirection(const Record& record, MrcFailureSpec& spec)
{
    if (auto d = GetField(record, "direction"))
    {
        if (*d == "both" || *d == "up" || *d == "down")
        {
            spec.direction = *d == "both"
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
}

double
MrcFailureScheduleParser::InterpretProbability(const Record& record)
{
    const double probability =
        ParseNumber("probability", RequireField(record, "probability"), "[0, 1]");
    if (!(probability >= 0 && probability <= 1))
    {
        throw std::invalid_argument("probability (=" + RequireField(record, "probability")
                                    + ") must be in [0, 1]");
    }
    return probability;
}

void
MrcFailureScheduleParser::InterpretFlap(const Record& record, MrcFailureSpec& spec)
{
    if (auto times = GetField(record, "times"))
    {
        if (GetField(record, "period") || GetField(record, "duty") || GetField(record, "duration"))
        {
            throw std::invalid_argument("flap takes either times, or period, duty and "
                                        "duration, not both");
        }
        const std::vector<std::string> words = Words(*times);
        for (size_t i = 0; i < words.size(); ++i)
        {
            const std::string field = "times[" + std::to_string(i) + "]";
            spec.offsets.push_back(MrcValueParser::ParseTime(field, words[i]));
            if (i > 0 && spec.offsets[i] <= spec.offsets[i - 1])
            {
                throw std::invalid_argument("times must increase strictly: " + field
                                            + " (=" + words[i] + ") is not after times["
                                            + std::to_string(i - 1) + "] (=" + words[i - 1] + ")");
            }
        }
        if (words.empty())
        {
            throw std::invalid_argument("times is empty (expected offsets from at of down, "
                                        "up, down, ..., such as \"0us 5us 20us 25us\")");
        }
        return;
    }
    if (!GetField(record, "period") && !GetField(record, "duty") && !GetField(record, "duration"))
    {
        throw std::invalid_argument("flap needs either times, or period, duty and "
                                    "duration");
    }
    spec.period = ParsePositiveTime("period", RequireField(record, "period"));
    spec.duty = ParseNumber("duty", RequireField(record, "duty"), "(0, 1)");
    if (!(spec.duty > 0 && spec.duty < 1))
    {
        throw std::invalid_argument("duty (=" + RequireField(record, "duty")
                                    + ") must be in (0, 1): the fraction of each period "
                                      "the link is down");
    }
    spec.duration = ParsePositiveTime("duration", RequireField(record, "duration"));
}

void
MrcFailureScheduleParser::CheckTimeSpan(const MrcFailureSpec& spec)
{
    const Time span = spec.offsets.empty() ? spec.duration : spec.offsets.back();
    if (span > Time::Max() - spec.at)
    {
        throw std::invalid_argument(
            "at + " + std::string(spec.offsets.empty() ? "duration" : "times")
            + " (=" + MrcFailureSpec::FormatTime(spec.at) + " + " + MrcFailureSpec::FormatTime(span)
            + ") is beyond ns-3's time range: at most " + MrcValueParser::GetMaxTimeText());
    }
}

} // namespace ns3
