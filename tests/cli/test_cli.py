#!/usr/bin/env python3
"""Tests of the jankscope command-line tool (src/cli/).

Run by meson (tests/cli/meson.build), which passes the paths in the
environment: JANKSCOPE_CLI (the CLI), CLI_TEST_FAKE_PRELOAD_A/B (empty
libraries that stand in for the preload, so that most tests check the CLI
alone), CLI_TEST_SLOW_DISPATCH (a GLib program with one 120 ms dispatch, for
the end-to-end test), CLI_TEST_VERSION and CLI_TEST_PKGLIBDIR.

By hand: meson test -C BUILD cli, or
  JANKSCOPE_CLI=... python3 tests/cli/test_cli.py SummaryTest
"""

import copy
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import unittest

MS = 1_000_000  # ns
TIMEOUT = 30  # s, a safety net only: no test relies on timing


def env_path(name):
    path = os.environ.get(name)
    if not path:
        raise unittest.SkipTest(f"{name} is not set: run through meson test")
    return path


CLI = os.environ.get("JANKSCOPE_CLI", "")
FAKE_A = os.environ.get("CLI_TEST_FAKE_PRELOAD_A", "")
FAKE_B = os.environ.get("CLI_TEST_FAKE_PRELOAD_B", "")


def base_env(preload=None, **extra):
    """Our environment without inherited jankscope settings, in a fixed
    UTF-8 locale; JANKSCOPE_PRELOAD=preload if given."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("JANKSCOPE") and k not in ("LD_PRELOAD", "LANGUAGE")}
    env["LC_ALL"] = "C.UTF-8"
    if preload:
        env["JANKSCOPE_PRELOAD"] = preload
    env.update(extra)
    return env


def run_cli(*args, env=None, cwd=None, cli=None, stdin=subprocess.DEVNULL):
    proc = subprocess.run([cli or CLI, *args], env=env if env is not None else base_env(FAKE_A),
                          cwd=cwd, stdin=stdin, capture_output=True, timeout=TIMEOUT)
    proc.out = proc.stdout.decode("utf-8", "replace")
    proc.err = proc.stderr.decode("utf-8", "replace")
    return proc


MEMORY_LIMIT = 1 << 30  # bytes of address space for run_measured

# scripts/run-sanitized-tests.sh sets JANKSCOPE_TEST_SANITIZED=1: the CLI is
# built with AddressSanitizer and UndefinedBehaviorSanitizer. ASan reserves
# terabytes of address space at start-up (no RLIMIT_AS can be set) and its
# shadow memory and quarantine make a peak RSS say nothing about the CLI.
SANITIZED = os.environ.get("JANKSCOPE_TEST_SANITIZED") == "1"
SANITIZED_MEMORY = "under ASan: its shadow memory and quarantine make the peak RSS meaningless"


def limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def memory_limit_fn():
    """The preexec_fn of a measured run: limit_memory, or under ASan a no-op
    (which still keeps subprocess from using vfork)."""
    return (lambda: None) if SANITIZED else limit_memory


def run_measured(test, path):
    """Runs `jankscope summary path` with at most 1 GB of address space;
    returns (process, its peak RSS in MB). The peak counts the RSS of this
    process when it forked (Linux keeps it over exec): keep it small. The
    preexec_fn also keeps subprocess from using vfork, which would count this
    process's peak instead."""
    with open(test.path("stdout"), "w+b") as out, open(test.path("stderr"), "w+b") as err:
        proc = subprocess.Popen([CLI, "summary", path], env=base_env(FAKE_A),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                preexec_fn=memory_limit_fn())
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        proc.out = out.read().decode("utf-8", "replace")
        proc.err = err.read().decode("utf-8", "replace")
    return proc, usage.ru_maxrss / 1024


class CliTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name in ("JANKSCOPE_CLI", "CLI_TEST_FAKE_PRELOAD_A", "CLI_TEST_FAKE_PRELOAD_B"):
            if not os.path.exists(env_path(name)):
                raise AssertionError(f"{name}={os.environ[name]} does not exist (not built?)")

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="jankscope-cli-test-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, content):
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(self.path(name), mode) as f:
            f.write(content)
        return self.path(name)

    def assertExit(self, proc, code):
        self.assertEqual(proc.returncode, code,
                         f"exit code {proc.returncode}, expected {code}\n"
                         f"stdout: {proc.out}\nstderr: {proc.err}")

    def assertPeakBelow(self, rss_mb, limit_mb):
        """The last assertion of a test that bounds the CLI's memory: under
        ASan the rest of the test ran, this one is skipped."""
        if SANITIZED:
            self.skipTest(SANITIZED_MEMORY)
        self.assertLess(rss_mb, limit_mb)

    def assertUsageError(self, proc, *fragments):
        self.assertExit(proc, 2)
        self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
        self.assertIn("Usage:", proc.err)
        for fragment in fragments:
            self.assertIn(fragment, proc.err)


# ---- a synthetic report -------------------------------------------------------

START_NS = 5_000_000_000_000


def source(name, callback, count, total_ms, max_ms, p95_ms):
    return {"source": name, "callback": callback, "count": count,
            "total_ns": int(total_ms * MS), "mean_ns": int(total_ms * MS) // max(count, 1),
            "max_ns": int(max_ms * MS), "p95_ns": int(p95_ms * MS)}


def event(event_id, start_s, duration_ms, tier, type_, name, callback):
    start = START_NS + int(start_s * 1e9)
    duration = int(duration_ms * MS)
    part = {"type": type_, "start_ns": start, "end_ns": start + duration,
            "duration_ns": duration, "nested_ns": 0, "tier": tier, "source": name,
            "callback": callback, "priority": 200, "depth": 1}
    return {"id": event_id, "type": type_, "start_ns": start, "end_ns": start + duration,
            "duration_ns": duration, "max_part_ns": duration, "tier": tier, "source": name,
            "callback": callback, "priority": 200, "depth": 1, "parts_count": 1,
            "parts": [part], "cpu_ns": None, "class": None, "culprit": None, "stacks": []}


# Sources in no particular order: the CLI sorts them. By total time the top
# five are paint, (unnamed), timer-a, timer-b, net; by max time (unnamed),
# rare-slow, paint, net, timer-b.
SOURCES = [
    source("timer-b", "tock", 60, 600, 20, 12),
    source("tiny", "tiny_cb", 1, 1, 0.5, 0.5),
    source("[gtk] paint", "gdk_frame_clock_paint_idle", 445, 900, 60, 4.1),
    source("rare-slow", "rare", 1, 50, 350, 350),
    source(None, "slow_idle", 3, 800, 400, 390),
    source("net", "on_data", 100, 500, 30, 8),
    source("timer-a", "tick", 700, 700, 10, 2),
]

# The worst five by duration: 4, 2, 6, 1, 5.
EVENTS = [
    event(1, 0.5, 80, "noticeable", "dispatch", "[gtk] paint", "gdk_frame_clock_paint_idle"),
    event(2, 1.0, 400, "severe", "dispatch", None, "slow_idle"),
    event(3, 2.25, 55, "noticeable", "iteration", None, None),
    event(4, 3.0, 750, "frozen", "dispatch", "rare-slow", "rare"),
    event(5, 4.0, 60, "noticeable", "dispatch", "net", "on_data"),
    event(6, 5.0, 210, "severe", "dispatch", "timer-b", "tock"),
    event(7, 6.0, 52, "noticeable", "dispatch", "timer-a", "tick"),
]


def make_report():
    return {
        "format": "jankscope-report",
        "version": 1,
        "generator": "jankscope 0.1.0",
        "final": True,
        "process": {"exe": "/usr/bin/fake-app", "name": "fake-app", "pid": 4242,
                    "glib_version": "2.74.6", "gtk_version": "4.8.3", "toolkit": "gtk4",
                    "mode": "preload", "start_ns": START_NS,
                    "report_ns": START_NS + 12_500 * MS},
        "config": {"threshold_ns": 50 * MS,
                   "tiers_ns": {"noticeable": 50 * MS, "severe": 200 * MS,
                                "frozen": 700 * MS, "hang": 3000 * MS},
                   "merge_gap_ns": 500 * MS, "max_events": 1000, "max_parts": 100},
        "summary": {"iterations": 4512, "dispatches": 9876, "busy_ns": 3125 * MS,
                    "monitored_ns": 12_500 * MS,
                    "iteration_busy": {"p50_ns": 80_000, "p95_ns": 2 * MS, "p99_ns": 5 * MS,
                                       "max_ns": 750 * MS},
                    "events_by_tier": {"noticeable": 4, "severe": 2, "frozen": 1, "hang": 0},
                    "events_total": 7, "events_dropped": 0, "records_dropped": 0,
                    "nested_loops": 0, "sources": copy.deepcopy(SOURCES),
                    "sources_truncated": 0},
        "events": copy.deepcopy(EVENTS),
    }


# ---- stacks and classification (docs/report-format.md) ---------------------------

def frame(function, module, file=None, line=None, offset="0x1a2b", inlined=False):
    f = {"function": function, "module": module, "file": file, "line": line, "offset": offset,
         "build_id": "0123abcd"}
    if inlined:
        f["inlined"] = True
    return f


def culprit(function, module="fake-app", file=None, line=None, confidence=0.85, samples=17,
            of_samples=20, reason="app-code"):
    return {"function": function, "module": module, "file": file, "line": line,
            "confidence": confidence, "samples": samples, "of_samples": of_samples,
            "reason": reason}


def analyze(ev, klass, wait, blame, frames, count, total, cpu_ms):
    """Adds the sampler's members to an event, as the core writes them."""
    cpu = int(cpu_ms * MS)
    ev.update({"watched_ns": ev["duration_ns"], "cpu_ns": cpu,
               "off_cpu_ns": ev["duration_ns"] - cpu, "class": klass, "wait": wait,
               "culprit": blame,
               "stacks": [{"count": count, "frames": frames}, {"count": 1, "frames": []}],
               "stacks_omitted": 0,
               "samples": [{"t_ns": ev["start_ns"], "count": 1, "state": "running", "stack": 0}],
               "samples_total": total, "samples_running": 1, "samples_waiting": total - 1,
               "watchdog": {"detected_ns": ev["start_ns"], "tiers_crossed": [],
                            "ping_latency_ns": None, "ping_caught": False}})
    return ev


SLEEP_FRAMES = [
    frame("clock_nanosleep", "libc.so.6"),
    frame("g_usleep", "libglib-2.0.so.0", "../glib/gtimer.c", 265),
    frame("rare", "fake-app", "/src/app/main.c", 42),
    frame(None, "libfoo.so", offset="0x4711"),
    frame("helper", "fake-app", "main.c", 10, inlined=True),
] + [frame(f"caller{i}", "fake-app") for i in range(6)]


