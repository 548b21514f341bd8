#!/usr/bin/env python3
"""Checks that each named anti-pattern done on the main thread is diagnosed
with its id (docs/report-format.md, "Diagnosis"), that the same work in a
worker thread is not, and that an episode of two causes gets one diagnosis
per part.

The program is tests/apps/diagnosis-app.c: each scenario does its thing in a
timeout callback for about 300 ms (what exactly, and how honest a wait it is,
is in its header). The D-Bus scenario runs on a private bus (a dbus-daemon the
check starts, as the GTK checks do). Nothing here asserts on speed: only on what the samples show.
Usage: check_diagnosis.py CHECK
"""

import os
import tempfile

from jankscope_test import (
    MS, SANITIZED, Skip, app, check, check_equal, check_ran_fine, gtk_env, main, run_app,
    session_bus_env, stalls, summarize, validate_run_report)

APP = "diagnosis-app"
MIN_EVIDENCE_NS = 40 * MS  # JS_DIAGNOSIS_MIN_NS
MIN_SHARE = 0.3  # JS_DIAGNOSIS_MIN_SHARE
DIAGNOSIS_KEYS = ("id", "title", "evidence_ns", "share", "function", "node", "wait", "caller",
                  "fix", "detail")
DBUS_NAMES = {"bus_name": "org.jankscope.DiagnosisTest", "object_path": "/org/jankscope/Test",
              "interface": "org.jankscope.DiagnosisTest", "method": "Slow"}


def run(scenario, extra_env=None):
    if not os.environ.get("JANKSCOPE_TEST_DIAGNOSIS_APP"):
        raise Skip(f"{APP} is not built (no gdk-pixbuf-2.0)")
    r = run_app([app(APP), scenario], extra_env=extra_env, timeout=90)
    if r.facts.get("skip"):
        raise Skip(r.facts["skip"][0])
    check_ran_fine(r)
    validate_run_report(r)
    return r


def validate_diagnosis(d, owner, n_nodes, what):
    """The member's shape and the rule that made it (a real share)."""
    if d is None:
        return
    for key in DIAGNOSIS_KEYS:
        check(key in d, f"{what}: diagnosis without {key!r}: {d}")
    check(isinstance(d["id"], str) and d["id"], f"{what}: diagnosis id {d['id']!r}")
    check(isinstance(d["title"], str) and d["title"], f"{what}: title {d['title']!r}")
    check(isinstance(d["fix"], str) and d["fix"], f"{what}: fix {d['fix']!r}")
    attributed = owner["attributed_ns"]
    check(MIN_EVIDENCE_NS <= d["evidence_ns"] <= attributed,
          f"{what}: evidence_ns {d['evidence_ns']} not within [40 ms, attributed {attributed}]")
    check(d["evidence_ns"] >= MIN_SHARE * attributed - 1,
          f"{what}: evidence {d['evidence_ns']} under 30% of {attributed}")
    check(0 < d["share"] <= 1, f"{what}: share {d['share']}")
    check(d["node"] == -1 or 0 <= d["node"] < n_nodes,
          f"{what}: node {d['node']} outside the event's profile ({n_nodes} nodes)")
    check(d["function"] != "main", f"{what}: a diagnosis names main")
    detail = d["detail"]
    if d["id"] == "file-io":
        check(isinstance(detail, dict) and "path" in detail,
              f"{what}: file-io without detail.path: {detail!r}")
    elif d["id"] == "dbus-sync":
        check(detail is None or set(detail) == set(DBUS_NAMES),
              f"{what}: dbus-sync detail {detail!r}")
    else:
        check(detail is None, f"{what}: {d['id']} with a detail {detail!r}")


def the_event(r):
    events = [e for e in r.report["events"] if e["type"] != "frame"]
    check(len(events) == 1, f"expected one event, got {summarize(events)}")
    e = events[0]
    n_nodes = len(e["profile"]["nodes"]["parent"])
    validate_diagnosis(e.get("diagnosis"), e, n_nodes, "event")
    for i, p in enumerate(e["parts"]):
        validate_diagnosis(p.get("diagnosis"), p, n_nodes, f"part {i}")
    return e


