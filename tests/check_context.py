#!/usr/bin/env python3
"""Context, scenes and marks (docs/report-format.md, "Context, scenes and
marks"), the install id and JANKSCOPE_INSTALL_SHARE, and JANKSCOPE_SCRUB,
with programs annotated through the public API (tests/apps/context-app.c,
context-gtk4.c; include/jankscope.h).
Usage: check_context.py CHECK
"""

import hashlib
import json
import os
import pwd
import re
import shutil
import sys

from jankscope_test import (
    MS, CheckFailed, app, check, check_equal, fact, gtk_env, journal_lines, main, run_app,
    summarize, validate_report, validate_run_report)

# js-install-id.h: SHA-256 of SALT "\n" MACHINE_ID "\n" UID, first 16 hex digits.
INSTALL_ID_SALT = "jankscope-install-id-v1"
NCPU = os.cpu_count() or 1


def expected_install_id():
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="ascii") as f:
                machine = f.read().strip()
        except OSError:
            continue
        if machine:
            text = f"{INSTALL_ID_SALT}\n{machine}\n{os.getuid()}"
            return hashlib.sha256(text.encode()).hexdigest()[:16]
    return None


def run_context(args, preload=True, extra_env=None, **kwargs):
    return run_app([app("context-app")] + args, preload=preload, extra_env=extra_env, **kwargs)


def named_stalls(run):
    """{name: (start_ns, end_ns)} from stall.NAME=START,END lines."""
    out = {}
    for key, values in run.facts.items():
        if key.startswith("stall."):
            start, end = (int(x) for x in values[0].split(","))
            out[key[len("stall."):]] = (start, end)
    return out


def steps(run):
    return run.facts.get("step", [])


def event_covering(report, window, what):
    start, end = window
    found = [e for e in report["events"]
             if e["start_ns"] <= start + 1000 and e["end_ns"] >= end]
    check(len(found) == 1,
          f"{what}: expected one event covering [{start}, {end}], got "
          f"{summarize(report['events'])}")
    return found[0]


def check_context_sane(e, what):
    """Every context member has its type; the numbers are plausible."""
    ctx = e.get("context")
    check(isinstance(ctx, dict), f"{what}: no context object: {e.keys()}")
    check(set(ctx) >= {"process_cpu_pct", "load_avg_1m", "mem_available_kb", "startup",
                       "window_title"}, f"{what}: context members {sorted(ctx)}")
    cpu, load, mem = ctx["process_cpu_pct"], ctx["load_avg_1m"], ctx["mem_available_kb"]
    check(isinstance(cpu, (int, float)) and 0 <= cpu <= 100 * NCPU + 5,
          f"{what}: process_cpu_pct {cpu!r} is not within 0..{100 * NCPU}")
    check(isinstance(load, (int, float)) and load >= 0, f"{what}: load_avg_1m {load!r}")
    check(isinstance(mem, int) and not isinstance(mem, bool) and mem > 0,
          f"{what}: mem_available_kb {mem!r}")
    check(isinstance(ctx["startup"], bool), f"{what}: startup {ctx['startup']!r}")
    check(ctx["window_title"] is None or isinstance(ctx["window_title"], str),
          f"{what}: window_title {ctx['window_title']!r}")
    check("scene" in e and (e["scene"] is None or isinstance(e["scene"], str)),
          f"{what}: scene {e.get('scene')!r}")
    check(isinstance(e.get("marks"), list) and isinstance(e.get("marks_omitted"), int),
          f"{what}: marks / marks_omitted")
    for m in e["marks"]:
        check(set(m) >= {"id", "name", "start_ns", "end_ns"}, f"{what}: mark {m}")
        check(m["start_ns"] < e["end_ns"] and (m["end_ns"] is None or m["end_ns"] > e["start_ns"]),
              f"{what}: mark {m} does not overlap the event [{e['start_ns']}, {e['end_ns']}]")
    return ctx