def make_stacks_report():
    """make_report() with stacks on events 4 (wait: sleep), 2 (compute), 6 (mixed:
    lock, no symbol) and 5 (compute), and a sampler summary."""
    report = make_report()
    events = {e["id"]: e for e in report["events"]}
    analyze(events[4], "wait", "sleep",
            culprit("rare", file="/src/app/main.c", line=42), copy.deepcopy(SLEEP_FRAMES), 17,
            20, 10)
    analyze(events[2], "compute", None,
            culprit("slow_idle", confidence=0.5, samples=5, of_samples=10),
            [frame("compute_hash", "fake-app", "hash.c", 99),
             frame("slow_idle", "fake-app", "main.c", 7)], 8, 10, 390)
    analyze(events[6], "mixed", "lock",
            culprit(None, module="libbar.so.1", confidence=0.3, samples=3, of_samples=10,
                    reason="library"),
            [frame(None, "libbar.so.1", offset="0x99")], 3, 10, 100)
    analyze(events[5], "compute", None, culprit("on_data", confidence=1),
            [frame("parse", "fake-app", "net.c", 5)], 4, 4, 60)
    report["summary"]["sampler"] = {
        "signal": 34, "unwinder": "libunwind", "signal_lost": False, "stalls": 5,
        "stalls_without_event": 1, "samples": 40, "samples_running": 20, "samples_waiting": 20,
        "samples_folded": 3, "samples_failed": 0, "samples_dropped": 0, "signals_sent": 12,
        "signal_timeouts": 1, "signal_late": 0, "signal_blocked": 0,
        "syscalls_interrupted": 0}
    return report


def ongoing_hang(duration_ms=3200, start_s=9.0):
    start = START_NS + int(start_s * 1e9)
    duration = int(duration_ms * MS)
    hang = {"id": 0, "type": "hang", "ongoing": True, "start_ns": start,
            "end_ns": start + duration, "duration_ns": duration, "max_part_ns": duration,
            "tier": "hang", "source": None, "callback": None, "parts_count": 0, "parts": []}
    return analyze(hang, "wait", "lock",
                   culprit("wait_for_lock", file="app.c", line=77, confidence=0.9, samples=27,
                           of_samples=30),
                   [frame("syscall", "libc.so.6"),
                    frame("g_mutex_lock_slowpath", "libglib-2.0.so.0"),
                    frame("wait_for_lock", "fake-app", "app.c", 77),
                    frame("on_button", "fake-app", "app.c", 120)], 27, 30, 2)


def make_hang_report():
    """A report written during a hang: not final, with the ongoing event."""
    report = make_report()
    report["final"] = False
    report["events"].append(ongoing_hang())
    return report


def strip_new_members(report):
    """A version-1 report as written before the sampler existed."""
    new = ("cpu_ns", "off_cpu_ns", "watched_ns", "class", "wait", "culprit", "stacks",
           "stacks_omitted", "samples", "samples_total", "samples_running", "samples_waiting",
           "watchdog", "ongoing")
    for ev in report["events"]:
        for member in new:
            ev.pop(member, None)
    report["summary"].pop("sampler", None)
    report.pop("previous_run", None)
    return report


def section(text, heading):
    """The lines of the table under a heading, up to the next blank line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(heading):
            table = []
            for row in lines[i + 1:]:
                if not row.strip():
                    break
                table.append(row)
            return table
    raise AssertionError(f"no section {heading!r} in:\n{text}")


def overview_value(text, label):
    match = re.search(rf"^  {re.escape(label)} +(.+)$", text, re.MULTILINE)
    if match is None:
        raise AssertionError(f"no {label!r} line in:\n{text}")
    return match.group(1)


# ---- tests --------------------------------------------------------------------

class UsageTest(CliTestCase):
    def test_version(self):
        proc = run_cli("--version")
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, f"jankscope {env_path('CLI_TEST_VERSION')}\n")

    def test_help_lists_commands(self):
        for args in (["--help"], ["help"]):
            proc = run_cli(*args)
            self.assertExit(proc, 0)
            for command in ("run", "summary", "help"):
                self.assertRegex(proc.out, rf"\n  {command} +\S")

    def test_help_of_a_command(self):
        for args in (["help", "run"], ["run", "--help"]):
            proc = run_cli(*args)
            self.assertExit(proc, 0)
            self.assertIn("jankscope run [OPTION…] [--] APP [ARGS…]", proc.out)
            self.assertIn("--threshold=MS", proc.out)
            self.assertIn("--report=FILE", proc.out)
        proc = run_cli("help", "summary")
        self.assertExit(proc, 0)
        self.assertIn("jankscope summary [OPTION…] FILE", proc.out)

    def test_usage_errors(self):
        cases = [
            ([], "no command given"),
            (["frobnicate"], "unknown command “frobnicate”"),
            (["help", "frobnicate"], "unknown command “frobnicate”"),
            (["--bogus"], "--bogus"),
            (["run"], "no application given"),
            (["run", "--"], "no application given"),
            (["run", "--bogus", "true"], "--bogus"),
            (["run", "--report"], "--report"),
            (["run", "--report=", "true"], "--report"),
            (["summary"], "no report file given"),
            (["summary", "a.json", "b.json"], "only one report file"),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                self.assertUsageError(run_cli(*args), fragment)

    def test_bad_thresholds(self):
        for value in ("abc", "0", "60001", "-5", "1.5", "", " 5", "5ms", "99999999999999999999"):
            with self.subTest(value=value):
                proc = run_cli("run", "--threshold", value, "--", "sh", "-c", "exit 9")
                self.assertUsageError(proc, "--threshold", "60000")

    def test_good_thresholds(self):
        for value, passed in (("1", "1"), ("75", "75"), ("60000", "60000"), ("007", "7")):
            with self.subTest(value=value):
                proc = run_cli("run", f"--threshold={value}", "--", "sh", "-c",
                               "echo $JANKSCOPE_THRESHOLD_MS")
                self.assertExit(proc, 0)
                self.assertEqual(proc.out, f"{passed}\n")

    def test_report_folder_must_exist(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = run_cli("run", "--report", os.path.join(tmp, "no-such-dir", "r.json"), "--",
                           "sh", "-c", "exit 0")
            self.assertUsageError(proc, "no-such-dir", "does not exist")


class SummaryTest(CliTestCase):
    def summarize(self, report):
        path = self.write("report.json", json.dumps(report))
        proc = run_cli("summary", path)
        self.assertExit(proc, 0)
        self.assertEqual(proc.err, "")
        return proc.out

    def test_overview(self):
        out = self.summarize(make_report())
        self.assertEqual(out.splitlines()[0], "Jank summary: fake-app (pid 4242)")
        self.assertEqual(overview_value(out, "Toolkit"), "gtk4 4.8.3, preload mode")
        self.assertEqual(overview_value(out, "Monitored"), "12.5 s")
        self.assertEqual(overview_value(out, "Iterations"), "4512")
        self.assertEqual(overview_value(out, "Dispatches"), "9876")
        self.assertEqual(overview_value(out, "Busy"), "25.0 % of the monitored time")
        self.assertEqual(overview_value(out, "Stall events"),
                         "7 (noticeable 4, severe 2, frozen 1, hang 0), threshold 50.0 ms")
        for label in ("Dropped", "Lost", "Note", "Frame events"):
            self.assertNotRegex(out, rf"(?m)^  {label} ")

    def test_frame_events_apart_from_stall_events(self):
        """Stall events and frame events are counted apart, the frame events from
        the summary's counts (dropped ones included), and the worst-events list
        holds both kinds: its total is their sum when nothing was dropped."""
        report = make_report()
        report["summary"]["frames"] = {"frames": 600, "slow": 9, "frozen": 1, "p50_ns": 16 * MS,
                                       "p95_ns": 30 * MS, "p99_ns": 60 * MS}
        report["events"].append(event(8, 7.0, 40, "light", "frame", "[gtk] paint", "paint"))
        report["events"].append(event(9, 8.0, 900, "frozen", "frame", "[gtk] paint", "paint"))
        report["summary"]["frame_events_by_tier"] = {"light": 1, "noticeable": 0, "severe": 0,
                                                     "frozen": 1}
        report["summary"]["frame_events_total"] = 2
        report["summary"]["frame_events_dropped"] = 0
        out = self.summarize(report)
        self.assertEqual(overview_value(out, "Stall events"),
                         "7 (noticeable 4, severe 2, frozen 1, hang 0), threshold 50.0 ms")
        self.assertEqual(overview_value(out, "Frame events"),
                         "2 (light 1, noticeable 0, severe 0, frozen 1)")
        self.assertIn("Worst events (5 of 9)", out)
        # Dropped frame events count: the summary's numbers, not the list's.
        report["summary"]["frame_events_by_tier"]["severe"] = 3
        report["summary"]["frame_events_total"] = 5
        report["summary"]["frame_events_dropped"] = 3
        self.assertEqual(overview_value(self.summarize(report), "Frame events"),
                         "5 (light 1, noticeable 0, severe 3, frozen 1)")
        # An older report without the counts: its listed frame events.
        for member in ("frame_events_by_tier", "frame_events_total", "frame_events_dropped"):
            del report["summary"][member]
        self.assertEqual(overview_value(self.summarize(report), "Frame events"),
                         "2 (light 1, noticeable 0, severe 0, frozen 1)")

    def test_child_reports_are_listed(self):
        """PATH.PID beside PATH: the run's other monitored processes, listed by
        pid; only regular files named PATH.DIGITS, never through a link; an
        unreadable one says why; a child's own summary lists none."""
        path = self.write("report.json", json.dumps(make_report()))
        child = make_report()
        child["process"].update(name="helper", pid=123)
        self.write("report.json.123", json.dumps(child))
        self.write("report.json.99", "{ not json")
        self.write("report.json.0124", json.dumps(child))
        self.write("report.json.12a", json.dumps(child))
        self.write("report.json.123.journal", "")
        os.mkdir(self.path("report.json.77"))
        os.symlink(self.path("report.json.123"), self.path("report.json.78"))
        proc = run_cli("summary", path)
        self.assertExit(proc, 0)
        section = proc.out.split("Child processes")[1].splitlines()
        rows = [line.split() for line in section[2:] if line.strip()[:1].isdigit()]
        self.assertEqual([r[0] for r in rows], ["99", "123"])
        self.assertIn("(unreadable:", " ".join(rows[0]))
        self.assertEqual(rows[1][1:4], ["helper", "7", "0"])
        self.assertEqual(rows[1][-1], self.path("report.json.123"))
        document = json.loads(run_cli("summary", "--json", path).out)
        self.assertEqual([(c["pid"], c["name"], c["stall_events"]) for c in document["children"]],
                         [(99, None, None), (123, "helper", 7)])
        self.assertIsNotNone(document["children"][0]["error"])
        self.assertEqual(document["children_more"], 0)
        # A child's own summary: no children of its own.
        child_out = run_cli("summary", self.path("report.json.123"))
        self.assertExit(child_out, 0)
        self.assertNotIn("Child processes", child_out.out)

    def test_child_reports_are_bounded(self):
        path = self.write("report.json", json.dumps(make_report()))
        for pid in range(1000, 1020):
            self.write(f"report.json.{pid}", json.dumps(make_report()))
        proc = run_cli("summary", path)
        self.assertExit(proc, 0)
        self.assertIn("and 4 more child reports", proc.out)
        document = json.loads(run_cli("summary", "--json", path).out)
        self.assertEqual([c["pid"] for c in document["children"]], list(range(1000, 1016)))
        self.assertEqual(document["children_more"], 4)

    def test_frame_event_counts_must_add_up(self):
        for change in ({"frame_events_total": 3}, {"frame_events_dropped": 5},
                       {"frame_events_total": -1}, {"frame_events_total": None}):
            with self.subTest(change=change):
                report = make_report()
                report["summary"]["frame_events_by_tier"] = {
                    "light": 1, "noticeable": 0, "severe": 0, "frozen": 1}
                report["summary"]["frame_events_total"] = 2
                report["summary"]["frame_events_dropped"] = 0
                report["summary"].update(change)
                proc = run_cli("summary", self.write("report.json", json.dumps(report)))
                self.assertExit(proc, 1)
                self.assertIn("frame_events", proc.err)

    def test_numbers_come_from_the_report(self):
        report = make_report()
        report["process"].update(name="other-app", pid=77, toolkit="glib", gtk_version=None)
        report["summary"].update(iterations=31, busy_ns=1 * MS, monitored_ns=4 * MS)
        report["summary"]["events_by_tier"] = {"noticeable": 0, "severe": 3, "frozen": 0,
                                               "hang": 2}
        report["summary"]["events_total"] = 5
        report["config"]["threshold_ns"] = 16 * MS
        out = self.summarize(report)
        self.assertEqual(out.splitlines()[0], "Jank summary: other-app (pid 77)")
        self.assertEqual(overview_value(out, "Toolkit"), "glib, preload mode")
        self.assertEqual(overview_value(out, "Iterations"), "31")
        self.assertEqual(overview_value(out, "Busy"), "25.0 % of the monitored time")
        self.assertEqual(overview_value(out, "Stall events"),
                         "5 (noticeable 0, severe 3, frozen 0, hang 2), threshold 16.0 ms")

    def test_drops_and_partial_reports_are_flagged(self):
        report = make_report()
        report["final"] = False
        report["summary"].update(events_dropped=3, records_dropped=12)
        out = self.summarize(report)
        self.assertIn("3 events did not fit", overview_value(out, "Dropped"))
        self.assertIn("12 records", overview_value(out, "Lost"))
        self.assertIn("not the final report", overview_value(out, "Note"))

    def test_top_sources_by_total(self):
        table = section(self.summarize(make_report()), "Top sources by total time")
        self.assertEqual(table[0].split(), ["SOURCE", "CALLBACK", "COUNT", "TOTAL", "MAX", "P95"])
        self.assertEqual([row.split()[0] for row in table[1:]],
                         ["[gtk]", "(unnamed)", "timer-a", "timer-b", "net"])
        self.assertEqual(table[1].split(), ["[gtk]", "paint", "gdk_frame_clock_paint_idle", "445",
                                            "900.0", "ms", "60.0", "ms", "4.1", "ms"])
        self.assertEqual(table[2].split(), ["(unnamed)", "slow_idle", "3", "800.0", "ms",
                                            "400.0", "ms", "390.0", "ms"])
        # The last column is right-aligned: every line has the same length.
        self.assertEqual(len({len(row) for row in table}), 1, "\n".join(table))

    def test_top_sources_by_max(self):
        table = section(self.summarize(make_report()), "Top sources by longest dispatch")
        self.assertEqual([row.split()[0] for row in table[1:]],
                         ["(unnamed)", "rare-slow", "[gtk]", "net", "timer-b"])

    def test_short_times_have_two_decimals(self):
        report = make_report()
        report["summary"]["sources"] = [source("tiny", "tiny_cb", 1, 10_000, 0.5, 0.04)]
        table = section(self.summarize(report), "Top sources by total time")
        self.assertEqual(table[1].split()[3:],
                         ["10000.0", "ms", "0.50", "ms", "0.04", "ms"])

    def test_worst_events(self):
        out = self.summarize(make_report())
        table = section(out, "Worst events (5 of 7)")
        header = table[0]
        self.assertEqual(header.split(),
                         ["#", "START", "DURATION", "TIER", "TYPE", "SOURCE", "CALLBACK", "CLASS",
                          "CULPRIT"])
        self.assertEqual([row.split()[0] for row in table[1:]], ["4", "2", "6", "1", "5"])
        # No stacks in this report: class and culprit unknown.
        self.assertEqual(table[1].split(),
                         ["4", "3.000", "s", "750.0", "ms", "frozen", "dispatch", "rare-slow",
                          "rare", "-", "-"])
        self.assertEqual(table[2].split(),
                         ["2", "1.000", "s", "400.0", "ms", "severe", "dispatch", "(unnamed)",
                          "slow_idle", "-", "-"])
        for row in table[1:]:
            tier = row.split()[5]
            self.assertEqual(row.index(tier), header.index("TIER"), row)

    def test_iteration_event_has_no_source(self):
        report = make_report()
        report["events"] = [EVENTS[2]]
        table = section(self.summarize(report), "Worst events")
        self.assertEqual(table[1].split(),
                         ["3", "2.250", "s", "55.0", "ms", "noticeable", "iteration", "-", "-",
                          "-", "-"])

    def test_empty_report(self):
        report = make_report()
        report["summary"]["sources"] = []
        report["events"] = []
        report["summary"]["monitored_ns"] = 0
        out = self.summarize(report)
        self.assertIn("No jank events.", out)
        self.assertIn("No dispatches were recorded.", out)
        self.assertEqual(overview_value(out, "Busy"), "n/a")
        self.assertNotIn("Worst events", out)

    def test_unknown_members_are_ignored(self):
        report = make_report()
        report["future"] = {"nested": [1, 2.5, None, {"x": "y"}]}
        report["summary"]["sources"][0]["future"] = True
        report["events"][0]["culprit"] = {"frame": "x", "confidence": 0.5}
        self.assertIn("Top sources by total time", self.summarize(report))

    def test_nullable_process_strings(self):
        report = make_report()
        report["process"].update(name=None, toolkit=None, mode=None)
        out = self.summarize(report)
        self.assertEqual(out.splitlines()[0], "Jank summary: (unknown) (pid 4242)")

    def test_hostile_strings_are_sanitized(self):
        report = make_report()
        report["summary"]["sources"] = [
            source("\x1b]0;pwned\x07\x1b[31mred", "cb\r\nInjected line", 1, 100, 100, 100),
            source("x" * 300, "y" * 300, 1, 50, 50, 50),
        ]
        report["process"]["name"] = "app\x1b[2J"
        out = self.summarize(report)
        self.assertNotIn("\x1b", out)
        self.assertNotIn("\r", out)
        self.assertNotIn("\x07", out)
        self.assertNotRegex(out, r"(?m)^Injected")
        table = section(out, "Top sources by total time")
        long_row = table[2].split()
        self.assertEqual(long_row[0], "x" * 37 + "...")
        self.assertEqual(long_row[1], "y" * 37 + "...")

    def test_largest_integers(self):
        report = make_report()
        big = 2**63 - 1
        report["summary"]["sources"] = [source("big", "cb", big, 1, 1, 1)]
        report["summary"]["sources"][0].update(total_ns=big, max_ns=big, p95_ns=big)
        report["summary"].update(iterations=big, busy_ns=big, monitored_ns=big)
        report["process"]["start_ns"] = 0
        report["events"][0].update(start_ns=big, duration_ns=big)
        out = self.summarize(report)
        self.assertEqual(overview_value(out, "Iterations"), str(big))
        self.assertIn(str(big), section(out, "Top sources by total time")[1])


