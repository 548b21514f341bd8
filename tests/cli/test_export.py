#!/usr/bin/env python3
"""Tests of `jankscope export` (src/cli/cmd-export.c, docs/exports.md).

Every format is parsed by a tool that is not jankscope: Python's json for
chrome and json, a folded-stacks reader written here, `protoc --decode` for
pprof (after gunzip), and libsysprof-capture's own SysprofCaptureReader
(tests/cli/sysprof-dump.c) for sysprof.

Run by meson (tests/cli/meson.build), which passes in the environment:
JANKSCOPE_CLI, EXPORT_TEST_PROTO_DIR (src/export/pprof), EXPORT_TEST_SYSPROF_DUMP
(when the sysprof format is built), JANKSCOPE_TEST_STACKS_APP and
JANKSCOPE_TEST_PRELOAD (for the round trips with a real program).

    meson test -C build --suite exports
    JANKSCOPE_CLI=build/src/cli/jankscope ... python3 tests/cli/test_export.py SyntheticTest
"""

import codecs
import copy
import gzip
import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import jankscope_test as jt  # noqa: E402  (tests/: the report and journal reader)
import profile_report as pr  # noqa: E402  (tests/: events with profiles, as the core writes them)

MS = 1_000_000  # ns
T0 = 7_000_000_000_000  # CLOCK_MONOTONIC of the synthetic runs' start
TIMEOUT = 60
SYNTHETIC_PID = 1 << 23  # EXPORT_SYNTHETIC_PID

CLI = os.environ.get("JANKSCOPE_CLI", "")
FORMATS = ("chrome", "folded", "pprof", "json", "sysprof")


def need_env(name):
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest(f"{name} is not set: run through meson test")
    return value


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("JANKSCOPE") and k not in ("LD_PRELOAD", "LANGUAGE")}
    env["LC_ALL"] = "C.UTF-8"
    # As in tests/jankscope_test.py: strict GLib messages, and a final report
    # that is not cut short on a loaded test machine.
    env["G_DEBUG"] = jt.STRICT_G_DEBUG
    env["JANKSCOPE_EXIT_MS"] = "5000"
    env.update(extra)
    return env


def run_cli(*args, **kwargs):
    proc = subprocess.run([CLI, *args], env=clean_env(), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=TIMEOUT, **kwargs)
    proc.out = proc.stdout.decode("utf-8", "replace")
    proc.err = proc.stderr.decode("utf-8", "replace")
    return proc


# ---- synthetic reports --------------------------------------------------------

def frame(function, module="fake-app", file=None, line=None, offset="0x10", inlined=False,
          build_id="ab12cd34"):
    f = {"function": function, "module": module, "file": file, "line": line, "offset": offset,
         "build_id": build_id}
    if inlined:
        f["inlined"] = True
    return f


MAIN = frame("main", file="/home/alice/src/fake/main.c", line=3, offset="0x100")
SA = [frame("compute_hash", file="/home/alice/src/fake/hash.c", line=99, offset="0x200"),
      frame("slow_idle", file="/home/alice/src/fake/main.c", line=7, offset="0x300"), MAIN]
SB = [frame("helper", file="/home/alice/src/fake/util.h", line=5, offset="0x400", inlined=True),
      frame("caller_fn", file="/home/alice/src/fake/util.c", line=20, offset="0x400"),
      frame(None, module="libfoo.so", offset="0x4711", build_id=None), MAIN]
SC = [frame("clock_nanosleep", module="libc.so.6", offset="0xe00", build_id="c0ffee"),
      frame("g_usleep", module="libglib-2.0.so.0", offset="0x700", build_id="91ab"),
      frame("nap;time", file="main.c", line=40, offset="0x500"), MAIN]
SD = [frame("draw_everything", file="draw.c", line=12, offset="0x600"), MAIN]
SE = [frame("syscall", module="libc.so.6", offset="0xf00", build_id="c0ffee"),
      frame("wait_for_lock", module="other-app", file="app.c", line=77, offset="0x80"),
      frame("on_button", module="other-app", file="app.c", line=120, offset="0x90")]
SF = [frame("parse_everything", file="parse.c", line=1, offset="0x800"), MAIN]


def at(ms):
    return T0 + int(ms * MS)


def stack(count, frames, signature):
    return {"count": count, "signature": signature, "signature_id": "0123456789abcdef",
            "frames": copy.deepcopy(frames)}


def sample(t_ms, stack_index, count=1, last_ms=None, state="running", wait=None):
    s = {"t_ns": at(t_ms), "count": count, "state": state, "stack": stack_index}
    if count > 1:
        s["last_ns"] = at(last_ms if last_ms is not None else t_ms)
    if state == "waiting":
        s["wait"] = wait
        s["syscall"] = 202
    return s


def part(type_, start_ms, end_ms, source, callback, tier="severe", depth=1, own_ms=None):
    p = {"type": type_, "start_ns": at(start_ms), "end_ns": at(end_ms),
         "duration_ns": int((own_ms if own_ms is not None else end_ms - start_ms) * MS),
         "nested_ns": 0, "tier": tier, "source": source, "callback": callback, "depth": depth}
    if type_ == "dispatch":
        p.update({"priority": 200, "frames_delayed": 0})
    else:
        p.update({"dispatches": 3, "top_source_ns": 1})
    return p


def frame_part(end_ms, duration_ms, window, phases, work_ms, tier="severe"):
    return {"type": "frame", "start_ns": at(end_ms - duration_ms), "end_ns": at(end_ms),
            "duration_ns": int(duration_ms * MS), "nested_ns": 0, "tier": tier,
            "source": "[gtk] paint", "callback": "gdk_frame_clock_paint_idle", "depth": 1,
            "window": window, "budget_ns": 16_666_666, "work_ns": int(work_ms * MS),
            "dropped_frames": 10, "blocking": "fully",
            "phases": {k: int(v * MS) for k, v in phases.items()}, "dispatches": []}


def event(event_id, type_, start_ms, end_ms, parts, tier="severe", stacks=(), samples=(),
          samples_total=0, klass=None, wait=None, culprit=None, cpu_ms=None, ongoing=False):
    longest = max(parts, key=lambda p: p["duration_ns"]) if parts else None
    watched = int((end_ms - start_ms) * MS) if stacks else 0
    e = {"id": event_id, "type": type_, "start_ns": at(start_ms), "end_ns": at(end_ms),
         "duration_ns": sum(p["duration_ns"] for p in parts) if parts else watched,
         "max_part_ns": longest["duration_ns"] if longest else watched, "tier": tier,
         "source": longest["source"] if longest else None,
         "callback": longest["callback"] if longest else None, "depth": 1,
         "parts_count": len(parts), "parts": parts,
         "watched_ns": watched,
         "cpu_ns": int(cpu_ms * MS) if cpu_ms is not None else None,
         "off_cpu_ns": watched - int(cpu_ms * MS) if cpu_ms is not None else None,
         "runnable_ns": 0 if cpu_ms is not None else None,
         "class": klass, "wait": wait, "culprit": culprit, "stacks": list(stacks),
         "stacks_omitted": 0, "samples": list(samples), "samples_total": samples_total,
         "samples_running": sum(s["count"] for s in samples if s["state"] == "running"),
         "samples_waiting": sum(s["count"] for s in samples if s["state"] == "waiting"),
         "watchdog": None}
    if ongoing:
        e["ongoing"] = True
    return e


def culprit(function, file=None, line=None, confidence=0.5, samples=5, of_samples=8):
    return {"function": function, "module": "fake-app", "file": file, "line": line,
            "confidence": confidence, "samples": samples, "of_samples": of_samples,
            "reason": "app-code"}


def report(pid, name, events, final=True, exe=None, previous_run=None, monitored_ms=10_000):
    r = {"format": "jankscope-report", "version": 1, "generator": "jankscope 0.1.0",
         "final": final,
         "process": {"exe": exe or f"/home/alice/src/fake/build/{name}", "name": name, "pid": pid,
                     "glib_version": "2.74.6", "gtk_version": "4.8.3", "toolkit": "gtk4",
                     "mode": "preload", "start_ns": T0, "report_ns": at(monitored_ms)},
         "config": {"threshold_ns": 50 * MS,
                    "tiers_ns": {"noticeable": 50 * MS, "severe": 200 * MS, "frozen": 700 * MS,
                                 "hang": 3000 * MS},
                    "merge_gap_ns": 500 * MS, "max_events": 1000, "max_parts": 64},
         "summary": {"iterations": 1000, "dispatches": 5000, "busy_ns": 900 * MS,
                     "monitored_ns": monitored_ms * MS,
                     "iteration_busy": {"p50_ns": 1000, "p95_ns": 2 * MS, "p99_ns": 5 * MS,
                                        "max_ns": 400 * MS},
                     "events_by_tier": {"noticeable": 0, "severe": len(events), "frozen": 0,
                                        "hang": 0},
                     "events_total": len(events), "events_dropped": 0, "records_dropped": 0,
                     "nested_loops": 0, "sources": [], "sources_truncated": 0},
         "events": events}
    if previous_run is not None:
        r["previous_run"] = previous_run
    return r


def report_a():
    """fake-app, pid 4242: a dispatch event (a nested dispatch inside, 10
    samples: 5 + 3 with stacks, 2 without), an iteration event (4 waiting
    samples), and a frame event over the dispatch event that repeats two of its
    sample entries and adds one sample of its own."""
    e1 = event(1, "dispatch", 1000, 1400,
               [part("dispatch", 1000, 1400, "slow-source", "slow_idle", own_ms=300),
                part("dispatch", 1100, 1200, "inner", "inner_cb", depth=2)],
               stacks=[stack(5, SA, "compute_hash < slow_idle"),
                       stack(3, SB, "helper < caller_fn < libfoo.so!?")],
               samples=[sample(1020, 0, 3, 1030), sample(1040, 1, 2, 1045, "waiting", "lock"),
                        sample(1060, 0, 2, 1070), sample(1080, 1, 1, state="waiting", wait="lock"),
                        sample(1090, -1, 2, 1095)],
               samples_total=10, klass="mixed", wait="lock", cpu_ms=250,
               culprit=culprit("compute_hash", "/home/alice/src/fake/hash.c", 99))
    e2 = event(2, "iteration", 3000, 3080, [part("iteration", 3000, 3080, None, None,
                                                 tier="noticeable", depth=0)],
               tier="noticeable", stacks=[stack(4, SC, "nap:time")],
               samples=[sample(3020, 0, 4, 3050, "waiting", "sleep")], samples_total=4,
               klass="wait", wait="sleep", cpu_ms=1, culprit=culprit("nap;time", "main.c", 40))
    e3 = event(3, "frame", 1050, 1450,
               [frame_part(1250, 200, 1, {"before-paint": 5, "layout": 10, "paint": 30,
                                          "after-paint": 2}, 50),
                frame_part(1450, 200, 1, {"flush-events": 1, "update": 1, "paint": 150}, 160)],
               stacks=[stack(4, SA, "compute_hash < slow_idle"),
                       stack(1, SD, "draw_everything")],
               samples=[sample(1060, 0, 2, 1070), sample(1090, -1, 2, 1095), sample(1420, 1)],
               samples_total=5, klass="mixed", wait="lock", cpu_ms=300,
               culprit=culprit("compute_hash"))
    return report(4242, "fake-app", [e1, e2, e3])


