#!/usr/bin/env python3
"""Checks that every sample of a long or many-sided episode is attributed,
that each part of an episode gets its own cause, and that the culprit is
what the main loop dispatched (docs/report-format.md, "Stacks and
classification").

The programs are tests/apps/attribution-app.c (GLib: a loader of
back-to-back 0.4-2 s callbacks for 15 s; a computation and a sleep in two
callbacks of one episode) and tests/apps/attribution-gtk4.c (GTK 4 under
Xvfb: every frame 30-60 ms for 20 s; a text view with a huge line and no
code of the app but main). They print each piece of work's window; the
checks compare the report's attributed time with the time past the
pre-trigger of that work. Nothing here asserts on speed.
Usage: check_attribution.py CHECK
"""

import sys

from jankscope_test import (
    MS, NEVER_CULPRITS, app, check, check_equal, check_ran_fine, fact, gtk_env,
    is_jankscope_module, main, run_app, skip_if_sanitized, summarize, validate_attribution,
    validate_run_report)

PRETRIGGER_NS = 16 * MS  # JANKSCOPE_PRETRIGGER_MS's default


def info(message):
    print(f"info: {message}")


def works(run):
    """The (start_ns, end_ns) windows of work the program printed."""
    return [tuple(int(x) for x in v.split(",")) for v in run.facts.get("work", [])]


def past_pretrigger(windows):
    """The time of these busy windows after the watchdog's pre-trigger: what
    sampling can speak for at least."""
    return sum(max(0, end - start - PRETRIGGER_NS) for start, end in windows)


def profile_total(e):
    """The folded stacks' total: Σ self_ns of the profile's nodes."""
    return sum(e["profile"]["nodes"]["self_ns"])


def check_no_jankscope_frames(e):
    """Nothing of jankscope's own in the event's stacks (its dispatch hook,
    poll function, signal handler, preload wrappers)."""
    for s in e["stacks"]:
        for f in s["frames"]:
            check(not is_jankscope_module(f.get("module")),
                  f"event {e['id']}: jankscope's {f.get('function')} ({f.get('module')}) "
                  f"in a stack: {[g.get('function') for g in s['frames']]}")


def check_complete(e, windows, what):
    """@e speaks for at least 90% of @windows' time past the pre-trigger,
    and its attributed time is its profile's."""
    wanted = past_pretrigger(windows)
    info(f"{what}: event {e['id']} {e['duration_ns'] / MS:.0f} ms, {e['parts_count']} parts, "
         f"{e.get('stalls')} stalls, {e['samples_total']} samples; attributed "
         f"{e['attributed_ns'] / MS:.0f} ms of the {wanted / MS:.0f} ms past the pre-trigger "
         f"({100 * e['attributed_ns'] / max(wanted, 1):.0f}%)")
    check(e["attributed_ns"] >= 0.9 * wanted,
          f"{what}: attributed_ns {e['attributed_ns'] / MS:.0f} ms is less than 90% of the "
          f"{wanted / MS:.0f} ms of work past the pre-trigger")
    check("profile" in e, f"{what}: no profile")
    total = profile_total(e)
    check(abs(total - e["attributed_ns"]) <= 0.01 * e["attributed_ns"],
          f"{what}: the profile's total {total / MS:.1f} ms is not within 1% of attributed_ns "
          f"{e['attributed_ns'] / MS:.1f} ms")
    check_no_jankscope_frames(e)
    validate_attribution(e)


def check_callback_below_dispatch(e, callback):
    """The profile marks the main loop's dispatch (dispatch_nodes, valid node
    indices), and every node of the dispatched @callback is called from one:
    where the views start a stack by default."""
    profile = e["profile"]
    nodes = profile["nodes"]
    marked = profile.get("dispatch_nodes")
    check(isinstance(marked, list) and marked, f"event {e['id']}: dispatch_nodes {marked!r}")
    check(all(isinstance(i, int) and 0 <= i < len(nodes["parent"]) for i in marked),
          f"event {e['id']}: dispatch_nodes not node indices: {marked}")
    frames = profile["frames"]
    mine = [i for i, f in enumerate(nodes["frame"])
            if f >= 0 and frames[f].get("function") == callback]
    check(mine, f"event {e['id']}: no profile node of {callback}")
    check(all(nodes["parent"][i] in marked for i in mine),
          f"event {e['id']}: {callback} is not called from a dispatch node: parents "
          f"{[nodes['parent'][i] for i in mine]}, dispatch_nodes {marked}")


