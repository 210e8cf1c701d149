#!/usr/bin/env python3
"""Writes the small, committed part of the bad-input corpus (deterministic).

The larger inputs (truncated and mutated Nsight Systems exports, 100k-level
JSON nesting, a 1 MB kernel name) are built at test time from the real
fixtures by tests/support/badcorpus.cpp.
"""
import gzip
import io
import random
import struct

rng = random.Random(20261122)


def noise(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def gzipped(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode='wb', mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def write(name, data):
    with open(name, 'wb') as f:
        f.write(data)


write('empty.sqlite', b'')
write('empty.json', b'')
write('random.sqlite', noise(4096))
write('random.json', noise(4096))
# Random bytes after the gzip magic, so the gzip path is taken.
write('random.json.gz', b'\x1f\x8b' + noise(4094))
write('invalid_utf8.json', b'{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "\xff\xfe\xc3", "pid": 0, "tid": 7, "ts": 1, "dur": 2}]}')
write('no_trace_events.json', b'{"schemaVersion": 1, "deviceProperties": []}')
write('trace_events_not_array.json', b'{"schemaVersion": 1, "traceEvents": {"ph": "X"}}')
write('wrong_types.json', b'{"traceEvents": [\n'
      b' {"ph": "X", "cat": "kernel", "name": "k", "pid": {}, "tid": [], "ts": "abc", "dur": true},\n'
      b' {"ph": 5, "cat": ["kernel"], "name": null, "pid": 0, "tid": 7, "ts": 1, "dur": 2},\n'
      b' {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 1e400, "dur": -1e400, "args": []},\n'
      b' {"ph": "X", "cat": "cuda_runtime", "name": "r", "pid": 0, "tid": 7, "ts": 3, "dur": 1, "args": {"correlation": "x", "External id": {}}},\n'
      b' "not an event", 17, null,\n'
      b' {"ph": "X", "cat": "kernel", "name": "ok", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"stream": 7, "correlation": 3}}\n'
      b']}')
# A complete gzip member whose trailer (ISIZE) claims 2 GiB of text.
claim = bytearray(gzipped(b'{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]}'))
claim[-4:] = struct.pack('<I', 0x80000000)
write('claims_2gb.json.gz', bytes(claim))
events = b','.join(b'{"ph": "X", "cat": "kernel", "name": "k%d", "pid": 0, "tid": 7, "ts": %d, "dur": 2}' % (i, i * 3) for i in range(2000))
trace = b'{"traceEvents": [' + events + b']}'
write('truncated.json.gz', gzipped(trace)[:len(gzipped(trace)) // 2])
write('truncated.json', trace[:len(trace) // 2])