def hang_b():
    return event(0, "hang", 2000, 5200, [], tier="hang", stacks=[stack(6, SE, "wait_for_lock")],
                 samples=[sample(2300, 0, 6, 2800, "waiting", "lock")], samples_total=6,
                 klass="wait", wait="lock", cpu_ms=10, ongoing=True,
                 culprit=culprit("wait_for_lock", "app.c", 77, 0.9, 6, 6))


def report_b():
    """other-app, pid 4343, killed during a hang (not final): an event
    without stacks and the ongoing hang (6 samples)."""
    e1 = event(1, "dispatch", 500, 560, [part("dispatch", 500, 560, "quick", "quick_cb",
                                              tier="noticeable")], tier="noticeable")
    return report(4343, "other-app", [e1, hang_b()], final=False,
                  exe="/home/alice/bin/other-app")


def report_c():
    """fake-app again with the pid of report A (another boot): 2 samples."""
    e1 = event(1, "dispatch", 200, 300, [part("dispatch", 200, 300, "parser", "parse_cb")],
               stacks=[stack(2, SF, "parse_everything")],
               samples=[sample(250, 0, 2, 260)], samples_total=2, klass="compute", cpu_ms=100,
               culprit=culprit("parse_everything"))
    return report(4242, "fake-app", [e1])


def report_d():
    """The next run of other-app (pid 4444): its previous_run is B's hang."""
    return report(4444, "other-app", [], exe="/home/alice/bin/other-app",
                  previous_run={"pid": 4343, "exe": "/home/alice/bin/other-app", "hang": hang_b()})


# Samples each exported once (see docs/exports.md, "Counting samples"): the
# time lines (chrome's samples) show them all.
SAMPLES = {"A": 10 + 4 + 1, "B": 6, "C": 2, "D": 0}
# The profile formats (folded, pprof, sysprof) show the time and samples
# that stacks speak for, each once (docs/exports.md, "What every format
# shares"): these reports are older than profiles, so each stack's time is
# its share of its event's watched time (A: event 1, 5 and 3 of 10 samples
# of 400 ms, event 2, 4 of 4 of 80 ms, event 3 one sample no other event
# has, of 5 of 400 ms), and samples without a stack are unattributed.
STACK_SAMPLES = {"A": 5 + 3 + 4 + 1, "B": 6, "C": 2, "D": 0}
STACK_MS = {"A": 200 + 120 + 80 + 80, "B": 3200, "C": 100, "D": 0}
US = 1000  # folded lines count microseconds


# ---- independent readers ----------------------------------------------------

def read_folded(text):
    """flamegraph.pl's reading: the count after the last space, frames
    split on ';' (root first)."""
    stacks = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        frames, _, count = line.rpartition(" ")
        assert frames and count.isdigit(), f"not a folded line: {line!r}"
        stacks[frames] = stacks.get(frames, 0) + int(count)
    return stacks


def parse_proto_text(text):
    """The text format `protoc --decode` prints: one field per line,
    `name: value`, or `name {` ... `}`. Returns {name: [values]}."""
    root = {}
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            message = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(message)
            stack.append(message)
            continue
        name, _, value = line.partition(":")
        value = value.strip()
        if value.startswith('"'):
            value = codecs.escape_decode(value[1:-1].encode("ascii"))[0].decode("utf-8")
        elif value in ("true", "false"):
            value = value == "true"
        else:
            value = int(value)
        stack[-1].setdefault(name.strip(), []).append(value)
    assert len(stack) == 1, "unbalanced braces"
    return root


def one(message, name, default=0):
    return message.get(name, [default])[0]


def decode_pprof(data, proto_dir):
    if shutil.which("protoc") is None:
        raise unittest.SkipTest("protoc is not installed (Debian: protobuf-compiler)")
    raw = gzip.decompress(data)
    proc = subprocess.run(["protoc", f"--proto_path={proto_dir}",
                           "--decode=perftools.profiles.Profile", "profile.proto"],
                          input=raw, capture_output=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"protoc --decode failed: {proc.stderr.decode()}")
    return parse_proto_text(proc.stdout.decode("utf-8"))


class Pprof:
    """A decoded profile with its references resolved."""

    def __init__(self, message):
        self.m = message
        self.strings = message["string_table"]
        self.functions = {one(f, "id"): f for f in message.get("function", [])}
        self.locations = {one(loc, "id"): loc for loc in message.get("location", [])}
        self.mappings = {one(m, "id"): m for m in message.get("mapping", [])}
        self.samples = message.get("sample", [])

    def s(self, index):
        return self.strings[index]

    def function_names(self, location_id):
        """Innermost first, like the report's frames."""
        loc = self.locations[location_id]
        return [self.s(one(self.functions[one(line, "function_id")], "name"))
                for line in loc.get("line", [])]

    def stack(self, sample):
        names = []
        for location_id in sample["location_id"]:
            names += self.function_names(location_id)
        return names

    def labels(self, sample):
        out = {}
        for label in sample.get("label", []):
            key = self.s(one(label, "key"))
            out[key] = self.s(one(label, "str")) if "str" in label else one(label, "num")
        return out


def dump_sysprof(path):
    tool = os.environ.get("EXPORT_TEST_SYSPROF_DUMP")
    if not tool:
        raise unittest.SkipTest("the sysprof format is not in this build (libsysprof-4-dev)")
    proc = subprocess.run([tool, path], capture_output=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"sysprof-dump failed: {proc.stderr.decode()}")
    lines = [line.split("\t") for line in proc.stdout.decode("utf-8").splitlines()]
    return lines


def profile_time(e):
    """The time an event's profile holds, as the reader takes it: the
    profile's nodes, else (older reports) its stacks' times and what
    attributed_ns gives beyond them."""
    if e.get("profile"):
        return sum(e["profile"]["nodes"]["self_ns"])
    listed = sum(s.get("time_ns") or 0 for s in e.get("stacks") or [])
    return max(listed, e.get("attributed_ns") or 0)


def profile_samples(e):
    if e.get("profile"):
        return sum(e["profile"]["nodes"]["self_samples"])
    return sum(s.get("count", 1) for s in e.get("stacks") or [])


def x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


def ns(us):
    return round(us * 1000)


