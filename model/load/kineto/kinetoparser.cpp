#include "load/kineto/kinetoparser.h"
#include "load/kineto/eventarray.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>

namespace rankscope::kineto {

using namespace simdjson;

namespace {

std::optional<std::int64_t> microsToNanosViaDouble(std::string_view token)
{
    const std::string copy(token);
    char *end = nullptr;
    const double us = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(us) || std::fabs(us) > 9.2e15)
        return std::nullopt;
    return std::int64_t(std::llround(us * 1000.0));
}

} // namespace

std::optional<std::int64_t> microsToNanos(std::string_view token)
{
    // One pass over the characters: this runs twice per event. Integer µs
    // and up to three decimals are exact; a fourth decimal rounds half up;
    // an exponent falls back to double.
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    const std::size_t n = token.size();
    std::size_t i = 0;
    bool negative = false;
    if (i < n && (token[i] == '-' || token[i] == '+'))
        negative = token[i++] == '-';
    std::int64_t whole = 0;
    std::size_t digits = 0;
    for (; i < n && unsigned(token[i] - '0') < 10; ++i, ++digits) {
        if (whole > (INT64_MAX / 1000 - 9) / 10)
            return std::nullopt; // would overflow as nanoseconds
        whole = whole * 10 + (token[i] - '0');
    }
    std::int64_t fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (i < n && token[i] == '.') {
        for (++i; i < n && unsigned(token[i] - '0') < 10; ++i, ++digits) {
            if (fractionDigits < 3)
                fraction = fraction * 10 + (token[i] - '0');
            else if (fractionDigits == 3)
                roundUp = token[i] >= '5'; // the fourth decimal decides
            ++fractionDigits;
        }
    }
    if (i < n && (token[i] == 'e' || token[i] == 'E'))
        return microsToNanosViaDouble(token);
    if (i != n || digits == 0)
        return std::nullopt;
    for (int d = std::min(fractionDigits, 3); d < 3; ++d)
        fraction *= 10;
    const std::int64_t ns = whole * 1000 + fraction + (roundUp ? 1 : 0);
    return negative ? -ns : ns;
}

namespace {

std::int64_t integerOf(ondemand::value v)
{
    switch (v.type()) {
    case ondemand::json_type::number: {
        ondemand::number n = v.get_number();
        if (n.is_int64())
            return n.get_int64();
        if (n.is_uint64())
            return std::int64_t(std::min<std::uint64_t>(n.get_uint64(), INT64_MAX));
        const double d = n.get_double();
        return std::isfinite(d) && std::fabs(d) < 9e18 ? std::int64_t(std::llround(d)) : kNone;
    }
    case ondemand::json_type::boolean:
        return v.get_bool() ? 1 : 0;
    case ondemand::json_type::string: {
        const std::string_view s = v.get_string();
        std::int64_t out = 0;
        const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && ptr == s.data() + s.size() ? out : kNone;
    }
    default:
        return kNone;
    }
}

std::int64_t timeOf(ondemand::value v)
{
    if (v.type() == ondemand::json_type::string)
        return microsToNanos(std::string_view(v.get_string())).value_or(kNone);
    if (v.type() != ondemand::json_type::number)
        return kNone;
    return microsToNanos(std::string_view(v.raw_json_token())).value_or(kNone);
}

// pid / tid: a number, or a string that may or may not hold one.
void idOf(ondemand::value v, std::int64_t &number, std::string_view &text)
{
    if (v.type() == ondemand::json_type::string) {
        text = v.get_string();
        std::int64_t out = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec == std::errc() && ptr == text.data() + text.size())
            number = out;
        return;
    }
    number = integerOf(v);
}

void readTriple(ondemand::value v, std::int64_t (&out)[3])
{
    if (v.type() != ondemand::json_type::array)
        return;
    int i = 0;
    for (ondemand::value item : v.get_array()) {
        if (i < 3)
            out[i] = integerOf(item);
        ++i;
    }
}

// "[0, 1, 2, 3]" from an array of ranks, or the string as written.
std::string_view ranksText(ondemand::value v, std::string &storage)
{
    if (v.type() == ondemand::json_type::string)
        return v.get_string();
    storage.assign(1, '['); // not = "[": GCC 12 warns falsely (-Wrestrict, PR 105651)
    if (v.type() == ondemand::json_type::array) {
        bool first = true;
        for (ondemand::value item : v.get_array()) {
            if (!first)
                storage += ", ";
            first = false;
            storage += std::to_string(integerOf(item));
        }
    }
    storage += "]";
    return storage;
}