def covering(report, windows, kind):
    """The events of type @kind that overlap the windows."""
    first, last = windows[0][0], windows[-1][1]
    return [e for e in report["events"]
            if e["type"] == kind and e["start_ns"] < last and e["end_ns"] > first]


def check_culprit(e, function, reason="app-code"):
    c = e["culprit"]
    check(c is not None, f"event {e['id']}: no culprit")
    check_equal(c["function"], function, f"event {e['id']}: culprit")
    check_equal(c["reason"], reason, f"event {e['id']}: culprit reason")


# --- GLib ---------------------------------------------------------------------

def test_loader():
    """Back-to-back idle callbacks of 0.4-2 s for 15 s: one episode of a
    dozen stalls, every one of them attributed."""
    run = run_app([app("attribution-app"), "loader", "15"], timeout=100)
    check_ran_fine(run)
    report = validate_run_report(run, final=True)
    windows = works(run)
    check(len(windows) >= 9, f"only {len(windows)} callbacks ran")
    events = covering(report, windows, "dispatch")
    check(len(events) == 1, f"one episode expected, got {summarize(events)}")
    e = events[0]
    check_equal(e["parts_count"], len(windows), "parts (one per callback)")
    check_complete(e, windows, "loader")
    check_culprit(e, "js_test_load_chunk")
    check_callback_below_dispatch(e, "loader_idle_cb")
    # Every part of it too.
    for i, (part, window) in enumerate(zip(e["parts"], windows)):
        wanted = past_pretrigger([window])
        check(part["attributed_ns"] >= 0.9 * wanted,
              f"part {i}: attributed_ns {part['attributed_ns'] / MS:.0f} ms of "
              f"{wanted / MS:.0f} ms past the pre-trigger")
        check_equal(part["class"], "compute", f"part {i}: class")


def test_two_causes():
    """A 200 ms computation and, 100 ms later, a 120 ms sleep in another
    callback: one event, and each part its own class and culprit."""
    run = run_app([app("attribution-app"), "two-causes"], timeout=30)
    check_ran_fine(run)
    report = validate_run_report(run, final=True)
    windows = works(run)
    check_equal(len(windows), 2, "pieces of work")
    events = covering(report, windows, "dispatch")
    check(len(events) == 1, f"one episode expected, got {summarize(events)}")
    e = events[0]
    check_equal(len(e["parts"]), 2, "parts")
    compute, sleep = e["parts"]
    info(f"compute part: class {compute.get('class')}, culprit "
         f"{(compute.get('culprit') or {}).get('function')}; sleep part: class "
         f"{sleep.get('class')} ({sleep.get('wait')}), culprit "
         f"{(sleep.get('culprit') or {}).get('function')}; event: class {e['class']}, "
         f"culprit {(e['culprit'] or {}).get('function')}")
    check_equal(compute.get("class"), "compute", "the computation's class")
    check_equal((compute.get("culprit") or {}).get("function"), "js_test_compute",
                "the computation's culprit")
    check_equal(sleep.get("class"), "wait", "the sleep's class")
    check_equal(sleep.get("wait"), "sleep", "the sleep's wait kind")
    for part, window in zip(e["parts"], windows):
        check(part["attributed_ns"] >= 0.9 * past_pretrigger([window]),
              f"a part's attributed_ns {part['attributed_ns'] / MS:.0f} ms")
    check_complete(e, windows, "two causes")
    skip_if_sanitized("the stacks of a thread sleeping in the sanitized preload's usleep end at "
                      "the wrapper: no app frame to blame")
    check_equal((sleep.get("culprit") or {}).get("function"), "js_test_sleep",
                "the sleep's culprit")


# --- GTK 4 --------------------------------------------------------------------

