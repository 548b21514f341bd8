#!/usr/bin/env python3
"""Checks with real GTK programs (tests/apps/gtk4-stall.c, gtk3-stall.c): a
window, a 200 ms stall 0.5 s after it is mapped, quit 1 s later. They need a
display: run under xvfb-run (skipped when DISPLAY is unset).
Usage: check_gtk.py CHECK
"""

import sys

from jankscope_test import (
    all_parts, app, check, check_dispatch_part, check_equal, check_ms, env_path, fact,
    gtk_env, main, run_app, stalls, summarize, validate_report)


def run_gtk(name, toolkit, major, mode, args=(), n_stalls=1):
    extra = gtk_env()
    exe = app(name)
    preload = mode == "preload"
    if mode == "gtk-module":
        extra["GTK_MODULES"] = env_path("JANKSCOPE_TEST_GTK3_MODULE")
    run = run_app([exe, *args], preload=preload, extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    check("FAIL" not in run.stderr, "the test program reported a failure")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "mapped"), "1", "the window was mapped")
    gtk_version = fact(run, "gtk_version")
    check(gtk_version.startswith(f"{major}."), f"gtk_version {gtk_version}")
    validate_report(run.report, pid=run.pid, exe=exe, mode=mode, toolkit=toolkit,
                    gtk_version=gtk_version)
    windows = stalls(run)
    check_equal(len(windows), n_stalls, "stalls the app made")
    return (run, windows[0]) if n_stalls == 1 else (run, windows)


def check_preload(name, toolkit, major):
    run, window = run_gtk(name, toolkit, major, "preload")
    report = run.report
    source = f"{toolkit}-stall"
    parts = [p for _, p in all_parts(report) if p.get("source") == source]
    check(len(parts) == 1, f"expected one part of {source!r}, events: {summarize(report['events'])}")
    check_dispatch_part(parts[0], source, f"{toolkit}_stall_cb", 195, 230, stall=window)
    names = [s["source"] for s in report["summary"]["sources"]]
    check(any(n and n.startswith("[gtk") for n in names),
          f"none of GTK's own sources was measured: {names}")
    check(report["summary"]["iterations"] >= 3, "summary.iterations")


def test_gtk4_preload():
    check_preload("gtk4-stall", "gtk4", 4)


def test_gtk3_preload():
    check_preload("gtk3-stall", "gtk3", 3)


def test_gtk3_module():
    """GTK_MODULES without LD_PRELOAD. In this mode jankscope may not see a
    GLib timeout's dispatch by itself (README, Limits): the stall must show
    either as that dispatch or as the iteration that ran it."""
    run, window = run_gtk("gtk3-stall", "gtk3", 3, "gtk-module")
    report = run.report
    covering = [(e, p) for e, p in all_parts(report)
                if p["start_ns"] <= window[0] + 1000 and p["end_ns"] >= window[1]]
    check(len(covering) == 1,
          f"expected one part covering the stall, events: {summarize(report['events'])}")
    event, part = covering[0]
    if part["type"] == "dispatch":
        check_dispatch_part(part, "gtk3-stall", "gtk3_stall_cb", 195, 230, stall=window)
    else:
        check_equal(part["type"], "iteration", "type of the part covering the stall")
        check_ms(part["duration_ns"], 195, 300, "busy time of the stall's iteration")
    check_equal(event["type"], part["type"], "event type")
    check(report["summary"]["iterations"] >= 3, "summary.iterations")
    # The CPU-time timer needs the preload's guard of the blocking calls.
    sampler = report["summary"]["sampler"]
    check_equal((sampler["sampling_path"], sampler["sampling_path_reason"]),
                ("watchdog", "gtk-module"), "summary.sampler.sampling_path and its reason")


def check_gdk_threads(mode):
    """gdk_threads_add_timeout () and gdk_threads_add_idle () callbacks: GLib
    sees GDK's own wrapper as the callback of both sources; the report names
    the app's functions it runs (they were both libgdk-3.so.0+0x...), with
    their file:line (the test program is built with -g)."""
    run, windows = run_gtk("gtk3-stall", "gtk3", 3, mode, args=["gdk-threads"], n_stalls=2)
    report = run.report
    # (gdk_threads_add_idle: G_PRIORITY_DEFAULT_IDLE)
    for (source, callback, priority), window in zip(
            (("gtk3-threads-timeout", "gtk3_threads_timeout_cb", 0),
             ("gtk3-threads-idle", "gtk3_threads_idle_cb", 200)), windows):
        parts = [(e, p) for e, p in all_parts(report) if p.get("source") == source]
        check(len(parts) == 1,
              f"expected one part of {source!r}, events: {summarize(report['events'])}")
        event, part = parts[0]
        check_dispatch_part(part, source, callback, 195, 230, priority=priority, stall=window)
        check_equal(event["callback"], callback, f"the event of {source!r}: callback")
        frame = event["callback_frame"]
        check(frame is not None and frame["function"] == callback
              and frame["module"] == "gtk3-stall" and str(frame["file"]).endswith("gtk3-stall.c")
              and isinstance(frame["line"], int),
              f"the event of {source!r}: callback_frame {frame}")
        entries = [x for x in report["summary"]["sources"] if x["source"] == source]
        check(len(entries) == 1 and entries[0]["callback"] == callback,
              f"summary.sources of {source!r}: {entries}")
    gdk = [x for x in report["summary"]["sources"]
           if str(x["callback"]).startswith("libgdk-3.so")
           and str(x["source"]).startswith("gtk3-threads")]
    check_equal(gdk, [], "sources named after GDK's wrapper")


def test_gtk3_gdk_threads():
    check_gdk_threads("preload")


def test_gtk3_module_gdk_threads():
    check_gdk_threads("gtk-module")


CHECKS = {
    "gtk4-preload": test_gtk4_preload,
    "gtk3-preload": test_gtk3_preload,
    "gtk3-module": test_gtk3_module,
    "gtk3-gdk-threads": test_gtk3_gdk_threads,
    "gtk3-module-gdk-threads": test_gtk3_module_gdk_threads,
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