def check_top_level(report, scrubbed=False):
    install_id = report.get("install_id")
    check(isinstance(install_id, str) and re.fullmatch(r"[0-9a-f]{16}", install_id),
          f"install_id {install_id!r} is not 16 hex digits")
    check_equal(install_id, expected_install_id(), "install_id (SHA-256 of salt, machine id, uid)")
    check_equal(report.get("install_share"), 1.0, "install_share")
    check_equal(report.get("scrubbed"), scrubbed, "scrubbed")
    check(isinstance(report.get("startup"), dict) and report["startup"].get("rule")
          in ("first-frame", "first-5s"), f"startup {report.get('startup')!r}")
    check(isinstance(report.get("marks"), list), "marks is not an array")
    check(isinstance(report.get("annotations"), dict), "annotations is not an object")
    check_equal(report["annotations"].get("api"), True, "annotations.api")


# --- checks ---------------------------------------------------------------------

def test_annotate():
    run = run_context(["annotate"], timeout=60)
    report = validate_run_report(run)
    check_equal(run.returncode, 0, "exit code")
    check_equal(run.stderr_lines(), [], "stderr")
    check_equal(fact(run, "api_active"), "1", "jankscope_is_active () under the preload")
    check_top_level(report)
    windows = named_stalls(run)
    check_equal(sorted(windows), ["boot", "chat", "cpu", "sleep"], "stalls")
    check_equal(len(report["events"]), 4, f"events: {summarize(report['events'])}")
    boot, chat, cpu, sleep = (event_covering(report, windows[n], n)
                              for n in ("boot", "chat", "cpu", "sleep"))
    for name, e in (("boot", boot), ("chat", chat), ("cpu", cpu), ("sleep", sleep)):
        ctx = check_context_sane(e, f"event {name}")
        check_equal(ctx["window_title"], None, f"event {name}: window_title (no GTK)")

    # Scenes: "boot" is entered inside the stall's own dispatch (no scene was
    # active when it started: the first one entered counts); "chat-view" was
    # active when the chat stall started ("inside", entered during it, is
    # not its scene); "chat-list" after "chat-view" was left.
    check_equal(boot["scene"], "boot", "event boot: scene")
    check_equal(chat["scene"], "chat-view", "event chat: scene")
    check_equal(cpu["scene"], "chat-list", "event cpu: scene")
    check_equal(sleep["scene"], "chat-list", "event sleep: scene")

    # Marks: load-config around the boot stall, history from 900 to 1400 ms.
    check_equal([m["name"] for m in boot["marks"]], ["load-config"], "event boot: marks")
    check_equal([m["name"] for m in chat["marks"]], ["history"], "event chat: marks")
    check_equal(cpu["marks"], [], "event cpu: marks")
    m = boot["marks"][0]  # begun and ended inside the stall's dispatch
    check(boot["start_ns"] <= m["start_ns"] < m["end_ns"] <= boot["end_ns"],
          f"mark {m} is not inside event boot [{boot['start_ns']}, {boot['end_ns']}]")
    m = chat["marks"][0]  # begun before the stall, ended after it
    check(m["start_ns"] <= chat["start_ns"] and m["end_ns"] >= chat["end_ns"],
          f"mark {m} does not cover event chat [{chat['start_ns']}, {chat['end_ns']}]")
    top = report["marks"]
    check_equal([(m["name"], m["depth"]) for m in top], [("load-config", 1), ("history", 1)],
                "top-level marks")
    check(all(m["end_ns"] is not None for m in top), f"top-level marks not ended: {top}")
    check(top[1]["end_ns"] - top[1]["start_ns"] >= 400 * MS, f"mark history: {top[1]}")
    check_equal(boot["marks"][0]["id"], top[0]["id"], "event boot: mark id")

    # Start-up: the first 5 s for a program without GTK.
    startup = report["startup"]
    check_equal(startup["rule"], "first-5s", "startup.rule")
    check_equal(startup["end_ns"], report["process"]["start_ns"] + 5000 * MS, "startup.end_ns")
    check_equal(boot["context"]["startup"], True, "event boot (first second): startup")
    check(boot["start_ns"] - report["process"]["start_ns"] < 1000 * MS,
          "the boot event is not in the first second")
    check_equal(chat["context"]["startup"], True, "event chat: startup")
    check_equal(cpu["context"]["startup"], False, "event cpu (after 5 s): startup")
    check_equal(sleep["context"]["startup"], False, "event sleep: startup")

    # CPU: a 400 ms busy-wait against a 400 ms sleep.
    # The busy-wait's own share of a CPU (its thread CPU time over its wall
    # time) is what a loaded machine gave it: the process's share, sampled
    # every 250 ms over the event, must show at least half of it.
    busy, idle = cpu["context"]["process_cpu_pct"], sleep["context"]["process_cpu_pct"]
    span = windows["cpu"][1] - windows["cpu"][0]
    own = 100 * int(fact(run, "stall_cpu.cpu")) / span
    check(busy >= min(35, own / 2),
          f"event cpu: process_cpu_pct {busy} (a 400 ms busy-wait that got {own:.0f}% of a CPU)")
    check(idle <= 30 and idle < busy, f"event sleep: process_cpu_pct {idle} (busy one: {busy})")

    n = report["annotations"]
    check_equal(n["calls_other_thread"], 4, "annotations.calls_other_thread")
    check_equal(n["calls_unbalanced"], 2, "annotations.calls_unbalanced")
    check_equal(n["scenes_pushed"], 4, "annotations.scenes_pushed")
    check_equal(n["marks_begun"], 2, "annotations.marks_begun")
    check_equal(n["marks_ended"], 2, "annotations.marks_ended")
    check_equal((n["too_deep"], n["labels_overflow"], n["marks_lost"]), (0, 0, 0),
                "annotations: too_deep, labels_overflow, marks_lost")


