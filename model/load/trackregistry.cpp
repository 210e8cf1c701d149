#include "load/trackregistry.h"

namespace rankscope {

Track &TrackRegistry::host(TrackKind kind, std::uint32_t pid, std::uint32_t tid, std::uint32_t domainId)
{
    return find({int(kind), pid, tid, -1, 0u, domainId}, [&] {
        Track t;
        t.kind = kind;
        t.pid = pid;
        t.tid = tid;
        t.domainId = domainId;
        return t;
    });
}

Track &TrackRegistry::gpu(TrackKind kind, std::uint32_t pid, int deviceId, std::uint32_t streamId, std::uint32_t contextId)
{
    return find({int(kind), pid, 0u, deviceId, streamId, 0u}, [&] {
        Track t;
        t.kind = kind;
        t.pid = pid;
        t.deviceId = deviceId;
        t.streamId = streamId;
        t.contextId = contextId;
        return t;
    });
}

} // namespace rankscope
