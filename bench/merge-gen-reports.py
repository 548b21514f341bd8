#!/usr/bin/env python3
"""Writes N synthetic jankscope reports holding S samples in total, for the
merge-throughput benchmark (run-merge-throughput.py).

    merge-gen-reports.py --out DIR --reports 10000 --samples 1000000 [--seed 1]

Each report looks like one the core writes (docs/report-format.md, and the
pretty printing of json-glib: two-space indent, "key" : value, one array
element per line): a GTK4 app's process, config and summary (iteration and
frame histograms, 20 sources, sampler counters), and 1 to 6 jank events whose
samples_total add up to S / N. Each event has 1 to 16 distinct stacks of 12 to
22 symbolized frames (function, module, file, line, offset, build_id) with
their signature, a folded sample timeline and its parts. Stacks are drawn from
a fleet-wide pool of causes with a Zipf-like popularity, so that signatures
repeat across runs (what merging is for).

The corpus is deterministic for a given seed.
"""

import argparse
import hashlib
import os
import random
import sys

APP_MODULE = "gnome-chat"
LIBS = ["libgtk-4.so.1", "libgio-2.0.so.0", "libglib-2.0.so.0", "libgobject-2.0.so.0",
        "libsqlite3.so.0", "libjson-glib-1.0.so.0", "libpango-1.0.so.0", "libc.so.6"]
LOOP_FRAMES = [
    ("g_main_context_dispatch", "libglib-2.0.so.0"),
    (None, "libglib-2.0.so.0"),
    ("g_main_context_iteration", "libglib-2.0.so.0"),
    ("g_application_run", "libgio-2.0.so.0"),
    ("main", APP_MODULE),
    ("__libc_start_call_main", "libc.so.6"),
    ("__libc_start_main", "libc.so.6"),
    ("_start", APP_MODULE),
]
LEAVES = [("memcpy", "libc.so.6"), ("__futex_abstimed_wait_common", "libc.so.6"),
          ("read", "libc.so.6"), ("g_mutex_lock", "libglib-2.0.so.0"),
          ("sqlite3VdbeExec", "libsqlite3.so.0"), ("pango_layout_get_extents", "libpango-1.0.so.0"),
          ("malloc", "libc.so.6"), ("poll", "libc.so.6")]
TIERS = [("noticeable", 50, 200), ("severe", 200, 700), ("frozen", 700, 3000), ("hang", 3000, 6000)]
CLASSES = [("compute", None), ("wait", "lock"), ("wait", "io"), ("mixed", "sleep"), ("wait", "ipc")]
MS = 1_000_000


def build_id(name):
    return hashlib.sha1(name.encode()).hexdigest()


# ---- json-glib's pretty printing ---------------------------------------------