def test_no_preload():
    """Without jankscope the API is a no-op: same steps, same exit code."""
    plain = run_context(["annotate"], preload=False, report=False, timeout=60)
    check_equal(plain.returncode, 0, "exit code without the preload")
    check_equal(plain.stderr_lines(), [], "stderr without the preload")
    check_equal(fact(plain, "api_active"), "0", "jankscope_is_active () without the preload")
    watched = run_context(["annotate"], timeout=60)
    check_equal(watched.returncode, 0, "exit code with the preload")
    check_equal(steps(plain), steps(watched), "steps without and with the preload")
    check_equal(steps(plain)[-1], "end", "last step")
    check_equal(sorted(named_stalls(plain)), sorted(named_stalls(watched)), "stalls")


def test_disabled():
    """JANKSCOPE=0: the table is never published."""
    run = run_context(["quick"], extra_env={"JANKSCOPE": "0"})
    check_equal(run.returncode, 0, "exit code")
    check_equal(fact(run, "api_active"), "0", "jankscope_is_active () with JANKSCOPE=0")
    check(not os.path.exists(run.report_path), "a report was written with JANKSCOPE=0")


def test_install_id():
    ids = []
    for _ in range(2):
        run = run_context(["quick"])
        check_equal(run.returncode, 0, "exit code")
        ids.append(run.report.get("install_id"))
    check(expected_install_id() is not None, "this machine has no machine id")
    check_equal(ids[0], ids[1], "install_id of two runs")
    check_equal(ids[0], expected_install_id(), "install_id")


def install_position():
    install_id = expected_install_id()
    check(install_id is not None, "this machine has no machine id")
    return int(install_id, 16) / 2.0 ** 64