void readArgs(ondemand::object args, KinetoEvent &e, std::string &ranksStorage)
{
    for (ondemand::field f : args) {
        const std::string_view key = f.unescaped_key();
        ondemand::value v = f.value();
        if (e.ph == 'C') {
            if (v.type() == ondemand::json_type::number)
                e.counterValues.emplace_back(key, double(v.get_double()));
            continue;
        }
        if (key == "External id" || key == "external id")
            e.externalId = integerOf(v);
        else if (key == "correlation")
            e.correlation = integerOf(v);
        else if (key == "device")
            e.device = integerOf(v);
        else if (key == "stream")
            e.stream = integerOf(v);
        else if (key == "wait_on_stream")
            e.waitOnStream = integerOf(v);
        else if (key == "wait_on_cuda_event_record_corr_id")
            e.waitOnRecordCorrelation = integerOf(v);
        else if (key == "registers per thread")
            e.registers = integerOf(v);
        else if (key == "shared memory")
            e.sharedMemory = integerOf(v);
        else if (key == "bytes")
            e.bytes = integerOf(v);
        else if (key == "grid")
            readTriple(v, e.grid);
        else if (key == "block")
            readTriple(v, e.block);
        else if (key == "name" && v.type() == ondemand::json_type::string)
            e.argName = v.get_string();
        else if (key == "Total Allocated")
            e.totalAllocated = integerOf(v);
        else if (key == "Total Reserved")
            e.totalReserved = integerOf(v);
        else if (key == "Device Type")
            e.deviceType = integerOf(v);
        else if (key == "Device Id")
            e.deviceId = integerOf(v);
        else if (key == "Collective name" && v.type() == ondemand::json_type::string)
            e.collectiveName = v.get_string();
        else if (key == "dtype" && v.type() == ondemand::json_type::string)
            e.dtype = v.get_string();
        else if (key == "In msg nelems")
            e.inNelems = integerOf(v);
        else if (key == "Out msg nelems")
            e.outNelems = integerOf(v);
        else if (key == "Group size")
            e.groupSize = integerOf(v);
        else if (key == "Seq")
            e.seq = integerOf(v);
        else if (key == "Rank")
            e.rank = integerOf(v);
        else if (key == "Src Rank")
            e.p2pSrc = integerOf(v);
        else if (key == "Dst Rank")
            e.p2pDst = integerOf(v);
        else if ((key == "Process Group Name" || key == "Process Group ID") && v.type() == ondemand::json_type::string)
            e.processGroupName = v.get_string();
        else if (key == "Process Group Ranks")
            e.processGroupRanks = ranksText(v, ranksStorage);
    }
}

void readEvent(ondemand::object obj, KinetoEvent &e, std::string &ranksStorage)
{
    for (ondemand::field f : obj) {
        const std::string_view key = f.unescaped_key();
        ondemand::value v = f.value();
        if (key == "ph") {
            if (v.type() == ondemand::json_type::string) {
                const std::string_view ph = v.get_string();
                e.ph = ph.empty() ? 0 : ph[0];
            }
        } else if (key == "cat") {
            if (v.type() == ondemand::json_type::string)
                e.cat = v.get_string();
        } else if (key == "name") {
            if (v.type() == ondemand::json_type::string)
                e.name = v.get_string();
        } else if (key == "pid") {
            idOf(v, e.pid, e.pidText);
        } else if (key == "tid") {
            idOf(v, e.tid, e.tidText);
        } else if (key == "ts") {
            e.tsNs = timeOf(v);
        } else if (key == "dur") {
            e.durNs = timeOf(v);
        } else if (key == "id") {
            e.id = integerOf(v);
        } else if (key == "args") {
            if (v.type() == ondemand::json_type::object)
                readArgs(v.get_object(), e, ranksStorage);
        }
    }
}