class StacksTest(CliTestCase):
    """The stacks and classification members: docs/report-format.md, "Stacks and
    classification"."""

    def summarize(self, report):
        path = self.write("report.json", json.dumps(report))
        proc = run_cli("summary", path)
        self.assertExit(proc, 0)
        self.assertEqual(proc.err, "")
        return proc.out

    def test_class_and_culprit_columns(self):
        out = self.summarize(make_stacks_report())
        table = section(out, "Worst events (5 of 7)")
        header = table[0]
        self.assertEqual(header.split()[-2:], ["CLASS", "CULPRIT"])
        rows = {row.split()[0]: row for row in table[1:]}
        tail = {key: row[header.index("CLASS"):].split("  ") for key, row in rows.items()}
        tail = {key: [cell.strip() for cell in cells if cell.strip()]
                for key, cells in tail.items()}
        self.assertEqual(tail["4"], ["wait: sleep", "rare (main.c:42) 85%"])
        self.assertEqual(tail["2"], ["compute", "slow_idle 50%"])
        self.assertEqual(tail["6"], ["mixed: lock", "?? in libbar.so.1 30%"])
        self.assertEqual(tail["5"], ["compute", "on_data 100%"])
        self.assertEqual(tail["1"], ["-", "-"])
        for row in table[1:]:
            self.assertEqual(row.index(row[header.index("CLASS"):].split()[0]),
                             header.index("CLASS"), row)

    def test_parts_each_with_its_cause(self):
        """An episode of two causes (docs/report-format.md, "Causes per
        part"): its parts under its heading, each with its class, culprit
        (the callback before a library's culprit) and attributed time."""
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import test_export as te
        out = self.summarize(te.profile_report())
        lines = section(out, "Stacks of the worst events")
        start = lines.index("  Event 1 (420.0 ms), top stack in 12 of 51 samples:")
        self.assertEqual(lines[start + 1].strip(), "Parts:")
        rows = [line.split() for line in lines[start + 2:start + 5]]
        self.assertEqual(rows[0], ["PART", "START", "DURATION", "CALLBACK", "CLASS", "CULPRIT",
                                   "ATTRIBUTED"])
        self.assertEqual(rows[1], ["1", "+0.000", "s", "300.0", "ms", "work_cb", "compute",
                                   "work_cb", "80%", "240.0", "ms"])
        self.assertEqual(rows[2], ["2", "+0.800", "s", "120.0", "ms", "sleepy_cb", "wait:", "sleep",
                                   "sleepy_cb", "→", "g_usleep", "80%", "120.0", "ms"])
        # A library's culprit in the events table, with the callback.
        report = te.profile_report()
        report["events"][0]["culprit"] = te.pr.culprit(
            "gtk_text_layout_validate", "libgtk-4.so.1", "library",
            callback=("first_validate_callback", "libgtk-4.so.1"))
        out = self.summarize(report)
        # (cut to the column's width, the confidence kept)
        self.assertIn("first_validate_callback → gtk_text_layout_... 80%", out)

    def test_top_stacks_of_the_worst_three(self):
        out = self.summarize(make_stacks_report())
        lines = section(out, "Stacks of the worst events")
        # Events 4, 2, 6 by duration (5 has a stack too, but is fourth).
        headings = [line for line in lines if not line.startswith("    ")]
        self.assertEqual(headings, [
            "  Event 4 (750.0 ms), top stack in 17 of 20 samples:",
            "  Event 2 (400.0 ms), top stack in 8 of 10 samples:",
            "  Event 6 (210.0 ms), top stack in 3 of 10 samples:",
        ])
        first = lines[1:lines.index(headings[1])]
        self.assertEqual(first, [
            "    #0  clock_nanosleep [libc.so.6]",
            "    #1  g_usleep (gtimer.c:265) [libglib-2.0.so.0]",
            "    #2  rare (main.c:42) [fake-app]",
            "    #3  libfoo.so+0x4711",
            "    #4  helper (main.c:10) [fake-app] (inlined)",
            "    #5  caller0 [fake-app]",
            "    #6  caller1 [fake-app]",
            "    #7  caller2 [fake-app]",
            "        … 3 more frames",
        ])
        self.assertEqual(lines[-1], "    #0  libbar.so.1+0x99")
        self.assertTrue(out.endswith("    #0  libbar.so.1+0x99\n"), out)

    def test_sampling_line(self):
        report = make_stacks_report()
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "40 samples, 5 stalls, 12 signals, 1 timeout")
        report["summary"]["sampler"].update(syscalls_interrupted=3, signal_lost=True)
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "40 samples, 5 stalls, 12 signals, 1 timeout, "
                         "interrupted system calls: 3, sampling signal taken over by the app")
        report["summary"]["sampler"] = {"signal": None, "samples": 0}
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "stack sampling off, 0 samples")
        report["summary"]["sampler"] = None
        self.assertNotRegex(self.summarize(report), r"(?m)^  Sampling ")

    def test_sampling_path(self):
        # summary.sampler.sampling_path: said when it is not the CPU-time timer.
        report = make_stacks_report()
        sampler = report["summary"]["sampler"]
        sampler.update(sampling_path="cpu-timer", sampling_path_reason=None)
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "40 samples, 5 stalls, 12 signals, 1 timeout")
        sampler.update(sampling_path="watchdog", sampling_path_reason="timer_create: EAGAIN")
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "sampled by the watchdog (timer_create: EAGAIN), 40 samples, 5 stalls, "
                         "12 signals, 1 timeout")
        sampler.update(sampling_path_reason=None)
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "sampled by the watchdog, 40 samples, 5 stalls, 12 signals, 1 timeout")
        report["summary"]["sampler"] = {"signal": None, "samples": 0, "sampling_path": "off",
                                        "sampling_path_reason": "JANKSCOPE_SAMPLING=0"}
        self.assertEqual(overview_value(self.summarize(report), "Sampling"),
                         "stack sampling off (JANKSCOPE_SAMPLING=0), 0 samples")

    def test_ongoing_hang_comes_first(self):
        out = self.summarize(make_hang_report())
        lines = out.splitlines()
        heading = ("Main thread stuck for 3.2 s when the report was last written (the app was "
                   "killed or is still hung)")
        self.assertEqual(lines[0], heading)
        self.assertEqual(lines[1], "=" * len(heading))
        block = lines[2:lines.index("")]
        self.assertEqual(block, [
            "  Class      wait: lock (on CPU 2.0 ms, waiting 3.2 s)",
            "  Culprit    wait_for_lock (app.c:77), 90% confidence, 27 of 30 samples, "
            "in the app's own code",
            "  Top stack  27 of 30 samples",
            "    #0  syscall [libc.so.6]",
            "    #1  g_mutex_lock_slowpath [libglib-2.0.so.0]",
            "    #2  wait_for_lock (app.c:77) [fake-app]",
            "    #3  on_button (app.c:120) [fake-app]",
        ])
        self.assertEqual(lines[lines.index("") + 1], "Jank summary: fake-app (pid 4242)")
        self.assertIn("not the final report", overview_value(out, "Note"))
        # Not an event of the table: it has its block.
        table = section(out, "Worst events (5 of 7)")
        self.assertNotIn("0", [row.split()[0] for row in table[1:]])

    def test_ongoing_hang_alone(self):
        report = make_report()
        report["events"] = [ongoing_hang(duration_ms=400)]
        out = self.summarize(report)
        self.assertTrue(out.startswith("Main thread stuck for 400.0 ms when the report"), out)
        self.assertIn("No other jank events.", out)
        self.assertNotIn("Worst events", out)

    def test_ongoing_hang_without_samples(self):
        report = make_report()
        hang = ongoing_hang()
        for member in ("cpu_ns", "off_cpu_ns", "class", "wait", "culprit"):
            hang[member] = None
        hang["stacks"] = []
        report["events"].append(hang)
        block = section(self.summarize(report), "Main thread stuck for 3.2 s")
        self.assertEqual(block[1:], ["  Class      unknown", "  Culprit    unknown",
                                     "  Top stack  no stack was sampled"])

    def test_previous_run(self):
        report = make_report()
        hang = ongoing_hang(duration_ms=5000)
        report["previous_run"] = {"pid": 4100, "exe": "/usr/bin/fake-app", "hang": hang}
        out = self.summarize(report)
        self.assertEqual(out.splitlines()[0], "Jank summary: fake-app (pid 4242)")
        block = section(out, "The previous run (pid 4100) ended during a hang of 5.0 s")
        self.assertEqual(block[:3], [
            "  Program    /usr/bin/fake-app",
            "  Class      wait: lock (on CPU 2.0 ms, waiting 5.0 s)",
            "  Culprit    wait_for_lock (app.c:77), 90% confidence, 27 of 30 samples, "
            "in the app's own code",
        ])
        self.assertIn("    #2  wait_for_lock (app.c:77) [fake-app]", block)
        # The core writes pid 0 and exe "" when the old report had none.
        report["previous_run"].update(pid=0, exe="")
        out = self.summarize(report)
        block = section(out, "The previous run ended during a hang of 5.0 s")
        self.assertTrue(block[0].startswith("  Class "), block)

    def test_old_reports_still_work(self):
        report = strip_new_members(make_stacks_report())
        out = self.summarize(report)
        self.assertNotIn("Stacks of the worst events", out)
        self.assertNotRegex(out, r"(?m)^  Sampling ")
        table = section(out, "Worst events (5 of 7)")
        for row in table[1:]:
            self.assertEqual(row.split()[-2:], ["-", "-"], row)

    def test_nulls_are_unknown(self):
        report = make_stacks_report()
        ev = report["events"][3]
        ev.update(cpu_ns=None, off_cpu_ns=None, wait=None, stacks=None, samples_total=None)
        ev["culprit"].update(file=None, line=None, confidence=None, samples=None,
                             of_samples=None, reason=None, module=None)
        report["summary"]["sampler"] = {}
        out = self.summarize(report)
        row = section(out, "Worst events (5 of 7)")[1]
        self.assertEqual(row.split()[-2:], ["wait", "rare"])
        self.assertEqual(overview_value(out, "Sampling"), "no counts")
        # Event 4 has no stack any more: 2, 6 and 5 are printed.
        headings = [line.split()[1] for line in section(out, "Stacks of the worst events")
                    if not line.startswith("    ")]
        self.assertEqual(headings, ["2", "6", "5"])

    def test_unknown_classes_are_shown_as_written(self):
        report = make_stacks_report()
        report["events"][3].update({"class": "quantum", "wait": "teleport"})
        report["events"][3]["culprit"]["reason"] = "hunch"
        out = self.summarize(report)
        self.assertIn("quantum: teleport", section(out, "Worst events (5 of 7)")[1])

    def test_hostile_strings_are_sanitized_and_cut(self):
        report = make_stacks_report()
        ev = report["events"][3]
        ev["culprit"]["function"] = "evil\x1b]0;pwned\x07\x1b[2J" + "x" * 5000
        ev["stacks"][0]["frames"][0] = frame("f\r\nInjected line\x9b31m", "m\x00od" * 10000,
                                             "file\x1b.c", 3)
        report["summary"]["sampler"]["unwinder"] = "\x1b[31m"
        report["summary"]["sampler"].update(sampling_path="watchdog",
                                            sampling_path_reason="\x1b[31mEAGAIN\x07")
        out = self.summarize(report)
        for bad in ("\x1b", "\r", "\x07", "\x9b", "\x00"):
            self.assertNotIn(bad, out)
        self.assertNotRegex(out, r"(?m)^Injected")
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 250)
        row = section(out, "Worst events (5 of 7)")[1]
        self.assertRegex(row, r"evil\?\]0;pwned\?\?\[2Jx+\.\.\. 85%$")

    def write_spliced(self, report, marker, pieces):
        """Writes the report with the string marker replaced by the pieces,
        streamed: the test process stays small, and the peak RSS of the CLI
        (which starts as a copy of it: Linux keeps the peak over fork and exec)
        measures the CLI."""
        head, tail = json.dumps(report).split(json.dumps(marker))
        path = self.path("big.json")
        with open(path, "w") as f:
            f.write(head)
            for piece in pieces:
                f.write(piece)
            f.write(tail)
        return path

    def test_many_frames_and_stacks(self):
        report = make_stacks_report()
        report["events"][3]["stacks"] = "@STACKS@"

        def stacks():
            yield '[{"count": 9, "frames": ['
            for i in range(100_000):
                # Only the frames printed are read: a broken one further down is not seen.
                yield ("" if i == 0 else ", ") + (
                    '"not a frame"' if i == 50_000 else json.dumps(frame(f"f{i}", "libdeep.so")))
            yield "]}"
            for _ in range(100_000):
                yield ', {"count": 1, "frames": []}'
            yield "]"

        proc, rss_mb = run_measured(self, self.write_spliced(report, "@STACKS@", stacks()))
        self.assertExit(proc, 0)
        lines = section(proc.out, "Stacks of the worst events")
        self.assertEqual(lines[1:10], [f"    #{i}  f{i} [libdeep.so]" for i in range(8)]
                         + ["        … 99992 more frames"])
        self.assertPeakBelow(rss_mb, 300)  # 14 MB of JSON: json-glib's tree takes some 200 MB

    def test_huge_strings(self):
        report = make_stacks_report()
        report["events"][3]["stacks"][0]["frames"][0]["function"] = "@F@"
        report["events"][3]["culprit"]["function"] = "@C@"
        path = self.write_spliced(report, "@F@", ['"', "é" * 20_000_000, '"'])
        with open(path) as f:
            head, tail = f.read().split('"@C@"')
        with open(path, "w") as f:
            f.write(head + '"' + "界" * 5_000_000 + '"' + tail)
        del head, tail
        proc, rss_mb = run_measured(self, path)
        self.assertExit(proc, 0)
        self.assertLessEqual(max(len(line) for line in proc.out.splitlines()), 250)
        self.assertIn("    #0  " + "é" * 157 + "...", proc.out)
        # 50 cells: 21 wide characters, "...", " 85%"
        self.assertIn(" " + "界" * 21 + "... 85%", section(proc.out, "Worst events (5 of 7)")[1])
        self.assertPeakBelow(rss_mb, 350)  # 55 MB of strings, held by json-glib

    def test_too_many_values(self):
        # 8 million empty objects: 24 MB of text, but some 2.5 GB as a json-glib tree.
        report = make_stacks_report()
        report["future"] = "@JUNK@"
        path = self.write_spliced(report, "@JUNK@", ["[", ",".join(["{}"] * 8_000_000), "]"])
        proc, rss_mb = run_measured(self, path)
        self.assertExit(proc, 1)
        self.assertIn("too many values", proc.err)
        self.assertPeakBelow(rss_mb, 200)


