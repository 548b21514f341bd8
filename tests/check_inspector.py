#!/usr/bin/env python3
"""The jankscope window (src/gtk4-ui/, issue 6): runs one path of
tests/ui/test-inspector.c (GTest) with the synthetic snapshot
tests/ui/snapshot.json. The window's checks need a display: run under
xvfb-run (skipped when DISPLAY is unset); flame-layout and snapshot-parse
run anywhere. The screenshot is saved as build/tests/inspector.png.
Usage: check_inspector.py CHECK
"""

import os
import subprocess
import sys

from jankscope_test import (
    CheckFailed, app, check, check_equal, clean_env, env_path, fact, gtk_env, main,
    preload_path, run_app, stalls)

DISPLAY_FREE = ("flame-layout", "snapshot-parse")
CHECKS = ("flame-layout", "snapshot-parse", "templates", "models", "select",
          "timeline-click", "refresh", "screenshot")


def run_path(name):
    exe = env_path("JANKSCOPE_TEST_INSPECTOR")
    env = clean_env({
        "JSUI_TEST_SNAPSHOT": env_path("JANKSCOPE_TEST_INSPECTOR_SNAPSHOT"),
        "JSUI_TEST_SCREENSHOT": os.environ.get("JANKSCOPE_TEST_INSPECTOR_SCREENSHOT",
                                               "inspector.png"),
        "G_DEBUG": "fatal-criticals",
        "GSK_RENDERER": "cairo",
        "GSETTINGS_BACKEND": "memory",
        "NO_AT_BRIDGE": "1",
        "GTK_A11Y": "none",
    })
    if name not in DISPLAY_FREE:
        env.update(gtk_env())
    else:
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
    run = subprocess.run([exe, "-p", f"/inspector/{name}"], env=env, capture_output=True,
                         text=True, timeout=60)
    out = run.stdout + run.stderr
    if run.returncode != 0:
        raise CheckFailed(f"test-inspector /inspector/{name} exited with {run.returncode}:\n{out}")
    check(f"/inspector/{name}" in out or "ok 1" in out,
          f"/inspector/{name} did not run:\n{out}")
    if name == "screenshot":
        path = env["JSUI_TEST_SCREENSHOT"]
        check(os.path.getsize(path) > 1000, f"{path} is too small")
        with open(path, "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")


def check_app_window():
    """gtk4-stall under the preload, the window opened by the test shim as
    the core will: it appears with its title and marked frame clock, shows
    the core's live snapshots, and the app's own stall is still measured,
    with no jankscope line on stderr."""
    extra = gtk_env()
    extra["LD_PRELOAD"] = preload_path() + " " + env_path("JANKSCOPE_TEST_UI_SHIM")
    extra["JANKSCOPE_TEST_UI_START"] = "1"
    extra["JANKSCOPE_TEST_UI_MODULE"] = env_path("JANKSCOPE_TEST_UI_MODULE")
    extra["JANKSCOPE_TEST_UI_SCREENSHOT"] = os.environ.get(
        "JANKSCOPE_TEST_INSPECTOR_APP_SCREENSHOT", "inspector-app.png")
    run = run_app([app("gtk4-stall")], extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    check("FAIL" not in run.stderr, f"the app or the shim reported a failure: {run.stderr}")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "inspector_window"), "1", "the jankscope window exists")
    check_equal(fact(run, "inspector_mapped"), "1", "the jankscope window is mapped")
    check_equal(fact(run, "inspector_clock_marked"), "1", "its frame clock is marked")
    title = fact(run, "inspector_title")
    check(title.startswith("jankscope — gtk4-stall (pid "), f"title {title!r}")
    # The core's live snapshots reach the window (parsed, shown) before the end.
    status = fact(run, "inspector_status_at_end")
    check(status.endswith("jank event") or status.endswith("jank events"),
          f"the window shows no snapshot at the app's end: status {status!r}")
    check_equal(fact(run, "inspector_screenshot"), "1", "the window's screenshot was saved")
    check_equal(len(stalls(run)), 1, "stalls the app made")
    parts = [p for e in run.report["events"] for p in e.get("parts", [])
             if p.get("source") == "gtk4-stall"]
    check_equal(len(parts), 1, "parts of the app's stall")


def check_core_opens():
    """JANKSCOPE_INSPECTOR=1: the core itself opens the window in a GTK4 app
    (the shim only looks), and the app's stall is still measured."""
    extra = gtk_env()
    extra["LD_PRELOAD"] = preload_path() + " " + env_path("JANKSCOPE_TEST_UI_SHIM")
    extra["JANKSCOPE_TEST_UI_START"] = "observe"
    extra["JANKSCOPE_INSPECTOR"] = "1"
    run = run_app([app("gtk4-stall")], extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "inspector_window"), "1", "the core opened the jankscope window")
    check_equal(fact(run, "inspector_clock_marked"), "1", "its frame clock is marked")
    check_equal(len(stalls(run)), 1, "stalls the app made")
    # The window's start-up idle and its refresh sources are jankscope's own:
    # never a source of the statistics or of an event.
    sources = [s.get("source") or "" for s in run.report["summary"]["sources"]]
    check(not any(name.startswith("[jankscope") for name in sources),
          f"jankscope's own sources in the statistics: {sources}")


def check_gtk3_warns():
    """JANKSCOPE_INSPECTOR=1 in a GTK3 app: one clear warning, the report
    as usual, no crash (a GTK4 module cannot live in a GTK3 process)."""
    extra = gtk_env()
    extra["JANKSCOPE_INSPECTOR"] = "1"
    run = run_app([app("gtk3-stall")], extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check(len(ours) == 1 and "GTK 4" in ours[0], f"one warning about GTK 4: {ours}")
    check(run.report["events"], "the report has the app's stall")


if __name__ == "__main__":
    checks = {name: (lambda n=name: run_path(n)) for name in CHECKS}
    checks["app-window"] = check_app_window
    checks["core-opens"] = check_core_opens
    checks["gtk3-warns"] = check_gtk3_warns
    sys.exit(main(checks))
