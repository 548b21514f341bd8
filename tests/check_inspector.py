#!/usr/bin/env python3
"""The jankscope window (src/gtk4-ui/): runs one path of
tests/ui/test-inspector.c (GTest) with the synthetic snapshot
tests/ui/snapshot.json. The window's checks need a display: run under
xvfb-run (skipped when DISPLAY is unset); flame-layout and snapshot-parse
run anywhere. The screenshot is saved as build/tests/inspector.png.
Usage: check_inspector.py CHECK
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types

from jankscope_test import (
    CheckFailed, Skip, app, check, check_equal, clean_env, env_path, fact, gtk_env, main,
    parse_facts, preload_path, run_app, stalls, STRICT_G_DEBUG)

# The window's status with a snapshot shown: its stall and frame events.
STATUS_COUNTS = re.compile(
    r"^(?:Paused — )?(\d+) stall events?, (\d+) frame events?(?: since Clear)?$")
DISPLAY_FREE = ("flame-layout", "snapshot-parse", "frame-stats", "ui-cost", "shortcut-parse",
                "export")
CHECKS = ("flame-layout", "snapshot-parse", "templates", "models", "select",
          "timeline-click", "panel", "refresh", "screenshot", "frame-stats", "ui-cost",
          "shortcut-parse", "export", "actions", "refresh-pause-clear", "inspector-page-unit",
          "screenshot-zh", "pane-ratio")


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
    # gtk_init_check () in the test program can fail when the X server
    # refuses a connection for a moment (seen once in a loaded full run,
    # with DISPLAY set and the tests before and after it connecting fine):
    # that is the environment, not the window; tried again, at most twice.
    for attempt in range(3):
        run = subprocess.run([exe, "-p", f"/inspector/{path}"], env=env, capture_output=True,
                             text=True, timeout=60)
        out = run.stdout + run.stderr
        if name in DISPLAY_FREE or "no display: the window's tests are not run" not in out:
            break
        print(f"attempt {attempt + 1}: test-inspector could not open the display "
              f"{env.get('DISPLAY')!r}; trying again")
        time.sleep(0.5)
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
    # A shown snapshot: its events counted, or "Stalled for …" when the end
    # caught a slow frame (a loaded machine, ASan); never "Waiting for data…".
    status = fact(run, "inspector_status_at_end")
    check(STATUS_COUNTS.match(status) is not None or status.startswith("Stalled for "),
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
    # The status counts the listed events, unless the app's end caught a
    # slow frame (a loaded machine): then it says "Stalled for …", which is
    # right but lists nothing to count; run again, at most twice.
    for attempt in range(3):
        run = run_app([app("playground"), "--script=cpu,sleep,small-stalls,quit", "--gap=900"],
                      extra_env=extra, timeout=90)
        if run.returncode != 0 or not fact(run, "inspector_status_at_end").startswith("Stalled for "):
            break
        print(f"attempt {attempt + 1}: the app's end caught a stall "
              f"({fact(run, 'inspector_status_at_end')!r}); running it again")
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check_equal(fact(run, "inspector_window"), "1", "the jankscope window exists")
    check_equal(fact(run, "inspector_mapped"), "1", "the jankscope window is mapped")
    status = fact(run, "inspector_status_at_end")
    counts = STATUS_COUNTS.match(status)
    shown = int(counts.group(1)) + int(counts.group(2)) if counts else -1
    check(counts is not None and int(counts.group(1)) >= 2,
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
    # With a snapshot shown the status counts its events, or says the loop
    # is stalled right now (a loaded machine can catch a slow frame there);
    # without one it waits for data.
    status = fact(run, "inspector_page_status_at_end")
    check(STATUS_COUNTS.match(status) is not None or status.startswith("Stalled for "),
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


# --- A busy app: every frame slow, the loop never idle ----------------------
#
# frames-gtk4 busy: its tick callback spins 30-100 ms in every frame for 8 s,
# so the frame clock's paint source (GDK_PRIORITY_REDRAW) is always ready and
# a source at G_PRIORITY_DEFAULT_IDLE or G_PRIORITY_LOW is never dispatched
# then. The window must still open within 1 s and show new data at least once
# a second.
#
# Every time compared is the app's own (CLOCK_MONOTONIC in the app: the
# shim's and the app's facts): the harness's delays (xdotool, the X server,
# Python) are not in them. The bounds are the requirement itself (1 s); what
# the window cannot help is measured and added to them:
# - the core's lateness: it builds a snapshot every 0.5 s in its own thread,
#   which a loaded machine delays (seen: 1.1 s for the first one at a load
#   average of 6 on 2 cores). The shim watches the core's live API from a
#   thread and tells when each snapshot became available; a gap may exceed
#   1 s by as much as the core was late with the next one, beyond its period;
# - the machine's load on the main thread: the time it waited for a CPU
#   while ready to run (/proc/thread-self/schedstat, read by the shim at the
#   key, at each refresh), 0.1-0.3 s per second at a load average of 5-6.
# What is left is the window's: it takes the next snapshot at most 0.5 s
# after the last one, looking every 50 ms, plus one to three app frames
# (<= 100 ms each: the look, the parse's completion, the paint) and a parse
# in a worker; opening it is ~70 ms of main-thread CPU and one app frame.
# Seen at a load average of 4-6: gaps of 0.43-0.88 s, on screen 0.13-0.6 s
# after the key.

BOUND_NS = 1_000_000_000
CORE_PERIOD_NS = 500_000_000


def painted_at(run):
    """The jankscope window's first frame: (ns, the main thread's run-queue
    wait so far)."""
    values = run.facts.get("inspector_painted", [])
    check(values, "the jankscope window never drew itself")
    t, wait = values[0].split(",")
    return int(t), int(wait)


def check_refreshes(run, opened_ns, opened_wait):
    """The window shows data within 1 s of `opened_ns`, and new data at least
    once a second from then to the end of the app's busy phase; both bounds
    extended by what the window could not help (see above). Returns the gaps
    and the window's latencies (snapshot available -> on screen), in ns."""
    busy_end = int(fact(run, "busy_end"))
    refreshes = [(int(p), d == "1", int(sn), int(w)) for p, d, sn, w in
                 (v.split(",") for v in run.facts.get("inspector_refresh", []))]
    available = sorted((int(g), int(a), int(sn)) for g, a, sn in
                       (v.split(",") for v in run.facts.get("live_available", [])))
    available_at = {sn: a for _, a, sn in available}
    with_data = [(p, sn, w) for p, d, sn, w in refreshes if d]
    check(with_data and with_data[0][0] <= busy_end,
          f"the window never showed data while the app was busy: {refreshes}")
    check(len(available) >= 3, f"the core made only {len(available)} snapshots: {available}")

    def core_late(after_ns, since_ns):
        """How late the core made a snapshot newer than after_ns available,
        counted from since_ns, beyond its period."""
        nxt = min([a for _, a, sn in available if sn > after_ns] + [busy_end])
        return max(0, nxt - since_ns - CORE_PERIOD_NS)

    first, _, first_wait = with_data[0]
    allowed = (BOUND_NS + max(0, available[0][1] - opened_ns - CORE_PERIOD_NS)
               + first_wait - opened_wait)
    check(first - opened_ns <= allowed,
          f"the window showed data {(first - opened_ns) / 1e6:.0f} ms after it opened "
          f"(\"Waiting for data…\" until then; allowed {allowed / 1e6:.0f} ms: the first "
          f"snapshot was there {(available[0][1] - opened_ns) / 1e6:.0f} ms after it opened, "
          f"the main thread waited {(first_wait - opened_wait) / 1e6:.0f} ms for a CPU)")
    check(first < busy_end - 2 * BOUND_NS,
          f"too little of the busy phase left to watch: data at "
          f"{(busy_end - first) / 1e6:.0f} ms before its end")
    # The busy phase's end closes the last gap; the run-queue wait up to it
    # is known from the next refresh, if any (later: a little more excused).
    after = [w for p, _, w in with_data if p > busy_end]
    points = [x for x in with_data if x[0] <= busy_end]
    points.append((busy_end, None, after[0] if after else points[-1][2]))
    gaps = []
    for (p, sn, w), (p_next, _, w_next) in zip(points, points[1:]):
        allowed = BOUND_NS + core_late(sn, available_at.get(sn, p)) + w_next - w
        gaps.append(p_next - p)
        check(p_next - p <= allowed,
              f"the window showed no new data for {(p_next - p) / 1e6:.0f} ms while the app "
              f"was busy (allowed {allowed / 1e6:.0f} ms; gaps, ms: "
              f"{[round((b[0] - a[0]) / 1e6) for a, b in zip(points, points[1:])]}; "
              f"snapshots (gen, available, time): {available})")
    latencies = [p - available_at[sn] for p, sn, _ in points[:-1] if sn in available_at]
    return gaps, latencies