class ReportErrorTest(CliTestCase):
    """Untrusted input: each gives exit code 1 and one clear message."""

    def check_error(self, path, *fragments):
        proc = run_cli("summary", path)
        self.assertExit(proc, 1)
        self.assertEqual(proc.out, "")
        self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
        self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
        for fragment in fragments:
            self.assertIn(fragment, proc.err)

    def check_report_error(self, mutate, *fragments):
        report = make_report()
        mutate(report)
        self.check_error(self.write("report.json", json.dumps(report)), *fragments)

    def test_file_errors(self):
        self.check_error(self.path("missing.json"), "missing.json", "No such file")
        self.check_error(self.tmp, "is a directory")
        self.check_error(self.write("empty.json", ""), "empty")
        self.check_error(self.write("blank.json", " \n\t\n"), "not valid JSON")

    def test_too_large(self):
        path = self.path("huge.json")
        with open(path, "wb") as f:
            f.truncate(300 * 1024 * 1024)  # sparse: costs no disk space
        self.check_error(path, "too large")

    def test_not_json(self):
        self.check_error(self.write("a.json", "hello world"), "not valid JSON")
        self.check_error(self.write("b.json", "{\"format\": \"jankscope-report\",}"),
                         "not valid JSON")
        self.check_error(self.write("c.json", b"\xff\xfe{}"), "not valid JSON")
        self.check_error(self.write("d.json", b"{\"format\": \"jank\x00scope\"}"),
                         "not valid JSON")

    def test_truncated(self):
        text = json.dumps(make_report(), indent=2)
        for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
            with self.subTest(cut=cut):
                self.check_error(self.write("cut.json", text[:cut]), "not valid JSON")

    def test_module_table(self):
        """The module table (`modules`): optional; a good one is read, and
        each broken member is named."""
        good = {"name": "libfoo.so.1", "path": "/usr/lib/libfoo.so.1",
                "build_id": "c2490b1f", "text_vaddr": "0x1000", "text_offset": "0x1000"}
        for table in ([], [good], [dict(good, path=None, build_id=None)],
                      [dict(good, path="~/build/libfoo.so.1")],
                      [{"name": "linux-vdso.so.1", "path": None, "build_id": "ab12"}]):
            with self.subTest(table=table):
                report = make_report()
                report["modules"] = table
                proc = run_cli("summary", self.write("ok.json", json.dumps(report)))
                self.assertExit(proc, 0)
        cases = [
            ({"modules": {"name": "x"}}, "modules must be an array"),
            ({"modules": [1]}, "modules[0]"),
            ({"modules": [dict(good, name=None)]}, "modules[0].name must be a string"),
            ({"modules": [dict(good, name="")]}, "modules[0].name must be a file name"),
            ({"modules": [dict(good, name="../libfoo.so")]}, "modules[0].name"),
            ({"modules": [good, dict(good, path="libfoo.so.1")]},
             "modules[1].path must be an absolute path"),
            ({"modules": [dict(good, path=7)]}, "modules[0].path"),
            ({"modules": [dict(good, build_id="xyz")]}, "modules[0].build_id must be hex"),
            ({"modules": [dict(good, build_id="abc")]}, "modules[0].build_id"),
            ({"modules": [dict(good, build_id="ab" * 65)]}, "modules[0].build_id"),
            ({"modules": [dict(good, text_vaddr="4096")]}, "modules[0].text_vaddr"),
            ({"modules": [dict(good, text_vaddr="0x")]}, "modules[0].text_vaddr"),
            ({"modules": [dict(good, text_vaddr="0x1g")]}, "modules[0].text_vaddr"),
            ({"modules": [dict(good, text_offset="0x" + "f" * 16)]}, "modules[0].text_offset"),
            ({"modules": [dict(good, text_offset=None)]}, "modules[0].text_offset is missing"),
            ({"modules": [good] * 4097}, "at most 4096"),
        ]
        for members, fragment in cases:
            with self.subTest(fragment=fragment):
                self.check_report_error(lambda r, m=members: r.update(m), fragment)

    def test_not_a_report(self):
        self.check_error(self.write("a.json", "[1, 2]"), "not a jankscope report", "an array")
        self.check_error(self.write("b.json", "\"text\""), "not a jankscope report", "a string")
        self.check_error(self.write("c.json", "42"), "not a jankscope report")
        self.check_error(self.write("d.json", "null"), "not a jankscope report")
        self.check_error(self.write("e.json", "{}"), "not a jankscope report")
        self.check_report_error(lambda r: r.update(format="sysprof-capture"),
                                "not a jankscope report")
        self.check_report_error(lambda r: r.update(format=1), "not a jankscope report")

    def test_versions(self):
        self.check_report_error(lambda r: r.update(version=2), "version 2 is not supported")
        self.check_report_error(lambda r: r.update(version="1"), "version")
        self.check_report_error(lambda r: r.pop("version"), "version")

    def test_missing_members(self):
        self.check_report_error(lambda r: r.pop("summary"), "summary is missing")
        self.check_report_error(lambda r: r["process"].pop("pid"), "process.pid is missing")
        self.check_report_error(lambda r: r["summary"]["events_by_tier"].pop("hang"),
                                "summary.events_by_tier.hang is missing")
        self.check_report_error(lambda r: r["events"][3].pop("duration_ns"),
                                "events[3].duration_ns is missing")

    def test_wrong_types(self):
        cases = [
            (lambda r: r["summary"].update(iterations="4512"),
             "summary.iterations must be an integer, not a string"),
            (lambda r: r["summary"].update(iterations=1.5),
             "summary.iterations must be an integer, not a number"),
            (lambda r: r["summary"].update(iterations=None),
             "summary.iterations must be an integer, not null"),
            (lambda r: r["summary"].update(sources={}),
             "summary.sources must be an array, not an object"),
            (lambda r: r["summary"]["sources"].append(7),
             "summary.sources[7] must be an object, not an integer"),
            (lambda r: r["summary"]["sources"][2].update(source=["x"]),
             "summary.sources[2].source must be a string or null, not an array"),
            (lambda r: r.update(events=[True]), "events[0] must be an object, not a boolean"),
            (lambda r: r.update(final="yes"), "final must be a boolean, not a string"),
            (lambda r: r.update(process=[]), "process must be an object, not an array"),
            (lambda r: r["events"][1].update(tier="extreme"),
             "events[1].tier must be light, noticeable, severe, frozen or hang, not “extreme”"),
            (lambda r: r["events"][1].update(tier=None), "events[1].tier must be a string"),
        ]
        for mutate, fragment in cases:
            with self.subTest(fragment=fragment):
                self.check_report_error(mutate, fragment)

    def test_out_of_range_numbers(self):
        self.check_report_error(lambda r: r["summary"].update(busy_ns=-1),
                                "summary.busy_ns must not be negative")
        self.check_report_error(lambda r: r["events"][0].update(start_ns=-5),
                                "events[0].start_ns must not be negative")
        text = json.dumps(make_report())
        for huge in ("99999999999999999999999", "9223372036854775808",
                     "-9223372036854775809", "1" * 5000):
            with self.subTest(huge=huge[:30]):
                broken = text.replace('"iterations": 4512', f'"iterations": {huge}')
                self.assertNotEqual(broken, text)
                self.check_error(self.write("huge.json", broken), "does not fit in 64 bits")
        broken = text.replace('"iterations": 4512', '"iterations": 1e400')
        self.check_error(self.write("inf.json", broken), "summary.iterations must be an integer")
        # Huge numbers inside strings are just text.
        report = make_report()
        report["process"]["name"] = "99999999999999999999999 \\\" [[[ 1e999"
        proc = run_cli("summary", self.write("ok.json", json.dumps(report)))
        self.assertExit(proc, 0)
        self.assertIn("Jank summary: 99999999999999999999999", proc.out)

    def test_deep_nesting(self):
        self.check_error(self.write("deep.json", "[" * 200_000), "nested more than")
        self.check_error(self.write("deep2.json", "[" * 100_000 + "]" * 100_000),
                         "nested more than")
        text = json.dumps(make_report())
        broken = text[:-1] + ', "future": ' + "{\"a\": " * 1000 + "1" + "}" * 1000 + "}"
        self.check_error(self.write("deep3.json", broken), "nested more than")