def test_install_share_out():
    """A share that ends just below this install: jankscope stays inactive:
    no report, no API, nothing on stderr (one line with JANKSCOPE_DEBUG)."""
    position = install_position()
    if position < 1e-12:
        raise CheckFailed("this install is at the very start of the id space: cannot exclude it")
    share = repr(position * 0.999)
    run = run_context(["quick"], extra_env={"JANKSCOPE_INSTALL_SHARE": share})
    check_equal(run.returncode, 0, "exit code")
    check_equal(run.stderr_lines(), [], "stderr")
    check_equal(fact(run, "api_active"), "0", "jankscope_is_active () outside the share")
    check(not os.path.exists(run.report_path), "a report was written outside the share")
    run = run_context(["quick"], extra_env={"JANKSCOPE_INSTALL_SHARE": share,
                                            "JANKSCOPE_DEBUG": "1"})
    lines = [line for line in run.stderr_lines() if line.startswith("jankscope:")]
    check_equal(len(lines), 1, f"debug lines outside the share: {lines}")
    check("JANKSCOPE_INSTALL_SHARE" in lines[0], f"debug line: {lines[0]!r}")


def test_install_share_in():
    share = repr(min(1.0, install_position() * 1.001 + 1e-9))
    run = run_context(["quick"], extra_env={"JANKSCOPE_INSTALL_SHARE": share})
    check_equal(run.returncode, 0, "exit code")
    check_equal(run.stderr_lines(), [], "stderr")
    check_equal(fact(run, "api_active"), "1", "jankscope_is_active () inside the share")
    report = validate_run_report(run)
    check_equal(report["install_share"], float(share), "install_share")
    check_equal(len(report["events"]), 1, "events")


def test_install_share_invalid():
    for value in ("0", "1.5", "-0.1", "abc", "0.5x", "nan"):
        run = run_context(["quick"], extra_env={"JANKSCOPE_INSTALL_SHARE": value})
        check_equal(run.returncode, 0, f"exit code with {value!r}")
        check_equal(run.stderr_lines(),
                    [f"jankscope: JANKSCOPE_INSTALL_SHARE='{value}' is not a number greater "
                     f"than 0 and at most 1; using 1"], f"stderr with {value!r}")
        check_equal(run.report["install_share"], 1.0, f"install_share with {value!r}")


def all_strings(node):
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from all_strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from all_strings(value)
    elif isinstance(node, str):
        yield node


def run_in_home(scrub):
    """context-app copied into a fake home (HOME=.../home/alice), inside a
    scene whose label holds the user name as a path component, in a source
    named after a file in the home directory."""
    user = pwd.getpwuid(os.getuid()).pw_name
    from tempfile import mkdtemp
    base = mkdtemp(prefix="jankscope-home-")
    home = os.path.join(base, "home", "alice")
    os.makedirs(os.path.join(home, "bin"))
    exe = os.path.join(home, "bin", "context-app")
    shutil.copy2(app("context-app"), exe)
    env = {"HOME": home}
    if scrub:
        env["JANKSCOPE_SCRUB"] = "1"
    scene = f"/srv/{user}/chat"
    source = f"open {home}/notes.txt"
    try:
        run = run_app([exe, "labels", scene, source], extra_env=env)
        report = run.report
    finally:
        shutil.rmtree(base, ignore_errors=True)
    check_equal(run.returncode, 0, "exit code")
    check_equal(run.stderr_lines(), [], "stderr")
    return run, report, home, user, scene, source


def test_scrub():
    run, report, home, user, scene, source = run_in_home(scrub=True)
    validate_report(report, pid=run.pid)
    check_equal(report["scrubbed"], True, "scrubbed")
    leaks = [s for s in all_strings(report) if home in s or f"/{user}/" in s or s.endswith(f"/{user}")]
    check_equal(leaks, [], "strings with the home directory or the user name")
    check_equal(report["process"]["exe"], "~/bin/context-app", "process.exe")
    e = report["events"][0]
    check_equal(e["scene"], "/srv/<user>/chat", "scene")
    check_equal(e["source"], "open ~/notes.txt", "source")
    check_equal([m["name"] for m in report["marks"]], ["/srv/<user>/chat"], "marks")
    check(all(ev["context"]["window_title"] is None for ev in report["events"]), "window_title")

    # The same run without JANKSCOPE_SCRUB has them all.
    run, report, home, user, scene, source = run_in_home(scrub=False)
    check_equal(report["scrubbed"], False, "scrubbed (without JANKSCOPE_SCRUB)")
    check(report["process"]["exe"].startswith(home), f"exe {report['process']['exe']!r}")
    check_equal(report["events"][0]["scene"], scene, "scene (without JANKSCOPE_SCRUB)")
    check_equal(report["events"][0]["source"], source, "source (without JANKSCOPE_SCRUB)")


