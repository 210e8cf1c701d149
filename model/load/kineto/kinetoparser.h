#pragma once
// Streams the events of a Chrome-trace / Kineto JSON document with
// simdjson On-Demand: no document tree is built; each event's fields are
// read once into a KinetoEvent and handed to a callback. Timestamps are
// parsed from their text exactly (integer microseconds plus up to three
// decimals become integer nanoseconds), never through a float.
#include "load/gzipreader.h"
#include "load/textsource.h"

#include <QString>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::kineto {

constexpr std::int64_t kNone = std::int64_t(-1) << 62; // "absent"

struct DeviceProperties {
    int id = 0;
    std::string name;
    std::int64_t totalGlobalMem = 0;
    int numSms = 0;
    int computeMajor = 0;
    int computeMinor = 0;
};

struct ProcessGroup {
    std::string name;
    std::string description;
    int size = 0;
    std::string ranks; // as written: "[0, 1, 2, 3]"
};

struct TraceHeader {
    std::optional<std::int64_t> baseTimeNanoseconds;
    std::optional<int> rank;
    std::optional<int> worldSize;
    std::string backend;
    std::vector<ProcessGroup> processGroups;
    std::vector<DeviceProperties> devices;
    bool bareArray = false; // the 2020 form: the document is the event array
    bool hasTraceEvents = false;
};

// One event. Views point into the parser's buffers and stay valid only
// during the callback.
struct KinetoEvent {
    char ph = 0;
    std::string_view cat, name;
    std::int64_t pid = kNone, tid = kNone;
    std::string_view pidText, tidText; // when pid/tid are strings
    std::int64_t tsNs = kNone, durNs = kNone;
    std::int64_t id = kNone;
    // args
    std::int64_t externalId = kNone, correlation = kNone, device = kNone, stream = kNone;
    // cuda_sync "Stream Wait Event": the stream waited on and its cudaEventRecord call (PyTorch >= 2.4)
    std::int64_t waitOnStream = kNone, waitOnRecordCorrelation = kNone;
    std::int64_t registers = kNone, sharedMemory = kNone, bytes = kNone;
    std::int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    std::string_view argName; // M events: args.name
    std::int64_t totalAllocated = kNone, totalReserved = kNone, deviceType = kNone, deviceId = kNone;
    // collectives (record_param_comms and NCCL kernels)
    std::string_view collectiveName, dtype, processGroupName, processGroupRanks;
    std::int64_t inNelems = kNone, outNelems = kNone, groupSize = kNone;
    std::int64_t seq = kNone, rank = kNone, p2pSrc = kNone, p2pDst = kNone; // "Seq", "Rank", "Src Rank", "Dst Rank"
    // counters ('C'): numeric args by name
    std::vector<std::pair<std::string_view, double>> counterValues;
};

struct ParseError {
    QString message;
    std::size_t byteOffset = 0;
    bool cancelled = false; // isCancelled() said stop: nothing is wrong with the file, but it was not all read
    // The text could not be read (a gzip cut short, a read error, too much
    // of it): the message says where; byteOffset means nothing.
    bool readFailure = false;
};

// Calls onEvent for each event in file order and fills `header` as its
// fields are met (they may follow the events); returns an error, or
// nullopt on success. A document larger than twice `partBytes` is read
// and parsed in parts of about that size (load/kineto/eventarray.h), the
// text in flight a few parts; a smaller one is read and parsed whole.
// Tests pass small parts. onPartHandedOn(end), when given, follows each
// part's events with where the part ends in the document (progress).
constexpr std::size_t kDefaultPartBytes = std::size_t(2) << 20;
std::optional<ParseError> parseTrace(TextSource &source, TraceHeader &header, const std::function<void(const KinetoEvent &)> &onEvent,
                                     const std::function<bool()> &isCancelled, std::size_t partBytes = kDefaultPartBytes,
                                     const std::function<void(std::size_t)> &onPartHandedOn = {});
// The same, from text in memory.
std::optional<ParseError> parseTrace(ByteBuffer &json, TraceHeader &header, const std::function<void(const KinetoEvent &)> &onEvent,
                                     const std::function<bool()> &isCancelled, std::size_t partBytes = kDefaultPartBytes);

// "4494023079567.966" -> 4494023079567966; integers, negatives and up to
// three decimals exactly; more decimals round half up; exponents via double.
std::optional<std::int64_t> microsToNanos(std::string_view token);

} // namespace rankscope::kineto