def describe(gaps, latencies):
    return (f"refresh gaps (ms) {[round(g / 1e6) for g in gaps]}; snapshot available -> on "
            f"screen (ms) {[round(x / 1e6) for x in latencies]}")


def check_busy_window():
    """JANKSCOPE_INSPECTOR=1 in an app whose frames are all slow (the loop is
    never idle): the window opens within 1 s of the app's first frame, shows
    data within 1 s of opening, and new data at least once a second while
    the app stays busy; the app's frames are still counted."""
    extra = observe_env(JANKSCOPE_INSPECTOR="1")
    extra["JANKSCOPE_TEST_UI_SCREENSHOT"] = os.environ.get(
        "JANKSCOPE_TEST_INSPECTOR_BUSY_SCREENSHOT", "inspector-busy.png")
    run = run_app([app("frames-gtk4"), "busy"], extra_env=extra, timeout=60)
    check_equal(run.returncode, 0, "exit code")
    ours = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    busy_start = int(fact(run, "busy_start"))
    painted, painted_wait = painted_at(run)
    check(painted - busy_start <= BOUND_NS,
          f"the window opened {(painted - busy_start) / 1e6:.0f} ms after the app's first "
          "slow frame")
    gaps, latencies = check_refreshes(run, painted, painted_wait)
    print(f"busy-window: opened {(painted - busy_start) / 1e6:.0f} ms after the first slow "
          f"frame; {describe(gaps, latencies)}; UI cost at the end "
          f"{run.facts.get('inspector_ui_cost_at_end')}")
    check(int(fact(run, "busy_frames")) > 0, "the app made no slow frame")
    check(run.report["summary"]["frames"].get("slow", 0) > 0,
          "the app's slow frames are not in the report")


