"""Helpers for the jankscope checks (tests/check_*.py), standard library only.

A check is a function that runs a test program (tests/apps/) with the
preload, reads the report and raises CheckFailed when something is off.
Each check_*.py file maps check names to functions and is run by meson as
`check_xxx.py NAME`; exit code 0 = pass, 1 = fail, 77 = skip.

Paths come from the environment meson sets (see tests/meson.build):
JANKSCOPE_TEST_PRELOAD, JANKSCOPE_TEST_GTK3_MODULE, JANKSCOPE_TEST_<APP>.
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

MS = 1_000_000  # ns

# Default settings (docs/report-format.md, README "Settings").
DEFAULT_THRESHOLD_NS = 50 * MS
DEFAULT_MERGE_NS = 500 * MS
DEFAULT_TIERS_NS = {"severe": 200 * MS, "frozen": 700 * MS, "hang": 3000 * MS}
DEFAULT_MAX_EVENTS = 1000
DEFAULT_SLOW_FRAME_PCT = 150


class CheckFailed(Exception):
    pass


class Skip(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def check_equal(actual, expected, what):
    check(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


def check_ms(ns, low_ms, high_ms, what):
    """A duration in ns must lie within [low_ms, high_ms]."""
    check(isinstance(ns, int), f"{what}: expected an int in ns, got {ns!r}")
    check(low_ms * MS <= ns <= high_ms * MS,
          f"{what}: {ns / MS:.3f} ms is not within [{low_ms}, {high_ms}] ms")


def env_path(name):
    path = os.environ.get(name)
    if not path:
        raise CheckFailed(f"{name} is not set (run the checks through meson test)")
    if not os.path.exists(path):
        raise CheckFailed(f"{name}={path} does not exist (not built?)")
    return path


def app(name):
    """Path of a test program, e.g. app('glib-scenarios')."""
    return env_path("JANKSCOPE_TEST_" + name.upper().replace("-", "_"))


def preload_path():
    return env_path("JANKSCOPE_TEST_PRELOAD")


# scripts/run-sanitized-tests.sh sets JANKSCOPE_TEST_SANITIZED=1: every
# program is built with AddressSanitizer and UndefinedBehaviorSanitizer.
SANITIZED = os.environ.get("JANKSCOPE_TEST_SANITIZED") == "1"


def skip_if_sanitized(reason):
    """Skips the rest of a check that cannot hold under ASan, saying why;
    never in the normal build."""
    if SANITIZED:
        raise Skip(f"under ASan: {reason}")


def asan_options(**options):
    """Extra environment for one run under ASan (nothing in the normal
    build): the sanitized run's ASAN_OPTIONS with @options added."""
    if not SANITIZED:
        return {}
    extra = ":".join(f"{k}={v}" for k, v in options.items())
    current = os.environ.get("ASAN_OPTIONS", "")
    return {"ASAN_OPTIONS": f"{current}:{extra}" if current else extra}


# Every program that loads jankscope runs the way GNOME developers run
# theirs: a GLib critical or warning (from jankscope, in the host) aborts it.
STRICT_G_DEBUG = "fatal-criticals,fatal-warnings"