def check_nesting(test, trace):
    """Complete events on one thread must nest (or follow each other), and
    come in time order, a parent before the children that start with it (a
    streaming reader like Perfetto's may not sort them)."""
    threads = {}
    for e in x_events(trace):
        threads.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, events in threads.items():
        order = [(ns(e["ts"]), -ns(e["dur"])) for e in events]
        test.assertEqual(order, sorted(order), f"events of {key} out of order")
        events.sort(key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        open_ends = []
        for e in events:
            start, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
            if open_ends:
                test.assertLessEqual(end, open_ends[-1],
                                     f"{e['name']} at {e['ts']} overlaps its parent on {key}")
            open_ends.append(end)


def formats_built():
    """The formats `jankscope export --help` lists, and whether this build
    has each."""
    proc = run_cli("export", "--help")
    built = {}
    for line in proc.out.splitlines():
        words = line.split()
        if line.startswith("  ") and words and words[0] in FORMATS:
            built[words[0]] = "not in this build" not in line
    assert set(built) == set(FORMATS), f"formats in --help: {built}"
    return built


# ---- tests ----------------------------------------------------------------------

class ExportTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(need_env("JANKSCOPE_CLI")):
            raise AssertionError(f"JANKSCOPE_CLI={CLI} does not exist (not built?)")
        cls.built = formats_built()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="jankscope-export-test-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, content):
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(self.path(name), mode) as f:
            f.write(content if isinstance(content, (bytes, str)) else json.dumps(content))
        return self.path(name)

    def need(self, fmt):
        if not self.built[fmt]:
            raise unittest.SkipTest(f"the {fmt} format is not in this build")

    def export(self, fmt, *inputs, extra=(), output="out"):
        out = self.path(output)
        proc = run_cli("export", f"--format={fmt}", *extra, *inputs, "-o", out)
        self.assertEqual(proc.returncode, 0, f"export failed: {proc.err}")
        self.assertEqual(proc.err, "")
        with open(out, "rb") as f:
            return f.read()

    def inputs(self, *names):
        makers = {"A": report_a, "B": report_b, "C": report_c, "D": report_d}
        return [self.write(f"{n}.json", makers[n]()) for n in names]


class SyntheticTest(ExportTestCase):
    """Synthetic reports, every format, each read by an independent tool."""

    # --- chrome

    def chrome(self, *names, extra=()):
        return json.loads(self.export("chrome", *self.inputs(*names), extra=extra))

    def test_chrome_document(self):
        trace = self.chrome("A", "B", "C")
        self.assertEqual(trace["displayTimeUnit"], "ms")
        self.assertIsInstance(trace["traceEvents"], list)
        for e in trace["traceEvents"]:
            self.assertIn(e["ph"], ("M", "X", "i"), e)
            self.assertIsInstance(e["pid"], int)
            if e["ph"] != "M":
                self.assertIsInstance(e["tid"], int)
                self.assertGreaterEqual(e["tid"], 1 << 24)  # never a real thread's
                self.assertIsInstance(e["ts"], float)
                self.assertGreaterEqual(e["ts"], 0)
            if e["ph"] == "X":
                self.assertGreaterEqual(e["dur"], 0)
        check_nesting(self, trace)

    def test_chrome_one_process_per_input(self):
        trace = self.chrome("A", "B", "C")
        names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(len(names), 3)
        # Perfetto and chrome://tracing show the pid beside the name: not twice.
        self.assertEqual(names[4242], "fake-app")
        self.assertEqual(names[4343], "other-app")
        # C has A's pid: it gets a made-up one, and keeps its own in the name.
        self.assertEqual(names[SYNTHETIC_PID], "fake-app (pid 4242)")
        for pid, name in names.items():
            self.assertNotIn(f"(pid {pid}", name)
        labels = {e["pid"]: e["args"]["labels"] for e in trace["traceEvents"]
                  if e["ph"] == "M" and e["name"] == "process_labels"}
        self.assertEqual({pid: os.path.basename(label) for pid, label in labels.items()},
                         {4242: "A.json", 4343: "B.json", SYNTHETIC_PID: "C.json"})
        for e in trace["traceEvents"]:
            self.assertIn(e["pid"], names)

    def test_chrome_timestamps(self):
        trace = self.chrome("A")
        origin = trace["otherData"]["origin_ns"]
        self.assertEqual(origin, T0)
        events = {e["args"]["id"]: e for e in x_events(trace) if e["cat"] == "jank"}
        e1 = events[1]
        self.assertEqual(ns(e1["ts"]), 1000 * MS)
        self.assertEqual(ns(e1["dur"]), 400 * MS)
        # Microseconds with their fractional part: a dispatch at +1100 ms.
        inner = next(e for e in x_events(trace) if e["name"] == "inner_cb")
        self.assertEqual(inner["ts"], 1_100_000.0)
        raw = self.export("chrome", *self.inputs("A"))
        self.assertIn(b'"ts":1100000.000', raw)

    def test_chrome_parts_and_events(self):
        trace = self.chrome("A")
        dispatches = [e for e in x_events(trace) if e["cat"] == "dispatch"]
        self.assertEqual(sorted(e["name"] for e in dispatches), ["inner_cb", "slow_idle"])
        outer = next(e for e in dispatches if e["name"] == "slow_idle")
        self.assertEqual(outer["args"]["source"], "slow-source")
        self.assertEqual(outer["args"]["tier"], "severe")
        self.assertEqual(outer["args"]["own_ms"], 300.0)
        self.assertEqual(outer["args"]["wall_ms"], 400.0)
        inner = next(e for e in dispatches if e["name"] == "inner_cb")
        self.assertEqual(inner["tid"], outer["tid"], "a nested dispatch nests on one track")
        iterations = [e for e in x_events(trace) if e["cat"] == "iteration"]
        self.assertEqual(len(iterations), 1)
        self.assertEqual(iterations[0]["args"]["own_ms"], 80.0)

        jank = {e["args"]["id"]: e for e in x_events(trace) if e["cat"] == "jank"}
        self.assertEqual(jank[1]["args"]["class"], "mixed")
        self.assertEqual(jank[1]["args"]["wait"], "lock")
        self.assertEqual(jank[1]["args"]["culprit"],
                         "compute_hash (/home/alice/src/fake/hash.c:99) [fake-app]")
        self.assertEqual(jank[1]["args"]["confidence"], 0.5)
        self.assertEqual(jank[1]["args"]["tier"], "severe")
        self.assertEqual(jank[2]["args"]["wait"], "sleep")
        frame_jank = [e for e in x_events(trace) if e["cat"] == "frame-jank"]
        self.assertEqual([e["args"]["id"] for e in frame_jank], [3])

    def test_chrome_frames_and_phases(self):
        trace = self.chrome("A")
        frames = [e for e in x_events(trace) if e["cat"] == "frame" and e["name"] != "work"]
        phases = [e for e in x_events(trace) if e["cat"] == "frame-phase"]
        self.assertEqual(len(frames), 2)
        self.assertEqual([ns(f["dur"]) for f in frames], [200 * MS, 200 * MS])
        self.assertEqual(sorted(p["name"] for p in phases),
                         sorted(["before-paint", "layout", "paint", "after-paint",
                                 "flush-events", "update", "paint"]))
        for p in phases:
            parent = [f for f in frames if f["tid"] == p["tid"] and
                      ns(f["ts"]) <= ns(p["ts"]) and
                      ns(p["ts"]) + ns(p["dur"]) <= ns(f["ts"]) + ns(f["dur"])]
            self.assertEqual(len(parent), 1, f"phase {p} is not inside one frame")
        # The first frame's phases in order, ending at the end of its work.
        first = [p for p in phases if ns(p["ts"]) < at(1250) - T0]
        self.assertEqual([p["name"] for p in sorted(first, key=lambda p: p["ts"])],
                         ["before-paint", "layout", "paint", "after-paint"])
        self.assertEqual(ns(first[0]["ts"]), 1250 * MS - 50 * MS)
        names = {e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        self.assertIn("slow frames (window 1)", names)

    def test_chrome_ongoing_hang(self):
        trace = self.chrome("B")
        hang = [e for e in x_events(trace) if e["cat"] == "jank" and e["args"].get("ongoing")]
        self.assertEqual(len(hang), 1)
        self.assertTrue(hang[0]["name"].startswith("HANG (ongoing)"), hang[0]["name"])
        self.assertEqual(ns(hang[0]["dur"]), 3200 * MS)
        marks = [e for e in trace["traceEvents"] if e["ph"] == "i" and e.get("s") == "p"]
        self.assertEqual(len(marks), 1)
        self.assertIn("still under way", marks[0]["name"])

    def test_chrome_samples_and_stack_frames(self):
        trace = self.chrome("A", "B")
        frames = trace["stackFrames"]
        instants = [e for e in trace["traceEvents"] if e["ph"] == "i" and e["cat"] == "sample"]
        # One per sample entry, each moment once: A 5 + 1 + 1 (frame event), B 1.
        self.assertEqual(len(instants), 8)
        self.assertEqual(sum(e["args"]["count"] for e in instants), SAMPLES["A"] + SAMPLES["B"])
        self.assertEqual(len(trace["samples"]), 8)
        self.assertEqual(sum(s["weight"] for s in trace["samples"]), SAMPLES["A"] + SAMPLES["B"])

        def walk(sf):
            names = []
            while sf is not None:
                names.append(frames[sf]["name"])
                sf = frames[sf].get("parent")
            return names  # leaf first

        by_time = {ns(e["ts"]): e for e in instants}
        self.assertEqual(walk(by_time[1020 * MS]["sf"]), ["compute_hash", "slow_idle", "main"])
        self.assertEqual(walk(by_time[1040 * MS]["sf"]),
                         ["helper", "caller_fn", "libfoo.so+0x4711", "main"])
        self.assertEqual(walk(by_time[1090 * MS]["sf"]), ["[no stack]"])
        self.assertEqual(walk(by_time[1420 * MS]["sf"]), ["draw_everything", "main"])
        self.assertEqual(by_time[1040 * MS]["name"], "sample: waiting (lock)")
        self.assertIn("helper (/home/alice/src/fake/util.h:5) [fake-app] (inlined)",
                      by_time[1040 * MS]["args"]["stack"])
        for s in trace["samples"]:
            self.assertIn(s["sf"], frames)
        for key, f in frames.items():
            if "parent" in f:
                self.assertIn(f["parent"], frames)
        # Roots are the outermost frames: "main" in A.
        roots = {f["name"] for f in frames.values() if "parent" not in f}
        self.assertEqual(roots, {"main", "[no stack]", "on_button"})

    def test_chrome_sampled_stacks(self):
        trace = self.chrome("A")
        stacks = [e for e in x_events(trace) if e["cat"] == "stack"]
        # main stands from the first sample to the last of the dispatch event's
        # contiguous run; the roots never overlap.
        roots = sorted((e for e in stacks if e["name"] == "main"), key=lambda e: e["ts"])
        self.assertEqual(ns(roots[0]["ts"]), 1020 * MS)
        leaves = [e for e in stacks if e["name"] == "compute_hash"]
        self.assertEqual(ns(leaves[0]["ts"]), 1020 * MS)
        self.assertEqual(ns(leaves[0]["dur"]), 20 * MS)  # until the next sample, at 1040
        check_nesting(self, trace)

    def test_chrome_align_start(self):
        a = report_a()
        c = report_c()
        for r in (c,):
            shift = 3_600_000 * MS
            r["process"]["start_ns"] += shift
            for e in r["events"]:
                for key in ("start_ns", "end_ns"):
                    e[key] += shift
                for p in e["parts"]:
                    p["start_ns"] += shift
                    p["end_ns"] += shift
                for s in e["samples"]:
                    s["t_ns"] += shift
                    if "last_ns" in s:
                        s["last_ns"] += shift
        inputs = [self.write("a.json", a), self.write("c.json", c)]
        clock = json.loads(self.export("chrome", *inputs))
        start = json.loads(self.export("chrome", *inputs, extra=["--align=start"]))

        def parse_cb(trace):
            return next(e for e in x_events(trace) if e["name"] == "parse_cb")

        self.assertEqual(ns(parse_cb(clock)["ts"]), 3_600_000 * MS + 200 * MS)
        self.assertEqual(ns(parse_cb(start)["ts"]), 200 * MS)

    # --- folded

    def test_folded(self):
        inputs = self.inputs("A", "B", "C", "D")
        text = self.export("folded", *inputs).decode()
        stacks = read_folded(text)
        # Microseconds of attributed time.
        self.assertEqual(sum(stacks.values()), sum(STACK_MS.values()) * US)
        self.assertEqual(stacks["main;slow_idle;compute_hash"], 200 * US)
        self.assertEqual(stacks["main;libfoo.so+0x4711;caller_fn;helper"], 120 * US)
        self.assertNotIn("[no stack]", stacks)
        self.assertEqual(stacks["main;nap:time;g_usleep;clock_nanosleep"], 80 * US)
        self.assertEqual(stacks["main;draw_everything"], 80 * US)
        self.assertEqual(stacks["on_button;wait_for_lock;syscall"], 3200 * US)  # once: D's is B's
        self.assertEqual(stacks["main;parse_everything"], 100 * US)
        self.assertEqual(text, "".join(sorted(text.splitlines(keepends=True))), "sorted lines")

        stacks = read_folded(self.export("folded", *inputs,
                                         extra=["--folded-weight=samples"]).decode())
        self.assertEqual(sum(stacks.values()), sum(STACK_SAMPLES.values()))
        self.assertEqual(stacks["main;slow_idle;compute_hash"], 5 + 0)
        self.assertEqual(stacks["main;libfoo.so+0x4711;caller_fn;helper"], 3)
        self.assertEqual(stacks["main;nap:time;g_usleep;clock_nanosleep"], 4)
        self.assertEqual(stacks["main;draw_everything"], 1)
        self.assertEqual(stacks["on_button;wait_for_lock;syscall"], 6)
        self.assertEqual(stacks["main;parse_everything"], 2)

    def test_folded_prefixes(self):
        inputs = self.inputs("A", "B")
        stacks = read_folded(self.export("folded", *inputs,
                                         extra=["--folded-prefix=process,class"]).decode())
        self.assertEqual(stacks["fake-app;mixed (lock);main;slow_idle;compute_hash"], 200 * US)
        self.assertEqual(stacks["fake-app;wait (sleep);main;nap:time;g_usleep;clock_nanosleep"],
                         80 * US)
        self.assertEqual(stacks["other-app;wait (lock);on_button;wait_for_lock;syscall"],
                         3200 * US)
        self.assertEqual(sum(stacks.values()), (STACK_MS["A"] + STACK_MS["B"]) * US)
        stacks = read_folded(self.export("folded", *inputs,
                                         extra=["--folded-prefix=signature"]).decode())
        self.assertEqual(stacks["compute_hash < slow_idle;main;slow_idle;compute_hash"], 200 * US)
        stacks = read_folded(self.export("folded", *inputs,
                                         extra=["--folded-prefix=none"]).decode())
        self.assertEqual(stacks["main;slow_idle;compute_hash"], 200 * US)

    # --- pprof

    def pprof(self, *names, extra=()):
        self.need("pprof")
        data = self.export("pprof", *self.inputs(*names), extra=extra)
        self.assertEqual(data[:2], b"\x1f\x8b", "gzip")
        return Pprof(decode_pprof(data, need_env("EXPORT_TEST_PROTO_DIR")))

    def test_pprof(self):
        p = self.pprof("A", "B", "C", "D")
        self.assertEqual(p.strings[0], "")
        types = [(p.s(one(t, "type")), p.s(one(t, "unit"))) for t in p.m["sample_type"]]
        self.assertEqual(types, [("samples", "count"), ("stall", "nanoseconds")])
        self.assertEqual(p.s(one(p.m, "default_sample_type")), "stall")
        self.assertEqual(sum(one(s, "value") for s in p.samples), sum(STACK_SAMPLES.values()))
        self.assertEqual(sum(s["value"][1] for s in p.samples), sum(STACK_MS.values()) * MS)

        by_stack = {}
        for s in p.samples:
            key = (p.labels(s)["pid"], p.labels(s)["event"], tuple(p.stack(s)))
            by_stack[key] = s
        e1 = [s for (pid, ev, _), s in by_stack.items() if pid == 4242 and ev == 1
              and p.labels(s)["process"] == "fake-app" and p.labels(s).get("class") == "mixed"]
        self.assertEqual(sum(s["value"][1] for s in e1), 320 * MS,
                         "stall time = the stacks' share of the watched time")
        s = by_stack[(4242, 1, ("helper", "caller_fn", "libfoo.so+0x4711", "main"))]
        self.assertEqual(s["value"], [3, 120 * MS])
        self.assertEqual(p.labels(s), {"process": "fake-app", "pid": 4242, "event": 1,
                                       "event_type": "dispatch", "tier": "severe",
                                       "class": "mixed", "wait": "lock"})
        # helper was inlined into caller_fn: one location, two lines.
        self.assertEqual(p.function_names(s["location_id"][0]), ["helper", "caller_fn"])
        self.assertEqual(len(s["location_id"]), 3)
        s = by_stack[(4242, 3, ("draw_everything", "main"))]
        self.assertEqual(s["value"], [1, 80 * MS])  # 400 ms watched / 5 samples
        s = by_stack[(4343, 0, ("syscall", "wait_for_lock", "on_button"))]
        self.assertEqual(p.labels(s)["ongoing"], "true")
        self.assertEqual(s["value"], [6, 3200 * MS])
        self.assertNotIn((4242, 1, ("[no stack]",)), by_stack)

        names = {p.s(one(f, "name")) for f in p.functions.values()}
        self.assertLessEqual({"compute_hash", "slow_idle", "main", "helper", "caller_fn",
                              "libfoo.so+0x4711", "nap;time"}, names)
        files = {p.s(one(f, "filename")) for f in p.functions.values()}
        self.assertIn("/home/alice/src/fake/hash.c", files)
        line_of = {p.s(one(p.functions[one(line, "function_id")], "name")): one(line, "line")
                   for loc in p.locations.values() for line in loc.get("line", [])}
        self.assertEqual(line_of["compute_hash"], 99)

        mappings = {(p.s(one(m, "filename")), p.s(one(m, "build_id"))): m
                    for m in p.mappings.values()}
        # The executable's mapping has its path (process.exe), a library
        # its file name (all a report has of it).
        fake = mappings[("/home/alice/src/fake/build/fake-app", "ab12cd34")]
        self.assertEqual(p.s(one(p.m["mapping"][0], "filename")),
                         "/home/alice/src/fake/build/fake-app", "main binary first")
        self.assertTrue(one(fake, "has_functions", False))
        self.assertTrue(one(fake, "has_inline_frames", False))
        self.assertEqual(one(fake, "file_offset", 0), 0)
        # libfoo.so+0x4711 has no name: pprof may symbolize that mapping.
        self.assertFalse(one(mappings[("libfoo.so", "")], "has_functions", False))
        for loc in p.locations.values():
            if one(loc, "mapping_id"):
                m = p.mappings[one(loc, "mapping_id")]
                self.assertTrue(one(m, "memory_start") <= one(loc, "address") <
                                one(m, "memory_limit"))
        loc = next(loc for loc in p.locations.values()
                   if p.function_names(one(loc, "id")) == ["compute_hash"])
        self.assertEqual(one(loc, "address") - one(p.mappings[one(loc, "mapping_id")],
                                                   "memory_start"), 0x200)
        self.assertEqual(one(p.m, "duration_nanos"), 3 * 10_000 * MS + 10_000 * MS)

    def test_pprof_module_table(self):
        """With the report's module table, a mapping has the module's path
        and starts at its code (text_vaddr past the module's base, at file
        offset text_offset): address - (memory_start - text_vaddr) is still
        the report's offset. A module the table lacks keeps its file name;
        build-ids are written in lower case, as pprof compares them."""
        self.need("pprof")
        r = report_a()
        for e in r["events"]:
            for st in e.get("stacks", []):
                for f in st["frames"]:
                    if f["module"] == "fake-app":
                        f["build_id"] = "AB12CD34"
        r["modules"] = [
            {"name": "fake-app", "path": "/opt/fake/fake-app", "build_id": "AB12CD34",
             "text_vaddr": "0x1000", "text_offset": "0x800"},
            {"name": "libother.so", "path": "/usr/lib/libother.so", "build_id": None},
        ]
        data = self.export("pprof", self.write("modules.json", r))
        p = Pprof(decode_pprof(data, need_env("EXPORT_TEST_PROTO_DIR")))
        mappings = {p.s(one(m, "filename")): m for m in p.mappings.values()}
        fake = mappings["/opt/fake/fake-app"]
        self.assertEqual(p.s(one(fake, "build_id")), "ab12cd34")
        self.assertEqual(one(fake, "file_offset", 0), 0x800)
        base = one(fake, "memory_start") - 0x1000
        self.assertEqual(base % (1 << 40), 0)
        loc = next(loc for loc in p.locations.values()
                   if p.function_names(one(loc, "id")) == ["compute_hash"])
        self.assertEqual(one(loc, "mapping_id"), one(fake, "id"))
        self.assertEqual(one(loc, "address") - base, 0x200)
        self.assertLess(one(loc, "address"), one(fake, "memory_limit"))
        self.assertIn("libfoo.so", mappings)  # not in the table: its file name
        self.assertEqual(one(mappings["libfoo.so"], "file_offset", 0), 0)

    def test_pprof_frame_without_build_id(self):
        """A frame that names only its function and module (a profile's) is
        in its module's one mapping, with the module table's build-id: not in
        a second mapping without one, which could be taken for the main
        binary."""
        self.need("pprof")
        r = report_a()
        bare = 0
        for e in r["events"]:
            for st in e.get("stacks", []):
                for f in st["frames"]:
                    if f["module"] != "fake-app":
                        continue
                    if bare == 0:
                        f.pop("build_id", None)
                        f.pop("offset", None)
                        bare += 1
                    else:
                        f["build_id"] = "ab12cd34"
        self.assertEqual(bare, 1)
        r["modules"] = [{"name": "fake-app", "path": "/opt/fake/fake-app", "build_id": "ab12cd34",
                         "text_vaddr": "0x1000", "text_offset": "0x800"}]
        data = self.export("pprof", self.write("bare.json", r))
        p = Pprof(decode_pprof(data, need_env("EXPORT_TEST_PROTO_DIR")))
        fake = [m for m in p.mappings.values() if p.s(one(m, "filename")) == "/opt/fake/fake-app"]
        self.assertEqual(len(fake), 1, [p.s(one(m, "build_id")) for m in fake])
        self.assertEqual(p.s(one(fake[0], "build_id")), "ab12cd34")
        self.assertEqual(p.s(one(p.m["mapping"][0], "build_id")), "ab12cd34")

    # --- json

    def test_json(self):
        inputs = self.inputs("A", "B", "C")
        doc = json.loads(self.export("json", *inputs))
        self.assertEqual(doc, [report_a(), report_b(), report_c()])

    def test_json_is_json(self):
        """Whatever a report holds, the export is JSON that reads back the
        values the CLI read (json-glib, which wrote it once, wrote 1e+20.0,
        inf.0, a raw U+001F, and cut a string at \\u0000)."""
        r = report_a()
        r["process"]["name"] = "a\x1fb\x00c\b\f\x7f\ud800d"
        r["extra"] = {"big": 1e20, "small": -1e-7, "huge": "HUGE", "zero": -0.0}
        text = json.dumps(r).replace('"HUGE"', "1e400")
        doc = json.loads(self.export("json", self.write("r.json", text)))
        r["process"]["name"] = "a\x1fb\ufffdc\b\f\x7f\ufffdd"
        r["extra"]["huge"] = sys.float_info.max
        self.assertEqual(doc, [r])

    # --- sysprof

    def test_sysprof(self):
        self.need("sysprof")
        self.export("sysprof", *self.inputs("A", "B", "C"), output="capture.syscap")
        lines = dump_sysprof(self.path("capture.syscap"))
        processes = {int(line[2]): line[3] for line in lines if line[0] == "process"}
        self.assertEqual(processes, {4242: "fake-app (pid 4242)", 4343: "other-app (pid 4343)",
                                     SYNTHETIC_PID: "fake-app (pid 4242)"})
        samples = [line for line in lines if line[0] == "sample"]
        per_pid = {}
        for line in samples:
            per_pid[int(line[2])] = per_pid.get(int(line[2]), 0) + 1
        # One sample per millisecond of attributed time.
        self.assertEqual(per_pid, {4242: STACK_MS["A"], 4343: STACK_MS["B"],
                                   SYNTHETIC_PID: STACK_MS["C"]})
        stacks = {}
        for line in samples:
            stacks[line[4]] = stacks.get(line[4], 0) + 1
        self.assertEqual(stacks["compute_hash;slow_idle;main"], 200)
        self.assertEqual(stacks["helper;caller_fn;libfoo.so+0x4711;main"], 120)
        self.assertNotIn("[no stack]", stacks)
        # Laid over the timeline entries of their stack: compute_hash's two
        # (3 samples over 1020-1030 ms, 2 over 1060-1070 ms), in proportion.
        times = sorted(int(line[1]) for line in samples if line[4] == "compute_hash;slow_idle;main")
        self.assertEqual(len([t for t in times if at(1020) <= t <= at(1030)]), 120)
        self.assertEqual(len([t for t in times if at(1060) <= t <= at(1070)]), 80)
        # The first: the middle of the first 1/200 of the 5 entries' samples.
        self.assertEqual(times[0], at(1020) + 10 * MS * 5 // 400 // 3)
        self.assertEqual({int(line[1]) for line in samples if line[4] == "draw_everything;main"},
                         {at(1420)})

        marks = [line for line in lines if line[0] == "mark"]
        groups = {(m[4], m[5]) for m in marks}
        self.assertLessEqual({("jankscope", "monitored"), ("jank", "severe dispatch"),
                              ("jank", "hang (ongoing)"), ("main loop", "dispatch"),
                              ("main loop", "iteration"), ("frames", "slow frame"),
                              ("frame phases", "paint")}, groups)
        hang = next(m for m in marks if m[5] == "hang (ongoing)")
        self.assertEqual((int(hang[1]), int(hang[3])), (at(2000), 3200 * MS))
        start, end = (int(v) for v in next(line for line in lines if line[0] == "range")[1:3])
        self.assertEqual(start, T0)
        self.assertEqual(end, at(10_000))

    # --- --scrub

    def test_scrub(self):
        inputs = self.inputs("A", "B", "D")
        for fmt in ("chrome", "folded", "json", "pprof", "sysprof"):
            if not self.built[fmt]:
                continue
            with self.subTest(format=fmt):
                data = self.export(fmt, *inputs, extra=["--scrub"])
                if fmt == "pprof":
                    data = gzip.decompress(data)
                self.assertNotIn(b"alice", data)
                self.assertNotIn(b"/home/", data)
        doc = json.loads(self.export("json", *inputs, extra=["--scrub"]))
        self.assertEqual(doc[0]["process"]["exe"], "~/src/fake/build/fake-app")
        self.assertEqual(doc[0]["events"][0]["stacks"][0]["frames"][0]["file"], "~/src/fake/hash.c")
        self.assertEqual(doc[2]["previous_run"]["exe"], "~/bin/other-app")
        trace = json.loads(self.export("chrome", *inputs, extra=["--scrub"]))
        jank = next(e for e in x_events(trace) if e["cat"] == "jank" and e["args"].get("id") == 1)
        self.assertEqual(jank["args"]["culprit"], "compute_hash (~/src/fake/hash.c:99) [fake-app]")

    def test_scrub_window_titles(self):
        r = report_c()
        r["events"][0]["context"] = {"process_cpu_pct": 99.5, "startup": False,
                                     "window_title": "Chat with Bob"}
        path = self.write("r.json", r)
        doc = json.loads(self.export("json", path))
        self.assertEqual(doc[0]["events"][0]["context"]["window_title"], "Chat with Bob")
        doc = json.loads(self.export("json", path, extra=["--scrub"]))
        self.assertIsNone(doc[0]["events"][0]["context"]["window_title"])
        trace = json.loads(self.export("chrome", path))
        jank = next(e for e in x_events(trace) if e["cat"] == "jank")
        self.assertEqual(jank["args"]["process_cpu_pct"], 99.5)
        self.assertNotIn("Chat with Bob", json.dumps(trace))
        self.assertEqual(doc[0]["events"][0]["context"]["process_cpu_pct"], 99.5)

    def test_scrub_user_names(self):
        r = report_c()
        frames = r["events"][0]["stacks"][0]["frames"]
        frames[0]["file"] = "/tmp/alice-build/parse.c"
        frames[1]["file"] = "/home/alice/src/main.c"
        r["process"]["exe"] = "/opt/alice/bin/fake-app"
        doc = json.loads(self.export("json", self.write("r.json", r), extra=["--scrub"]))
        frames = doc[0]["events"][0]["stacks"][0]["frames"]
        self.assertEqual(frames[0]["file"], "/tmp/<user>-build/parse.c")
        self.assertEqual(frames[1]["file"], "~/src/main.c")
        self.assertEqual(doc[0]["process"]["exe"], "/opt/<user>/bin/fake-app")
        self.assertEqual(doc[0]["process"]["name"], "fake-app")  # not a path

    # --- previous runs

    def test_previous_run(self):
        trace = json.loads(self.export("chrome", *self.inputs("D")))
        names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(names, {4444: "other-app",
                                 4343: "other-app (previous run, killed during a hang)"})
        stacks = read_folded(self.export("folded", *self.inputs("D")).decode())
        self.assertEqual(stacks, {"on_button;wait_for_lock;syscall": 3200 * US})
        # With the killed run's own report, the hang is there once.
        stacks = read_folded(self.export("folded", *self.inputs("B", "D")).decode())
        self.assertEqual(stacks, {"on_button;wait_for_lock;syscall": 3200 * US})


# ---- reports with profiles (docs/report-format.md, "Profiles") -----------------

GLIB = "libglib-2.0.so.0"
DISPATCH = [pr.frame("g_main_context_dispatch", GLIB), pr.frame("main")]


def app_stack(*names):
    """Frames leaf first: the app's functions, then the dispatch and main."""
    return [pr.frame(n) for n in names] + copy.deepcopy(DISPATCH)


def profile_report():
    """fake-app (pid 5151) with profiles:
     - event 1, a dispatch event of two parts: 24 distinct stacks under
       work_cb (leaf_00..leaf_23, 10 ms each, 30 samples, more than the 16
       the report lists), a sleep in sleepy_cb (120 ms, 12 samples), and 3
       samples without a stack;
     - event 2, a frame event over event 1 with the same profile (the same
       stalls seen from the frame clock): counted once, in event 1;
     - event 3, an iteration event whose profile filled up (nodes_max 5):
       deeper calling contexts went to [other] nodes;
     - event 4, the ongoing hang."""
    parts = [part("dispatch", 1000, 1300, "src-work", "work_cb"),
             part("dispatch", 1800, 1920, "src-sleep", "sleepy_cb")]
    samples = []
    t = 1000
    for i in range(24):
        samples.append(pr.Sample(at(t), app_stack(f"leaf_{i:02d}", "work_cb"), 10 * MS,
                                 count=1 + i % 2))
        t += 10
    for _ in range(3):
        samples.append(pr.Sample(at(t), None, 10 * MS))
        t += 10
    for i in range(12):
        samples.append(pr.Sample(at(1800 + 10 * i),
                                 [pr.frame("clock_nanosleep", "libc.so.6"),
                                  pr.frame("g_usleep", GLIB)] + app_stack("sleepy_cb"),
                                 10 * MS, part=1, state="waiting", wait="sleep"))
    culprit = pr.culprit("work_cb", time_ns=240 * MS)
    e1 = pr.profile_event(1, "dispatch", parts, samples, culprit=culprit, part_culprits={
        0: pr.culprit("work_cb", time_ns=240 * MS),
        1: pr.culprit("g_usleep", GLIB, "leaf", callback=("sleepy_cb", "fake-app"),
                      time_ns=120 * MS)})
    e2 = pr.profile_event(2, "frame", [frame_part(1920, 920, 1, {"paint": 5}, 5)], samples,
                          culprit=culprit)
    deep = [pr.Sample(at(3000 + 10 * i), app_stack(f"d{i}", "c", "b", "a"), 10 * MS)
            for i in range(4)]
    e3 = pr.profile_event(3, "iteration", [part("iteration", 3000, 3080, None, None,
                                                 tier="noticeable", depth=0)], deep,
                          tier="noticeable", nodes_max=5)
    hang = [pr.Sample(at(6000 + 100 * i), app_stack("spin", "hang_cb"), 100 * MS)
            for i in range(5)]
    e4 = pr.profile_event(0, "hang", [], hang, tier="hang", ongoing=True)
    return report(5151, "fake-app", [e1, e2, e3, e4], final=False)


class ProfileTest(ExportTestCase):
    """Reports with profiles: every format shows the profiles, and their
    totals are the attributed time `jankscope report` prints."""

    def setUp(self):
        super().setUp()
        self.report = profile_report()
        self.input = self.write("P.json", self.report)
        events = self.report["events"]
        # The stall events' profiles (the frame event is the same time).
        self.attributed = sum(sum(e["profile"]["nodes"]["self_ns"]) for e in events
                              if e["type"] != "frame")
        self.samples = sum(sum(e["profile"]["nodes"]["self_samples"]) for e in events
                           if e["type"] != "frame")

    def test_totals_agree(self):
        folded = read_folded(self.export("folded", self.input).decode())
        self.assertLessEqual(abs(sum(folded.values()) * US - self.attributed),
                             len(folded) * US // 2)
        proc = run_cli("report", self.input)
        self.assertEqual(proc.returncode, 0, proc.err)
        line = next(line for line in proc.out.splitlines() if "Attributed" in line)
        # Of 1000 ms blocked (event 1: 420, event 3: 80, the hang: 500).
        self.assertIn(f"{self.attributed / MS:.1f} ms (90%) to stacks", line)
        if self.built["pprof"]:
            p = Pprof(decode_pprof(self.export("pprof", self.input),
                                   need_env("EXPORT_TEST_PROTO_DIR")))
            self.assertEqual(sum(s["value"][1] for s in p.samples), self.attributed)
            self.assertEqual(sum(s["value"][0] for s in p.samples), self.samples)
        if self.built["sysprof"]:
            self.export("sysprof", self.input, output="capture.syscap")
            lines = dump_sysprof(self.path("capture.syscap"))
            self.assertEqual(len([line for line in lines if line[0] == "sample"]),
                             self.attributed // MS)
        trace = json.loads(self.export("chrome", self.input))
        check_nesting(self, trace)
        profile = [e for e in x_events(trace) if e["cat"] == "profile"]
        roots = {}
        for e in profile:
            if e["name"] == "main":
                roots[e["args"]["event"]] = roots.get(e["args"]["event"], 0) + ns(e["dur"])
        self.assertEqual(roots, {1: 360 * MS, 3: 40 * MS, 0: 500 * MS})

    def test_every_stack_is_exported(self):
        """Stacks the report does not list (past 16) are in the profile:
        each with its own time, none as [no stack]."""
        e1 = self.report["events"][0]
        self.assertEqual((len(e1["stacks"]), e1["stacks_omitted"]), (16, 9))
        self.assertEqual(self.attributed, (240 + 120 + 40 + 500) * MS)
        folded = read_folded(self.export("folded", self.input).decode())
        for i in range(24):
            self.assertEqual(folded[f"main;g_main_context_dispatch;work_cb;leaf_{i:02d}"],
                             10_000, i)
        self.assertEqual(folded["main;g_main_context_dispatch;sleepy_cb;g_usleep;"
                                "clock_nanosleep"], 120_000)
        self.assertFalse([line for line in folded if "[no stack]" in line])
        samples = read_folded(self.export("folded", self.input,
                                          extra=["--folded-weight=samples"]).decode())
        self.assertEqual(samples["main;g_main_context_dispatch;work_cb;leaf_01"], 2)
        self.assertEqual(sum(samples.values()), self.samples)

    def test_other_nodes(self):
        folded = read_folded(self.export("folded", self.input).decode())
        others = {k: v for k, v in folded.items() if k.endswith(";[other]")}
        self.assertTrue(others, folded)
        deep = {k: v for k, v in folded.items() if ";a;" in k or k.endswith(";a")}
        self.assertEqual(sum(deep.values()), 40_000, "the full profile keeps its time")
        if self.built["pprof"]:
            p = Pprof(decode_pprof(self.export("pprof", self.input),
                                   need_env("EXPORT_TEST_PROTO_DIR")))
            self.assertTrue(any(p.stack(s)[0] == "[other]" for s in p.samples))

    def test_truncated_nodes(self):
        """A stack deeper than the core samples: its outermost node is
        [truncated] (frame −2), its frames below are kept."""
        report = copy.deepcopy(self.report)
        e = report["events"][2]
        e["profile"] = {"samples": 3, "time_ns": 30 * MS, "nodes_max": 2048,
                        "frames": [{"function": "recurse", "module": "fake-app"}],
                        "nodes": {"parent": [-1, 0, 1], "frame": [-2, 0, 0],
                                  "self_samples": [0, 0, 3], "self_ns": [0, 0, 30 * MS]}}
        e["stacks"], e["samples"], e["culprit"] = [], [], None
        for part_ in e["parts"]:
            part_.update(profile=None, stacks=[], culprit=None)
        path = self.write("T.json", report)
        folded = read_folded(self.export("folded", path).decode())
        self.assertEqual(folded["[truncated];recurse;recurse"], 30_000)
        aggregate = json.loads(self.export("json", path))  # reads back
        self.assertEqual(aggregate[0]["events"][2]["profile"]["nodes"]["frame"][0], -2)
        proc = run_cli("merge", path, "-o", self.path("agg.json"))
        self.assertEqual(proc.returncode, 0, proc.err)
        with open(self.path("agg.json")) as f:
            sigs = {sig["signature"]: sig["total_ns"] for sig in json.load(f)["signatures"]}
        self.assertEqual(sigs["recurse < recurse"], 30 * MS)

    def test_frame_event_counted_once(self):
        if not self.built["pprof"]:
            self.skipTest("the pprof format is not in this build")
        p = Pprof(decode_pprof(self.export("pprof", self.input),
                               need_env("EXPORT_TEST_PROTO_DIR")))
        self.assertEqual({p.labels(s)["event_type"] for s in p.samples},
                         {"dispatch", "iteration", "hang"})
        # Without the dispatch event, the frame event's profile is the only one.
        alone = copy.deepcopy(self.report)
        alone["events"] = [alone["events"][1]]
        path = self.write("F.json", alone)
        p = Pprof(decode_pprof(self.export("pprof", path), need_env("EXPORT_TEST_PROTO_DIR")))
        self.assertEqual(sum(s["value"][1] for s in p.samples), 360 * MS)
        # And report counts it as the exports do: the only record of its stalls.
        proc = run_cli("report", path)
        self.assertEqual(proc.returncode, 0, proc.err)
        self.assertIn("360.0 ms (39%) to stacks, 360.0 ms to 25 signatures", proc.out)
        self.assertIn("but for 1 no stall event covers: their stacks (360.0 ms) are in the "
                      "attributed time", proc.out)

    def test_symbolized_stack_with_inline_frames(self):
        """A stack `jankscope symbolize` named keeps the inline frames it
        inserted, while the profile stays at function level (one node per
        physical frame): each node still gets its stack's frame, so pprof's
        locations keep the stack's offsets (not the module's base)."""
        self.need("pprof")
        leaf = pr.frame("spin_loop", file="spin.c", line=40, offset="0x23a5")
        caller = pr.frame("start_spin", file="spin.c", line=90, offset="0x2540")
        samples = [pr.Sample(at(4000 + 10 * i), [leaf, caller] + copy.deepcopy(DISPATCH),
                             10 * MS) for i in range(5)]
        e = pr.profile_event(1, "dispatch", [part("dispatch", 4000, 4050, "src", "start_spin")],
                             samples)
        for f in e["profile"]["frames"]:
            if f["module"] == "fake-app":
                f["symbolized"] = True
        frames = e["stacks"][0]["frames"]
        self.assertEqual(len(frames), len(DISPATCH) + 2)
        # What symbolize writes for a return address inside an inlined
        # function: that function first, at the same offset.
        frames.insert(0, dict(pr.frame("read_clock", file="clock.h", line=7, offset="0x23a5",
                                       inlined=True), symbolized=True))
        frames[1]["symbolized"] = frames[2]["symbolized"] = True
        p = Pprof(decode_pprof(self.export("pprof", self.write("S.json",
                                                                report(6161, "fake-app", [e]))),
                               need_env("EXPORT_TEST_PROTO_DIR")))
        self.assertEqual(len(p.samples), 1)
        sample = p.samples[0]
        self.assertEqual(p.stack(sample), ["spin_loop", "start_spin", "g_main_context_dispatch",
                                           "main"])
        fake = next(m for m in p.mappings.values()
                    if p.s(one(m, "filename")) == "/home/alice/src/fake/build/fake-app")
        offsets = [one(p.locations[i], "address") - one(fake, "memory_start")
                   for i in sample["location_id"]
                   if one(p.locations[i], "mapping_id") == one(fake, "id")]
        self.assertEqual(offsets, [0x23a5, 0x2540, 0x10])
        lines = [one(line, "line") for i in sample["location_id"][:2]
                 for line in p.locations[i].get("line", [])]
        self.assertEqual(lines, [40, 90])

    def test_timeline_stacks_come_from_the_profile(self):
        trace = json.loads(self.export("chrome", self.input))
        instants = [e for e in trace["traceEvents"] if e["ph"] == "i" and e["cat"] == "sample"
                    and e["args"]["event"] == 1]
        self.assertEqual(sum(e["args"]["count"] for e in instants),
                         self.report["events"][0]["samples_total"])
        # leaf_00 is not among the listed stacks (the least time first goes
        # last): its entry has stack -1 but a node.
        e1 = self.report["events"][0]
        listed = {s["node"] for s in e1["stacks"]}
        unlisted = [s for s in e1["samples"] if s["node"] >= 0 and s["node"] not in listed]
        self.assertTrue(unlisted)
        self.assertTrue(all(s["stack"] == -1 for s in unlisted))
        stacks = [e["args"]["stack"] for e in instants]
        self.assertEqual(len([s for s in stacks if s == "[no stack]"]), 3)
        for i in range(24):
            self.assertTrue(any(s.startswith(f"leaf_{i:02d} [fake-app]\nwork_cb") for s in stacks),
                            i)

    def test_merged_timeline_entries(self):
        report = copy.deepcopy(self.report)
        parts = [part("dispatch", 1000, 1400, "src", "busy_cb")]
        samples = [pr.Sample(at(1000 + i), app_stack("even" if i % 2 else "odd", "busy_cb"),
                             MS) for i in range(400)]
        report["events"] = [pr.profile_event(1, "dispatch", parts, samples)]
        self.assertEqual(len(report["events"][0]["samples"]), 256)
        trace = json.loads(self.export("chrome", self.write("M.json", report)))
        instants = [e for e in trace["traceEvents"] if e["ph"] == "i" and e["cat"] == "sample"]
        self.assertEqual(len(instants), 256)
        merged = [e for e in instants if e["args"].get("merged")]
        self.assertEqual(len(merged), 400 - 256)
        self.assertTrue(all(e["args"]["count"] == 2 and e["args"]["running"] == 2
                            for e in merged))
        self.assertEqual(sum(e["args"]["count"] for e in instants), 400)
        # The profile keeps both.
        folded = read_folded(self.export("folded", self.write("M.json", report)).decode())
        self.assertEqual(folded["main;g_main_context_dispatch;busy_cb;odd"], 200_000)
        self.assertEqual(folded["main;g_main_context_dispatch;busy_cb;even"], 200_000)

    def test_parts_in_chrome_and_sysprof(self):
        trace = json.loads(self.export("chrome", self.input))
        dispatches = {e["name"]: e["args"] for e in x_events(trace) if e["cat"] == "dispatch"}
        self.assertEqual(dispatches["work_cb"]["class"], "compute")
        self.assertEqual(dispatches["work_cb"]["attributed_ms"], 240.0)
        self.assertEqual(dispatches["sleepy_cb"]["class"], "wait")
        self.assertEqual(dispatches["sleepy_cb"]["culprit"], "g_usleep [libglib-2.0.so.0]")
        self.assertEqual(dispatches["sleepy_cb"]["culprit_callback"], "sleepy_cb")
        self.assertEqual(dispatches["sleepy_cb"]["attributed_ms"], 120.0)
        jank = {e["args"]["id"]: e["args"] for e in x_events(trace) if e["cat"] == "jank"}
        self.assertEqual(jank[1]["attributed_ms"], 360.0)
        self.assertEqual(jank[1]["unattributed_ms"], 60.0)
        if self.built["sysprof"]:
            self.export("sysprof", self.input, output="capture.syscap")
            marks = [line for line in dump_sysprof(self.path("capture.syscap"))
                     if line[0] == "mark" and line[5] == "dispatch"]
            sleepy = next(m for m in marks if "sleepy_cb" in m[6])
            self.assertIn("culprit sleepy_cb → g_usleep", sleepy[6])
            self.assertIn("attributed 120.000 ms", sleepy[6])


class ProfileErrorTest(ExportTestCase):
    """Hostile profiles (docs/report-format.md, "Reading profiles"): a clear
    error naming the member, exit code 1 and no output; or, for numbers at
    the top of the range, sums that saturate."""

    def check_error(self, mutate, *fragments):
        report = profile_report()
        mutate(report["events"][0])
        path = self.write("bad.json", report)
        for fmt in ("folded", "chrome"):
            out = self.path(f"out.{fmt}")
            proc = run_cli("export", f"--format={fmt}", path, "-o", out)
            self.assertEqual(proc.returncode, 1, proc.err)
            self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
            self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
            for fragment in fragments:
                self.assertIn(fragment, proc.err)
            self.assertFalse(os.path.exists(out))

    def test_structure(self):
        def nodes(e):
            return e["profile"]["nodes"]

        n = len(profile_report()["events"][0]["profile"]["nodes"]["parent"])
        cases = [
            # A cycle: a node its own parent, or a parent after its child.
            (lambda e: nodes(e)["parent"].__setitem__(3, 3),
             "events[0].profile.nodes.parent[3] must be from -1 to 2 (it is 3): "
             "a parent comes before its child"),
            (lambda e: nodes(e)["parent"].__setitem__(1, 4),
             "events[0].profile.nodes.parent[1] must be from -1 to 0 (it is 4)"),
            (lambda e: nodes(e)["parent"].__setitem__(2, -2),
             "events[0].profile.nodes.parent[2] must be from -1 to 1 (it is -2)"),
            (lambda e: nodes(e)["frame"].__setitem__(2, len(e["profile"]["frames"])),
             f"events[0].profile.nodes.frame[2] must be from -2 to "
             f"{len(profile_report()['events'][0]['profile']['frames']) - 1}"),
            (lambda e: nodes(e)["self_ns"].__setitem__(4, -5),
             "events[0].profile.nodes.self_ns[4] must not be negative (it is -5)"),
            (lambda e: nodes(e)["self_samples"].__setitem__(4, "7"),
             "events[0].profile.nodes.self_samples[4] must be an integer, not a string"),
            (lambda e: nodes(e)["self_ns"].pop(),
             "events[0].profile.nodes: “parent” has"),
            (lambda e: nodes(e).pop("frame"), "events[0].profile.nodes.frame is missing"),
            (lambda e: e["profile"].update(frames=[1]),
             "events[0].profile.frames[0] must be an object, not an integer"),
            (lambda e: e["profile"].update(time_ns=-1),
             "events[0].profile.time_ns must not be negative"),
            (lambda e: e["profile"].update(dispatch_nodes=[n]),
             f"events[0].profile.dispatch_nodes[0] must be from 0 to {n - 1} (it is {n})"),
            (lambda e: e["profile"].update(dispatch_nodes=[-1]),
             f"events[0].profile.dispatch_nodes[0] must be from 0 to {n - 1} (it is -1)"),
            (lambda e: e["profile"].update(dispatch_nodes=["1"]),
             "events[0].profile.dispatch_nodes[0] must be an integer, not a string"),
            (lambda e: e["profile"].update(dispatch_nodes={}),
             "events[0].profile.dispatch_nodes must be an array"),
            (lambda e: e["profile"].update(dispatch_nodes=list(range(n + 1))),
             f"events[0].profile.dispatch_nodes has {n + 1} entries"),
            (lambda e: e.update(profile=[]),
             "events[0].profile must be an object or null, not an array"),
            # Indices into the profile from elsewhere.
            (lambda e: e["stacks"][0].update(node=n),
             f"events[0].stacks[0].node must be from -1 to {n - 1} (it is {n})"),
            (lambda e: e["samples"][0].update(node=n + 5),
             f"events[0].samples[0].node must be from -1 to {n - 1}"),
            (lambda e: e["samples"][0].update(part=2),
             "events[0].samples[0].part must be from -1 to 1 (it is 2)"),
            (lambda e: e["culprit"].update(node=n),
             f"events[0].culprit.node must be from 0 to {n - 1} (it is {n})"),
            (lambda e: e["parts"][1]["profile"]["node"].__setitem__(0, n),
             f"events[0].parts[1].profile.node[0] must be from 0 to {n - 1} (it is {n})"),
            (lambda e: e["parts"][1]["profile"]["self_ns"].append(1),
             "events[0].parts[1].profile: “node”, “self_samples” and “self_ns” must be of one"),
            (lambda e: e["parts"][0]["stacks"][0].update(node=-1),
             "events[0].parts[0].stacks[0].node must be an index of the profile's nodes"),
            (lambda e: e["parts"][1]["culprit"].update(node=n),
             f"events[0].parts[1].culprit.node must be from 0 to {n - 1}"),
            (lambda e: e["parts"][1]["culprit"].update(callback="sleepy_cb"),
             "events[0].parts[1].culprit.callback must be an object or null, not a string"),
            (lambda e: e["parts"][1].update(attributed_ns=-1),
             "events[0].parts[1].attributed_ns must not be negative"),
        ]
        for mutate, fragment in cases:
            with self.subTest(fragment=fragment):
                self.check_error(mutate, fragment)

    def test_bounds(self):
        def chain(e, length):
            """A profile that is one chain of calls."""
            e["profile"]["nodes"] = {"parent": list(range(-1, length - 1)),
                                     "frame": [0] * length, "self_samples": [1] * length,
                                     "self_ns": [MS] * length}
            for s in e["stacks"]:
                s["node"] = 0
            for s in e["samples"]:
                s["node"] = -1
            e["culprit"]["node"] = None
            for p in e["parts"]:
                p["profile"]["node"] = [0] * len(p["profile"]["node"])
                for s in p["stacks"]:
                    s["node"] = 0
                p["culprit"]["node"] = None

        self.check_error(lambda e: chain(e, 258),
                         "events[0].profile.nodes.parent[257]: the node is 258 calls deep: at "
                         "most 257 can be loaded")
        frames = len(profile_report()["events"][0]["profile"]["frames"])
        self.check_error(lambda e: e["profile"]["frames"].extend([{}] * 16384),
                         f"events[0].profile.frames has {frames + 16384} entries: at most 16384")

        def wide(e):
            n = 16385
            e["profile"]["nodes"] = {"parent": [-1] * n, "frame": [0] * n,
                                     "self_samples": [0] * n, "self_ns": [0] * n}
        self.check_error(wide, "events[0].profile.nodes.parent has 16385 entries: at most 16384")

        # Exactly at the bounds: read.
        report = profile_report()
        chain(report["events"][0], 257)
        self.export("folded", self.write("deep.json", report))

    def test_huge_counts_saturate(self):
        """Counts and times at the top of the range: the sums saturate at
        2^63 - 1 instead of wrapping to a negative number, and the event's
        attributed time stays its duration at most."""
        big = 2**63 - 1
        report = profile_report()
        e = report["events"][0]
        leaves = [i for i, n in enumerate(e["profile"]["nodes"]["self_ns"]) if n > 0]
        for i in leaves[:2]:
            e["profile"]["nodes"]["self_ns"][i] = big
            e["profile"]["nodes"]["self_samples"][i] = big
        path = self.write("big.json", report)
        samples = read_folded(self.export("folded", path, extra=["--folded-weight=samples"])
                              .decode())
        self.assertTrue(all(0 < v <= big for v in samples.values()))
        folded = read_folded(self.export("folded", path).decode())
        self.assertTrue(all(0 < v <= big // 1000 + 1 for v in folded.values()))
        proc = run_cli("report", path)
        self.assertEqual(proc.returncode, 0, proc.err)
        line = next(line for line in proc.out.splitlines() if "Attributed" in line)
        # Event 1 is 420 ms long: no more than that of it is attributed.
        self.assertIn("960.0 ms (96%) to stacks", line)
        for fmt in [f for f, ok in self.built.items() if ok and f != "folded"]:
            with self.subTest(format=fmt):
                self.export(fmt, path, output=f"out-big.{fmt}")


class ErrorTest(ExportTestCase):
    """Bad inputs: a clear error, a non-zero exit, and no output file."""

    def test_bad_inputs(self):
        good = self.inputs("A")[0]
        bad = {
            "missing": self.path("no-such.json"),
            "directory": self.tmp,
            "empty": self.write("empty.json", ""),
            "not JSON": self.write("text.json", "hello"),
            "truncated": self.write("cut.json", json.dumps(report_a())[:500]),
            "not a report": self.write("other.json", {"format": "something-else"}),
            "bad member": self.write("bad.json", dict(report_a(), events=[{"id": "x"}])),
            "deep": self.write("deep.json", "[" * 100000 + "]" * 100000),
        }
        formats = [f for f, ok in self.built.items() if ok]
        for what, path in bad.items():
            for fmt in formats:
                with self.subTest(input=what, format=fmt):
                    out = self.path(f"out-{fmt}")
                    proc = run_cli("export", f"--format={fmt}", good, path, "-o", out)
                    self.assertEqual(proc.returncode, 1, proc.err)
                    self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
                    self.assertIn(os.path.basename(path), proc.err)
                    self.assertEqual(proc.out, "")
                    self.assertFalse(os.path.exists(out), "an output file was left behind")
        leftovers = [n for n in os.listdir(self.tmp) if n.startswith("out")]
        self.assertEqual(leftovers, [])

    def test_failed_export_keeps_the_old_file(self):
        out = self.write("out", "old")
        proc = run_cli("export", "--format=json", self.write("x.json", "{"), "-o", out)
        self.assertEqual(proc.returncode, 1)
        with open(out) as f:
            self.assertEqual(f.read(), "old")

    def test_usage_errors(self):
        good = self.inputs("A")[0]
        cases = [
            ([good], "no format given"),
            (["--format=svg", good], "unknown format “svg”"),
            (["--format=chrome"], "no report file given"),
            (["--format=chrome", "--align=sideways", good], "--align"),
            (["--format=folded", "--folded-prefix=colour", good], "colour"),
            (["--format=chrome", "--folded-prefix=process", good], "--folded-prefix"),
            (["--format=chrome", "-o", "", good], "--output"),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                proc = run_cli("export", *args)
                self.assertEqual(proc.returncode, 2, proc.err)
                self.assertIn(fragment, proc.err)

    def test_unwritable_output(self):
        proc = run_cli("export", "--format=chrome", self.inputs("A")[0], "-o",
                       self.path("no-such-dir/out.json"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("no-such-dir", proc.err)

    def test_stdout(self):
        proc = run_cli("export", "--format=folded", self.inputs("C")[0], "-o", "-")
        self.assertEqual(proc.returncode, 0, proc.err)
        self.assertEqual(proc.out, "main;parse_everything 100000\n")
        proc = run_cli("export", "--format=chrome", self.inputs("C")[0])
        self.assertEqual(proc.returncode, 0, proc.err)
        json.loads(proc.out)

    def test_no_binary_on_a_terminal(self):
        binary = [f for f in ("pprof", "sysprof") if self.built[f]]
        if not binary:
            self.skipTest("neither pprof nor sysprof is in this build")
        for fmt in binary:
            with self.subTest(format=fmt):
                leader, follower = pty.openpty()
                try:
                    proc = subprocess.run([CLI, "export", f"--format={fmt}", self.inputs("C")[0]],
                                          env=clean_env(), stdin=subprocess.DEVNULL,
                                          stdout=follower, stderr=subprocess.PIPE,
                                          timeout=TIMEOUT)
                finally:
                    os.close(follower)
                    os.close(leader)
                self.assertEqual(proc.returncode, 1)
                self.assertIn(b"terminal", proc.stderr)

    def test_format_not_built(self):
        missing = [f for f, ok in self.built.items() if not ok]
        if not missing:
            self.skipTest("every format is in this build")
        proc = run_cli("export", f"--format={missing[0]}", self.inputs("A")[0])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("built without", proc.err)


def covered(frame_event, report):
    """Does a main-loop event of the report overlap the frame event?"""
    return any(m["start_ns"] < frame_event["end_ns"] and m["end_ns"] > frame_event["start_ns"]
               for m in report["events"] if m.get("type") != "frame")


def profile_totals(events):
    """What the profile formats count (docs/exports.md, "Each moment
    once"): the time and samples of each main-loop event's profile, and of a
    frame event's when no main-loop event overlaps it."""
    time = samples = 0
    for e in events:
        if e.get("type") == "frame" and covered(e, {"events": events}):
            continue
        time += profile_time(e)
        samples += profile_samples(e)
    return time, samples


class RoundTripTest(ExportTestCase):
    """Real reports of tests/apps/stacks-app under the preload, every format,
    each read back."""

    def run_app(self, scenario, report_path):
        app = need_env("JANKSCOPE_TEST_STACKS_APP")
        env = clean_env(LD_PRELOAD=need_env("JANKSCOPE_TEST_PRELOAD"),
                        JANKSCOPE_REPORT=report_path)
        proc = subprocess.run([app, scenario], env=env, capture_output=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        with open(report_path) as f:
            return json.load(f)

    def test_round_trip(self):
        # Under ASan the usleep stacks end in the sanitized preload's sleep
        # wrapper (tests/README.md): js_test_sleeper is looked for, and the
        # test skipped after the rest, only in the normal build.
        app_functions = {"js_test_busy_loop"} | (set() if jt.SANITIZED else {"js_test_sleeper"})
        busy = self.run_app("busy", self.path("busy.json"))
        sleep = self.run_app("usleep", self.path("usleep.json"))
        inputs = [self.path("busy.json"), self.path("usleep.json")]
        for r, name in ((busy, "busy"), (sleep, "usleep")):
            self.assertTrue(any(e.get("stacks") for e in r["events"]), f"{name}: no stacks")
        total = sum(e["samples_total"] for r in (busy, sleep) for e in r["events"]
                    if e.get("type") != "frame" and e.get("samples_total"))
        # What the profile formats show: the stall events' attributed time
        # (`jankscope report`'s), and the samples with a stack.
        stall_events = [e for r in (busy, sleep) for e in r["events"] if e.get("type") != "frame"]
        attributed = sum(profile_time(e) for e in stall_events)
        with_stack = sum(profile_samples(e) for e in stall_events)
        self.assertGreater(attributed, 0)

        trace = json.loads(self.export("chrome", *inputs))
        pids = {e["pid"] for e in trace["traceEvents"]}
        self.assertEqual(pids, {busy["process"]["pid"], sleep["process"]["pid"]})
        self.assertTrue(any(e["cat"] == "dispatch" for e in x_events(trace)))
        self.assertTrue(any(e["cat"] == "jank" and e["args"].get("class") == "compute"
                            for e in x_events(trace)))
        check_nesting(self, trace)
        leaf_names = {trace["stackFrames"][s["sf"]]["name"] for s in trace["samples"]}
        self.assertTrue(leaf_names, "no samples")

        stacks = read_folded(self.export("folded", *inputs).decode())
        # Microseconds, each line rounded.
        self.assertLessEqual(abs(sum(stacks.values()) * US - attributed), len(stacks) * US / 2)
        for function in app_functions:
            self.assertTrue(any(function in s.split(";") for s in stacks), function)

        doc = json.loads(self.export("json", *inputs))
        self.assertEqual(doc, [busy, sleep])

        if self.built["pprof"]:
            data = self.export("pprof", *inputs)
            p = Pprof(decode_pprof(data, need_env("EXPORT_TEST_PROTO_DIR")))
            self.assertEqual(sum(one(s, "value") for s in p.samples), with_stack)
            names = {p.s(one(f, "name")) for f in p.functions.values()}
            self.assertLessEqual(app_functions, names)
            build_ids = {p.s(one(m, "build_id")) for m in p.mappings.values()}
            self.assertTrue(any(len(b) >= 16 for b in build_ids), build_ids)
            self.assertEqual(sum(s["value"][1] for s in p.samples), attributed)

        if self.built["sysprof"]:
            self.export("sysprof", *inputs, output="capture.syscap")
            lines = dump_sysprof(self.path("capture.syscap"))
            samples = [line for line in lines if line[0] == "sample"]
            # One per millisecond of each process's attributed time.
            self.assertEqual(len(samples), sum(
                sum(profile_time(e) for e in r["events"] if e.get("type") != "frame") // MS
                for r in (busy, sleep)))
            self.assertTrue(any(line[4].startswith("js_test_busy_loop;") for line in samples))
            self.assertTrue(any(line[0] == "mark" and line[5] == "dispatch" for line in lines))
        if jt.SANITIZED:
            self.skipTest("under ASan: stacks end in the sanitized preload's sleep wrapper")

    def check_totals_agree(self, path):
        """Every format's total is the attributed time `jankscope report`
        prints: folded and report within 1% (and the rounding of their
        units), pprof and the aggregate exactly, sysprof to the millisecond,
        chrome's profile track to the nanosecond."""
        with open(path) as f:
            report = json.load(f)
        stall_events = [e for e in report["events"] if e["type"] != "frame"]
        self.assertTrue(stall_events, "no stall event")
        for e in report["events"]:
            self.assertIn("profile", e, "a report without profiles")
        # Each moment once: the stall events, and the frame events no stall
        # event covers.
        counted = [e for e in report["events"] if e["type"] != "frame" or not covered(e, report)]
        attributed = sum(min(profile_time(e), e["duration_ns"]) for e in counted)
        self.assertGreater(attributed, 0)

        aggregate = self.path("aggregate.json")
        proc = run_cli("merge", path, "-o", aggregate)
        self.assertEqual(proc.returncode, 0, proc.err)
        with open(aggregate) as f:
            agg = json.load(f)
        self.assertEqual(agg["stalls"]["attributed_ns"] +
                         agg["frame_events"]["uncovered"]["attributed_ns"], attributed)
        proc = run_cli("report", path)
        self.assertEqual(proc.returncode, 0, proc.err)
        line = next(line for line in proc.out.splitlines() if line.startswith("  Attributed"))
        value, unit = line.split()[1:3]
        printed = float(value) * {"s": 1e9, "ms": 1e6, "h": 3.6e12}[unit]
        folded = read_folded(self.export("folded", path).decode())
        folded_ns = sum(folded.values()) * US
        self.assertLessEqual(abs(folded_ns - printed), max(0.01 * printed, 1 * MS),
                             f"folded {folded_ns} ns, report: {line}")
        self.assertLessEqual(abs(folded_ns - attributed), len(folded) * US / 2)
        self.assertFalse([s for s in folded if "libjankscope" in s or "js_dispatch" in s],
                         "jankscope's own frames")
        if self.built["pprof"]:
            p = Pprof(decode_pprof(self.export("pprof", path), need_env("EXPORT_TEST_PROTO_DIR")))
            self.assertEqual(sum(s["value"][1] for s in p.samples), attributed)
        if self.built["sysprof"]:
            self.export("sysprof", path, output="capture.syscap")
            samples = [line for line in dump_sysprof(self.path("capture.syscap"))
                       if line[0] == "sample"]
            self.assertEqual(len(samples), sum(profile_time(e) for e in counted) // MS)
        trace = json.loads(self.export("chrome", path))
        check_nesting(self, trace)
        per_event = {}
        for e in x_events(trace):
            if e["cat"] == "profile":
                per_event.setdefault(e["args"]["event"], []).append(e)
        total = 0
        for slices in per_event.values():
            # The roots: the slices no other slice of the event holds.
            starts = sorted(((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in slices),
                            key=lambda span: (span[0], -span[1]))
            end = None
            for s, t in starts:
                if end is None or s >= end:
                    total += t - s
                    end = t
        self.assertLessEqual(abs(total - sum(profile_time(e) for e in counted)), len(per_event))
        return report

    def run_attribution(self, app_env, args, path, gtk=False):
        app = os.environ.get(app_env)
        if not app:
            self.skipTest(f"{app_env} is not set (the core's attribution apps)")
        extra = {}
        if gtk:
            if not os.environ.get("DISPLAY"):
                self.skipTest("needs a display (xvfb-run)")
            extra = dict(GSK_RENDERER="cairo", GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1",
                         JANKSCOPE_UI="0", DISPLAY=os.environ["DISPLAY"], **jt.session_bus_env(),
                         **jt.asan_options(detect_leaks=0))
        env = clean_env(LD_PRELOAD=need_env("JANKSCOPE_TEST_PRELOAD"), JANKSCOPE_REPORT=path,
                        **extra)
        proc = subprocess.run([app, *args], env=env, capture_output=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())

    def test_sustained_jank_totals_agree(self):
        """A loader: callbacks of 0.4-2 s back to back for 3 s, one long
        episode of many stalls and parts."""
        path = self.path("loader.json")
        self.run_attribution("JANKSCOPE_TEST_ATTRIBUTION_APP", ["loader", "3"], path)
        report = self.check_totals_agree(path)
        event = max(report["events"], key=lambda e: e["duration_ns"])
        self.assertGreater(event["parts_count"], 1)
        proc = run_cli("report", path)
        rows = [line for line in proc.out.splitlines() if line.split()[1:2] == ["part"]]
        self.assertEqual(len(rows), min(event["parts_count"], 8), proc.out)

    def test_sustained_frames_totals_agree(self):
        """GTK 4, every frame 30-60 ms for 3 s: dispatch events and the frame
        events over them, counted once."""
        path = self.path("frames.json")
        self.run_attribution("JANKSCOPE_TEST_ATTRIBUTION_GTK4", ["sustained", "3"], path, gtk=True)
        self.check_totals_agree(path)

    def test_library_culprit_after_its_callback(self):
        """A text view laying out a huge line: none of the app's code runs,
        the culprit is GTK's or Pango's, shown after the dispatched
        callback."""
        path = self.path("library.json")
        self.run_attribution("JANKSCOPE_TEST_ATTRIBUTION_GTK4", ["library-only", "400", "3000"],
                             path, gtk=True)
        report = self.check_totals_agree(path)
        blamed = [e for e in report["events"] if e["type"] != "frame" and e.get("culprit")
                  and e["culprit"].get("callback") and e["culprit"]["reason"] != "app-code"]
        self.assertTrue(blamed, "no library culprit with a callback")
        proc = run_cli("report", path)
        worst = proc.out[proc.out.index("Worst events"):]
        self.assertIn(" → ", worst)

    def test_demo_round_trip(self):
        """The demo app (GTK4, under Xvfb) with scripted stalls: every
        format, each read back; frames and their phases in the trace."""
        demo = os.environ.get("JANKSCOPE_TEST_DEMO")
        if not demo or not os.environ.get("DISPLAY"):
            self.skipTest("needs the demo app and a display (xvfb-run)")
        report = self.path("demo.json")
        # Under ASan: no leak check in a GTK app (fontconfig & co. keep
        # their memory to the end of the process).
        env = clean_env(LD_PRELOAD=need_env("JANKSCOPE_TEST_PRELOAD"), JANKSCOPE_REPORT=report,
                        GSK_RENDERER="cairo", GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1",
                        DISPLAY=os.environ["DISPLAY"], **jt.session_bus_env(),
                        **jt.asan_options(detect_leaks=0))
        proc = subprocess.run([demo, "--script=cpu,sleep,slow-paint,quit"], env=env,
                              capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        with open(report) as f:
            r = json.load(f)
        self.assertTrue(any(e.get("stacks") for e in r["events"]), "the demo's stalls have stacks")
        attributed, with_stack = profile_totals(r["events"])

        trace = json.loads(self.export("chrome", report))
        check_nesting(self, trace)
        cats = {e["cat"] for e in x_events(trace)}
        self.assertLessEqual({"dispatch", "jank", "frame-phase"}, cats)
        stacks = read_folded(self.export("folded", report, extra=["--folded-weight=samples"])
                             .decode())
        self.assertEqual(sum(stacks.values()), with_stack)
        stacks = read_folded(self.export("folded", report).decode())
        self.assertLessEqual(abs(sum(stacks.values()) * US - attributed), len(stacks) * US / 2)
        self.assertEqual(json.loads(self.export("json", report)), [r])
        if self.built["pprof"]:
            p = Pprof(decode_pprof(self.export("pprof", report), need_env("EXPORT_TEST_PROTO_DIR")))
            self.assertEqual(sum(one(s, "value") for s in p.samples), with_stack)
            self.assertEqual(sum(s["value"][1] for s in p.samples), attributed)
        if self.built["sysprof"]:
            self.export("sysprof", report, output="demo.syscap")
            lines = dump_sysprof(self.path("demo.syscap"))
            self.assertLessEqual(abs(len([line for line in lines if line[0] == "sample"]) -
                                     attributed // MS), 1)

    def test_killed_hang(self):
        """A run killed during a hang, then the next run (previous_run): the
        hang is marked ongoing, and exported once."""
        app = need_env("JANKSCOPE_TEST_STACKS_APP")
        killed = self.path("hang.json")
        env = clean_env(LD_PRELOAD=need_env("JANKSCOPE_TEST_PRELOAD"), JANKSCOPE_REPORT=killed)
        proc = subprocess.Popen([app, "hang", "cpu"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            hang = None
            while time.monotonic() < deadline and hang is None:
                time.sleep(0.2)
                try:
                    r = jt.read_report(killed)  # the hang under way is in the journal
                except jt.CheckFailed:
                    continue
                hang = next((e for e in r["events"] if e.get("ongoing") and e.get("stacks")), None)
            self.assertIsNotNone(hang, "no ongoing hang with stacks in the report")
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=TIMEOUT)
        shutil.copy(killed, self.path("killed.json"))
        # The report and its journal, as the killed run left them.
        shutil.copy(killed + ".journal", self.path("killed.json.journal"))
        self.run_app("busy", killed)  # same path: previous_run
        inputs = [self.path("killed.json"), killed]

        trace = json.loads(self.export("chrome", *inputs))
        ongoing = [e for e in x_events(trace) if e["cat"] == "jank" and e["args"].get("ongoing")]
        self.assertEqual(len(ongoing), 1, "the hang once, not twice")
        stacks = read_folded(self.export("folded", *inputs).decode())
        hang_samples = sum(c for s, c in stacks.items() if "js_test_hang" in s.split(";"))
        self.assertGreater(hang_samples, 0)
        # Alone, the next run's report still carries the killed run's hang.
        trace = json.loads(self.export("chrome", killed))
        names = [e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name"]
        self.assertTrue(any("previous run" in n for n in names), names)


if __name__ == "__main__":
    unittest.main()
