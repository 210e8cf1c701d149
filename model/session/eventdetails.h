#pragma once
// What the details panel shows for one event, as labelled fields. Text
// only: the widget decides how it looks. Links point at related events
// (the launching API call, the GPU work a call launched).
#include "session/session.h"

#include <QString>
#include <optional>
#include <vector>

namespace rankscope {

struct DetailField {
    QString label;
    QString value;
    std::optional<EventLocation> link;
};

struct EventDetails {
    QString title; // the event's name
    QString kind;  // "Kernel", "Memcpy", ...
    std::vector<DetailField> fields;
};

EventDetails describeEvent(const Session &session, const EventLocation &at);
// A thread as Details names it: "name [tid]", or its tid.
QString threadLabel(const Report &report, std::uint32_t pid, std::uint32_t tid);
// What an event is called: a kernel's short (demangled) name, else its name.
QString eventName(const Session &session, const EventLocation &at);

// A communication kernel's call in one line, for its label on the NCCL
// lane and its tooltip: "ncclAllReduce 4.00 MiB", "ncclSend + ncclRecv
// 2.00 MiB peer 0,1"; empty when the trace does not say.
QString collectiveSummary(const Report &report, const KernelRecord &kernel);

} // namespace rankscope