void readDistributedInfo(ondemand::object info, TraceHeader &header)
{
    for (ondemand::field f : info) {
        const std::string_view key = f.unescaped_key();
        ondemand::value v = f.value();
        if (key == "rank") {
            const std::int64_t rank = integerOf(v);
            if (rank != kNone && rank >= 0 && rank < (1 << 24))
                header.rank = int(rank);
        } else if (key == "world_size") {
            const std::int64_t size = integerOf(v);
            if (size != kNone)
                header.worldSize = int(size);
        } else if (key == "backend" && v.type() == ondemand::json_type::string) {
            header.backend = std::string(std::string_view(v.get_string()));
        } else if (key == "pg_config" && v.type() == ondemand::json_type::array) {
            for (ondemand::value pgValue : v.get_array()) {
                if (pgValue.type() != ondemand::json_type::object)
                    continue;
                ProcessGroup pg;
                std::string storage;
                for (ondemand::field pf : pgValue.get_object()) {
                    const std::string_view pk = pf.unescaped_key();
                    ondemand::value pv = pf.value();
                    if (pk == "pg_name" && pv.type() == ondemand::json_type::string)
                        pg.name = std::string(std::string_view(pv.get_string()));
                    else if (pk == "pg_desc" && pv.type() == ondemand::json_type::string)
                        pg.description = std::string(std::string_view(pv.get_string()));
                    else if (pk == "pg_size")
                        pg.size = int(integerOf(pv));
                    else if (pk == "ranks")
                        pg.ranks = std::string(ranksText(pv, storage));
                }
                header.processGroups.push_back(std::move(pg));
            }
        }
    }
}

void readDevices(ondemand::array devices, TraceHeader &header)
{
    for (ondemand::value d : devices) {
        if (d.type() != ondemand::json_type::object)
            continue;
        DeviceProperties p;
        for (ondemand::field f : d.get_object()) {
            const std::string_view key = f.unescaped_key();
            ondemand::value v = f.value();
            if (key == "id")
                p.id = int(integerOf(v));
            else if (key == "name" && v.type() == ondemand::json_type::string)
                p.name = std::string(std::string_view(v.get_string()));
            else if (key == "totalGlobalMem")
                p.totalGlobalMem = integerOf(v);
            else if (key == "numSms")
                p.numSms = int(integerOf(v));
            else if (key == "computeMajor")
                p.computeMajor = int(integerOf(v));
            else if (key == "computeMinor")
                p.computeMinor = int(integerOf(v));
        }
        header.devices.push_back(std::move(p));
    }
}

// Where the first byte that is not UTF-8 sits (simdjson only says "no").
std::size_t firstInvalidUtf8(std::string_view text)
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        const std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        if (length == 0 || i + length > n)
            return i;
        for (std::size_t k = 1; k < length; ++k)
            if ((p[i + k] & 0xc0) != 0x80)
                return i;
        i += length;
    }
    return n;
}

} // namespace

namespace {

// Reads the events of one array into onEvent, counting them for the
// cancellation checks.
struct EventReader {
    const std::function<void(const KinetoEvent &)> &onEvent;
    const std::function<bool()> &isCancelled;
    std::string ranksStorage;
    std::size_t events = 0;