def test_scrub_previous_run():
    """A previous run killed during a hang left its journal (its last "hang"
    line, with whose hang it was): its strings are scrubbed too when
    carried on."""
    from tempfile import mkdtemp
    base = mkdtemp(prefix="jankscope-prev-")
    home = os.path.join(base, "home", "alice")
    path = os.path.join(base, "report.json")
    previous = {
        "format": "jankscope-report", "version": 1, "final": False,
        "journal": {"run": "4242-1", "seq": 0},
        "process": {"pid": 4242, "exe": f"{home}/bin/old-app"},
        "events": [],
    }
    hang = {"id": 0, "type": "hang", "ongoing": True, "duration_ns": 2000 * MS,
            "source": f"load {home}/big.db",
            "stacks": [{"frames": [{"function": "f", "file": f"{home}/src/f.c"}]}],
            "process": {"pid": 4242, "exe": f"{home}/bin/old-app"}}
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(previous, f)
        with open(path + ".journal", "w", encoding="utf-8") as f:
            f.write(json.dumps({"run": "4242-1", "seq": 1, "hang": hang}) + "\n")
        run = run_context(["quick"], extra_env={"HOME": home, "JANKSCOPE_SCRUB": "1",
                                                "JANKSCOPE_REPORT": path})
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    check_equal(run.returncode, 0, "exit code")
    warnings = run.stderr_lines()
    check(len(warnings) == 1 and "previous run" in warnings[0], f"stderr: {warnings}")
    prev = report.get("previous_run")
    check(isinstance(prev, dict), f"previous_run: {prev!r}")
    check_equal(prev["exe"], "~/bin/old-app", "previous_run.exe")
    check_equal(prev["hang"]["source"], "load ~/big.db", "previous_run.hang.source")
    check_equal(prev["hang"]["stacks"][0]["frames"][0]["file"], "~/src/f.c",
                "previous_run.hang frame file")
    check_equal([s for s in all_strings(report) if home in s], [], "strings with the home directory")


def test_limits():
    run = run_context(["limits"])
    report = validate_run_report(run)
    check_equal(run.stderr_lines(), [], "stderr")
    e = report["events"][0]
    check_equal(e["scene"], "x" * 63, "a 199-byte label, cut to 63 bytes")
    n = report["annotations"]
    check_equal(n["too_deep"], 9, "annotations.too_deep (40 levels over one, 32 kept)")
    # 302 distinct labels, 254 fit: 47 "scene-NNN" calls and the 31 "deep"
    # pushes kept get "(other)".
    check_equal(n["labels_overflow"], 47 + 31, "annotations.labels_overflow")
    check_equal(n["calls_unbalanced"], 0, "annotations.calls_unbalanced (ignored pops match)")


def test_animated_journal():
    """An episode in an app that animates (the collector drains it once a
    second and sees the episode open first) reaches the journal once, as it
    closed: its line already has the mark that ended after the stall but
    before the episode closed (js-collector.c, journal_events)."""
    run = run_context(["animated"], timeout=60)
    check_equal(run.returncode, -9, f"killed itself after the stall\n{run.describe()}")
    window = named_stalls(run)["animated"]
    lines = [line["event"] for line in journal_lines(run.report_path + ".journal")
             if isinstance(line.get("event"), dict)
             and line["event"]["start_ns"] <= window[0] + 1000
             and line["event"]["end_ns"] >= window[1]]
    check(len(lines) >= 1, f"the stall's event in the journal: {summarize(lines)}")
    marks = [m for m in lines[0]["marks"] if m["name"] == "late-end"]
    check(len(marks) == 1 and marks[0]["end_ns"] is not None,
          f"its first line has the mark and its end: {lines[0]['marks']}")
    check_equal(len(lines), 1, "journal lines of the event")