def check_busy_shortcut():
    """Ctrl+Shift+J in a window that an always-busy app opened during its busy
    phase: the jankscope window is on screen within 1 s of the key reaching
    the app (its clock), and refreshes at least once a second from then on."""
    if shutil.which("xdotool") is None:
        raise Skip("xdotool is not installed (scripts/bootstrap-debian.sh)")
    tmpdir = tempfile.mkdtemp(prefix="jankscope-test-")
    env = clean_env({**observe_env(), "JANKSCOPE_REPORT": os.path.join(tmpdir, "report.json")})
    proc = subprocess.Popen([app("frames-gtk4"), "busy"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        def second_window():
            # --all: the pid and the name (xdotool's default is either)
            found = xdotool("search", "--all", "--onlyvisible", "--pid", str(proc.pid),
                            "--name", "second")
            return found.stdout.split()

        check(wait_for(second_window, 10), "the app's second window did not appear")
        win = second_window()[0]
        time.sleep(0.3)
        xdotool("windowfocus", "--sync", win)
        xdotool("key", "--clearmodifiers", "ctrl+shift+j")
        opened = wait_for(lambda: jankscope_windows(proc.pid), 5)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        shutil.rmtree(tmpdir, ignore_errors=True)
    check_equal(proc.returncode, 0, "exit code")
    ours = [line for line in stderr.splitlines() if line.startswith("jankscope")]
    check_equal(ours, [], "jankscope lines on stderr")
    check(opened, "Ctrl+Shift+J did not open the jankscope window in the busy app")
    run = types.SimpleNamespace(facts=parse_facts(stdout), stdout=stdout)
    busy_end = int(fact(run, "busy_end"))
    painted, painted_wait = painted_at(run)
    check(painted < busy_end, "the window did not open while the app was busy")
    keys = [(int(t), int(w), title) for t, w, title in
            (v.split(",", 2) for v in run.facts.get("app_key", [])) if int(t) <= painted]
    check(keys, f"no key press reached the app before the window opened: {stdout!r}")
    # The window the app opened while busy: its shortcut was added then.
    check(all(title.endswith("(second)") for _, _, title in keys),
          f"the key went to another window than the second one: {keys}")
    key, key_wait, _ = keys[-1]
    allowed = BOUND_NS + painted_wait - key_wait
    check(painted - key <= allowed,
          f"the window was on screen {(painted - key) / 1e6:.0f} ms after the key (allowed "
          f"{allowed / 1e6:.0f} ms: the main thread waited {(painted_wait - key_wait) / 1e6:.0f} "
          "ms for a CPU)")
    gaps, latencies = check_refreshes(run, painted, painted_wait)
    print(f"busy-shortcut: on screen {(painted - key) / 1e6:.0f} ms after the key; "
          f"{describe(gaps, latencies)}")


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
    checks["busy-window"] = check_busy_window
    checks["busy-shortcut"] = check_busy_shortcut
    sys.exit(main(checks))