def expect(scenario, diagnosis_id, functions=None, wait=None, env=None, callers=None):
    """The event and its part diagnosed `diagnosis_id`, in one of `functions`
    (or by the wait kind `wait`), made by one of `callers` (the app's own
    js_test_* function)."""
    def checker():
        r = run(scenario, env() if env else None)
        e = the_event(r)
        d = e.get("diagnosis")
        check(d is not None, f"{scenario}: no diagnosis (culprit {e.get('culprit')})")
        check_equal(d["id"], diagnosis_id, f"{scenario}: the event's diagnosis")
        # Under ASan a blocked thread's stack copy unwinds no further than
        # the sanitizer's interceptor of the call (__interceptor_waitpid,
        # clock_nanosleep): the id holds, the function and caller above it
        # cannot be seen.
        if functions is not None and not SANITIZED:
            check(d["function"] in functions or (wait is not None and d["wait"] == wait),
                  f"{scenario}: diagnosis function {d['function']!r} (wait {d['wait']!r}), "
                  f"expected one of {functions}")
        if callers is not None and not SANITIZED:
            check(d["caller"] in callers,
                  f"{scenario}: diagnosis caller {d['caller']!r}, expected one of {callers}")
        longest = max(e["parts"], key=lambda p: p["duration_ns"])
        check(longest.get("diagnosis") is not None, f"{scenario}: the part has no diagnosis")
        check_equal(longest["diagnosis"]["id"], diagnosis_id, f"{scenario}: the part's diagnosis")
        print(f"info: {scenario}: {d['id']} in {d['function']} "
              f"({d['evidence_ns'] / MS:.0f} ms, share {d['share']}), detail {d['detail']}")
        return r
    return checker


def check_dbus():
    """A bus of the test's own (session_bus_env: a private dbus-daemon
    unless the caller has a session bus), the service on a thread of the
    app. The call's names are the diagnosis's detail (the preload saw the
    app's g_dbus_connection_call_sync)."""
    r = expect("dbus", "dbus-sync", ("g_dbus_connection_call_sync",), env=session_bus_env,
               callers=("js_test_call_dbus",))()
    e = the_event(r)
    longest = max(e["parts"], key=lambda p: p["duration_ns"])
    for owner, what in ((e, "event"), (longest, "part")):
        check_equal(owner["diagnosis"]["detail"], DBUS_NAMES, f"dbus: the {what}'s call")


def check_file_io():
    """Reading a file the page cache holds: the time is on the CPU, inside
    g_file_get_contents, and no system call shows the file: the detail says
    so (path null), or names the big file when a read was seen blocked."""
    r = expect("file-io", "file-io", ("g_file_get_contents",), "io",
               callers=("js_test_read_files",))()
    e = the_event(r)
    for owner in [e] + e["parts"]:
        d = owner.get("diagnosis")
        if d is not None and d["id"] == "file-io" and d["detail"]["path"] is not None:
            check(d["detail"]["path"].endswith("/big.txt"),
                  f"file-io: a path that is not the file read: {d['detail']['path']!r}")


def check_file_open():
    """Blocked in openat of a FIFO inside g_file_get_contents: the path
    argument of the call, copied from the app's memory, is the detail."""
    r = expect("file-open", "file-io", ("g_file_get_contents",), "io",
               callers=("js_test_read_fifo",))()
    path = r.facts["path"][0]
    e = the_event(r)
    longest = max(e["parts"], key=lambda p: p["duration_ns"])
    for owner, what in ((e, "event"), (longest, "part")):
        check_equal(owner["diagnosis"]["detail"], {"path": path}, f"file-open: the {what}'s file")
    # Scrubbed as every path of the report is (JANKSCOPE_SCRUB): the home
    # folder (here the one the FIFO is made in) becomes ~.
    with tempfile.TemporaryDirectory() as home:
        r = run("file-open", {"TMPDIR": home, "HOME": home, "JANKSCOPE_SCRUB": "1"})
    path = r.facts["path"][0]
    check(path.startswith(home + "/"), f"file-open: the FIFO {path} is not in {home}")
    d = the_event(r)["diagnosis"]
    check_equal(d["detail"], {"path": "~" + path[len(home):]}, "file-open: the scrubbed file")