    bool readAll(ondemand::array array) // false: cancelled
    {
        for (ondemand::value item : array) {
            if (item.type() != ondemand::json_type::object)
                continue; // not an event: nothing to read
            KinetoEvent e;
            readEvent(item.get_object(), e, ranksStorage);
            onEvent(e);
            if ((++events & 0xfff) == 0 && isCancelled())
                return false;
        }
        return true;
    }
    ParseError cancelled() const { return ParseError{QStringLiteral("cancelled after %1 events").arg(events), 0, true}; }
};

// Parses a whole document (`capacity` readable bytes from text.data(), the
// padding defined); offsets in the error are into `text`.
std::optional<ParseError> parseDocument(ondemand::parser &parser, std::string_view text, std::size_t capacity, TraceHeader &header,
                                        EventReader &reader)
{
    ondemand::document doc;
    // Stage one (finding the structure) fails before there is a document
    // to ask where: bad UTF-8, an unclosed string, an empty text.
    if (const error_code stageOne = parser.iterate(padded_string_view(text.data(), text.size(), capacity)).get(doc)) {
        if (stageOne == MEMALLOC)
            throw std::bad_alloc(); // not the file's fault: the loader says the machine ran out of memory
        const std::size_t offset = stageOne == UTF8_ERROR ? firstInvalidUtf8(text) : text.size();
        return ParseError{QStringLiteral("invalid JSON: %1").arg(QString::fromUtf8(error_message(stageOne))), offset};
    }
    try {
        const ondemand::json_type type = doc.type();
        if (type == ondemand::json_type::array) {
            header.bareArray = true;
            header.hasTraceEvents = true;
            if (!reader.readAll(doc.get_array()))
                return reader.cancelled();
            return std::nullopt;
        }
        if (type != ondemand::json_type::object)
            return ParseError{QStringLiteral("not a trace: the JSON document is neither an object nor an array"), 0};
        for (ondemand::field f : doc.get_object()) {
            const std::string_view key = f.unescaped_key();
            ondemand::value v = f.value();
            if (key == "traceEvents") {
                if (v.type() != ondemand::json_type::array)
                    return ParseError{QStringLiteral("\"traceEvents\" is not an array"),
                                      std::size_t(v.current_location().value_unsafe() - text.data())};
                header.hasTraceEvents = true;
                if (!reader.readAll(v.get_array()))
                    return reader.cancelled();
            } else if (key == "baseTimeNanoseconds") {
                const std::int64_t base = integerOf(v);
                if (base != kNone)
                    header.baseTimeNanoseconds = base;
            } else if (key == "distributedInfo" && v.type() == ondemand::json_type::object) {
                readDistributedInfo(v.get_object(), header);
            } else if (key == "deviceProperties" && v.type() == ondemand::json_type::array) {
                readDevices(v.get_array(), header);
            }
        }
    } catch (const simdjson_error &e) {
        if (e.error() == MEMALLOC)
            throw std::bad_alloc();
        std::size_t offset = text.size();
        const char *at = nullptr;
        if (doc.current_location().get(at) == SUCCESS && at >= text.data() && at <= text.data() + text.size())
            offset = std::size_t(at - text.data());
        return ParseError{QStringLiteral("invalid JSON: %1").arg(QString::fromUtf8(error_message(e.error()))), offset};
    }
    return std::nullopt;
}

// A copy of some bytes with defined padding after them, its memory reused
// from copy to copy.
class PaddedCopy {
public:
    void assign(std::initializer_list<std::string_view> pieces) { assign(std::span<const std::string_view>(pieces.begin(), pieces.size())); }
    void assign(std::span<const std::string_view> pieces)
    {
        std::size_t size = 0;
        for (const std::string_view piece : pieces)
            size += piece.size();
        if (m_bytes.size() < size + SIMDJSON_PADDING)
            m_bytes.resize(size + SIMDJSON_PADDING);
        char *at = m_bytes.data();
        for (const std::string_view piece : pieces)
            at = std::copy(piece.begin(), piece.end(), at);
        std::memset(at, 0, SIMDJSON_PADDING);
        m_size = size;
    }
    std::string_view view() const { return {m_bytes.data(), m_size}; }
    std::size_t capacity() const { return m_bytes.size(); }

private:
    std::vector<char> m_bytes;
    std::size_t m_size = 0;
};

// One part's events, parsed by a worker for the builder: their texts
// copied out of the parser's buffers into blocks that never move.
class EventBatch {
public:
    std::vector<KinetoEvent> events;
    std::optional<ParseError> error; // the part did not parse (offset in the document)
    std::size_t partEnd = 0;         // where its part ends in the document

    void add(const KinetoEvent &parsed)
    {
        KinetoEvent &e = events.emplace_back(parsed);
        for (std::string_view *text :
             {&e.cat, &e.name, &e.pidText, &e.tidText, &e.argName, &e.collectiveName, &e.dtype, &e.processGroupName, &e.processGroupRanks})
            *text = keep(*text);
        for (auto &[name, value] : e.counterValues)
            name = keep(name);
    }

