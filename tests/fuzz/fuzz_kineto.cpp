// libFuzzer target: PyTorch profiler (Kineto) JSON, plain or gzip. Besides
// loading it, a plain input is parsed whole and in parts of a few bytes
// (load/kineto/eventarray.h): when both succeed they give the same events.
// (Malformed input may fail one way and not the other: the parts parse one
// level less deep, and the scan reads past the document's end.)
#include "fuzzload.h"

#include "load/gzipreader.h"
#include "load/kineto/kinetoparser.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct Parsed {
    bool ok = false;
    std::string events; // each event's main fields
};

Parsed parse(const std::uint8_t *data, std::size_t size, std::size_t partBytes)
{
    using namespace rankscope;
    ByteBuffer json;
    json.reserve(size + 64);
    if (size)
        std::memcpy(json.grow(size), data, size);
    json.commit(size);
    Parsed p;
    kineto::TraceHeader header;
    const auto error = kineto::parseTrace(
        json, header,
        [&](const kineto::KinetoEvent &e) {
            p.events.push_back(e.ph);
            p.events.append(e.name).append(e.cat).push_back('|');
            p.events.append(std::to_string(e.tsNs) + "," + std::to_string(e.durNs) + "," + std::to_string(e.pid) + "," + std::to_string(e.tid) + ","
                            + std::to_string(e.correlation) + ";");
        },
        [] { return false; }, partBytes);
    p.ok = !error;
    return p;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    rankscope::fuzz::loadAndInspect(data, size, ".json", RANKSCOPE_FUZZ_KINETO_COMPANION);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return 0; // gzip: the loader inflates it first
    const Parsed whole = parse(data, size, std::size_t(1) << 60);
    for (const std::size_t partBytes : {std::size_t(1), std::size_t(16)}) {
        const Parsed parts = parse(data, size, partBytes);
        if (parts.ok && whole.ok && parts.events != whole.events) {
            std::fprintf(stderr, "fuzz invariant broken: parsed in parts of %zu bytes: %s, whole: %s\n", partBytes, parts.ok ? "ok" : "failed",
                         whole.ok ? "ok" : "failed");
            std::abort();
        }
    }
    return 0;
}