class StacksErrorTest(CliTestCase):
    """Hostile values in the stacks and classification members: a clear error
    naming the member, exit code 1, never a crash."""

    check_error = ReportErrorTest.check_error

    def check_stacks_error(self, mutate, *fragments):
        report = make_stacks_report()
        mutate(report)
        self.check_error(self.write("report.json", json.dumps(report)), *fragments)

    def test_wrong_types(self):
        def ev(report):  # event 4, with stacks: events[3]
            return report["events"][3]

        def hang(report):
            report["events"].append(ongoing_hang())
            return report["events"][-1]

        cases = [
            (lambda r: ev(r).update(culprit="main"),
             "events[3].culprit must be an object or null, not a string"),
            (lambda r: ev(r).update(culprit=[]),
             "events[3].culprit must be an object or null, not an array"),
            (lambda r: ev(r)["culprit"].update(confidence=7.5),
             "events[3].culprit.confidence must be from 0 to 1 (it is 7.5)"),
            (lambda r: ev(r)["culprit"].update(confidence=-1),
             "events[3].culprit.confidence must be from 0 to 1 (it is -1)"),
            (lambda r: ev(r)["culprit"].update(confidence=2),
             "events[3].culprit.confidence must be from 0 to 1 (it is 2)"),
            (lambda r: ev(r)["culprit"].update(confidence="high"),
             "events[3].culprit.confidence must be a number or null, not a string"),
            (lambda r: ev(r)["culprit"].update(function=42),
             "events[3].culprit.function must be a string or null, not an integer"),
            (lambda r: ev(r)["culprit"].update(line=-3),
             "events[3].culprit.line must not be negative (it is -3)"),
            (lambda r: ev(r)["culprit"].update(line="42"),
             "events[3].culprit.line must be an integer or null, not a string"),
            (lambda r: ev(r)["culprit"].update(samples=30, of_samples=20),
             "events[3].culprit.samples (30) must not be more than its of_samples (20)"),
            (lambda r: ev(r)["culprit"].update(reason={}),
             "events[3].culprit.reason must be a string or null, not an object"),
            (lambda r: ev(r).update(stacks={}),
             "events[3].stacks must be an array or null, not an object"),
            (lambda r: ev(r).update(stacks="deep"),
             "events[3].stacks must be an array or null, not a string"),
            (lambda r: ev(r).update(stacks=[5]),
             "events[3].stacks[0] must be an object, not an integer"),
            (lambda r: ev(r)["stacks"][0].update(frames={"0": {}}),
             "events[3].stacks[0].frames must be an array or null, not an object"),
            (lambda r: ev(r)["stacks"][0].update(count=-2),
             "events[3].stacks[0].count must not be negative"),
            (lambda r: ev(r)["stacks"][0]["frames"].__setitem__(2, None),
             "events[3].stacks[0].frames[2] must be an object, not null"),
            (lambda r: ev(r)["stacks"][0]["frames"][1].update(function=["g_usleep"]),
             "events[3].stacks[0].frames[1].function must be a string or null, not an array"),
            (lambda r: ev(r)["stacks"][0]["frames"][1].update(line=1.5),
             "events[3].stacks[0].frames[1].line must be an integer or null, not a number"),
            (lambda r: ev(r)["stacks"][0]["frames"][1].update(inlined="yes"),
             "events[3].stacks[0].frames[1].inlined must be a boolean, not a string"),
            (lambda r: ev(r).update({"class": 3}),
             "events[3].class must be a string or null, not an integer"),
            (lambda r: ev(r).update(wait=True),
             "events[3].wait must be a string or null, not a boolean"),
            (lambda r: ev(r).update(cpu_ns=-1), "events[3].cpu_ns must not be negative"),
            (lambda r: ev(r).update(off_cpu_ns="1"),
             "events[3].off_cpu_ns must be an integer or null, not a string"),
            (lambda r: ev(r).update(samples_total=2.5),
             "events[3].samples_total must be an integer or null, not a number"),
            (lambda r: hang(r).update(ongoing="yes"),
             "events[7].ongoing must be a boolean, not a string"),
            (lambda r: hang(r)["culprit"].update(confidence=1.01),
             "events[7].culprit.confidence must be from 0 to 1"),
            (lambda r: r.update(previous_run="crashed"),
             "previous_run must be an object or null, not a string"),
            (lambda r: r.update(previous_run={"pid": 1}), "previous_run.hang is missing"),
            (lambda r: r.update(previous_run={"pid": "1", "hang": ongoing_hang()}),
             "previous_run.pid must be an integer or null, not a string"),
            (lambda r: r.update(previous_run={"pid": 1, "hang": {"id": 0}}),
             "previous_run.hang.type is missing"),
            (lambda r: r.update(previous_run={"pid": 1, "hang": dict(ongoing_hang(),
                                                                     culprit=7)}),
             "previous_run.hang.culprit must be an object or null, not an integer"),
            (lambda r: r["summary"].update(sampler=[]),
             "summary.sampler must be an object or null, not an array"),
            (lambda r: r["summary"]["sampler"].update(samples="40"),
             "summary.sampler.samples must be an integer or null, not a string"),
            (lambda r: r["summary"]["sampler"].update(signal_lost=1),
             "summary.sampler.signal_lost must be a boolean, not an integer"),
            (lambda r: r["summary"]["sampler"].update(signal="SIGPROF"),
             "summary.sampler.signal must be an integer or null, not a string"),
            (lambda r: r["summary"]["sampler"].update(sampling_path=1),
             "summary.sampler.sampling_path must be a string or null, not an integer"),
            (lambda r: r["summary"]["sampler"].update(sampling_path_reason=["EAGAIN"]),
             "summary.sampler.sampling_path_reason must be a string or null, not an array"),
        ]
        for mutate, fragment in cases:
            with self.subTest(fragment=fragment):
                self.check_stacks_error(mutate, fragment)

    def test_what_is_not_read_is_not_checked(self):
        # Unknown members, the stacks after the first, the samples, the watchdog:
        # not used by the CLI, so not validated.
        report = make_stacks_report()
        ev = report["events"][3]
        ev["stacks"].append("not a stack")
        ev["stacks"][1]["frames"] = [None]
        ev.update(samples="many", watchdog=[1, 2], stacks_omitted="lots")
        ev["culprit"]["novel"] = {"x": [None]}
        proc = run_cli("summary", self.write("report.json", json.dumps(report)))
        self.assertExit(proc, 0)
        self.assertIn("Event 4 (750.0 ms)", proc.out)

    def test_deep_nesting_in_stacks(self):
        text = json.dumps(make_stacks_report())
        marker = '"function": "rare"'
        self.assertIn(marker, text)
        deep = text.replace(marker, '"function": ' + "[" * 5000 + "]" * 5000, 1)
        self.check_error(self.write("deep.json", deep), "nested more than")
        deep = text.replace(marker, '"function": ' + '{"a": ' * 80 + "1" + "}" * 80, 1)
        self.check_error(self.write("deep2.json", deep), "nested more than")

    def test_huge_numbers_in_stacks(self):
        text = json.dumps(make_stacks_report())
        broken = text.replace('"samples": 17', '"samples": 99999999999999999999999', 1)
        self.assertNotEqual(broken, text)
        self.check_error(self.write("huge.json", broken), "does not fit in 64 bits")
        broken = text.replace('"confidence": 0.85', '"confidence": 1e400', 1)
        self.check_error(self.write("inf.json", broken),
                         "events[3].culprit.confidence must be from 0 to 1")


