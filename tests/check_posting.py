#!/usr/bin/env python3
"""Checks of posting sites (docs/report-format.md, "Posting sites"): where the
source of a slow dispatch was posted from.

Each check runs one scenario of tests/apps/posting-app with LD_PRELOAD and
JANKSCOPE_REPORT and compares the report's `posted_from` with what the
program did. Nothing here asserts on speed.
Usage: check_posting.py CHECK
"""

import sys

from jankscope_test import (
    app, check, check_equal, check_ran_fine, fact, gtk_env, main, run_app, summarize,
    validate_run_report)

APP = "posting-app"
APP_NAME = "posting-app"


def run_posting(scenario, extra_env=None):
    run = run_app([app(APP), scenario], extra_env=extra_env)
    check_ran_fine(run)
    return run, validate_run_report(run)


def info(message):
    """A measured value worth seeing in the test log (meson test -v)."""
    print(f"info: {message}")


def slow_event(report, callback):
    events = [e for e in report["events"] if e["callback"] == callback]
    check(len(events) == 1, f"one event of {callback}: {summarize(report['events'])}")
    return events[0]


def function_of(frame):
    return frame["function"] if frame else None


def check_site(posted, kind, caller, what):
    check(posted is not None, f"{what}: no posted_from")
    check_equal(posted["kind"], kind, f"{what}: kind")
    check_equal(posted["thread"], "main", f"{what}: thread")
    check_equal(function_of(posted["caller"]), caller, f"{what}: caller")
    check_equal(posted["caller"]["module"], APP_NAME, f"{what}: caller's module")
    check(posted["stack"], f"{what}: no full stack (the first attach from a caller gets one)")
    names = [f["function"] for f in posted["stack"]]
    check(caller in names, f"{what}: {caller} not on the stack {names}")
    check(not any((f["module"] or "").startswith("libjankscope") for f in posted["stack"]),
          f"{what}: jankscope's own frames on the stack {names}")
    check_equal(function_of(posted["culprit"]), caller, f"{what}: posting culprit")
    check_equal(posted["culprit_reason"], "app", f"{what}: culprit_reason")
    check(posted["signature"].startswith(caller), f"{what}: signature {posted['signature']!r}")


def check_chain():
    """An idle added by js_test_schedule_work, called from a timeout that
    js_test_start_timer added: posted from js_test_schedule_work, and the
    chain names the timeout's own poster."""
    run, report = run_posting("chain")
    e = slow_event(report, "js_test_slow_idle")
    check_site(e["posted_from"], "idle", "js_test_schedule_work", "event")
    check_equal([function_of(c) for c in e["posted_from"]["chain"]], ["js_test_start_timer"],
                "chain")
    # The part says the same as its event.
    check_equal(e["parts"][0]["posted_from"], e["posted_from"], "the part's posted_from")
    posting = report["summary"]["posting"]
    check(posting["attaches"] >= 3, f"attaches {posting['attaches']}")
    check_equal(posting["slow_resolved"], 1, "slow dispatches whose site was found")


def check_task():
    """A GTask run in a thread whose completion callback is slow: posted
    from where the app created the task, not GIO's return path."""
    run, report = run_posting("task")
    events = [e for e in report["events"] if e["type"] == "dispatch"]
    check(len(events) == 1, f"one slow dispatch: {summarize(report['events'])}")
    check_site(events[0]["posted_from"], "task", "js_test_start_task", "event")


def check_flood():
    """10,000 attaches a second from a worker thread, each wanting a full
    stack (its callback was slow): at most the ceiling per second get one,
    the others are counted, and nothing breaks."""
    per_s = 50
    run, report = run_posting("flood", extra_env={"JANKSCOPE_POST_STACKS": str(per_s)})
    attaches = int(fact(run, "attaches"))
    seconds = float(fact(run, "seconds"))
    check_equal(attaches, 20000, "attaches made")
    posting = report["summary"]["posting"]
    check_equal(posting["stacks_per_s"], per_s, "stacks_per_s")
    check(posting["attaches"] >= attaches, f"attaches noted {posting['attaches']} < {attaches}")
    # The ceiling is per second of the clock: a span of S seconds touches at
    # most S + 2 of them (the slow attach before the flood included).
    ceiling = per_s * (int(seconds) + 3)
    check(0 < posting["stacks"] <= ceiling,
          f"{posting['stacks']} full stacks in {seconds} s (ceiling {ceiling})")
    check(posting["stacks_over_budget"] > 0, "nothing refused by the budget")
    check_equal(posting["stacks"] + posting["stacks_over_budget"] <= posting["attaches"], True,
                "stacks + refused within attaches")


