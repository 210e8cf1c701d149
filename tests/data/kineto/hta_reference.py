#!/usr/bin/env python3
"""Independent reference for rankscope's rank_summary report.

Re-implements, directly on the JSON and with nothing from Rankscope, what
Holistic Trace Analysis (commit f4d0062c) computes in get_temporal_breakdown()
and get_comm_comp_overlap() (HTA's trace_parser, the step-window filter of
hta/common/trace.py and trace_filter.py, breakdown_analysis and
communication_analysis; classes as in docs/trace-formats.md B7). HTA's times are integer microseconds; this prints
them in nanoseconds (x 1000), as rank_summary does. Percentages use
Python's round(x, 2), as HTA does.

Usage: hta_reference.py TRACE.json[.gz]...   (one session: all files given)
The expected values in tests/model/tst_kinetoloader.cpp come from running
it on the files in this folder.
"""
import gzip
import json
import math
import re
import sys

COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
MEMORY = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
NOT_COMPUTE = re.compile(r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)"
                         r"|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)"
                         r"|(^collective_subgraph_execution)")
STEP = re.compile(r"^ProfilerStep#(\d+)")


def kernel_class(name):
    if COMM.match(name):
        return "COMMUNICATION"
    if MEMORY.match(name):
        return "MEMORY"
    if not NOT_COMPUTE.match(name):
        return "COMPUTATION"
    return "OTHER"


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        doc = json.load(fh)
    events = [e for e in doc["traceEvents"] if "dur" in e and "cat" in e and e["cat"] != "Trace"]
    if any(isinstance(e["ts"], float) for e in events):
        for e in events:  # HTA: ts up, ts + dur down, in float
            end = math.floor(e["ts"] + e["dur"])
            e["ts"] = math.ceil(e["ts"])
            e["dur"] = end - e["ts"]
    for e in events:
        args = e.get("args", {})
        e["stream"] = args.get("stream", -1) if isinstance(args.get("stream", -1), int) else -1
        e["correlation"] = args.get("correlation", -1) if isinstance(args.get("correlation", -1), int) else -1
        e["end"] = e["ts"] + e["dur"]
    return doc.get("distributedInfo", {}).get("rank", 0), events


def merged(intervals):
    runs = []
    for s, e in sorted(intervals):
        if runs and s <= runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], e)
        else:
            runs.append([s, e])
    return runs


def main(paths):
    ranks = dict(load(p) for p in paths)
    step_names = {e["name"] for ev in ranks.values() for e in ev if STEP.match(e["name"])}
    print("Rank,Idle Time (ns),Compute Time (ns),Non-compute Time (ns),Kernel Time (ns),Idle (%),Compute (%),Non-compute (%),Comm-Comp Overlap (%)")
    for rank in sorted(ranks):
        events = ranks[rank]
        if len(step_names) >= 2:
            # HTA (trace.py, trace_filter.py): a GPU kernel is a row with a
            # stream and a correlation (or an Event/Context Sync); every
            # other row is a CPU event, gpu_user_annotation and cuda_driver
            # rows included. The window ends at the latest start of a CPU
            # event named ProfilerStep#N: PyTorch 2.x's GPU-side copy of the
            # last step starts just before that step's CPU range ends.
            is_gpu = lambda e: (e["stream"] >= 0 and e["correlation"] >= 0) or e["name"] in ("Event Sync", "Context Sync")
            cpu = [e for e in events if not is_gpu(e)]
            gpu = [e for e in events if is_gpu(e)]
            steps = [e for e in cpu if STEP.match(e["name"])]
            last = max(e["ts"] for e in steps) if steps else min(e["ts"] for e in cpu)
            cpu = [e for e in cpu if e["ts"] < last]
            kept = {e["correlation"] for e in cpu if e["correlation"] >= 0}
            events = [e for e in gpu if e["correlation"] in kept] + cpu
        gpu = [e for e in events if e["stream"] != -1]
        runs = merged([(e["ts"], e["end"]) for e in gpu])
        kernel_time = runs[-1][1] - runs[0][0]
        idle = kernel_time - sum(e - s for s, e in runs)
        comp_runs = merged([(e["ts"], e["end"]) for e in gpu if kernel_class(e["name"]) == "COMPUTATION"])
        comm_runs = merged([(e["ts"], e["end"]) for e in gpu if kernel_class(e["name"]) == "COMMUNICATION"])
        compute = sum(e - s for s, e in comp_runs)
        non_compute = kernel_time - compute - idle
        comm = sum(e - s for s, e in comm_runs)
        overlap = ""
        if comm:
            both = sum(max(0, min(a[1], b[1]) - max(a[0], b[0])) for a in comm_runs for b in comp_runs)
            overlap = f"{round(100 * (both / comm), 2):.2f}"
        pct = lambda x: f"{round(100 * (x / kernel_time), 2):.2f}"
        print(f"{rank},{idle * 1000},{compute * 1000},{non_compute * 1000},{kernel_time * 1000},"
              f"{pct(idle)},{pct(compute)},{pct(non_compute)},{overlap}")


if __name__ == "__main__":
    main(sys.argv[1:])