class RunTest(CliTestCase):
    def test_exit_code_passes_through(self):
        for code in (0, 1, 7, 255):
            with self.subTest(code=code):
                proc = run_cli("run", "--", "sh", "-c", f"exit {code}")
                self.assertExit(proc, code)
                self.assertIn(f"sh exited with status {code}", proc.err)
                self.assertIn("no report was written", proc.err)

    def test_not_a_glib_program(self):
        # What to do, in one line: not a question, not two guesses.
        proc = run_cli("run", "--", "sh", "-c", "exit 0")
        self.assertExit(proc, 0)
        self.assertEqual(proc.err.splitlines()[-1],
                         "jankscope: no report was written: “sh” ran no GLib main loop, or ended "
                         "before jankscope could write one; jankscope watches GLib and GTK "
                         "programs only")

    def test_without_double_dash(self):
        proc = run_cli("run", "sh", "-c", "exit 3")
        self.assertExit(proc, 3)

    def test_killed_by_signal(self):
        proc = run_cli("run", "--", "sh", "-c", "kill -TERM $$")
        self.assertExit(proc, 143)
        self.assertIn("killed by signal 15", proc.err)
        proc = run_cli("run", "--", "sh", "-c", "kill -KILL $$")
        self.assertExit(proc, 137)

    def test_app_not_found(self):
        proc = run_cli("run", "--", "jankscope-no-such-program-xyz", "arg")
        self.assertExit(proc, 127)
        self.assertIn("cannot run “jankscope-no-such-program-xyz”", proc.err)
        proc = run_cli("run", "--", self.path("no-such-file"))
        self.assertExit(proc, 127)

    def test_app_not_executable(self):
        path = self.write("not-executable", "#!/bin/sh\nexit 0\n")
        os.chmod(path, 0o644)
        proc = run_cli("run", "--", path)
        self.assertExit(proc, 126)
        self.assertIn("cannot run", proc.err)

    def test_stdout_and_arguments_reach_the_app(self):
        proc = run_cli("run", "--", "sh", "-c", 'printf "%s|" "$@"', "sh", "-a", "--",
                       "--report", "x y")
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, "-a|--|--report|x y|")
        self.assertNotIn("jankscope", proc.out)

    def test_stdin_reaches_the_app(self):
        proc = subprocess.run([CLI, "run", "--", "sh", "-c", "read line; echo got $line"],
                              env=base_env(FAKE_A), input=b"hello\n", capture_output=True,
                              timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout, b"got hello\n")

    def echo_ld_preload(self, existing):
        env = base_env(FAKE_A)
        if existing is not None:
            env["LD_PRELOAD"] = existing
        proc = run_cli("run", "--", "sh", "-c", 'echo "$LD_PRELOAD"', env=env)
        self.assertExit(proc, 0)
        return proc.out.rstrip("\n")

    def test_ld_preload(self):
        self.assertEqual(self.echo_ld_preload(None), FAKE_A)
        self.assertEqual(self.echo_ld_preload(""), FAKE_A)
        self.assertEqual(self.echo_ld_preload(FAKE_B), f"{FAKE_B}:{FAKE_A}")
        self.assertEqual(self.echo_ld_preload(f"{FAKE_B}:"), f"{FAKE_B}:{FAKE_A}")
        # Already there: not added twice.
        self.assertEqual(self.echo_ld_preload(FAKE_A), FAKE_A)
        self.assertEqual(self.echo_ld_preload(f"{FAKE_A}:{FAKE_B}"), f"{FAKE_A}:{FAKE_B}")
        self.assertEqual(self.echo_ld_preload(f"{FAKE_B} {FAKE_A}"), f"{FAKE_B} {FAKE_A}")
        link = self.path("link.so")
        os.symlink(FAKE_A, link)
        self.assertEqual(self.echo_ld_preload(link), link)

    def test_another_copy_of_the_preload_is_kept(self):
        other = self.path("libjankscope-preload.so")
        shutil.copy(FAKE_B, other)
        env = base_env(self.copy_as_preload("a"), LD_PRELOAD=other)
        proc = run_cli("run", "--", "sh", "-c", 'echo "$LD_PRELOAD"', env=env)
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, f"{other}\n")
        self.assertIn("warning: LD_PRELOAD already holds", proc.err)

    def copy_as_preload(self, subdir):
        os.makedirs(self.path(subdir))
        path = os.path.join(self.path(subdir), "libjankscope-preload.so")
        shutil.copy(FAKE_A, path)
        return path

    def test_preload_lookup(self):
        # Build-tree layout: BIN/../libjankscope-preload.so, found from /proc/self/exe.
        os.makedirs(self.path("tree/cli"))
        cli = self.path("tree/cli/jankscope")
        shutil.copy(CLI, cli)
        shutil.copy(FAKE_A, self.path("tree/libjankscope-preload.so"))
        env = base_env()
        proc = run_cli("run", "--", "sh", "-c", 'echo "$LD_PRELOAD"', env=env, cli=cli)
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, self.path("tree/libjankscope-preload.so") + "\n")
        # JANKSCOPE_PRELOAD comes first, made absolute.
        env = base_env("../b.so")
        shutil.copy(FAKE_B, self.path("b.so"))
        proc = run_cli("run", "--", "sh", "-c", 'echo "$LD_PRELOAD"', env=env, cli=cli,
                       cwd=self.path("tree"))
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, self.path("b.so") + "\n")

    def test_preload_missing(self):
        proc = run_cli("run", "--", "sh", "-c", "exit 0",
                       env=base_env(self.path("nope.so")))
        self.assertExit(proc, 2)
        self.assertIn("JANKSCOPE_PRELOAD", proc.err)
        self.assertIn("nope.so", proc.err)
        installed = os.path.join(env_path("CLI_TEST_PKGLIBDIR"), "libjankscope-preload.so")
        if os.path.exists(installed):
            return  # an installed copy would be found: nothing more to check
        os.makedirs(self.path("bin"))
        cli = self.path("bin/jankscope")
        shutil.copy(CLI, cli)
        proc = run_cli("run", "--", "sh", "-c", "exit 0", env=base_env(), cli=cli)
        self.assertExit(proc, 2)
        self.assertIn("cannot find libjankscope-preload.so", proc.err)

    def test_preload_path_with_a_space(self):
        os.makedirs(self.path("with space"))
        path = self.path("with space/libjankscope-preload.so")
        shutil.copy(FAKE_A, path)
        proc = run_cli("run", "--", "true", env=base_env(path))
        self.assertExit(proc, 2)
        self.assertIn("LD_PRELOAD cannot hold", proc.err)

    def test_environment(self):
        env = base_env(FAKE_A, JANKSCOPE_MERGE_MS="123", JANKSCOPE_DEBUG="1",
                       JANKSCOPE_THRESHOLD_MS="70", JANKSCOPE_REPORT="/ignored.json")
        script = 'echo "$JANKSCOPE_MERGE_MS $JANKSCOPE_DEBUG $JANKSCOPE_THRESHOLD_MS"'
        proc = run_cli("run", "--", "sh", "-c", script, env=env)
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, "123 1 70\n")
        proc = run_cli("run", "-t", "90", "--", "sh", "-c", script, env=env)
        self.assertEqual(proc.out, "123 1 90\n")

    def test_report_option_is_made_absolute(self):
        os.makedirs(self.path("sub"))
        proc = run_cli("run", "--report", "sub/../r.json", "--", "sh", "-c",
                       'echo "$JANKSCOPE_REPORT"', cwd=self.tmp)
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, self.path("r.json") + "\n")
        self.assertIn("no report was written", proc.err)
        self.assertTrue(proc.err.endswith(f"Report: {self.path('r.json')}\n"), proc.err)

    def test_private_report_is_removed(self):
        # The report goes to a new private folder (no file is made in advance:
        # the app would read an empty file where it looks for a previous run's
        # journal); the folder and all the app left in it go at the end.
        script = ('echo "$JANKSCOPE_REPORT"; test -e "$JANKSCOPE_REPORT" && echo exists; '
                  'stat -c %a "$(dirname "$JANKSCOPE_REPORT")"; '
                  'echo x > "$JANKSCOPE_REPORT.1234"; echo y > "$JANKSCOPE_REPORT.journal"; exit 4')
        proc = run_cli("run", "--", "sh", "-c", script)
        self.assertExit(proc, 4)
        path, mode = proc.out.split()
        self.assertEqual(os.path.basename(path), "report.json")
        self.assertRegex(os.path.basename(os.path.dirname(path)), r"^jankscope-run-\w+$")
        self.assertEqual(mode, "700")
        self.assertTrue(os.path.isabs(path))
        self.assertFalse(os.path.exists(os.path.dirname(path)))
        self.assertNotIn("Report:", proc.err)

    def test_report_target_not_regular(self):
        fifo = self.path("fifo.json")
        os.mkfifo(fifo)
        os.symlink("/dev/null", self.path("link.json"))
        for target, what in ((fifo, "a FIFO"), (self.path("link.json"), "a symbolic link"),
                             (self.tmp, "a folder")):
            proc = run_cli("run", "--report", target, "--", "true")
            self.assertExit(proc, 2)
            self.assertIn(f"is {what}; a report is written only to a regular file", proc.err)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))

    def test_summary_of_the_app_report(self):
        source_path = self.write("source.json", json.dumps(make_report()))
        report = self.path("out.json")
        proc = run_cli("run", "--report", report, "--", "sh", "-c",
                       f'cp "{source_path}" "$JANKSCOPE_REPORT"; exit 5')
        self.assertExit(proc, 5)
        self.assertEqual(proc.out, "")
        self.assertIn("Jank summary: fake-app (pid 4242)", proc.err)
        self.assertEqual(overview_value(proc.err, "Iterations"), "4512")
        self.assertEqual([row.split()[0] for row in
                          section(proc.err, "Worst events (5 of 7)")[1:]],
                         ["4", "2", "6", "1", "5"])
        self.assertTrue(proc.err.endswith(f"Report: {report}\n"), proc.err)

    def test_summary_of_a_private_report(self):
        source_path = self.write("source.json", json.dumps(make_report()))
        proc = run_cli("run", "--", "sh", "-c", f'cp "{source_path}" "$JANKSCOPE_REPORT"')
        self.assertExit(proc, 0)
        self.assertIn("Jank summary: fake-app (pid 4242)", proc.err)
        self.assertNotIn("Report:", proc.err)

    def test_report_path_with_pid(self):
        source_path = self.write("source.json", json.dumps(make_report()))
        script = f'cp "{source_path}" "{self.tmp}/r-$$.json"; echo $$'
        proc = run_cli("run", "--report", self.path("r-%p.json"), "--", "sh", "-c", script)
        self.assertExit(proc, 0)
        pid = proc.out.strip()
        self.assertIn("Jank summary: fake-app", proc.err)
        self.assertTrue(proc.err.endswith(f"Report: {self.tmp}/r-{pid}.json\n"), proc.err)

    def test_stale_report_is_not_taken_for_new(self):
        report = self.write("old.json", json.dumps(make_report()))
        proc = run_cli("run", "--report", report, "--", "sh", "-c", "exit 0")
        self.assertExit(proc, 0)
        self.assertIn("from an earlier run", proc.err)
        self.assertNotIn("Jank summary", proc.err)
        # Replaced by the app (tmp + rename, as the core does): read.
        source_path = self.write("source.json", json.dumps(make_report()))
        proc = run_cli("run", "--report", report, "--", "sh", "-c",
                       f'cp "{source_path}" "{report}.tmp" && mv "{report}.tmp" "{report}"')
        self.assertExit(proc, 0)
        self.assertIn("Jank summary: fake-app", proc.err)

    def test_killed_during_a_hang(self):
        # The app wrote a report during a hang, then got SIGKILL (from the user,
        # who gave up waiting).
        source_path = self.write("source.json", json.dumps(make_hang_report()))
        proc = run_cli("run", "--report", self.path("r.json"), "--", "sh", "-c",
                       f'cp "{source_path}" "$JANKSCOPE_REPORT"; kill -KILL $$')
        self.assertExit(proc, 137)
        self.assertEqual(proc.out, "")
        lines = proc.err.splitlines()
        self.assertEqual(lines[0], "jankscope: sh killed by signal 9 (Killed) during a hang: its "
                                   "main loop had been stuck for 3.2 s when the report was last "
                                   "written")
        self.assertEqual(lines[1], "")
        self.assertTrue(lines[2].startswith("Main thread stuck for 3.2 s when the report was "
                                            "last written"), proc.err)
        self.assertIn("  Culprit    wait_for_lock (app.c:77)", proc.err)
        self.assertLess(proc.err.index("Main thread stuck"), proc.err.index("Jank summary"))

    def test_wrapper_killed_during_a_hang(self):
        # A wrapper script passes its child's death on as exit status 128 + N.
        source_path = self.write("source.json", json.dumps(make_hang_report()))
        proc = run_cli("run", "--", "sh", "-c", f'cp "{source_path}" "$JANKSCOPE_REPORT"; exit 137')
        self.assertExit(proc, 137)
        self.assertTrue(proc.err.startswith("jankscope: sh exited with status 137 (signal 9, "),
                        proc.err)
        self.assertIn("during a hang: its main loop had been stuck for 3.2 s", proc.err)
        self.assertIn("\nMain thread stuck for 3.2 s", proc.err)

    def test_killed_without_a_hang(self):
        source_path = self.write("source.json", json.dumps(make_stacks_report()))
        proc = run_cli("run", "--", "sh", "-c", f'cp "{source_path}" "$JANKSCOPE_REPORT"; '
                                                "kill -KILL $$")
        self.assertExit(proc, 137)
        self.assertTrue(proc.err.startswith("jankscope: sh killed by signal 9 (Killed)\n\n"
                                            "Jank summary:"), proc.err)
        self.assertNotIn("during a hang", proc.err)
        self.assertIn("Stacks of the worst events", proc.err)

    def test_previous_run_in_the_app_report(self):
        report = make_report()
        report["previous_run"] = {"pid": 4100, "exe": "/usr/bin/fake-app",
                                  "hang": ongoing_hang(duration_ms=5000)}
        source_path = self.write("source.json", json.dumps(report))
        proc = run_cli("run", "--", "sh", "-c", f'cp "{source_path}" "$JANKSCOPE_REPORT"')
        self.assertExit(proc, 0)
        self.assertIn("The previous run (pid 4100) ended during a hang of 5.0 s", proc.err)

    def test_invalid_report_from_the_app(self):
        proc = run_cli("run", "--report", self.path("r.json"), "--", "sh", "-c",
                       'echo "{broken" > "$JANKSCOPE_REPORT"; exit 6')
        self.assertExit(proc, 6)
        self.assertIn("cannot read the report", proc.err)
        self.assertIn("not valid JSON", proc.err)


