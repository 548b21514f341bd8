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


def run_gtk(name, toolkit, major, mode):
    extra = gtk_env()
    exe = app(name)
    preload = mode == "preload"
    if mode == "gtk-module":
        extra["GTK_MODULES"] = env_path("JANKSCOPE_TEST_GTK3_MODULE")
    run = run_app([exe], preload=preload, extra_env=extra, timeout=60)
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
    check_equal(len(windows), 1, "stalls the app made")
    return run, windows[0]


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


CHECKS = {
    "gtk4-preload": test_gtk4_preload,
    "gtk3-preload": test_gtk3_preload,
    "gtk3-module": test_gtk3_module,
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
