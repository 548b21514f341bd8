#!/usr/bin/env python3
"""Writes the window tests' snapshot with profiles (tests/ui/test-views.c,
/views/pure/profile-tree and /views/parts): a report as the core writes it
with profiles and causes per part (tests/profile_report.py), no `live`.

    make-profile-snapshot.py OUT

Event 1: a dispatch event of two parts, work_cb (300 ms: 24 stacks under it
of 10 ms each, one or two samples, more than the 16 the report lists) and
sleepy_cb (120 ms of g_usleep, 12 samples); its culprit is GTK's, shown after
the dispatched callback; the event and its parts have diagnoses (a slow
callback, a sleep). Event 2: an iteration whose profile filled up
(nodes_max 5): its deeper calling contexts are [other] nodes.
"""

import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import profile_report as pr  # noqa: E402

MS = pr.MS
T0 = 7_000_000_000_000
GLIB = "libglib-2.0.so.0"


def at(ms):
    return T0 + int(ms * MS)


def stack(*names):
    return ([pr.frame(n) for n in names] +
            [pr.frame("g_main_context_dispatch", GLIB), pr.frame("main")])


def part(type_, start_ms, end_ms, source, callback, tier="severe"):
    return {"type": type_, "start_ns": at(start_ms), "end_ns": at(end_ms),
            "duration_ns": int((end_ms - start_ms) * MS), "nested_ns": 0, "tier": tier,
            "source": source, "callback": callback, "depth": 1}


def diagnosis(id_, function, evidence_ns, wait=None):
    return {"id": id_, "title": id_, "evidence_ns": evidence_ns, "share": 1.0,
            "function": function, "node": -1, "wait": wait, "caller": function,
            "fix": "the report's own fix"}


def main():
    samples = []
    t = 1000
    for i in range(24):
        samples.append(pr.Sample(at(t), stack(f"leaf_{i:02d}", "work_cb"), 10 * MS,
                                 count=1 + i % 2))
        t += 10
    for i in range(12):
        samples.append(pr.Sample(at(1800 + 10 * i),
                                 [pr.frame("clock_nanosleep", "libc.so.6"),
                                  pr.frame("g_usleep", GLIB)] + stack("sleepy_cb"),
                                 10 * MS, part=1, state="waiting", wait="sleep"))
    e1 = pr.profile_event(
        1, "dispatch",
        [part("dispatch", 1000, 1300, "src-work", "work_cb"),
         part("dispatch", 1800, 1920, "src-sleep", "sleepy_cb")],
        samples,
        culprit=pr.culprit("gtk_text_layout_validate", "libgtk-4.so.1", "library",
                           callback=("first_validate_callback", "libgtk-4.so.1"),
                           time_ns=240 * MS),
        part_culprits={0: pr.culprit("work_cb", time_ns=240 * MS),
                       1: pr.culprit("g_usleep", GLIB, "leaf", callback=("sleepy_cb", "fake-app"),
                                     time_ns=120 * MS)})
    # Diagnoses (docs/report-format.md, "Diagnosis"): the window shows the
    # table's titles, the fix in a tooltip.
    e1["diagnosis"] = diagnosis("slow-callback", "work_cb", 240 * MS)
    e1["parts"][0]["diagnosis"] = diagnosis("slow-callback", "work_cb", 240 * MS)
    e1["parts"][1]["diagnosis"] = diagnosis("sleep", "g_usleep", 120 * MS, wait="sleep")
    deep = [pr.Sample(at(3000 + 10 * i), stack(f"d{i}", "c", "b", "a"), 10 * MS)
            for i in range(4)]
    e2 = pr.profile_event(2, "iteration", [part("iteration", 3000, 3080, None, None,
                                                "noticeable")], deep, tier="noticeable",
                          nodes_max=5)
    report = {
        "format": "jankscope-report", "version": 1, "generator": "jankscope test",
        "final": False,
        "process": {"exe": "/usr/bin/fake-app", "name": "fake-app", "pid": 5151,
                    "glib_version": "2.74.6", "gtk_version": "4.8.3", "toolkit": "gtk4",
                    "mode": "preload", "start_ns": T0, "report_ns": at(5000)},
        "config": {"threshold_ns": 50 * MS},
        "summary": {"iterations": 100, "dispatches": 500, "busy_ns": 500 * MS,
                    "monitored_ns": 5000 * MS,
                    "events_by_tier": {"noticeable": 1, "severe": 1, "frozen": 0, "hang": 0},
                    "events_total": 2, "events_dropped": 0, "records_dropped": 0,
                    "sources": [], "sources_truncated": 0},
        "events": [e1, e2],
    }
    with open(sys.argv[1], "w") as f:
        json.dump(report, f)


main()
