#include "stats/kernelclasses.h"

#include "core/gputimesplit.h"

#include <QStringList>

namespace rankscope::stats {

namespace {

// HTA's patterns (hta/common/trace.py, commit f4d0062c), applied with
// Python's re.match: anchored at the start of the name.
constexpr const char *kHtaCommunication = "(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)";
constexpr const char *kHtaNotComputation =
    "(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)|(^runFunction)|(^hip)"
    "|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)|(^collective_subgraph_execution)";

QRegularExpression pythonMatch(const char *pattern)
{
    return QRegularExpression(QStringLiteral("\\A(?:%1)").arg(QLatin1String(pattern)));
}

} // namespace

bool matchesName(const QRegularExpression &re, std::string_view name)
{
    return re.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
}

QString KernelClassifier::patternError(const QString &pattern)
{
    const QRegularExpression re(pattern);
    if (re.isValid())
        return {};
    return QStringLiteral("invalid regular expression '%1': %2 at offset %3").arg(pattern, re.errorString()).arg(re.patternErrorOffset());
}

KernelClassifier KernelClassifier::rankscope(const QString &communicationPattern)
{
    KernelClassifier c;
    c.m_userPattern = !communicationPattern.isEmpty();
    c.m_communicationText = c.m_userPattern ? communicationPattern : defaultCommunicationPattern();
    c.m_communication = QRegularExpression(c.m_communicationText);
    c.m_memory = pythonMatch(memoryKernelPattern());
    return c;
}

KernelClassifier KernelClassifier::hta(const QString &communicationPattern)
{
    KernelClassifier c;
    c.m_hta = true;
    c.m_userPattern = !communicationPattern.isEmpty();
    c.m_communicationText = c.m_userPattern ? communicationPattern : QString::fromLatin1(kHtaCommunication);
    c.m_communication = c.m_userPattern ? QRegularExpression(communicationPattern) : pythonMatch(kHtaCommunication);
    c.m_memory = pythonMatch(memoryKernelPattern());
    c.m_notComputation = pythonMatch(kHtaNotComputation);
    return c;
}

KernelClass KernelClassifier::classify(std::string_view name) const
{
    if (matchesName(m_communication, name))
        return KernelClass::Communication;
    if (matchesName(m_memory, name))
        return KernelClass::Memory;
    if (m_hta && matchesName(m_notComputation, name))
        return KernelClass::Other;
    return KernelClass::Computation;
}

QString KernelClassifier::description() const
{
    if (m_userPattern)
        return QStringLiteral("your pattern %1").arg(m_communicationText);
    if (m_hta)
        return QStringLiteral("HTA's patterns (NCCL, HCCL, hip*)");
    QStringList names;
    for (const CommunicationLibrary &library : communicationLibraries())
        names << QLatin1String(library.name);
    return names.join(QStringLiteral(", "));
}

} // namespace rankscope::stats