def run_gtk4(scrub):
    env = gtk_env()
    if scrub:
        env["JANKSCOPE_SCRUB"] = "1"
    exe = app("context-gtk4")
    run = run_app([exe], extra_env=env, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    check("FAIL" not in run.stderr, "the test program reported a failure")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "mapped"), "1", "the window was mapped")
    check_equal(fact(run, "active"), "1", "GTK saw the window focused (is-active)")
    validate_report(run.report, pid=run.pid, exe=exe, toolkit="gtk4",
                    gtk_version=fact(run, "gtk_version"))
    return run, run.report


def test_gtk4_title():
    run, report = run_gtk4(scrub=False)
    windows = named_stalls(run)
    check_top_level(report)
    startup, inbox, settings = (event_covering(report, windows[n], n)
                                for n in ("startup", "inbox", "settings"))
    for name, e in (("startup", startup), ("inbox", inbox), ("settings", settings)):
        check_context_sane(e, f"event {name}")
    check_equal(report["startup"]["rule"], "first-frame", "startup.rule")
    first_frame = report["startup"]["end_ns"]
    # The app's own stall, not its event: a slow first frame (ASan, a loaded
    # machine) merges into the start-up stall's event and ends it later.
    check(isinstance(first_frame, int) and windows["startup"][1] <= first_frame,
          f"startup.end_ns {first_frame} (the first frame) is not after the start-up stall "
          f"{windows['startup'][1]}")
    check_equal(startup["context"]["startup"], True, "event before the first frame: startup")
    # An event is in start-up when it opened before the first frame. On a
    # loaded machine slow first frames can chain the start-up stall and the
    # inbox stall into one event (parts closer than the merge gap); the
    # settings stall, further on, opens an event of its own.
    for name, e in (("inbox", inbox), ("settings", settings)):
        check_equal(e["context"]["startup"], e["start_ns"] < first_frame,
                    f"event {name} (opened at {e['start_ns']}, first frame {first_frame}): startup")
    check(settings["id"] != startup["id"], "the settings stall merged into the start-up event")
    check_equal(settings["context"]["startup"], False, "event after the first frame: startup")
    check_equal(startup["scene"], "inbox", "event startup: scene")
    check_equal(inbox["scene"], "inbox", "event inbox: scene")
    check_equal(settings["scene"], "settings", "event settings: scene")
    check_equal(inbox["context"]["window_title"], "jankscope context: inbox",
                "event inbox: window_title")
    check_equal(settings["context"]["window_title"], "jankscope context: settings",
                "event settings: window_title")


def test_gtk4_scrub():
    run, report = run_gtk4(scrub=True)
    check_equal(report["scrubbed"], True, "scrubbed")
    check(all(e["context"]["window_title"] is None for e in report["events"]),
          "window_title with JANKSCOPE_SCRUB")
    leaks = [s for s in all_strings(report) if "jankscope context:" in s]
    check_equal(leaks, [], "window titles in the report")
    check_equal(report["annotations"]["titles_overflow"], 0, "annotations.titles_overflow")


CHECKS = {
    "annotate": test_annotate,
    "no-preload": test_no_preload,
    "disabled": test_disabled,
    "install-id": test_install_id,
    "install-share-out": test_install_share_out,
    "install-share-in": test_install_share_in,
    "install-share-invalid": test_install_share_invalid,
    "scrub": test_scrub,
    "scrub-previous-run": test_scrub_previous_run,
    "limits": test_limits,
    "animated-journal": test_animated_journal,
    "gtk4-title": test_gtk4_title,
    "gtk4-scrub": test_gtk4_scrub,
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