    // Empty again, its memory kept for the next part (fresh memory is
    // zeroed by the kernel page by page: a tenth of the load).
    void reuse()
    {
        events.clear();
        error.reset();
        m_block = 0;
        m_used = 0;
    }

private:
    static constexpr std::size_t kBlockBytes = std::size_t(1) << 20;
    std::string_view keep(std::string_view text)
    {
        if (text.empty())
            return {};
        if (text.size() > kBlockBytes) { // a huge name: a block of its own, at the end
            m_blocks.push_back({std::make_unique_for_overwrite<char[]>(text.size()), text.size()});
            std::swap(m_blocks.back(), m_blocks[m_block]);
            std::memcpy(m_blocks[m_block].first.get(), text.data(), text.size());
            return {m_blocks[m_block++].first.get(), text.size()};
        }
        while (m_block < m_blocks.size() && m_used + text.size() > m_blocks[m_block].second) {
            ++m_block;
            m_used = 0;
        }
        if (m_block == m_blocks.size()) {
            m_blocks.push_back({std::make_unique_for_overwrite<char[]>(kBlockBytes), kBlockBytes});
            m_used = 0;
        }
        char *at = m_blocks[m_block].first.get() + m_used;
        std::memcpy(at, text.data(), text.size());
        m_used += text.size();
        return {at, text.size()};
    }
    std::vector<std::pair<std::unique_ptr<char[]>, std::size_t>> m_blocks; // and their sizes
    std::size_t m_block = 0, m_used = 0;                                   // where the next text goes
};

// A window of the document's text, [base, base + size): read piece by
// piece at its end, let go at its start once no part needs those bytes.
class TextWindow {
public:
    explicit TextWindow(ByteBuffer &&head) : m_bytes(std::move(head)) { }
    std::size_t base() const { return m_base; }
    std::size_t end() const { return m_base + m_bytes.size(); }
    std::string_view at(std::size_t begin, std::size_t finish) const { return {m_bytes.data() + (begin - m_base), finish - begin}; }
    // Reads up to `n` more bytes; returns what was read (the new bytes).
    std::string_view readMore(TextSource &source, std::size_t n)
    {
        const std::size_t got = source.read(m_bytes.grow(n), n);
        m_bytes.commit(got);
        return {m_bytes.data() + m_bytes.size() - got, got};
    }
    // The bytes before `offset` are no longer needed. They are let go once
    // they are half the window (each byte moves about once).
    void dropBefore(std::size_t offset)
    {
        const std::size_t dead = std::min(offset, end()) - m_base;
        if (dead == 0 || dead < m_bytes.size() - dead)
            return;
        m_bytes.dropFront(dead);
        m_base += dead;
    }

private:
    ByteBuffer m_bytes;
    std::size_t m_base = 0;
};

// A part's text, "[" + its events + "]" and simdjson's padding, parsed by
// a worker; its memory goes back to the pipeline for the next part.
struct PartText {
    EventPart part;
    PaddedCopy bytes;
};

// The document's event arrays in parts: one thread reads the text and
// finds the parts (load/kineto/eventarray.h), copying each out of the
// window of text, workers parse them into batches, and the calling thread
// hands the batches' events on in document order (the builder is not
// thread-safe, and order matters to it). The text outside the arrays is
// kept, and parsed at the end for the header's fields. The text in flight
// is bounded: the reader waits while enough parts are ahead of the
// builder.
class PartPipeline {
public:
    PartPipeline(TextSource &source, ByteBuffer &&head, std::size_t partBytes, const std::function<void(std::size_t)> &onPartHandedOn)
        : m_source(source), m_window(std::move(head)), m_partBytes(partBytes), m_onPartHandedOn(onPartHandedOn)
    {
    }

    struct Outcome {
        std::optional<ParseError> error;
        // Nothing was recognised as an event array: `wholeText` holds the
        // document, for the caller to parse whole.
        bool noArrays = false;
        ByteBuffer wholeText;
    };

    Outcome run(TraceHeader &header, EventReader &reader)
    {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned workers = std::max(1u, cores - 1);
        m_maxInFlight = workers + 2; // batches parsed ahead of the builder, bounding their memory
        std::vector<std::thread> threads;
        try {
            threads.reserve(workers + 1);
            threads.emplace_back([this] { scan(); });
            for (unsigned w = 0; w < workers; ++w)
                threads.emplace_back([this] { work(); });
        } catch (...) { // no thread to be had: those started are stopped, and joined
            stopAll(threads);
            throw;
        }
        Outcome outcome;
        try {
            outcome.error = consume(reader);
        } catch (...) {
            stopAll(threads);
            throw;
        }
        stopAll(threads);
        if (m_failure)
            std::rethrow_exception(m_failure);
        if (outcome.error)
            return outcome;
        if (m_readError) {
            outcome.error = std::move(m_readError);
            return outcome;
        }
        if (m_scan.notADocument) {
            outcome.error = ParseError{QStringLiteral("not JSON text: it starts with neither '{' nor '['"), 0};
            return outcome;
        }
        if (m_scan.arrays.empty()) {
            // No event array to parse in parts: what was kept outside
            // arrays is the whole document (or its start, where the
            // structure broke).
            outcome.noArrays = true;
            outcome.wholeText = std::move(m_outsideArrays);
            return outcome;
        }
        if (m_scan.brokenAt) {
            outcome.error = ParseError{QStringLiteral("invalid JSON: its brackets or quotes do not match"), *m_scan.brokenAt};
            return outcome;
        }
        outcome.error = parseHeader(header, reader);
        return outcome;
    }

private:
    static constexpr std::size_t kReadBytes = std::size_t(1) << 20;

