#!/usr/bin/env python3
"""The jankscope window (src/gtk4-ui/, issue 6): runs one path of
tests/ui/test-inspector.c (GTest) with the synthetic snapshot
tests/ui/snapshot.json. The window's checks need a display: run under
xvfb-run (skipped when DISPLAY is unset); flame-layout and snapshot-parse
run anywhere. The screenshot is saved as build/tests/inspector.png.
Usage: check_inspector.py CHECK
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from jankscope_test import (
    CheckFailed, Skip, app, check, check_equal, clean_env, env_path, fact, gtk_env, main,
    preload_path, run_app, stalls, STRICT_G_DEBUG)

DISPLAY_FREE = ("flame-layout", "snapshot-parse", "frame-stats", "ui-cost", "shortcut-parse",
                "export")
CHECKS = ("flame-layout", "snapshot-parse", "templates", "models", "select",
          "timeline-click", "panel", "refresh", "screenshot", "frame-stats", "ui-cost",
          "shortcut-parse", "export", "actions", "refresh-pause-clear", "inspector-page-unit",
          "screenshot-zh")


def run_path(name):
    exe = env_path("JANKSCOPE_TEST_INSPECTOR")
    env = clean_env({
        "JSUI_TEST_SNAPSHOT": env_path("JANKSCOPE_TEST_INSPECTOR_SNAPSHOT"),
        "JSUI_TEST_SCREENSHOT": os.environ.get("JANKSCOPE_TEST_INSPECTOR_SCREENSHOT",
                                               "inspector.png"),
        "G_DEBUG": STRICT_G_DEBUG,
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
    path = "inspector-page" if name == "inspector-page-unit" else name
    if name == "screenshot-zh":
        env["JSUI_TEST_LANGUAGE"] = "zh_CN"
        env["JSUI_TEST_LOCALEDIR"] = env_path("JANKSCOPE_TEST_LOCALEDIR")
        env["JSUI_TEST_SCREENSHOT"] = os.environ.get(
            "JANKSCOPE_TEST_INSPECTOR_SCREENSHOT_ZH", "inspector-zh_CN.png")
    run = subprocess.run([exe, "-p", f"/inspector/{path}"], env=env, capture_output=True,
                         text=True, timeout=60)
    out = run.stdout + run.stderr
    if run.returncode != 0:
        raise CheckFailed(f"test-inspector /inspector/{path} exited with {run.returncode}:\n{out}")
    check(f"/inspector/{path}" in out or "ok 1" in out,
          f"/inspector/{path} did not run:\n{out}")
    if name in ("screenshot", "screenshot-zh"):
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


def check_demo_window():
    """The demo app (a GTK 4 playground) with JANKSCOPE_INSPECTOR=1: the
    window appears, lists the stalls the script made, and is saved as a
    screenshot (build/tests/inspector-demo.png)."""
    extra = observe_env(JANKSCOPE_INSPECTOR="1")
    extra["JANKSCOPE_TEST_UI_SCREENSHOT"] = os.environ.get(
        "JANKSCOPE_TEST_INSPECTOR_DEMO_SCREENSHOT", "inspector-demo.png")
    run = run_app([app("playground"), "--script=cpu,sleep,small-stalls,quit", "--gap=900"],
                  extra_env=extra, timeout=90)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "inspector_window"), "1", "the jankscope window exists")
    check_equal(fact(run, "inspector_mapped"), "1", "the jankscope window is mapped")
    status = fact(run, "inspector_status_at_end")
    shown = int(status.split()[0]) if status.split()[0].isdigit() else -1
    check(status.endswith("jank events") and shown >= 2,
          f"the window does not list the stalls at the app's end: status {status!r}")
    check(shown <= len(run.report["events"]) + 1,
          f"the window shows {shown} events, the report has {len(run.report['events'])}")
    check_equal(fact(run, "inspector_screenshot"), "1", "the window's screenshot was saved")


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


def observe_env(**extra):
    env = gtk_env()
    env["LD_PRELOAD"] = preload_path() + " " + env_path("JANKSCOPE_TEST_UI_SHIM")
    env["JANKSCOPE_TEST_UI_START"] = "observe"
    env.update(extra)
    return env


def check_inspector_page():
    """GTK_DEBUG=interactive (GTK's Inspector opens inside gtk_init ()):
    jankscope's page is in it, named "jankscope"; it does not refresh while
    another page is shown, and shows the core's snapshots once selected."""
    extra = observe_env(GTK_DEBUG="interactive")
    extra["JANKSCOPE_TEST_UI_PAGE_SCREENSHOT"] = os.environ.get(
        "JANKSCOPE_TEST_INSPECTOR_PAGE_SCREENSHOT", "inspector-gtk-page.png")
    run = run_app([app("gtk4-stall")], extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "ui_module_loaded"), "1", "the UI module is loaded (armed)")
    check_equal(fact(run, "gtk_inspector"), "1", "GTK's Inspector is open")
    check_equal(fact(run, "inspector_page"), "1", "jankscope's page is in GTK's Inspector")
    check_equal(fact(run, "inspector_page_title"), "jankscope", "the page's title")
    check_equal(fact(run, "inspector_page_mapped"), "0", "the page is not shown at first")
    check_equal(fact(run, "inspector_page_mapped_at_end"), "1", "the page is shown when selected")
    status = fact(run, "inspector_page_status_at_end")
    check(status.endswith("jank event") or status.endswith("jank events"),
          f"the page shows no snapshot: status {status!r}")
    check_equal(fact(run, "inspector_page_screenshot"), "1", "GTK's Inspector's screenshot")
    # Armed mode opens no window of its own.
    check("inspector_window" not in run.facts, "a jankscope window was opened")
    check_equal(len(stalls(run)), 1, "stalls the app made")