def esc(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dump(value, indent, out):
    """Appends value, whose first line is already indented, to the list out."""
    if isinstance(value, Raw):
        out.append(value.text)
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = " " * (indent + 2)
        out.append("{\n")
        items = list(value.items())
        for i, (k, v) in enumerate(items):
            out.append(inner + esc(k) + " : ")
            dump(v, indent + 2, out)
            out.append(",\n" if i + 1 < len(items) else "\n")
        out.append(" " * indent + "}")
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        inner = " " * (indent + 2)
        out.append("[\n")
        for i, v in enumerate(value):
            out.append(inner)
            dump(v, indent + 2, out)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(" " * indent + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(esc(value))
    elif isinstance(value, float):
        out.append(repr(value))
    else:
        out.append(str(value))


class Raw:
    """Text already rendered (a frame rendered once, reused everywhere)."""

    def __init__(self, text):
        self.text = text


def render(value, indent):
    out = []
    dump(value, indent, out)
    return Raw("".join(out))


# ---- the fleet's causes --------------------------------------------------------

FRAME_INDENT = 10  # events[i].stacks[j].frames[k]


def make_frame(function, module, rng):
    frame = {"function": function, "module": module,
             "file": ("../src/%s.c" % function.split("_")[0]) if function and module == APP_MODULE
             else None,
             "line": rng.randint(20, 3000) if function and module == APP_MODULE else None,
             "offset": "0x%x" % rng.randint(0x1000, 0x3fffff),
             "build_id": build_id(module)}
    return frame


def signature_of(frames):
    """js-signature.c's rule, enough for these stacks: from the first frame
    outside libc/GLib, named frames, loop and start-up frames left out."""
    noise = ("g_main_", "g_application_run", "__libc_start", "_start")
    system = ("libc.so", "libglib-2.0", "libgobject-2.0", "libgio-2.0")
    kept, started, last_unnamed = [], False, None
    for function, module in frames:
        if function == "main" or (function or "").startswith("__libc_start"):
            break
        is_noise = function is not None and function.startswith(noise)
        if not started:
            if is_noise or module.startswith(system):
                continue
            started = True
        if is_noise or (function is None and module.startswith(system)):
            continue
        if function is None:
            if last_unnamed == module:
                continue
            last_unnamed = module
            kept.append(module + "!?")
        else:
            last_unnamed = None
            kept.append(function)
        if len(kept) == 5:
            break
    text = " < ".join(kept)
    h = 14695981039346656037
    for b in text.encode():
        h ^= b
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return text, "%016x" % h


def make_causes(rng, n):
    """n distinct stacks (leaf first): a leaf, app/library frames, the loop."""
    words = ["load", "history", "render", "row", "chat", "list", "query", "avatar", "parse",
             "message", "sync", "cache", "draw", "layout", "store", "index", "emoji", "search"]
    causes = []
    for i in range(n):
        depth = rng.randint(3, 12)
        frames = [rng.choice(LEAVES)]
        for d in range(depth):
            if rng.random() < 0.7:
                name = "%s_%s_%s%d" % (rng.choice(words), rng.choice(words), rng.choice(words),
                                       i % 7 if d else i)
                frames.append((name, APP_MODULE))
            else:
                lib = rng.choice(LIBS[:7])
                frames.append((rng.choice([None, "gtk_widget_snapshot", "g_signal_emit",
                                           "g_closure_invoke", "json_parser_load"]), lib))
        frames += LOOP_FRAMES
        frames = frames[:22]
        text, sig_id = signature_of(frames)
        rendered = [render(make_frame(f, m, rng), FRAME_INDENT) for f, m in frames]
        causes.append({"frames": rendered, "signature": text, "signature_id": sig_id,
                       "culprit": next((f for f, m in frames if m == APP_MODULE and f), None)})
    return causes


# ---- one report ----------------------------------------------------------------

def histogram(rng, n, center_bucket, spread):
    buckets = {}
    for _ in range(min(n, 400)):
        b = max(1, min(592, int(rng.gauss(center_bucket, spread))))
        buckets[b] = buckets.get(b, 0) + 1
    scale = n / max(1, sum(buckets.values()))
    pairs = sorted((b, max(1, int(c * scale))) for b, c in buckets.items())
    total = sum(c for _, c in pairs)
    return {"sub_bits": 4, "min_exp": 6, "count": total,
            "min_ns": bucket_low(pairs[0][0]), "max_ns": bucket_low(pairs[-1][0] + 1) - 1,
            "buckets": [[b, c] for b, c in pairs]}, total


def bucket_low(b):
    """The lower bound of a histogram bucket (src/core/js-histogram.c)."""
    if b == 0:
        return 0
    e = (b - 1) // 16 + 6
    return (16 + (b - 1) % 16) << (e - 4)


def split(total, parts, rng):
    cuts = sorted(rng.sample(range(1, total), parts - 1)) if parts > 1 else []
    edges = [0] + cuts + [total]
    return [edges[i + 1] - edges[i] for i in range(parts)]


def make_event(rng, causes, popularity, event_id, start, samples):
    tier, low, high = rng.choice(TIERS[:3] if rng.random() < 0.9 else TIERS)
    duration = rng.randint(low, high) * MS
    klass, wait = rng.choice(CLASSES)
    n_stacks = max(1, min(16, samples // rng.randint(2, 8)))
    counts = split(samples, n_stacks, rng) if n_stacks > 1 else [samples]
    counts.sort(reverse=True)
    chosen = rng.choices(range(len(causes)), weights=popularity, k=n_stacks)
    stacks = []
    for cause_index, count in zip(chosen, counts):
        cause = causes[cause_index]
        stacks.append({"count": count, "time_ns": duration * count // max(samples, 1),
                       "signature": cause["signature"], "signature_id": cause["signature_id"],
                       "frames": cause["frames"]})
    timeline, t, left = [], start + 16 * MS, samples
    while left > 0:
        c = min(left, rng.randint(1, 4))
        entry = {"t_ns": t, "count": c, "state": "running" if klass == "compute" else "waiting"}
        if c > 1:
            entry["last_ns"] = t + (c - 1) * 5 * MS
        if klass != "compute":
            entry["wait"] = wait
            entry["syscall"] = 202
        entry["stack"] = rng.randrange(n_stacks)
        timeline.append(entry)
        t += c * 5 * MS
        left -= c
    cause = causes[chosen[0]]
    attributed = sum(s["time_ns"] for s in stacks)
    source = rng.choice(["[gtk] paint", "chat-sync", "history-loader", "GDK Frame Clock", None])
    part = {"type": "dispatch", "start_ns": start, "end_ns": start + duration,
            "duration_ns": duration, "nested_ns": 0, "tier": tier, "source": source,
            "callback": "on_%s" % (source or "idle").split()[-1].replace("-", "_"),
            "priority": 200, "frames_delayed": rng.randint(0, 9), "depth": 1}
    return {
        "id": event_id, "type": "dispatch", "start_ns": start, "end_ns": start + duration,
        "duration_ns": duration, "max_part_ns": duration, "tier": tier, "source": source,
        "callback": part["callback"], "priority": 200, "depth": 1, "parts_count": 1,
        "frames_delayed": part["frames_delayed"],
        "cpu_ns": duration * 8 // 10 if klass == "compute" else duration // 10,
        "off_cpu_ns": duration // 5 if klass == "compute" else duration * 9 // 10,
        "runnable_ns": duration // 50, "watched_ns": duration,
        "attributed_ns": attributed, "unattributed_ns": duration - attributed,
        "class": klass, "wait": wait,
        "culprit": {"function": cause["culprit"], "module": APP_MODULE, "file": None,
                    "line": None, "confidence": 0.8, "samples": counts[0],
                    "of_samples": samples, "reason": "app-code"},
        "samples_total": samples,
        "samples_running": samples if klass == "compute" else 0,
        "samples_waiting": 0 if klass == "compute" else samples,
        "stacks": stacks, "stacks_omitted": 0, "samples": timeline,
        "watchdog": {"detected_ns": start + 16 * MS, "tiers_crossed": [],
                     "ping_latency_ns": duration, "ping_caught": False},
        "parts": [part],
    }


def make_report(rng, causes, popularity, index, samples):
    pid = 1000 + index
    start = 10**12 + index * 10**9
    monitored = rng.randint(30, 600) * 10**9
    n_events = max(1, min(6, samples // rng.randint(15, 40)))
    per_event = split(samples, n_events, rng) if n_events > 1 else [samples]
    events = []
    t = start + 5 * 10**9
    for i, s in enumerate(per_event):
        events.append(make_event(rng, causes, popularity, i + 1, t, max(s, 1)))
        t += rng.randint(2, 20) * 10**9
    by_tier = {name: 0 for name, _, _ in TIERS}
    for e in events:
        by_tier[e["tier"]] += 1
    iterations = rng.randint(5000, 200000)
    frames = rng.randint(2000, 30000)
    busy_hist, iterations = histogram(rng, iterations, 150, 60)  # bucket 150: 61 µs
    frame_hist, frames = histogram(rng, frames, 288, 4)  # bucket 288: 16.3-16.8 ms
    sources = [{"source": "source-%d" % k, "callback": "on_source_%d" % k,
                "count": rng.randint(1, 5000), "total_ns": rng.randint(1, 10**9),
                "mean_ns": 1000, "max_ns": rng.randint(1, 10**8), "p95_ns": 5000}
               for k in range(20)]
    report = {
        "format": "jankscope-report", "version": 1, "generator": "jankscope 0.1.0",
        "final": True,
        "install_id": "%016x" % rng.getrandbits(64),
        "process": {"exe": "/usr/bin/" + APP_MODULE, "name": APP_MODULE, "pid": pid,
                    "glib_version": "2.74.6", "gtk_version": "4.8.3", "toolkit": "gtk4",
                    "mode": "preload", "start_ns": start, "report_ns": start + monitored},
        "config": {"threshold_ns": 50 * MS,
                   "tiers_ns": {"noticeable": 50 * MS, "severe": 200 * MS, "frozen": 700 * MS,
                                "hang": 3000 * MS},
                   "merge_gap_ns": 500 * MS, "max_events": 1000, "max_parts": 64},
        "summary": {
            "iterations": iterations, "dispatches": iterations * 3,
            "busy_ns": monitored // 20, "monitored_ns": monitored,
            "iteration_busy": {"p50_ns": 80_000, "p95_ns": 2 * MS, "p99_ns": 9 * MS,
                               "max_ns": max(e["duration_ns"] for e in events),
                               "histogram": busy_hist},
            "events_by_tier": by_tier, "events_total": len(events), "events_dropped": 0,
            "records_dropped": 0, "nested_loops": 0, "poll_func_reinstalls": 0,
            "sources_not_timed": 0,
            "frames": {"frames": frames, "slow": frames // 50, "frozen": by_tier["frozen"],
                       "slow_rate": 0.02, "frozen_rate": 0.0, "big_jank_rate": 0.0,
                       "p50_ns": 16_600_000, "p90_ns": 17_000_000, "p95_ns": 18_000_000,
                       "p99_ns": 33_000_000, "max_ns": 90 * MS, "histogram": frame_hist,
                       "fps_animating": 59.9, "budget_ns": 16_666_666, "windows_dropped": 0,
                       "windows": []},
            "sampler": {"signal": 37, "unwinder": "libunwind", "signal_lost": False,
                        "stalls": len(events), "samples": samples, "samples_running": samples,
                        "samples_waiting": 0, "samples_folded": samples // 3,
                        "samples_failed": 0, "samples_dropped": 0, "signals_sent": samples,
                        "signal_timeouts": 0, "signal_late": 0, "signal_blocked": 0,
                        "syscalls_interrupted": 0},
            "sources": sources, "sources_truncated": 0,
        },
        "events": events,
    }
    out = []
    dump(report, 0, out)
    return "".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder to write report-NNNNN.json into")
    ap.add_argument("--reports", type=int, default=10000)
    ap.add_argument("--samples", type=int, default=1000000, help="samples in all the reports")
    ap.add_argument("--causes", type=int, default=400, help="distinct stacks in the fleet")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.reports < 1 or args.samples < args.reports:
        ap.error("need at least one report and one sample per report")

    rng = random.Random(args.seed)
    causes = make_causes(rng, args.causes)
    popularity = [1.0 / (i + 1) ** 0.8 for i in range(len(causes))]
    # Every report gets its share (at least one sample).
    base, extra = divmod(args.samples, args.reports)
    per_report = [base + (1 if i < extra else 0) for i in range(args.reports)]
    os.makedirs(args.out, exist_ok=True)
    total_bytes = 0
    for i, samples in enumerate(per_report):
        text = make_report(rng, causes, popularity, i, samples)
        path = os.path.join(args.out, "report-%05d.json" % i)
        with open(path, "w") as f:
            f.write(text)
        total_bytes += len(text)
    print("wrote %d reports, %d samples, %.1f MB into %s"
          % (args.reports, args.samples, total_bytes / 1e6, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