    void scan()
    {
        try {
            EventArrayScanner scanner(m_partBytes, [this](EventPart part) { return handOver(part); });
            // Test documents come in parts of a few hundred bytes: the text
            // is then read in pieces smaller than a part, so that strings
            // and events straddle the pieces (64 bytes at least: the scan
            // itself is tested fed a byte at a time, tst_eventarray).
            const std::size_t readBytes = std::clamp<std::size_t>(m_partBytes / 2, 64, kReadBytes);
            // What was fed is kept outside the arrays even when the scan
            // stops in it: a document without arrays is parsed whole.
            bool going = scanner.feed(m_window.at(m_window.base(), m_window.end()));
            going = keepOutsideArrays(scanner) && going;
            while (going && !m_stopRequested.load(std::memory_order_relaxed)) {
                if (const auto needed = scanner.openPartBegin())
                    m_window.dropBefore(*needed);
                else
                    m_window.dropBefore(m_window.end());
                const std::string_view more = m_window.readMore(m_source, readBytes);
                if (m_source.failed()) {
                    const std::lock_guard lock(m_mutex);
                    m_readError = ParseError{m_source.error(), 0, false, true};
                    break;
                }
                if (more.empty() && m_source.atEnd()) {
                    scanner.finish();
                    break;
                }
                going = scanner.feed(more);
                going = keepOutsideArrays(scanner) && going;
            }
            const std::lock_guard lock(m_mutex);
            m_scan = scanner.result();
        } catch (...) {
            fail(std::current_exception());
        }
        const std::lock_guard lock(m_mutex);
        m_scanDone = true;
        m_changed.notify_all();
    }

    // Copies the text fed since the last call that lies outside every
    // event array: the header's fields are parsed from it at the end.
    bool keepOutsideArrays(const EventArrayScanner &scanner)
    {
        const std::vector<EventPart> &arrays = scanner.result().arrays;
        const std::size_t fed = scanner.fedBytes();
        while (m_keptUpTo < fed) {
            std::size_t until = fed;
            if (m_nextArray < arrays.size()) {
                const EventPart &array = arrays[m_nextArray];
                if (m_keptUpTo >= array.begin) { // inside it
                    if (array.end == 0)
                        break; // still open
                    m_keptUpTo = array.end;
                    ++m_nextArray;
                    continue;
                }
                until = std::min(until, array.begin);
            }
            const std::string_view bytes = m_window.at(m_keptUpTo, until);
            std::memcpy(m_outsideArrays.grow(bytes.size()), bytes.data(), bytes.size());
            m_outsideArrays.commit(bytes.size());
            m_keptUpTo = until;
        }
        // A document that is one huge value outside the arrays (no events
        // to speak of) is bounded like any gzip text: by half the memory,
        // for every file loading at once.
        if (ByteBuffer::liveBytes() > ByteBuffer::inflateBudget()) {
            const std::lock_guard lock(m_mutex);
            m_readError = ParseError{QStringLiteral("the JSON text outside its event arrays grows past what this machine can hold "
                                                    "for the files loading now (%1 GiB, half of its memory, for all of them); not read")
                                         .arg(double(ByteBuffer::inflateBudget()) / double(1 << 30), 0, 'f', 1),
                                     m_keptUpTo, false, true};
            return false;
        }
        return true;
    }