def test_sustained():
    """Every frame 30-60 ms for 20 s: all the frames' work is attributed, in
    the frame event and in the dispatch events."""
    run = run_app([app("attribution-gtk4"), "sustained", "20"], extra_env=gtk_env(),
                  timeout=150)
    check_ran_fine(run)
    check_equal(fact(run, "done"), "1", "the program reached its end")
    report = validate_run_report(run, final=True, toolkit="gtk4")
    windows = works(run)
    check(len(windows) >= 150, f"only {len(windows)} frames of work")
    frames = covering(report, windows, "frame")
    check(len(frames) >= 1, f"no frame event over the sustained jank: {summarize(report['events'])}")
    # The frames' events together speak for the work (one event, unless
    # the machine paused the app for over 500 ms).
    frame_windows = [w for w in windows
                     if any(e["start_ns"] <= w[0] and w[1] <= e["end_ns"] for e in frames)]
    attributed = sum(e["attributed_ns"] for e in frames)
    wanted = past_pretrigger(frame_windows)
    info(f"frame events {[e['id'] for e in frames]}: {len(frame_windows)} frames of work, "
         f"attributed {attributed / MS:.0f} ms of {wanted / MS:.0f} ms past the pre-trigger "
         f"({100 * attributed / max(wanted, 1):.0f}%)")
    check(attributed >= 0.9 * wanted,
          f"frame events: attributed {attributed / MS:.0f} ms < 90% of {wanted / MS:.0f} ms")
    for e in frames:
        check("profile" in e, f"frame event {e['id']}: no profile")
        check_no_jankscope_frames(e)
        validate_attribution(e)
        check(abs(profile_total(e) - e["attributed_ns"]) <= 0.01 * e["attributed_ns"],
              f"frame event {e['id']}: profile total vs attributed_ns")
    longest = max(frames, key=lambda e: e["duration_ns"])
    check_culprit(longest, "js_test_frame_work")
    # The dispatch events (the frames' dispatches of 50 ms or more) too.
    dispatch = covering(report, windows, "dispatch")
    check(len(dispatch) >= 1, "no dispatch event over the sustained jank")
    total = sum(e["duration_ns"] - e["parts_count"] * PRETRIGGER_NS for e in dispatch)
    attributed = sum(e["attributed_ns"] for e in dispatch)
    info(f"dispatch events: attributed {attributed / MS:.0f} ms of {total / MS:.0f} ms of "
         f"their parts past the pre-trigger")
    check(attributed >= 0.9 * total, "dispatch events: attributed < 90% of their parts' time")
    for e in dispatch:
        check("profile" in e, f"dispatch event {e['id']}: no profile")
        check_no_jankscope_frames(e)
        validate_attribution(e)
        check(abs(profile_total(e) - e["attributed_ns"]) <= 0.01 * e["attributed_ns"],
              f"dispatch event {e['id']}: profile total vs attributed_ns")


def test_library_only():
    """A text view with a huge line: all the jank is GTK's and Pango's, and
    of the app only main is on the stack. The culprit is a library
    function inside the dispatch, never main; the app's own code is said to
    be absent, and the dispatched callback is named."""
    run = run_app([app("attribution-gtk4"), "library-only", "400", "6000"],
                  extra_env=gtk_env(), timeout=100)
    check_ran_fine(run)
    report = validate_run_report(run, final=True, toolkit="gtk4")
    events = [e for e in report["events"] if e.get("watched_ns")]
    check(events, f"no event with stalls: {summarize(report['events'])}")
    for e in sorted(events, key=lambda e: -e["duration_ns"])[:2]:
        c = e["culprit"]
        info(f"event {e['id']} ({e['type']}, {e['duration_ns'] / MS:.0f} ms): culprit "
             f"{c and c['function']} in {c and c['module']} ({c and c['reason']}), callback "
             f"{c and c.get('callback')}, app_code_ns {c and c.get('app_code_ns')}")
        check(c is not None, f"event {e['id']}: no culprit")
        check(c["function"] not in NEVER_CULPRITS, f"event {e['id']}: culprit {c['function']}")
        check(c["module"] != "attribution-gtk4",
              f"event {e['id']}: the app's own code ({c['function']}) blamed")
        check_equal(c["reason"], "library", f"event {e['id']}: culprit reason")
        check_equal(c.get("app_code_ns"), 0, f"event {e['id']}: app_code_ns")
        check(c.get("callback") is not None, f"event {e['id']}: no callback named")
        check_no_jankscope_frames(e)
        validate_attribution(e)


CHECKS = {
    "loader": test_loader,
    "two-causes": test_two_causes,
    "sustained": test_sustained,
    "library-only": test_library_only,
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