class SignalTest(CliTestCase):
    """While the app runs, the CLI ignores SIGINT/SIGQUIT and forwards
    SIGTERM/SIGHUP, then still prints its summary and passes the code on."""

    WAIT = 10  # s: a safety net, the app ends at once when things work

    def start(self, script):
        # A session of its own: a terminal's Ctrl-C can be imitated with
        # killpg, and the cleanup kills the app even if the CLI died early.
        proc = subprocess.Popen([CLI, "run", "--", "sh", "-c", script], env=base_env(FAKE_A),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        self.addCleanup(self.reap, proc)
        # Once the app prints, the CLI has forked: its signal handling is set.
        # The app prints nothing more before it reads stdin, so that nothing
        # else is left in the readline buffer.
        self.assertEqual(proc.stdout.readline(), b"ready\n")
        return proc

    @staticmethod
    def reap(proc):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=TIMEOUT)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass

    def finish(self, proc, stdin=b""):
        out, err = proc.communicate(stdin, timeout=self.WAIT)
        self.out = out.decode("utf-8", "replace")
        return proc.returncode, err.decode("utf-8", "replace")

    def test_sigint_and_sigquit_to_the_cli_are_ignored(self):
        proc = self.start("echo ready; read line; exit 4")
        os.kill(proc.pid, signal.SIGINT)
        os.kill(proc.pid, signal.SIGQUIT)
        self.assertIsNone(proc.poll())
        code, err = self.finish(proc, b"go\n")
        self.assertEqual(code, 4, err)
        self.assertIn("sh exited with status 4", err)

    def test_sigterm_is_forwarded(self):
        proc = self.start("echo ready; exec sleep 60")
        os.kill(proc.pid, signal.SIGTERM)
        code, err = self.finish(proc)
        self.assertEqual(code, 143, err)  # not -15: the CLI itself survived
        self.assertIn("killed by signal 15", err)
        self.assertIn("no report was written", err)

    def test_sighup_is_forwarded(self):
        proc = self.start("echo ready; exec sleep 60")
        os.kill(proc.pid, signal.SIGHUP)
        code, err = self.finish(proc)
        self.assertEqual(code, 129, err)

    def test_ctrl_c_on_the_group(self):
        # Like a terminal: SIGINT to the whole foreground process group.
        proc = self.start("echo ready; exec sleep 60")
        os.killpg(proc.pid, signal.SIGINT)
        code, err = self.finish(proc)
        self.assertEqual(code, 130, err)
        self.assertIn("killed by signal 2", err)

    def test_closed_stderr_does_not_lose_the_exit_code(self):
        # `jankscope run app 2>&1 | head`: the summary goes to a closed pipe.
        proc = self.start("echo ready; read line; exit 5")
        proc.stderr.close()
        proc.stdin.write(b"go\n")
        proc.stdin.close()
        self.assertEqual(proc.wait(timeout=self.WAIT), 5)

    def test_app_gets_the_signal_state_of_the_cli(self):
        # The CLI blocks signals while it waits: the app must not inherit that.
        status = "exec grep -E '^Sig(Blk|Ign)' /proc/self/status"
        direct = subprocess.run(["sh", "-c", status], env=base_env(), capture_output=True,
                                stdin=subprocess.PIPE, timeout=TIMEOUT)
        proc = self.start(f"echo ready; read line; {status}")
        code, err = self.finish(proc, b"\n")
        self.assertEqual(code, 0, err)
        self.assertRegex(self.out, r"SigBlk:\s+0+\n")
        self.assertEqual(self.out, direct.stdout.decode())