def check_worker():
    """The file reads, regular expressions and sleeps of a worker thread
    are not the main thread's: its own computation is what is named."""
    r = run("worker")
    e = the_event(r)
    for owner in [e] + e["parts"]:
        d = owner.get("diagnosis")
        check(d is not None, "worker: no diagnosis of the main thread's computation")
        check_equal(d["id"], "slow-callback", "worker: diagnosis")
        check_equal(d["function"], "js_test_spin", "worker: the function named")


def check_mixed():
    """Two callbacks under 500 ms apart: one event, a diagnosis per part."""
    r = run("mixed")
    e = the_event(r)
    windows = stalls(r)
    check_equal(len(windows), 2, "mixed: work windows printed")
    parts = [p for p in e["parts"] if p["type"] == "dispatch"]
    check(len(parts) >= 2, f"mixed: expected two dispatch parts, got {summarize([e])}")
    ids = [p["diagnosis"]["id"] if p.get("diagnosis") else None for p in parts]
    check_equal(ids, ["sleep", "json-decoding"], "mixed: the parts' diagnoses, in order")
    check(e["diagnosis"]["id"] in ("sleep", "json-decoding"),
          f"mixed: the event's diagnosis {e['diagnosis']['id']}")


def check_builder():
    """GTK 4: a large GtkBuilder description built on the main thread
    (tests/apps/diagnosis-gtk4.c) is builder-template, named at
    gtk_builder_add_from_string (exported by libgtk-4, so named in Debian's
    stripped library)."""
    if not os.environ.get("JANKSCOPE_TEST_DIAGNOSIS_GTK4"):
        raise Skip("diagnosis-gtk4 is not built (no GTK 4)")
    r = run_app([os.environ["JANKSCOPE_TEST_DIAGNOSIS_GTK4"]], extra_env=gtk_env(), timeout=90)
    check_ran_fine(r)
    validate_run_report(r, toolkit="gtk4")
    e = the_event(r)
    d = e.get("diagnosis")
    check(d is not None, f"builder: no diagnosis (culprit {e.get('culprit')})")
    check_equal(d["id"], "builder-template", "builder: the event's diagnosis")
    if not SANITIZED:
        check_equal(d["function"], "gtk_builder_add_from_string", "builder: the function named")
        check_equal(d["caller"], "js_test_build_ui", "builder: the caller")
    longest = max(e["parts"], key=lambda p: p["duration_ns"])
    check(longest.get("diagnosis") is not None, "builder: the part has no diagnosis")
    check_equal(longest["diagnosis"]["id"], "builder-template", "builder: the part's diagnosis")
    print(f"info: builder: {d['id']} in {d['function']} ({d['evidence_ns'] / MS:.0f} ms, "
          f"share {d['share']})")


CHECKS = {
    "file-io": check_file_io,
    "file-open": check_file_open,
    "dbus": check_dbus,
    "spawn": expect("spawn", "subprocess-wait", ("g_spawn_command_line_sync", "g_spawn_sync"),
                    "child", callers=("js_test_spawn",)),
    "image": expect("image", "image-decoding", ("gdk_pixbuf_new_from_file",),
                    callers=("js_test_decode_images",)),
    "json": expect("json", "json-decoding", ("json_parser_load_from_data",),
                   callers=("js_test_parse_json",)),
    "regex": expect("regex", "regex", ("g_regex_match", "g_regex_match_full"),
                    callers=("js_test_match_regex",)),
    "font": expect("font", "font-loading", ("FcConfigAppFontAddFile",),
                   callers=("js_test_load_fonts",)),
    "sleep": expect("sleep", "sleep", ("g_usleep",), "sleep", callers=("js_test_sleep",)),
    "lock": expect("lock", "lock-wait", ("g_mutex_lock",), "lock",
                   callers=("js_test_lock",)),
    "busy": expect("busy", "slow-callback", ("js_test_spin",), callers=("js_test_spin",)),
    "worker": check_worker,
    "mixed": check_mixed,
    "builder": check_builder,
}

if __name__ == "__main__":
    raise SystemExit(main(CHECKS))