def check_stall_stack():
    """An idle that hangs 1.5 s while a worker thread attaches 100 idles
    every 10 ms: during the stall each of those takes a full stack (a budget
    of 2000 a second), more than the ring of 256 holds, yet the hang's own
    site keeps its stack: the collector read it while the dispatch was stuck."""
    run, report = run_posting("stall-stack", extra_env={"JANKSCOPE_POST_STACKS": "2000"})
    e = slow_event(report, "js_test_stuck_idle")
    posting = report["summary"]["posting"]
    info(f"summary.posting: {posting}, attaches made {fact(run, 'attaches')}")
    check(posting["stacks"] > 256 + 20, f"the stall's attaches took fewer stacks than the ring: "
                                        f"{posting}")
    check_site(e["posted_from"], "idle", "js_test_post_stuck", "event")


def check_gtk4_text():
    """GTK validates a big buffer that js_test_load_big_text put in a text
    view in its own idle callbacks: their posting culprit is
    js_test_load_big_text. GTK adds that idle from its own code
    (gtk_text_view_invalidate), a caller seen long before the load (when
    the window was shown): the app is found only on a full stack, which a
    caller in a library gets at most every 100 ms, so the first load's
    validation, slow for the first time in the run, is named too, and so is
    the second's (its callback slow before)."""
    run = run_app([app("posting-gtk4")], extra_env=gtk_env(), timeout=90)
    check_ran_fine(run)
    report = validate_run_report(run, toolkit="gtk4")
    loads = [int(v) for v in run.facts.get("load", [])]
    check_equal(len(loads), 2, "loads")
    slow = [(e, p) for e in report["events"] for p in e["parts"]
            if p["type"] == "dispatch" and p["start_ns"] >= loads[0]
            and p.get("posted_from") is not None]
    check(slow, f"no slow dispatch after the load with a posting site: "
                f"{summarize(report['events'])}")
    named = []
    for e, p in slow:
        posted = p["posted_from"]
        info(f"{p['callback']} {p['duration_ns'] / 1e6:.0f} ms: posted from "
             f"{posted['caller'] and posted['caller']['function']}, culprit "
             f"{posted['culprit'] and posted['culprit']['function']} "
             f"({posted['culprit_reason']}), stack {posted['stack'] is not None}")
        if posted["culprit"] is not None:
            named.append((p["callback"], posted["culprit"]["function"]))
        else:
            # Said honestly: GTK's caller, and why there is no culprit.
            check(posted["caller"] is not None and posted["caller"]["module"] != "posting-gtk4",
                  f"{p['callback']}: no culprit, yet the caller is the app's")
    # Each load's slow validation names the app's function; no slow part of
    # GTK's names another app function (main, which only ran the loop that
    # dispatched GTK's code, is never it).
    for n, (start, end) in enumerate([(loads[0], loads[1]), (loads[1], None)]):
        culprits = [c["function"] for e, p in slow
                    if p["start_ns"] >= start and (end is None or p["start_ns"] < end)
                    for c in [p["posted_from"]["culprit"]] if c is not None]
        check("js_test_load_big_text" in culprits,
              f"load {n + 1}: no slow validation posted from js_test_load_big_text: {named}")
    # The app's own timer that runs each load may be slow itself (under
    # AddressSanitizer on a loaded machine): added in main, it is named so.
    check(all(f == ("main" if cb == "load_timer" else "js_test_load_big_text")
              for cb, f in named),
          f"a slow part posted from another function of the app: {named}")
    posting = report["summary"]["posting"]
    info(f"summary.posting: {posting}")
    check(posting["stacks_library"] > 0, f"no full stack for a library's caller: {posting}")


if __name__ == "__main__":
    sys.exit(main({"chain": check_chain, "task": check_task, "flood": check_flood,
                   "stall-stack": check_stall_stack,
                   "gtk4-text": check_gtk4_text}))
