#pragma once
// Which GPU work is communication, memory or computation, by kernel name.
// One table of patterns (docs/statistics.md, "Kernel classes"): the
// communication libraries Rankscope recognises, HTA's own rules for
// rank_summary, and the user's pattern when they give one (GUI: Rank
// comparison > Communication kernels; CLI: --comm-pattern).
#include "core/communicationkernels.h"
#include "core/stringtable.h"

#include <QRegularExpression>
#include <QString>

#include <string_view>
#include <vector>

namespace rankscope::stats {

enum class KernelClass { Communication, Memory, Computation, Other };

// Whether `re` matches an event name (UTF-8, as the string table holds it).
bool matchesName(const QRegularExpression &re, std::string_view name);

// The built-in table (core/communicationkernels.h), in this namespace too.
using rankscope::communicationLibraries;
using rankscope::CommunicationLibrary;
using rankscope::defaultCommunicationPattern;

class KernelClassifier {
public:
    // Rankscope's classes: communication by the libraries' table (or the
    // user's pattern), memory by HTA's memory names, every other kernel
    // computation (never Other).
    static KernelClassifier rankscope(const QString &communicationPattern = {});
    // Holistic Trace Analysis' classes (rank_summary, to match HTA): its
    // anchored patterns, checked communication, memory, then the names it
    // counts as neither compute nor the rest (Other). A user pattern
    // replaces HTA's communication pattern, and the figures then differ
    // from HTA's on purpose.
    static KernelClassifier hta(const QString &communicationPattern = {});
    // Empty when `pattern` is a valid regular expression, else why not.
    static QString patternError(const QString &pattern);

    KernelClass classify(std::string_view name) const;
    // The communication pattern in force, and whether it is the user's.
    const QString &communicationPattern() const { return m_communicationText; }
    bool isUserPattern() const { return m_userPattern; }
    // Whether its communication kernels are the built-in ones, those a
    // report keeps as it loads (Report::communication): then what matches
    // collectives reads those instead of classifying every kernel.
    bool hasBuiltInCommunication() const { return !m_hta && !m_userPattern; }
    // "NCCL, RCCL, ... (built-in patterns)" or "your pattern: REGEX", for
    // the rank comparison's header and the CLI's notes.
    QString description() const;

private:
    KernelClassifier() = default;

    bool m_hta = false;
    bool m_userPattern = false;
    QString m_communicationText;
    QRegularExpression m_communication, m_memory, m_notComputation;
};

// A classifier's answer per name of one report's string table: the regular
// expression runs once per distinct kernel name, not once per kernel.
class KernelClassCache {
public:
    KernelClassCache(const StringTable &strings, const KernelClassifier &classes)
        : m_strings(strings), m_classes(classes), m_known(strings.size(), kUnknown)
    {
    }
    KernelClass of(StringId name)
    {
        if (name >= m_known.size())
            return m_classes.classify(m_strings.view(name));
        if (m_known[name] == kUnknown)
            m_known[name] = std::uint8_t(m_classes.classify(m_strings.view(name)));
        return KernelClass(m_known[name]);
    }

private:
    static constexpr std::uint8_t kUnknown = 0xFF;
    const StringTable &m_strings;
    const KernelClassifier &m_classes;
    std::vector<std::uint8_t> m_known;
};

} // namespace rankscope::stats