class SymbolizeTest(CliTestCase):
    """jankscope symbolize on untrusted input: each bad input gives exit
    code 1 and one line, never a wait; the output is written atomically to
    a regular file only. (Naming itself: tests/check_stacks.py, symbolize*.)"""

    def symbolize(self, *args):
        return run_cli("symbolize", *args)

    def check_error(self, path, *fragments):
        proc = self.symbolize(path, "-o", self.path("out.json"))
        self.assertExit(proc, 1)
        self.assertEqual(proc.out, "")
        self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
        self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
        for fragment in fragments:
            self.assertIn(fragment, proc.err)
        self.assertFalse(os.path.exists(self.path("out.json")))

    def test_usage(self):
        report = self.write("r.json", json.dumps(make_report()))
        self.assertUsageError(self.symbolize(report), "no output file given")
        self.assertUsageError(self.symbolize(), "no report file given")
        self.assertUsageError(self.symbolize(report, "-o", "x.json", "--in-place"),
                              "cannot be used together")
        self.assertUsageError(self.symbolize(report, report, "-o", self.path("x.json")),
                              "--in-place for several")
        self.assertUsageError(self.symbolize(report, "-o", self.path("x.json"), "--debug-dir", ""),
                              "empty folder name")
        proc = self.symbolize("--help")
        self.assertExit(proc, 0)
        self.assertIn("--debug-dir", proc.out)
        self.assertIn("--debuginfod", proc.out)

    def test_hostile_inputs(self):
        fifo = self.path("fifo.json")
        os.mkfifo(fifo)
        self.check_error(fifo, "fifo.json")  # never waits for a writer
        self.check_error("/dev/zero", "/dev/zero")
        self.check_error(self.tmp, "is a directory")
        self.check_error(self.path("missing.json"), "No such file")
        huge = self.path("huge.json")
        with open(huge, "wb") as f:
            f.truncate(300 * 1024 * 1024)  # sparse
        self.check_error(huge, "too large")
        self.check_error(self.write("junk.json", "{\"events\": [1, 2,"), "not valid JSON")
        self.check_error(self.write("deep.json", "[" * 100000 + "]" * 100000))
        self.check_error(self.write("array.json", "[1, 2]"), "not a JSON object")
        self.check_error(self.write("bad.json", b"\xff\xfe{}"), "not valid JSON")

    def test_output_not_regular(self):
        report = self.write("r.json", json.dumps(make_report()))
        fifo = self.path("out-fifo")
        os.mkfifo(fifo)
        os.symlink(self.path("target.json"), self.path("link.json"))
        for target in (fifo, self.path("link.json"), "/dev/null"):
            proc = self.symbolize(report, "-o", target)
            self.assertExit(proc, 1)
            self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertFalse(os.path.exists(self.path("target.json")))
        # --in-place on a link: refused, the link and its target untouched.
        proc = self.symbolize("--in-place", self.path("link.json"))
        self.assertExit(proc, 1)

    def test_nothing_to_name(self):
        """A report whose frames all have names is written unchanged in
        meaning (and read back), and --in-place leaves it alone."""
        report = make_report()
        path = self.write("r.json", json.dumps(report))
        out = self.path("out.json")
        proc = self.symbolize(path, "-o", out)
        self.assertExit(proc, 0)
        self.assertIn(" 0 named", proc.err)
        with open(out) as f:
            self.assertEqual(json.load(f), report)
        mtime = os.stat(path).st_mtime_ns
        proc = self.symbolize("--in-place", path)
        self.assertExit(proc, 0)
        self.assertEqual(os.stat(path).st_mtime_ns, mtime)
        proc = run_cli("summary", out)
        self.assertExit(proc, 0)

    def test_stdout(self):
        path = self.write("r.json", json.dumps(make_report()))
        proc = self.symbolize(path, "-o", "-")
        self.assertExit(proc, 0)
        self.assertEqual(json.loads(proc.out), make_report())

    def test_module_without_file(self):
        """An unnamed frame of a module found nowhere: left as it is, one
        line about it."""
        report = make_report()
        e = report["events"][0]
        e["callback"] = "libnowhere.so.1+0x1234"
        e["callback_frame"] = {"function": None, "module": "libnowhere.so.1", "file": None,
                               "line": None, "offset": "0x1234", "build_id": "00112233aabbccdd"}
        path = self.write("r.json", json.dumps(report))
        out = self.path("out.json")
        proc = self.symbolize(path, "-o", out, "--debug-dir", self.tmp)
        self.assertExit(proc, 0)
        self.assertEqual(len([line for line in proc.err.splitlines() if "libnowhere" in line]), 1,
                         proc.err)
        with open(out) as f:
            self.assertEqual(json.load(f), report)


class EndToEndTest(CliTestCase):
    """jankscope run on a real GLib program, with the real preload (found by
    the CLI next to itself in the build tree)."""

    def test_slow_dispatch(self):
        app = env_path("CLI_TEST_SLOW_DISPATCH")
        report_path = self.path("report.json")
        proc = run_cli("run", "--report", report_path, "--", app, env=base_env())
        self.assertExit(proc, 0)
        self.assertEqual(proc.out, "slow-dispatch done\n")
        self.assertTrue(os.path.exists(report_path), proc.err)
        with open(report_path) as f:
            report = json.load(f)
        self.assertEqual(report["format"], "jankscope-report")
        self.assertTrue(report["final"])
        self.assertGreater(report["process"]["pid"], 0)

        slow = [e for e in report["events"] if e["source"] == "[cli-test] slow idle"]
        self.assertEqual(len(slow), 1, json.dumps(report["events"], indent=1))
        duration_ms = slow[0]["duration_ns"] / MS
        self.assertTrue(118 <= duration_ms <= 1000, duration_ms)

        err = proc.err
        self.assertIn(f"Jank summary: {report['process']['name']} "
                      f"(pid {report['process']['pid']})", err)
        self.assertEqual(overview_value(err, "Iterations"),
                         str(report["summary"]["iterations"]))
        rows = section(err, "Worst events")
        self.assertTrue(any("[cli-test] slow idle" in row and f"{duration_ms:.1f} ms" in row
                            for row in rows), "\n".join(rows))
        self.assertIn("[cli-test] slow idle", "\n".join(section(err, "Top sources by total")))
        self.assertTrue(err.endswith(f"Report: {report_path}\n"), err)

    def test_symbolize_posted_from(self):
        """A report whose posting site lost its names (as when the app ran
        without its debug information): symbolize names its caller, the
        frames of its stack, its culprit and its chain's links again."""
        app = env_path("CLI_TEST_SLOW_DISPATCH")
        report_path = self.path("report.json")
        proc = run_cli("run", "--report", report_path, "--", app, env=base_env())
        self.assertExit(proc, 0)
        with open(report_path) as f:
            report = json.load(f)
        slow = [e for e in report["events"] if e["source"] == "[cli-test] slow idle"]
        self.assertEqual(len(slow), 1, json.dumps(report["events"], indent=1))
        posted = slow[0]["posted_from"]
        self.assertIsNotNone(posted, json.dumps(slow[0], indent=1))
        self.assertIsNotNone(posted["stack"], json.dumps(posted, indent=1))
        exe = report["process"]["name"]
        # The chain of a call made in a dispatch: here a copy of the caller.
        posted["chain"] = [copy.deepcopy(posted["caller"])]
        frames = ([posted["caller"], posted["culprit"]] + posted["chain"]
                  + [f for f in posted["stack"] if f["module"] == exe])
        names = [f["function"] for f in frames]
        self.assertEqual(names[0], "main", json.dumps(posted, indent=1))
        self.assertTrue(all(names), json.dumps(posted, indent=1))
        for f in frames:
            f.update(function=None, file=None, line=None)
            f.pop("symbol", None)
        stripped = self.write("stripped.json", json.dumps(report))
        out = self.path("out.json")
        proc = run_cli("symbolize", stripped, "-o", out, env=base_env())
        self.assertExit(proc, 0)
        with open(out) as f:
            again = [e for e in json.load(f)["events"] if e["source"] == "[cli-test] slow idle"]
        p = again[0]["posted_from"]
        self.assertEqual(p["caller"]["function"], names[0], json.dumps(p, indent=1))
        self.assertEqual(p["culprit"]["function"], names[1], json.dumps(p, indent=1))
        self.assertEqual(p["chain"][0]["function"], names[2], json.dumps(p, indent=1))
        self.assertEqual([f["function"] for f in p["stack"] if f["module"] == exe], names[3:],
                         json.dumps(p, indent=1))
        self.assertTrue(all(f.get("symbolized") for f in p["stack"] if f["module"] == exe))

    def test_private_report(self):
        app = env_path("CLI_TEST_SLOW_DISPATCH")
        proc = run_cli("run", "--threshold", "100", "--", app, env=base_env())
        self.assertExit(proc, 0)
        self.assertIn("threshold 100.0 ms", overview_value(proc.err, "Stall events"))
        self.assertIn("[cli-test] slow idle", "\n".join(section(proc.err, "Worst events")))
        self.assertNotIn("Report:", proc.err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