def clean_env(extra=None):
    """The environment of a test program: ours without any JANKSCOPE_* or
    LD_PRELOAD inherited from the caller, with G_DEBUG=STRICT_G_DEBUG, plus
    @extra (which may set its own G_DEBUG)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("JANKSCOPE") and k not in ("LD_PRELOAD", "GTK_MODULES")}
    env["G_DEBUG"] = STRICT_G_DEBUG
    # The app's exit waits 100 ms at most for the final report by default;
    # on a loaded test machine the collector may be busy longer than that
    # (loading a library's symbols), which is correct but would make checks
    # that read the final report flaky. The default is checked by its own
    # test (safety/exit-deadline).
    env["JANKSCOPE_EXIT_MS"] = "5000"
    env.update(extra or {})
    return env


def gtk_env():
    """The environment a GTK test program needs on top of clean_env(); skips
    the check when there is no display."""
    if not os.environ.get("DISPLAY"):
        raise Skip("DISPLAY is not set (run the suite under xvfb-run)")
    env = {
        "GSK_RENDERER": "cairo",
        "GSETTINGS_BACKEND": "memory",
        "NO_AT_BRIDGE": "1",
        "GTK_A11Y": "none",
    }
    env.update(session_bus_env())
    return env


_session_bus = None


def session_bus_env():
    """A D-Bus session bus for GTK programs, as on a desktop: without one,
    GtkApplication warns ("Unable to acquire session bus"), which
    G_DEBUG=fatal-warnings makes fatal. The caller's bus when there is one,
    else a private dbus-daemon for this test process, stopped at its exit
    (never GLib's autolaunch, which would outlive the test)."""
    global _session_bus
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return {}
    if _session_bus is None:
        daemon = shutil.which("dbus-daemon")
        if daemon is None:
            raise Skip("no dbus-daemon (Debian package dbus-daemon) for a session bus")
        proc = subprocess.Popen([daemon, "--session", "--nofork", "--print-address=1"],
                                stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        address = proc.stdout.readline().strip()
        if not address:
            proc.kill()
            raise CheckFailed("dbus-daemon --session printed no address")
        import atexit
        atexit.register(lambda: (proc.terminate(), proc.wait()))
        _session_bus = address
    return {"DBUS_SESSION_BUS_ADDRESS": _session_bus}


def parse_facts(stdout):
    """'key=value' lines of a test program; repeated keys give lists."""
    facts = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition("=")
        if not sep or " " in key:
            continue
        facts.setdefault(key, []).append(value)
    return facts


def fact(run, key, index=0):
    values = run.facts.get(key)
    check(values is not None and len(values) > index,
          f"the program did not print {key}=... (stdout: {run.stdout!r})")
    return values[index]


def stalls(run):
    """The stall windows the program printed, as (start_ns, end_ns)."""
    return [tuple(int(x) for x in v.split(",")) for v in run.facts.get("stall", [])]


class Run:
    """A finished run of a test program."""

    def __init__(self, argv, env, proc, stdout, stderr, report_path, tmpdir):
        self.argv = argv
        self.env = env
        self.pid = proc.pid
        self.returncode = proc.returncode
        self.stdout = stdout
        self.stderr = stderr
        self.facts = parse_facts(stdout)
        self.report_path = report_path
        self.tmpdir = tmpdir
        self._report = None

    def describe(self):
        settings = " ".join(f"{k}={v}" for k, v in sorted(self.env.items())
                            if k.startswith("JANKSCOPE") or k in ("LD_PRELOAD", "GTK_MODULES"))
        return (f"command: {settings} {' '.join(self.argv)}\n"
                f"exit code: {self.returncode}\n"
                f"stdout:\n{self.stdout}\nstderr:\n{self.stderr}")

    def stderr_lines(self):
        return [line for line in self.stderr.splitlines() if line.strip()]

    @property
    def report(self):
        if self._report is None:
            self._report = read_report(self.report_path)
        return self._report


def read_report(path, fold=True):
    """The report at @path, with the newer lines of its journal (PATH.journal)
    folded in as docs/report-format.md says (@fold=False: the file alone).
    The journal is read first: the app writes the report before it starts
    a new journal, so this order never misses a line."""
    check(path is not None and os.path.exists(path), f"no report was written at {path}")
    lines = journal_lines(path + ".journal") if fold else []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise CheckFailed(f"the report {path} is not valid JSON ({e}):\n{text[:2000]}")
    return fold_journal(doc, lines) if fold else doc


def journal_lines(journal_path):
    """The complete lines of a journal, parsed (a torn last line is left out)."""
    try:
        with open(journal_path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    lines.pop()  # after the last newline: empty, or a torn line
    out = []
    for raw in lines:
        try:
            out.append(json.loads(raw))
        except ValueError as e:
            raise CheckFailed(f"{journal_path}: a line is not JSON ({e}): {raw[:300]!r}")
    return out


def fold_journal(doc, lines):
    """A second, independent implementation of the reader's rule: the
    journal @lines of the report's run newer than its "journal" member
    replace events (by id), the hang under way (or its times and tier, from
    a hang_progress line) and top-level members."""
    mark = doc.get("journal")
    if not isinstance(mark, dict):
        return doc
    events = {e["id"]: e for e in doc.get("events", []) if not e.get("ongoing")}
    hang = next((e for e in doc.get("events", []) if e.get("ongoing")), None)
    for line in lines:
        if line.get("run") != mark.get("run") or line.get("seq", 0) <= mark.get("seq", 0):
            continue
        if "event" in line:
            events[line["event"]["id"]] = line["event"]
        elif "hang" in line:
            hang = line["hang"]
            if hang is not None:
                hang = {k: v for k, v in hang.items() if k != "process"}
        elif "hang_progress" in line:
            # How far the hang has come since its last whole line: its times
            # and tier, for that hang only, and only forward.
            progress = line["hang_progress"]
            if (hang is not None and isinstance(progress, dict)
                    and progress.get("start_ns") == hang.get("start_ns")
                    and progress.get("duration_ns", -1) > hang.get("duration_ns", -1)):
                hang = dict(hang)
                if isinstance(hang.get("unattributed_ns"), int):
                    # The time it adds has no samples on disk yet.
                    hang["unattributed_ns"] += progress["duration_ns"] - hang["duration_ns"]
                hang.update({k: progress[k] for k in ("end_ns", "duration_ns", "max_part_ns", "tier")
                             if k in progress})
        elif "set" in line:
            doc.update(line["set"])
        elif "final" in line:
            doc["final"] = True
    doc["events"] = sorted(events.values(), key=lambda e: e["start_ns"])
    if hang is not None:
        doc["events"].append(hang)
    return doc


_current_runs = []


def run_app(argv, preload=True, extra_env=None, report=True, timeout=60, stdin=None, cwd=None,
            on_start=None):
    """Run a program to completion; with @report, JANKSCOPE_REPORT points to a
    fresh file in a private directory (run.report_path, run.tmpdir): a
    string @report is the file's name in that directory. @on_start, if
    given, is called with the report's path once the program runs."""
    tmpdir = tempfile.mkdtemp(prefix="jankscope-test-")
    if report:
        report_path = os.path.join(tmpdir, report if isinstance(report, str) else "report.json")
    else:
        report_path = None
    env = {}
    if preload:
        env["LD_PRELOAD"] = preload_path()
    if report_path:
        env["JANKSCOPE_REPORT"] = report_path
    env.update(extra_env or {})
    full_env = clean_env(env)
    proc = subprocess.Popen(argv, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL if stdin is None else stdin, text=True,
                            cwd=cwd)
    if on_start is not None:
        on_start(report_path)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        run = Run(argv, env, proc, stdout, stderr, report_path, tmpdir)
        _current_runs.append(run)
        raise CheckFailed(f"{argv} did not end within {timeout} s")
    run = Run(argv, env, proc, stdout, stderr, report_path, tmpdir)
    _current_runs.append(run)
    return run


def run_scenario(name, preload=True, extra_env=None, exit_code=None, **kwargs):
    argv = [app("glib-scenarios"), name]
    if exit_code is not None:
        argv.append(f"--exit-code={exit_code}")
    return run_app(argv, preload=preload, extra_env=extra_env, **kwargs)


def check_ran_fine(run, exit_code=0):
    """The program ended normally, printed no FAIL and nothing unexpected on
    stderr (a guest must stay silent unless asked)."""
    check_equal(run.returncode, exit_code, "exit code")
    check("FAIL" not in run.stderr, "the test program reported a failure")
    noise = [line for line in run.stderr_lines()]
    check(not noise, f"unexpected stderr output: {noise}")


# --- Report validation (docs/report-format.md) ------------------------------

TIER_NAMES = ("noticeable", "severe", "frozen", "hang")


def tier_of(duration_ns, config):
    tiers = config["tiers_ns"]
    name = None
    for tier in TIER_NAMES:
        if duration_ns >= tiers[tier]:
            name = tier
    return name


# Mildest first, as js-tiers.h orders them.
MILDNESS = ("light", "noticeable", "severe", "frozen", "hang")


def worse_tier(a, b):
    return a if MILDNESS.index(a) >= MILDNESS.index(b) else b


def episode_tier(longest_tier, by_blocked, cap):
    """An event's tier as docs/report-format.md defines it: the worse of its
    longest part's and its blocked time's, the latter at most @cap."""
    if MILDNESS.index(by_blocked) > MILDNESS.index(cap):
        by_blocked = cap
    return worse_tier(longest_tier, by_blocked)


def stall_event_tier(e, config):
    """A stall event's tier from its own numbers (blocked_ns: its parts'
    durations summed, equal to duration_ns)."""
    check_equal(e.get("blocked_ns"), e["duration_ns"],
                f"event {e['id']}: blocked_ns (its parts' durations)")
    return episode_tier(tier_of(e["max_part_ns"], config),
                        tier_of(e["duration_ns"], config) or "noticeable", "frozen")


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def non_frame_view(report):
    """The report without its frame events, for validate_report (which knows
    dispatch and iteration events only; frame events may overlap the
    dispatch events of the same stall)."""
    view = copy.deepcopy(report)
    summary = view["summary"]
    frames = [e for e in report["events"] if e.get("type") == "frame"]
    others = [e for e in report["events"] if e.get("type") != "frame"]
    counted = len(report["events"]) + summary["events_dropped"]
    if summary["events_total"] == counted and frames:
        # Frame events are counted in events_total (and events_by_tier).
        summary["events_total"] -= len(frames)
        for e in frames:
            if e["tier"] in summary["events_by_tier"]:
                summary["events_by_tier"][e["tier"]] -= 1
    for key in list(summary["events_by_tier"]):
        if key not in TIER_NAMES:
            del summary["events_by_tier"][key]
    if summary["events_dropped"] == 0:
        for i, e in enumerate(others, 1):
            e["id"] = i
    view["events"] = others
    return view


def validate_report(report, pid=None, final=True, mode="preload", toolkit="glib",
                    exe=None, glib_version=None, gtk_version=None, records_dropped=False):
    """Checks every rule of the format that holds for any report. Unless
    @records_dropped, the collector must have kept up (no records dropped):
    the checks compare counts, which are incomplete otherwise. Frame events
    (a GTK app's slow frames) are left out: check_frames.py checks them."""
    if any(e.get("type") == "frame" for e in report.get("events", [])):
        report = non_frame_view(report)
    check_equal(report.get("format"), "jankscope-report", "format")
    check_equal(report.get("version"), 1, "version")
    check(str(report.get("generator", "")).startswith("jankscope "),
          f"generator: {report.get('generator')!r}")
    if final is not None:
        check_equal(report.get("final"), final, "final")

    process = report["process"]
    if pid is not None:
        check_equal(process["pid"], pid, "process.pid")
    if exe is not None:
        check_equal(process["exe"], os.path.realpath(exe), "process.exe")
        check_equal(process["name"], os.path.basename(exe), "process.name")
    check_equal(process["mode"], mode, "process.mode")
    check_equal(process["toolkit"], toolkit, "process.toolkit")
    if glib_version is not None:
        check_equal(process["glib_version"], glib_version, "process.glib_version")
    if toolkit == "glib":
        check_equal(process["gtk_version"], None, "process.gtk_version")
    elif gtk_version is not None:
        check_equal(process["gtk_version"], gtk_version, "process.gtk_version")
    check(is_int(process["start_ns"]) and is_int(process["report_ns"])
          and 0 < process["start_ns"] <= process["report_ns"],
          f"process start_ns/report_ns: {process['start_ns']}, {process['report_ns']}")

    config = report["config"]
    for key in ("threshold_ns", "merge_gap_ns", "max_events", "max_parts"):
        check(is_int(config.get(key)) and config[key] >= 0, f"config.{key}: {config.get(key)!r}")
    # JANKSCOPE_SLOW_FRAME_PCT: over one budget.
    check(is_int(config.get("slow_frame_pct")) and 100 < config["slow_frame_pct"] <= 10000,
          f"config.slow_frame_pct: {config.get('slow_frame_pct')!r}")
    tiers = config["tiers_ns"]
    bounds = [tiers.get(t) for t in TIER_NAMES]
    # JANKSCOPE_TIERS_MS sets severe < frozen < hang; noticeable is the
    # threshold, which may be set above them.
    check(all(is_int(b) for b in bounds) and bounds[1] < bounds[2] < bounds[3],
          f"config.tiers_ns not increasing: {tiers}")
    check_equal(tiers["noticeable"], config["threshold_ns"], "config.tiers_ns.noticeable")

    validate_summary(report)
    validate_modules(report)
    if not records_dropped:
        check_equal(report["summary"]["records_dropped"], 0, "summary.records_dropped")
    validate_events(report)


def validate_modules(report):
    """The module table (docs/report-format.md, "Modules"): well-formed, and
    it names every (module, build_id) of the stacks' and callbacks' frames."""
    table = report.get("modules")
    if table is None:
        check(report.get("summary", {}).get("sampler") is None,
              "no module table in a report with a watchdog")
        return
    check(isinstance(table, list), f"modules: {table!r}")
    listed = set()
    for m in table:
        check(isinstance(m.get("name"), str) and m["name"] and "/" not in m["name"],
              f"modules: name of {m}")
        check(m.get("path") is None or (isinstance(m["path"], str) and m["path"][:1] in ("/", "~")
                                        and os.path.basename(m["path"]) == m["name"]),
              f"modules: path of {m}")
        check(m.get("build_id") is None or re.fullmatch(r"([0-9a-f]{2})+", m["build_id"]),
              f"modules: build_id of {m}")
        check(("text_vaddr" in m) == ("text_offset" in m), f"modules: text of {m}")
        for key in ("text_vaddr", "text_offset"):
            check(key not in m or re.fullmatch(r"0x[0-9a-f]+", m[key]), f"modules: {key} of {m}")
        check((m["path"], m["build_id"]) not in listed, f"modules: listed twice: {m}")
        listed.add((m["path"], m["build_id"]))
    names = {(m["name"], m["build_id"]) for m in table}
    if report.get("final") is not True:
        return  # the journal's newest events may name modules of the next "set" line

    def walk(value):
        if isinstance(value, dict):
            if isinstance(value.get("module"), str) and "offset" in value and "build_id" in value:
                check((value["module"], value["build_id"]) in names,
                      f"a frame's module is not in the module table: {value}")
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(report.get("events", []))
    walk(report.get("summary", {}).get("sources", []))


def validate_summary(report):
    summary = report["summary"]
    process = report["process"]
    for key in ("iterations", "dispatches", "busy_ns", "monitored_ns", "events_total",
                "events_dropped", "records_dropped", "nested_loops", "sources_truncated"):
        check(is_int(summary.get(key)) and summary[key] >= 0,
              f"summary.{key}: {summary.get(key)!r}")
    check(summary["busy_ns"] <= summary["monitored_ns"],
          f"busy_ns {summary['busy_ns']} > monitored_ns {summary['monitored_ns']}")
    elapsed = process["report_ns"] - process["start_ns"]
    check(abs(summary["monitored_ns"] - elapsed) <= 1000 * MS,
          f"monitored_ns {summary['monitored_ns']} is not report_ns - start_ns {elapsed}")

    busy = summary["iteration_busy"]
    quantiles = [busy[k] for k in ("p50_ns", "p95_ns", "p99_ns", "max_ns")]
    check(all(is_int(q) and q >= 0 for q in quantiles), f"iteration_busy: {busy}")
    # Histogram quantiles are within 4.5% of the exact value, max is exact.
    check(quantiles[0] <= quantiles[1] <= quantiles[2] <= quantiles[3] * 1.05,
          f"iteration_busy quantiles not ordered: {busy}")
    if summary["iterations"] > 0:
        check(busy["max_ns"] <= summary["busy_ns"],
              f"iteration_busy.max_ns {busy['max_ns']} > busy_ns {summary['busy_ns']}")

    by_tier = summary["events_by_tier"]
    check(set(TIER_NAMES) <= set(by_tier), f"events_by_tier: {by_tier}")
    check_equal(sum(by_tier[t] for t in TIER_NAMES), summary["events_total"],
                "sum of events_by_tier (vs events_total)")
    check_equal(len(report["events"]) + summary["events_dropped"], summary["events_total"],
                "len(events) + events_dropped (vs events_total)")

    sources = summary["sources"]
    check(len(sources) <= 200, f"{len(sources)} sources entries (max 200)")
    totals = [s["total_ns"] for s in sources]
    check(totals == sorted(totals, reverse=True), "sources are not sorted by total_ns")
    keys = [(s["source"], s["callback"]) for s in sources]
    check(len(keys) == len(set(keys)), f"sources are not grouped by (name, callback): {keys}")
    for s in sources:
        what = f"sources entry {s['source']!r}/{s['callback']!r}"
        check(is_int(s["count"]) and s["count"] >= 1, f"{what}: count {s['count']}")
        check(s["max_ns"] <= s["total_ns"], f"{what}: max_ns > total_ns")
        check(abs(s["mean_ns"] - s["total_ns"] // s["count"]) <= 1,
              f"{what}: mean_ns {s['mean_ns']} != total_ns / count")
        check(s["mean_ns"] <= s["max_ns"], f"{what}: mean_ns > max_ns")
        check(s["p95_ns"] <= s["max_ns"] * 1.045 + 1, f"{what}: p95_ns > max_ns (+4.5%)")
        check(s["callback"] is None or isinstance(s["callback"], str), f"{what}: callback")
    if sources:
        check(sum(s["count"] for s in sources) <= summary["dispatches"],
              "sources counts add up to more than summary.dispatches")


def validate_events(report):
    config = report["config"]
    process = report["process"]
    events = report["events"]
    merge = config["merge_gap_ns"]
    ids = [e["id"] for e in events]
    check(ids == sorted(ids) and len(set(ids)) == len(ids), f"event ids not increasing: {ids}")
    if report["summary"]["events_dropped"] == 0:
        check_equal(ids, list(range(1, len(events) + 1)), "event ids")
    for prev, nxt in zip(events, events[1:]):
        check(nxt["start_ns"] >= prev["end_ns"],
              f"events {prev['id']} and {nxt['id']} overlap")
        check(nxt["start_ns"] - prev["end_ns"] >= merge,
              f"events {prev['id']} and {nxt['id']} are {(nxt['start_ns'] - prev['end_ns']) / MS}"
              f" ms apart, less than the merge gap: they should be one event")
    for e in events:
        validate_event(e, config, process)


def validate_event(e, config, process):
    what = f"event {e['id']}"
    parts = e["parts"]
    check(len(parts) >= 1, f"{what}: no parts")
    check(e["parts_count"] >= len(parts), f"{what}: parts_count < len(parts)")
    check(len(parts) <= config["max_parts"], f"{what}: more parts than max_parts")
    check(process["start_ns"] <= e["start_ns"] <= e["end_ns"] <= process["report_ns"],
          f"{what}: span outside monitoring")
    check(isinstance(e.get("stacks"), list), f"{what}: stacks is not an array")
    validate_attribution(e)
    for part in parts:
        validate_part(part, config, f"{what} part")
    # "Oldest first": by start, or by end when a nested part ends first.
    starts = [p["start_ns"] for p in parts]
    ends = [p["end_ns"] for p in parts]
    check(starts == sorted(starts) or ends == sorted(ends), f"{what}: parts not oldest first")
    for prev, nxt in zip(parts, parts[1:]):
        check(nxt["start_ns"] - prev["end_ns"] < config["merge_gap_ns"],
              f"{what}: parts {(nxt['start_ns'] - prev['end_ns']) / MS} ms apart in one event")
    check_event_totals(e, parts, ("type", "source", "callback", "priority", "depth"), what)
    check_equal(e["tier"], stall_event_tier(e, config), f"{what}: tier")


# Frames that can never be blamed for what the main loop dispatched.
NEVER_CULPRITS = ("main", "_start", "__libc_start_main", "__libc_start_call_main",
                  "g_application_run", "gtk_main", "g_main_loop_run", "g_main_context_iteration")


def is_jankscope_module(module):
    """jankscope's own code on the main thread (its window's is real work)."""
    return (module or "").startswith("libjankscope") and not module.startswith("libjankscope-gtk4")


def validate_profile_columns(columns, names, what):
    check(isinstance(columns, dict), f"{what}: not an object")
    lengths = {len(columns.get(n) or []) for n in names}
    for n in names:
        check(isinstance(columns.get(n), list) and all(is_int(v) for v in columns[n]),
              f"{what}.{n}: not an array of integers")
    check(len(lengths) == 1, f"{what}: columns of different lengths")


def validate_culprit_frame(culprit, what):
    if culprit is None:
        return
    check(culprit["function"] not in NEVER_CULPRITS,
          f"{what}: culprit {culprit['function']} called into the main loop")
    check(not is_jankscope_module(culprit["module"]), f"{what}: culprit in jankscope")
    check(is_int(culprit.get("app_code_ns")) and culprit["app_code_ns"] >= 0,
          f"{what}: culprit.app_code_ns")
    cb = culprit.get("callback", "missing")
    check(cb is None or (isinstance(cb, dict) and "function" in cb and "module" in cb),
          f"{what}: culprit.callback {cb!r}")


def validate_attribution(e):
    """The attribution members of an event (docs/report-format.md, "Stacks
    and classification"): the profile adds up exactly, stacks, parts and
    samples refer to it, and nothing of jankscope is in them."""
    what = f"event {e['id']}"
    if "profile" not in e:
        return
    prof = e["profile"]
    nodes = prof["nodes"]
    validate_profile_columns(nodes, ("parent", "frame", "self_samples", "self_ns"),
                             f"{what}: profile.nodes")
    n = len(nodes["parent"])
    frames = prof["frames"]
    for i, (parent, frame) in enumerate(zip(nodes["parent"], nodes["frame"])):
        check(-1 <= parent < i, f"{what}: profile node {i} has parent {parent}")
        check(-2 <= frame < len(frames), f"{what}: profile node {i} has frame {frame}")
    check_equal(sum(nodes["self_samples"]), prof["samples"], f"{what}: Σ profile self_samples")
    check_equal(sum(nodes["self_ns"]), prof["time_ns"], f"{what}: Σ profile self_ns")
    check_equal(prof["samples"], e["samples_with_stack"], f"{what}: profile.samples")
    check_equal(e["attributed_ns"], min(prof["time_ns"], e["duration_ns"]),
                f"{what}: attributed_ns (the profile's time)")
    check(sum(1 for f in nodes["frame"] if f >= 0) <= prof["nodes_max"],
          f"{what}: more function nodes than nodes_max")
    for f in frames:
        check(not is_jankscope_module(f.get("module")), f"{what}: jankscope's {f} in the profile")
        if f.get("function") is None:
            check(isinstance(f.get("offset"), str), f"{what}: unnamed frame without offset")
    for s in e["stacks"]:
        check(0 <= s["node"] < n, f"{what}: stack node {s['node']}")
        check_equal(s["count"], nodes["self_samples"][s["node"]], f"{what}: stack count")
        check_equal(s["time_ns"], nodes["self_ns"][s["node"]], f"{what}: stack time_ns")
        for f in s["frames"]:
            check(not is_jankscope_module(f.get("module")),
                  f"{what}: jankscope's {f.get('function')} in a stack")
    check(e["samples_with_stack"] <= e["samples_total"], f"{what}: samples_with_stack")
    samples = e["samples"]
    check_equal(sum(s["count"] for s in samples), e["samples_total"],
                f"{what}: Σ samples[].count (vs samples_total)")
    check_equal(sum(s.get("running", s["count"] if s["state"] == "running" else 0)
                    for s in samples), e["samples_running"],
                f"{what}: running samples (vs samples_running)")
    for s in samples:
        check(-1 <= s["node"] < n, f"{what}: sample node {s['node']}")
        check(-1 <= s["part"] < len(e["parts"]), f"{what}: sample part {s['part']}")
        check(s["stack"] == -1 or e["stacks"][s["stack"]]["node"] == s["node"],
              f"{what}: sample stack and node disagree")
    validate_culprit_frame(e["culprit"], what)
    part_time = e["attributed_unlisted_ns"]
    for i, part in enumerate(e["parts"]):
        pw = f"{what} part {i}"
        for key in ("watched_ns", "sampled_ns", "stalls", "attributed_ns", "samples_total",
                    "samples_running", "samples_waiting", "samples_with_stack"):
            check(is_int(part.get(key)) and part[key] >= 0, f"{pw}: {key} {part.get(key)!r}")
        check(part["class"] in (None, "compute", "wait", "mixed"), f"{pw}: class")
        pp = part["profile"]
        validate_profile_columns(pp, ("node", "self_samples", "self_ns"), f"{pw}: profile")
        check(all(0 <= k < n for k in pp["node"]), f"{pw}: profile nodes")
        check_equal(sum(pp["self_samples"]) + pp["other_samples"], pp["samples"],
                    f"{pw}: Σ profile self_samples")
        check_equal(sum(pp["self_ns"]) + pp["other_ns"], pp["time_ns"], f"{pw}: Σ profile self_ns")
        check_equal(part["attributed_ns"], min(pp["time_ns"], part["duration_ns"]),
                    f"{pw}: attributed_ns (its profile's time)")
        check(len(part["stacks"]) <= 3, f"{pw}: more than 3 stacks")
        for s in part["stacks"]:
            check(0 <= s["node"] < n and s["count"] >= 1, f"{pw}: stack {s}")
        validate_culprit_frame(part["culprit"], pw)
        part_time += pp["time_ns"]
    if not e.get("ongoing"):  # the hang under way has no parts
        check_equal(part_time, prof["time_ns"], f"{what}: the parts' profile times and "
                    f"attributed_unlisted_ns (vs profile.time_ns)")


def check_event_totals(e, parts, keys, what):
    """When event @e kept all its @parts: its span, duration_ns and
    max_part_ns follow from them, and its @keys are those of the longest."""
    longest = max(parts, key=lambda p: p["duration_ns"])
    if e["parts_count"] == len(parts):
        check_equal(e["start_ns"], min(p["start_ns"] for p in parts),
                    f"{what}: start_ns (first part)")
        check_equal(e["end_ns"], max(p["end_ns"] for p in parts), f"{what}: end_ns (last part)")
        check_equal(e["duration_ns"], sum(p["duration_ns"] for p in parts),
                    f"{what}: duration_ns (sum of parts)")
        check_equal(e["max_part_ns"], longest["duration_ns"], f"{what}: max_part_ns")
        for key in keys:
            check_equal(e.get(key), longest.get(key), f"{what}: {key} (of the longest part)")


POST_KINDS = ("idle", "timeout", "attach", "watch", "gdk-threads", "task")


def validate_posted_from(posted, what):
    """A dispatch's posted_from (docs/report-format.md, "Posting sites")."""
    check(posted != "missing", f"{what}: no posted_from member")
    if posted is None:
        return
    for key in ("kind", "thread", "caller", "stack", "signature", "signature_id", "culprit",
                "culprit_reason", "chain"):
        check(key in posted, f"{what}: no {key!r} member")
    check(posted["kind"] in POST_KINDS, f"{what}: kind {posted['kind']!r}")
    check(posted["thread"] in ("main", "other"), f"{what}: thread {posted['thread']!r}")
    check(posted["stack"] is None or isinstance(posted["stack"], list), f"{what}: stack")
    check(isinstance(posted["signature"], str), f"{what}: signature")
    check(isinstance(posted["chain"], list) and len(posted["chain"]) <= 3, f"{what}: chain")
    check(posted["culprit_reason"] in ("app", "no frame of the app's own code on the stack",
                                       "no full stack, and the caller is not the app's code"),
          f"{what}: culprit_reason {posted['culprit_reason']!r}")
    check((posted["culprit"] is None) == (posted["culprit_reason"] != "app"),
          f"{what}: culprit and culprit_reason disagree")


def validate_part(part, config, what):
    check(part["type"] in ("dispatch", "iteration"), f"{what}: type {part['type']!r}")
    check(part["start_ns"] <= part["end_ns"], f"{what}: end before start")
    check(part["duration_ns"] >= config["threshold_ns"],
          f"{what}: {part['duration_ns'] / MS} ms is below the threshold")
    check_equal(part["tier"], tier_of(part["duration_ns"], config), f"{what}: tier")
    if part["type"] == "dispatch":
        check_equal(part["duration_ns"], part["end_ns"] - part["start_ns"] - part["nested_ns"],
                    f"{what}: duration_ns (end - start - nested)")
        check(is_int(part["depth"]) and part["depth"] >= 1, f"{what}: depth {part['depth']}")
        check(is_int(part["priority"]), f"{what}: priority {part['priority']!r}")
        validate_posted_from(part.get("posted_from", "missing"), f"{what}: posted_from")
    else:
        check_equal(part["nested_ns"], 0, f"{what}: nested_ns of an iteration")
        check(part["duration_ns"] <= part["end_ns"] - part["start_ns"],
              f"{what}: busy time longer than the iteration")
        check(is_int(part["dispatches"]) and part["dispatches"] >= 0,
              f"{what}: dispatches {part.get('dispatches')!r}")


def validate_run_report(run, **kwargs):
    """validate_report() with what the run itself tells (pid, exe, GLib)."""
    exe = run.argv[0]
    versions = run.facts.get("glib_version")
    kwargs.setdefault("glib_version", versions[0] if versions else None)
    validate_report(run.report, pid=run.pid, exe=exe, **kwargs)
    return run.report


# --- Queries on a report -----------------------------------------------------

def all_parts(report):
    return [(e, p) for e in report["events"] for p in e["parts"]]


def source_entries(report, name):
    return [s for s in report["summary"]["sources"] if s["source"] == name]


def source_entry(report, name):
    entries = source_entries(report, name)
    check(len(entries) == 1,
          f"expected one sources entry named {name!r}, found {len(entries)}: "
          f"{[(s['source'], s['callback']) for s in report['summary']['sources']]}")
    return entries[0]


def only_event(report):
    events = report["events"]
    check(len(events) == 1, f"expected exactly one event, got {len(events)}: {summarize(events)}")
    return events[0]


def summarize(events):
    return [{"id": e["id"], "type": e["type"], "ms": round(e["duration_ns"] / MS, 1),
             "source": e["source"], "callback": e["callback"],
             "parts": [(p["type"], round(p["duration_ns"] / MS, 1), p.get("source"))
                       for p in e["parts"]]} for e in events]


def check_dispatch_part(part, source, callback, low_ms, high_ms, priority=0, depth=1,
                        stall=None):
    what = f"part of {source!r}"
    check_equal(part["type"], "dispatch", f"{what}: type")
    check_equal(part["source"], source, f"{what}: source")
    check_equal(part["callback"], callback, f"{what}: callback")
    check_equal(part["priority"], priority, f"{what}: priority")
    check_equal(part["depth"], depth, f"{what}: depth")
    check_equal(part["nested_ns"], 0, f"{what}: nested_ns")
    if SANITIZED:
        # The upper bound is a matter of time: under ASan on a loaded machine
        # a dispatch ran 30-35 ms past the app's busy-wait (90.5 ms for 55,
        # 230.1 for 200). The lower bound and the app's window still hold.
        check_ms(part["duration_ns"], low_ms, float("inf"), f"{what}: duration")
    else:
        check_ms(part["duration_ns"], low_ms, high_ms, f"{what}: duration")
    if stall is not None:
        check_covers(part, stall, what)


def check_covers(part, stall, what):
    """The part's wall span contains the stall window the app printed (the
    app prints µs-precision times: allow 1 µs at the start)."""
    start, end = stall
    check(part["start_ns"] <= start + 1000 and part["end_ns"] >= end,
          f"{what}: span [{part['start_ns']}, {part['end_ns']}] does not contain the stall "
          f"[{start}, {end}] the app measured")


# --- Running a check ---------------------------------------------------------

def main(checks):
    """Entry point of a check_*.py file: run the check named in argv[1]."""
    if len(sys.argv) != 2 or sys.argv[1] not in checks:
        print(f"usage: {sys.argv[0]} CHECK\nchecks: {' '.join(checks)}", file=sys.stderr)
        return 2
    name = sys.argv[1]
    status = 0
    failure = None
    try:
        checks[name]()
        print(f"PASS {name}")
    except Skip as e:
        print(f"SKIP {name}: {e}")
        status = 77
    except CheckFailed as e:
        failure = str(e)
        print(f"FAIL {name}: {failure}")
        status = 1
    except Exception:  # a bug in the check or an unexpected report shape
        trace = traceback.format_exc()
        failure = trace.strip().splitlines()[-1]
        print(f"ERROR {name}:\n{trace}")
        status = 1
    if status == 1:
        for run in _current_runs:
            print("\n--- run ---\n" + run.describe())
            if run.report_path and os.path.exists(run.report_path):
                with open(run.report_path, encoding="utf-8") as f:
                    print(f"report {run.report_path}:\n{f.read()[:20000]}")
        # Again after the dump: a CI log may keep only its last lines.
        print(f"FAIL {name}: {failure}")
    for run in _current_runs:
        shutil.rmtree(run.tmpdir, ignore_errors=True)
    return status