    // Called by the scan for each part: its text is copied out of the
    // window, once fewer than enough parts wait ahead of the builder.
    bool handOver(EventPart part)
    {
        std::unique_ptr<PartText> text;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || m_parts.size() < m_nextToHand + 2 * m_maxInFlight; });
            if (m_stop)
                return false;
            if (!m_spareTexts.empty()) {
                text = std::move(m_spareTexts.back());
                m_spareTexts.pop_back();
            }
        }
        if (!text)
            text = std::make_unique<PartText>();
        text->part = part;
        text->bytes.assign({"[", m_window.at(part.begin, part.end), "]"});
        const std::lock_guard lock(m_mutex);
        m_parts.push_back(std::move(text));
        m_changed.notify_all();
        return !m_stop;
    }

    void work()
    {
        ondemand::parser parser;
        while (true) {
            std::size_t index = 0;
            std::unique_ptr<PartText> text;
            std::unique_ptr<EventBatch> batch;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] {
                    return m_stop || (m_nextToParse < m_parts.size() && m_nextToParse < m_nextToHand + m_maxInFlight)
                           || (m_scanDone && m_nextToParse >= m_parts.size());
                });
                if (m_stop || m_nextToParse >= m_parts.size())
                    return;
                index = m_nextToParse++;
                text = std::move(m_parts[index]);
                if (!m_spare.empty()) {
                    batch = std::move(m_spare.back());
                    m_spare.pop_back();
                }
            }
            try {
                if (batch)
                    batch->reuse();
                else
                    batch = std::make_unique<EventBatch>();
                const EventPart part = text->part;
                batch->partEnd = part.end;
                const std::string_view events = text->bytes.view().substr(1, part.end - part.begin);
                if (!part.wholeArray && events.find_first_not_of(" \t\r\n") == std::string_view::npos) {
                    // "[a,,b]" or "[a, ]": the whole parse would refuse it.
                    batch->error = ParseError{QStringLiteral("invalid JSON: a comma with no event after it"), part.begin};
                } else {
                    TraceHeader ignored; // a part is a bare array
                    const std::function<void(const KinetoEvent &)> add = [&](const KinetoEvent &e) { batch->add(e); };
                    const std::function<bool()> stopped = [this] { return m_stopRequested.load(std::memory_order_relaxed); };
                    EventReader partReader{add, stopped, {}, 0};
                    batch->error = parseDocument(parser, text->bytes.view(), text->bytes.capacity(), ignored, partReader);
                    if (batch->error && !batch->error->cancelled) // "[" + part: offset 1 of the copy is part.begin
                        batch->error->byteOffset = part.begin + std::min(batch->error->byteOffset, part.end - part.begin + 1)
                                                   - std::min<std::size_t>(batch->error->byteOffset, 1);
                }
            } catch (...) {
                fail(std::current_exception());
                return;
            }
            const std::lock_guard lock(m_mutex);
            m_batches[index] = std::move(batch);
            m_spareTexts.push_back(std::move(text));
            m_changed.notify_all();
        }
    }

    // Hands the batches' events on in order; the first error ends it.
    std::optional<ParseError> consume(EventReader &reader)
    {
        while (true) {
            std::unique_ptr<EventBatch> batch;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_failure || m_batches.count(m_nextToHand) || (m_scanDone && m_nextToHand >= m_parts.size()); });
                if (m_failure)
                    return std::nullopt;
                const auto it = m_batches.find(m_nextToHand);
                if (it == m_batches.end())
                    return std::nullopt; // every part handed on
                batch = std::move(it->second);
                m_batches.erase(it);
                ++m_nextToHand;
                m_changed.notify_all(); // room for another batch
            }
            for (const KinetoEvent &e : batch->events) {
                reader.onEvent(e);
                if ((++reader.events & 0xfff) == 0 && reader.isCancelled())
                    return reader.cancelled();
            }
            if (batch->error)
                return batch->error;
            if (m_onPartHandedOn)
                m_onPartHandedOn(batch->partEnd);
            const std::lock_guard lock(m_mutex);
            m_spare.push_back(std::move(batch));
        }
    }

    std::optional<ParseError> parseHeader(TraceHeader &header, const EventReader &reader)
    {
        // The document with its event arrays emptied (an offset in a
        // message is moved past the bytes left out before it).
        PaddedCopy copy;
        copy.assign({std::string_view(m_outsideArrays.view())});
        m_outsideArrays.release();
        ondemand::parser parser;
        EventReader none{reader.onEvent, reader.isCancelled, {}, 0};
        std::optional<ParseError> error = parseDocument(parser, copy.view(), copy.capacity(), header, none);
        if (error)
            for (const EventPart &array : m_scan.arrays)
                if (error->byteOffset >= array.begin)
                    error->byteOffset += array.end - array.begin;
        return error;
    }

    void fail(std::exception_ptr failure)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_failure)
            m_failure = failure;
        m_stop = true;
        m_stopRequested = true;
        m_changed.notify_all();
    }

    void stopAll(std::vector<std::thread> &threads)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_stop = true;
            m_stopRequested = true;
            m_changed.notify_all();
        }
        for (std::thread &t : threads)
            t.join();
    }

    TextSource &m_source;
    TextWindow m_window;        // the scan thread's
    ByteBuffer m_outsideArrays; // the scan thread's, until it is done
    std::size_t m_keptUpTo = 0, m_nextArray = 0;
    const std::size_t m_partBytes;
    const std::function<void(std::size_t)> &m_onPartHandedOn;
    std::size_t m_maxInFlight = 3;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::unique_ptr<PartText>> m_parts; // found so far, in order; empty once taken by a worker
    std::vector<std::unique_ptr<PartText>> m_spareTexts;
    std::size_t m_nextToParse = 0, m_nextToHand = 0;
    std::map<std::size_t, std::unique_ptr<EventBatch>> m_batches; // parsed, not yet handed on
    std::vector<std::unique_ptr<EventBatch>> m_spare;             // handed on, to be reused
    bool m_scanDone = false, m_stop = false;
    std::atomic<bool> m_stopRequested{false}; // read by the parsers between events
    EventArrayScan m_scan;
    std::optional<ParseError> m_readError;
    std::exception_ptr m_failure;
};