def check_ui_off():
    """JANKSCOPE_UI=0: the module is not even loaded (no Inspector page, no
    shortcut); with JANKSCOPE_INSPECTOR=1 too: one warning, no window."""
    run = run_app([app("gtk4-stall")], extra_env=observe_env(GTK_DEBUG="interactive",
                                                             JANKSCOPE_UI="0"), timeout=60)
    check_equal(run.returncode, 0, "exit code")
    check_equal(fact(run, "ui_module_loaded"), "0", "the UI module is loaded")
    check_equal(fact(run, "inspector_page"), "0", "jankscope's page is in GTK's Inspector")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    run = run_app([app("gtk4-stall")], extra_env=observe_env(JANKSCOPE_UI="0",
                                                             JANKSCOPE_INSPECTOR="1"), timeout=60)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check(len(ours) == 1 and "JANKSCOPE_UI=0" in ours[0], f"one warning about JANKSCOPE_UI: {ours}")
    check("inspector_window" not in run.facts, "a jankscope window was opened")
    check(run.report["events"], "the report has the app's stall")


def xdotool(*args):
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=10)


def jankscope_windows(pid):
    """Names of the visible X windows of process `pid` that are jankscope's."""
    found = xdotool("search", "--onlyvisible", "--pid", str(pid))
    names = [xdotool("getwindowname", w).stdout.strip() for w in found.stdout.split()]
    return [n for n in names if n.startswith("jankscope — ")]


def wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def press_in_app(shortcut, extra_env, expect_toggle, argv=None, stdout_facts=None):
    """frames-gtk4 `static` (a window for 5 s; or `argv`) under the preload;
    presses `shortcut` (xdotool, real X key events) in the app's window,
    twice. Returns the app's stderr lines (and its stdout in
    stdout_facts, a list, when given)."""
    if shutil.which("xdotool") is None:
        raise Skip("xdotool is not installed (scripts/bootstrap-debian.sh)")
    tmpdir = tempfile.mkdtemp(prefix="jankscope-test-")
    env = clean_env({**gtk_env(), "LD_PRELOAD": preload_path(),
                     "JANKSCOPE_REPORT": os.path.join(tmpdir, "report.json"), **extra_env})
    proc = subprocess.Popen(argv or [app("frames-gtk4"), "static"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)
    try:
        found = xdotool("search", "--sync", "--onlyvisible", "--pid", str(proc.pid))
        wins = found.stdout.split()
        check(wins, f"the app's window did not appear: {found.stderr}")
        time.sleep(0.5)  # the module attaches from an idle after GTK is initialised

        def press():
            xdotool("windowfocus", "--sync", wins[0])
            xdotool("key", "--clearmodifiers", shortcut)

        press()
        opened = wait_for(lambda: jankscope_windows(proc.pid), 3)
        if expect_toggle:
            check(opened, f"{shortcut} did not open the jankscope window")
            press()
            check(wait_for(lambda: not jankscope_windows(proc.pid), 3),
                  f"{shortcut} again did not close the jankscope window")
        else:
            check(not opened, f"{shortcut} opened the jankscope window")
        stdout, stderr = proc.communicate(timeout=30)
        if stdout_facts is not None:
            stdout_facts.append(stdout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        shutil.rmtree(tmpdir, ignore_errors=True)
    check_equal(proc.returncode, 0, "exit code")
    return [line for line in stderr.splitlines() if line.startswith("jankscope")]


def check_shortcut():
    """Ctrl+Shift+J in any GTK 4 app opens the jankscope window, and closes
    it; JANKSCOPE_SHORTCUT picks another key."""
    check_equal(press_in_app("ctrl+shift+j", {}, True), [], "jankscope lines on stderr")
    check_equal(press_in_app("F12", {"JANKSCOPE_SHORTCUT": "F12"}, True), [],
                "jankscope lines on stderr")
    check_equal(press_in_app("alt+k", {"JANKSCOPE_SHORTCUT": "Alt+K"}, True), [],
                "jankscope lines on stderr")


def check_shortcut_app_wins():
    """An app that binds Ctrl+Shift+J itself (an application accelerator, or
    a shortcut on the focused widget) keeps it: its binding runs, the
    jankscope window does not open."""
    for mode in ("accel", "widget"):
        out = []
        ours = press_in_app("ctrl+shift+j", {}, False,
                            argv=[env_path("JANKSCOPE_TEST_SHORTCUT_APP"), mode],
                            stdout_facts=out)
        check_equal(ours, [], "jankscope lines on stderr")
        check("app_shortcut=1" in out[0], f"{mode}: the app's own binding did not run: {out[0]!r}")
    # The same key with no binding of the app's: ours (the test can fail).
    check_equal(press_in_app("ctrl+alt+k", {"JANKSCOPE_SHORTCUT": "Ctrl+Alt+K"}, True,
                             argv=[env_path("JANKSCOPE_TEST_SHORTCUT_APP"), "accel"]), [],
                "jankscope lines on stderr")


def check_shortcut_config():
    """JANKSCOPE_SHORTCUT=off: no shortcut, silently; a bad value: one
    warning and Ctrl+Shift+J."""
    check_equal(press_in_app("ctrl+shift+j", {"JANKSCOPE_SHORTCUT": "off"}, False), [],
                "jankscope lines on stderr")
    for bad in ("<Control>nosuchkey", "j"):
        ours = press_in_app("ctrl+shift+j", {"JANKSCOPE_SHORTCUT": bad}, True)
        check(len(ours) == 1 and "JANKSCOPE_SHORTCUT" in ours[0] and "Ctrl+Shift+J" in ours[0],
              f"one warning for JANKSCOPE_SHORTCUT={bad!r}: {ours}")


if __name__ == "__main__":
    checks = {name: (lambda n=name: run_path(n)) for name in CHECKS}
    checks["app-window"] = check_app_window
    checks["core-opens"] = check_core_opens
    checks["gtk3-warns"] = check_gtk3_warns
    checks["inspector-page"] = check_inspector_page
    checks["demo-window"] = check_demo_window
    checks["ui-off"] = check_ui_off
    checks["shortcut"] = check_shortcut
    checks["shortcut-config"] = check_shortcut_config
    checks["shortcut-app-wins"] = check_shortcut_app_wins
    sys.exit(main(checks))