// Parses a document held whole (its padding made defined here).
std::optional<ParseError> parseWhole(ByteBuffer &text, TraceHeader &header, EventReader &reader)
{
    text.reserve(text.size() + SIMDJSON_PADDING);
    std::memset(text.data() + text.size(), 0, SIMDJSON_PADDING); // defined bytes past the end
    ondemand::parser parser;
    return parseDocument(parser, text.view(), text.capacity(), header, reader);
}

} // namespace

std::optional<ParseError> parseTrace(TextSource &source, TraceHeader &header, const std::function<void(const KinetoEvent &)> &onEvent,
                                     const std::function<bool()> &isCancelled, std::size_t partBytes,
                                     const std::function<void(std::size_t)> &onPartHandedOn)
{
    EventReader reader{onEvent, isCancelled, {}, 0};
    // A document of up to two parts is parsed whole: it is read first.
    ByteBuffer head;
    const std::size_t wholeAtMost = partBytes > (SIZE_MAX - 1) / 2 ? SIZE_MAX - 1 : 2 * partBytes;
    const std::size_t readBytes = std::clamp<std::size_t>(partBytes / 2, 64, std::size_t(1) << 20);
    while (head.size() <= wholeAtMost && !source.atEnd()) {
        const std::size_t n = std::min(readBytes, wholeAtMost + 1 - head.size());
        head.commit(source.read(head.grow(n), n));
    }
    if (source.failed())
        return ParseError{source.error(), 0, false, true};
    std::optional<ParseError> error;
    if (source.atEnd()) {
        error = parseWhole(head, header, reader);
    } else {
        PartPipeline::Outcome outcome = PartPipeline(source, std::move(head), partBytes, onPartHandedOn).run(header, reader);
        error = std::move(outcome.error);
        if (outcome.noArrays)
            error = parseWhole(outcome.wholeText, header, reader);
    }
    if (error)
        return error;
    if (!header.hasTraceEvents)
        return ParseError{QStringLiteral("not a Kineto/Chrome trace: no \"traceEvents\" array"), 0};
    return std::nullopt;
}

std::optional<ParseError> parseTrace(ByteBuffer &json, TraceHeader &header, const std::function<void(const KinetoEvent &)> &onEvent,
                                     const std::function<bool()> &isCancelled, std::size_t partBytes)
{
    TextSource source(json.view());
    return parseTrace(source, header, onEvent, isCancelled, partBytes);
}

} // namespace rankscope::kineto
