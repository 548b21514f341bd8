#!/usr/bin/env python3
"""Checks of the watchdog and the stack sampler (docs/report-format.md,
"Stacks and classification").

Each check runs one scenario of tests/apps/stacks-app with LD_PRELOAD and
JANKSCOPE_REPORT and compares the stacks, class, wait kind and culprit of the
report's event with what the program did. Stalls start 50 ms into the main
loop and are sampled every 5 ms (the default) after a 16 ms pre-trigger.
Nothing here asserts on speed: only on what was sampled.
Usage: check_stacks.py CHECK
"""

import codecs
import contextlib
import functools
import gzip
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from jankscope_test import (
    MS, SANITIZED, CheckFailed, Skip, app, check, check_equal, check_ms, check_ran_fine,
    clean_env, env_path, fact, is_int, is_jankscope_module, journal_lines, main, preload_path,
    read_report, run_app, skip_if_sanitized, stalls, summarize, validate_attribution, validate_report,
    validate_run_report)

APP = "stacks-app"
APP_NAME = "stacks-app"  # the executable's file name: `module` of its frames
WAIT_KINDS = ("lock", "sleep", "io", "poll", "ipc", "child", "other")
CLASSES = ("compute", "wait", "mixed")
MAX_STACKS = 16
MAX_TIMELINE = 256


def run_stacks(scenario, *args, extra_env=None, timeout=60, **kwargs):
    return run_app([app(APP), scenario, *args], extra_env=extra_env, timeout=timeout, **kwargs)


# Under ASan the stacks libunwind takes inside the sanitized preload's sleep
# wrappers (usleep, nanosleep: src/preload/preload-blocking.c) end at the
# wrapper; a normal preload in a sanitized app does not cut them. The checks
# of what a sleeping thread's stack holds are skipped there, after the rest.
SLEEP_STACKS_CUT = "stacks end in the sanitized preload's sleep wrapper: no app frame to check"


def info(message):
    """A measured value worth seeing in the test log (meson test -v)."""
    print(f"info: {message}")


# --- The format of the new members -------------------------------------------

def validate_frame(frame, what):
    for key in ("function", "module", "file", "line", "offset", "build_id"):
        check(key in frame, f"{what}: no {key!r} member: {frame}")
    for key in ("function", "module", "file", "build_id"):
        check(frame[key] is None or isinstance(frame[key], str), f"{what}: {key} {frame[key]!r}")
    check(frame["line"] is None or (is_int(frame["line"]) and frame["line"] > 0),
          f"{what}: line {frame['line']!r}")
    check(isinstance(frame["offset"], str) and frame["offset"].startswith("0x")
          and int(frame["offset"], 16) >= 0, f"{what}: offset {frame['offset']!r}")
    if "inlined" in frame:
        check_equal(frame["inlined"], True, f"{what}: inlined")


def validate_stack_members(e):
    """The members "Stacks and classification" adds to an event, and the
    rules between them that hold for any event."""
    what = f"event {e['id']}"
    for key in ("cpu_ns", "off_cpu_ns", "watched_ns", "class", "wait", "culprit", "stacks",
                "stacks_omitted", "samples", "samples_total", "samples_running",
                "samples_waiting", "watchdog"):
        check(key in e, f"{what}: no {key!r} member")
    check(is_int(e["watched_ns"]) and e["watched_ns"] >= 0, f"{what}: watched_ns")
    if e["watched_ns"] == 0:
        for key in ("cpu_ns", "off_cpu_ns", "class", "wait", "culprit", "watchdog"):
            check_equal(e[key], None, f"{what}: {key} of an event no stall covered")
        check_equal(e["stacks"], [], f"{what}: stacks of an event no stall covered")
        check_equal(e["samples"], [], f"{what}: samples of an event no stall covered")
        return
    if e["cpu_ns"] is not None:
        check(is_int(e["cpu_ns"]) and 0 <= e["cpu_ns"] <= e["watched_ns"],
              f"{what}: cpu_ns {e['cpu_ns']} not within [0, watched_ns {e['watched_ns']}]")
        check_equal(e["off_cpu_ns"], e["watched_ns"] - e["cpu_ns"],
                    f"{what}: off_cpu_ns (watched_ns - cpu_ns)")
        check(e["class"] in CLASSES, f"{what}: class {e['class']!r}")
        # Runnable time (ready, no CPU: a busy machine) counts as compute.
        runnable = e.get("runnable_ns") or 0
        check(is_int(runnable) and 0 <= runnable <= e["off_cpu_ns"],
              f"{what}: runnable_ns {runnable} not within off_cpu_ns")
        share = (e["cpu_ns"] + runnable) / e["watched_ns"] if e["watched_ns"] else 0
        expected = "compute" if share >= 0.7 else "wait" if share <= 0.3 else "mixed"
        # cpu_ns is rounded down to whole ns: allow a hair at the bounds.
        if abs(share - 0.7) > 1e-6 and abs(share - 0.3) > 1e-6:
            check_equal(e["class"], expected, f"{what}: class of an on-CPU + runnable share of {share:.3f}")
    else:
        check_equal(e["off_cpu_ns"], None, f"{what}: off_cpu_ns without cpu_ns")
        check_equal(e["class"], None, f"{what}: class without cpu_ns")
    if e["class"] == "compute" or e["class"] is None:
        check_equal(e["wait"], None, f"{what}: wait of a {e['class']} event")
    else:
        check(e["wait"] in WAIT_KINDS, f"{what}: wait {e['wait']!r}")

    for key in ("samples_total", "samples_running", "samples_waiting", "stacks_omitted"):
        check(is_int(e[key]) and e[key] >= 0, f"{what}: {key} {e[key]!r}")
    check_equal(e["samples_running"] + e["samples_waiting"], e["samples_total"],
                f"{what}: samples_running + samples_waiting (vs samples_total)")

    stacks = e["stacks"]
    check(len(stacks) <= MAX_STACKS, f"{what}: {len(stacks)} stacks (at most {MAX_STACKS})")
    counts = [s["count"] for s in stacks]
    check(all(is_int(c) and c >= 1 for c in counts), f"{what}: stack counts {counts}")
    times = [s.get("time_ns") for s in stacks]
    check(all(is_int(t) and t >= 0 for t in times), f"{what}: stack time_ns {times}")
    check(times == sorted(times, reverse=True), f"{what}: stacks not most attributed time first")
    check(sum(times) <= e["duration_ns"], f"{what}: stack times add up past the duration")
    check(e.get("attributed_ns", -1) + e.get("unattributed_ns", -1) == e["duration_ns"],
          f"{what}: attributed_ns + unattributed_ns != duration_ns")
    for i, s in enumerate(stacks):
        check(isinstance(s["frames"], list) and len(s["frames"]) >= 1,
              f"{what}: stack {i} has no frames")
        for j, f in enumerate(s["frames"]):
            validate_frame(f, f"{what} stack {i} frame {j}")
            # Nothing of jankscope's own (dispatch hook, poll function,
            # signal handler, preload wrappers) in a stack.
            check(not is_jankscope_module(f["module"]),
                  f"{what}: stack {i} frame {j} is jankscope's {f['function']} ({f['module']})")

    samples = e["samples"]
    check(len(samples) <= MAX_TIMELINE, f"{what}: {len(samples)} samples entries")
    times = [s["t_ns"] for s in samples]
    check(times == sorted(times), f"{what}: samples not in time order")
    for s in samples:
        check(s["state"] in ("running", "waiting"), f"{what}: sample state {s['state']!r}")
        check(is_int(s["count"]) and s["count"] >= 1, f"{what}: sample count {s['count']!r}")
        check(is_int(s["stack"]) and -1 <= s["stack"] < len(stacks),
              f"{what}: sample stack index {s['stack']} ({len(stacks)} stacks)")
        if s["count"] > 1:
            check(is_int(s.get("last_ns")) and s["last_ns"] >= s["t_ns"],
                  f"{what}: folded sample without a last_ns >= t_ns: {s}")
        if s["state"] == "waiting":
            check(s.get("wait") in WAIT_KINDS, f"{what}: waiting sample's wait {s.get('wait')!r}")
            check(is_int(s.get("syscall")), f"{what}: waiting sample's syscall")
        check(e["start_ns"] <= s["t_ns"] <= e["end_ns"],
              f"{what}: sample at {s['t_ns']} outside the event [{e['start_ns']}, {e['end_ns']}]")
    # The counts always add up (merged entries say how many were running).
    check_equal(sum(s["count"] for s in samples), e["samples_total"],
                f"{what}: sum of the samples' counts (vs samples_total)")
    validate_attribution(e)

    culprit = e["culprit"]
    if culprit is not None:
        check(culprit["reason"] in ("app-code", "library", "leaf"),
              f"{what}: culprit reason {culprit['reason']!r}")
        check(isinstance(culprit["confidence"], (int, float))
              and 0 <= culprit["confidence"] <= 1, f"{what}: confidence {culprit['confidence']!r}")
        check(1 <= culprit["samples"] <= culprit["of_samples"] <= e["samples_total"],
              f"{what}: culprit samples {culprit['samples']} of {culprit['of_samples']} "
              f"(samples_total {e['samples_total']})")
        if e["stacks_omitted"] == 0:
            check_equal(sum(counts), culprit["of_samples"],
                        f"{what}: sum of the stacks' counts (vs culprit.of_samples)")
    else:
        check_equal(stacks, [], f"{what}: stacks without a culprit")

    wd = e["watchdog"]
    if wd is not None:
        check(is_int(wd["detected_ns"]), f"{what}: watchdog.detected_ns")
        for t in wd["tiers_crossed"]:
            check(is_int(t["tier_ms"]) and is_int(t["at_ns"]), f"{what}: tiers_crossed {t}")
        check(wd["ping_latency_ns"] is None or is_int(wd["ping_latency_ns"]),
              f"{what}: ping_latency_ns")


def check_sampling_path(sampler, path, reason):
    """summary.sampler says the stacks were taken by `path` ("cpu-timer",
    "watchdog" or "off") for `reason` (None for the CPU-time timer)."""
    check_equal((sampler.get("sampling_path"), sampler.get("sampling_path_reason")),
                (path, reason), "summary.sampler.sampling_path and its reason")


def validate_sampler(report):
    sampler = report["summary"].get("sampler", "missing")
    check(isinstance(sampler, dict), f"summary.sampler: {sampler!r}")
    for key in ("stalls", "stalls_without_event", "samples", "samples_running", "samples_timer",
                "samples_waiting", "samples_folded", "samples_failed", "samples_dropped",
                "signals_sent", "signal_timeouts", "signal_late", "signal_blocked",
                "signals_withheld", "signals_deferred", "blocking_calls_eintr",
                "stack_copies_inconsistent", "handler_ns_total",
                "handler_ns_max", "watchdog_wakeups", "watchdog_parks", "pings_sent",
                "pings_caught", "stacks_distinct", "stacks_dropped", "symbol_lookups",
                "symbol_cache_hits"):
        check(is_int(sampler.get(key)) and sampler[key] >= 0,
              f"summary.sampler.{key}: {sampler.get(key)!r}")
    check(isinstance(sampler["signal_lost"], bool), "summary.sampler.signal_lost")
    path, reason = sampler.get("sampling_path"), sampler.get("sampling_path_reason", "missing")
    check(path in ("cpu-timer", "watchdog", "off"), f"summary.sampler.sampling_path {path!r}")
    check((reason is None) == (path == "cpu-timer") and (reason is None or isinstance(reason, str)),
          f"summary.sampler.sampling_path_reason {reason!r} with sampling_path {path!r}")
    check(sampler["signal"] is None or is_int(sampler["signal"]), "summary.sampler.signal")
    check(sampler["samples_folded"] <= sampler["samples"], "samples_folded > samples")
    # Every sample found the thread running or waiting, unless it failed.
    check(sampler["samples_running"] + sampler["samples_waiting"] <= sampler["samples"],
          f"summary.sampler: samples_running {sampler['samples_running']} + samples_waiting "
          f"{sampler['samples_waiting']} > samples {sampler['samples']} (samples_failed "
          f"{sampler['samples_failed']}, stack_copies_inconsistent "
          f"{sampler['stack_copies_inconsistent']}, samples_folded {sampler['samples_folded']})")
    return sampler


def stacks_report(run, **kwargs):
    """The run ended fine (unless told otherwise) and its report is valid,
    with the new members on every event. Returns the report."""
    report = validate_run_report(run, **kwargs)
    for e in report["events"]:
        validate_stack_members(e)
    validate_sampler(report)
    return report


def stall_event(run, report, index=0):
    """The event that covers the stall window the app printed."""
    windows = stalls(run)
    check(len(windows) > index, f"the app printed {len(windows)} stall windows")
    start, end = windows[index]
    middle = (start + end) // 2
    found = [e for e in report["events"] if e["start_ns"] <= middle <= e["end_ns"]]
    check(len(found) == 1, f"expected one event covering the stall [{start}, {end}], got "
                           f"{summarize(report['events'])}")
    e = found[0]
    info(f"event {e['id']}: {e['duration_ns'] / MS:.1f} ms, class {e['class']}, wait {e['wait']}, "
         f"cpu_ns {e['cpu_ns']}, watched_ns {e['watched_ns']}, samples {e['samples_total']} "
         f"({e['samples_running']} running, {e['samples_waiting']} waiting), "
         f"culprit {describe_culprit(e['culprit'])}")
    return e


def describe_culprit(c):
    if c is None:
        return None
    return (f"{c['function']} ({c['module']} {c['file']}:{c['line']}, {c['reason']}, "
            f"confidence {c['confidence']}, {c['samples']}/{c['of_samples']})")


def functions(stack):
    return [f["function"] for f in stack["frames"]]


def stack_text(stack):
    return " <- ".join(f"{f['function']}@{f['module']}" for f in stack["frames"])


def check_culprit(e, function, reason="app-code", module=APP_NAME, min_confidence=None):
    what = f"event {e['id']}: culprit"
    culprit = e["culprit"]
    check(culprit is not None, f"{what} is null (stacks: {[stack_text(s) for s in e['stacks']]})")
    check_equal(culprit["function"], function, f"{what} function "
                f"(stacks: {[(s['count'], stack_text(s)) for s in e['stacks'][:4]]})")
    check_equal(culprit["module"], module, f"{what} module")
    check_equal(culprit["reason"], reason, f"{what} reason")
    if min_confidence is not None:
        check(culprit["confidence"] > min_confidence,
              f"{what} confidence {culprit['confidence']} is not above {min_confidence}")


def check_wait_event(e, kind, function):
    """@function: the expected culprit (None: not checked)."""
    check_equal(e["class"], "wait", f"event {e['id']}: class of a thread blocked 300 ms")
    check_equal(e["wait"], kind, f"event {e['id']}: wait kind")
    check(e["samples_waiting"] > 0, f"event {e['id']}: no waiting sample")
    waiting = [s for s in e["samples"] if s["state"] == "waiting"]
    check(all(s["wait"] == kind for s in waiting),
          f"event {e['id']}: waiting samples' kinds {[s['wait'] for s in waiting]}")
    if function is not None:
        check_culprit(e, function)


def waiting_stacks(e):
    """The stacks of the event's waiting samples (index -1: no stack)."""
    return [(s, e["stacks"][s["stack"]] if s["stack"] >= 0 else None)
            for s in e["samples"] if s["state"] == "waiting"]


# --- Checks ------------------------------------------------------------------

def test_busy():
    run = run_stacks("busy")
    check_ran_fine(run)
    report = stacks_report(run)
    e = stall_event(run, report)
    check_equal(e["class"], "compute", "class of a 300 ms CPU spin")
    culprit = e["culprit"]
    check(culprit is not None, "no culprit")
    with_stack = culprit["of_samples"]
    # Identical consecutive stacks back off (Fibonacci): at least 8 samples
    # in 284 ms at 5 ms even if every stack is the same.
    check(with_stack >= 5, f"only {with_stack} samples with a stack in a 300 ms stall")
    # By count: the innermost frame of the executable in each sample.
    on_loop = 0
    others = []
    for s in e["stacks"]:
        first_app = next((f for f in s["frames"] if f["module"] == APP_NAME), None)
        if first_app is not None and first_app["function"] == "js_test_busy_loop":
            on_loop += s["count"]
        else:
            others.append((s["count"], stack_text(s)))
    share = on_loop / with_stack
    info(f"{on_loop} of {with_stack} samples ({share:.1%}) have js_test_busy_loop as their first "
         f"frame in {APP_NAME}; others: {others}")
    check(share >= 0.95, f"only {on_loop} of {with_stack} samples ({share:.1%}) have "
                         f"js_test_busy_loop as their innermost frame of the app: {others}")
    check_culprit(e, "js_test_busy_loop", min_confidence=0.5)
    frames = [f for s in e["stacks"] for f in s["frames"] if f["function"] == "js_test_busy_loop"]
    check(frames, "no frame of js_test_busy_loop")
    for f in frames:
        check(isinstance(f["file"], str) and f["file"].endswith("stacks-app.c"),
              f"frame of js_test_busy_loop: file {f['file']!r}")
        check(is_int(f["line"]) and f["line"] > 0, f"frame of js_test_busy_loop: line {f['line']!r}")
        check(not f.get("inlined"), f"js_test_busy_loop is noinline but a frame says inlined: {f}")
    check(isinstance(culprit["file"], str) and culprit["file"].endswith("stacks-app.c")
          and is_int(culprit["line"]), f"culprit file:line {culprit['file']}:{culprit['line']}")
    sampler = report["summary"]["sampler"]
    check(sampler["signal"] is not None, "summary.sampler.signal is null with sampling on")
    check(sampler["signals_sent"] > 0, "summary.sampler.signals_sent is 0")


def longest_run(names, name):
    best = cur = 0
    for n in names:
        cur = cur + 1 if n == name else 0
        best = max(best, cur)
    return best


def test_recursion():
    run = run_stacks("recursion")
    check_ran_fine(run)
    report = stacks_report(run)
    e = stall_event(run, report)
    check(e["stacks"], "no stacks")
    top = e["stacks"][0]
    names = functions(top)
    info(f"top stack ({top['count']} samples, {len(names)} frames): {stack_text(top)}")
    check(not top.get("truncated"), f"the top stack is truncated ({len(names)} frames)")
    depth = longest_run(names, "js_test_recurse")
    check(depth >= 40, f"the top stack has {depth} consecutive js_test_recurse frames, not 40: "
                       f"{stack_text(top)}")
    last = len(names) - 1 - names[::-1].index("js_test_recurse")
    outer = names[last + 1:]
    check("main" in outer or "g_main_loop_run" in outer,
          f"the top stack does not reach main or g_main_loop_run: {stack_text(top)}")
    check_culprit(e, "js_test_recurse")


def test_usleep():
    run = run_stacks("usleep")
    check_ran_fine(run)
    elapsed = int(fact(run, "elapsed_ns"))
    info(f"usleep (300 ms) took {elapsed / MS:.3f} ms, returned {fact(run, 'usleep_ret')} "
         f"(errno {fact(run, 'usleep_errno')})")
    check_equal(fact(run, "usleep_ret"), "0", "usleep's return value")
    check_equal(fact(run, "usleep_errno"), "0", "errno after usleep")
    check(elapsed >= 300 * MS, f"usleep (300 ms) returned after {elapsed / MS:.3f} ms: it was "
                               f"cut short")
    report = stacks_report(run)
    e = stall_event(run, report)
    check_equal(e["class"], "wait", "class of a 300 ms usleep")
    check_equal(e["wait"], "sleep", "wait kind of a usleep")
    pairs = waiting_stacks(e)
    check(pairs, "no waiting sample")
    with_stack = [(s, st) for s, st in pairs if st is not None]
    info(f"{len(pairs)} waiting samples entries, {len(with_stack)} with a stack; stacks: "
         f"{[(st['count'], stack_text(st)) for st in e['stacks']]}")
    check(with_stack, f"no waiting sample has a stack (copy of the blocked thread's stack): "
                      f"{pairs}")
    if not SANITIZED:
        for s, st in with_stack:
            check("js_test_sleeper" in functions(st),
                  f"the stack of the waiting sample at {s['t_ns']} lacks js_test_sleeper: "
                  f"{stack_text(st)}")
        check_culprit(e, "js_test_sleeper")
    sampler = report["summary"]["sampler"]
    info(f"signals_withheld {sampler['signals_withheld']}, signals_sent "
         f"{sampler['signals_sent']}")
    check_equal(sampler["blocking_calls_eintr"], 0, "summary.sampler.blocking_calls_eintr")
    skip_if_sanitized(SLEEP_STACKS_CUT)


def check_no_eintr(run, count_key, half_asleep=True):
    """No blocking call of the app failed with EINTR although the stall was
    sampled with signals while the main thread ran (not vacuous); with
    `half_asleep`, the stall's event has running and waiting samples."""
    # The EINTR count first, from the raw report: the general validation
    # comes last, so that its failures do not hide these values.
    sampler = run.report["summary"]["sampler"]
    eintr = int(fact(run, "eintr"))
    calls = int(fact(run, count_key))
    info(f"{calls} blocking calls, {eintr} EINTR seen by the app; sampler: "
         + ", ".join(f"{k} {sampler.get(k)}" for k in (
             "signals_sent", "signals_withheld", "signals_deferred", "blocking_calls_eintr",
             "samples", "samples_running", "samples_timer", "samples_waiting", "samples_folded",
             "signal_timeouts", "signal_late", "signal_blocked")))
    check_equal(fact(run, "other_errors"), "0", "errors other than EINTR")
    check(calls > 0, "no blocking call was made")
    check(sampler["samples_timer"] > 0
          or (sampler["signals_sent"] > 0
              and sampler["signal_timeouts"] < sampler["signals_sent"]),
          f"no sampling signal reached the main thread (signals_sent "
          f"{sampler['signals_sent']}, signal_timeouts {sampler['signal_timeouts']}, "
          f"samples_timer {sampler['samples_timer']}): the race was not exercised")
    check_equal(eintr, 0, "blocking calls of the app cut short (EINTR) while jankscope sampled")
    report = stacks_report(run)
    check_equal(sampler["blocking_calls_eintr"], 0,
                "summary.sampler.blocking_calls_eintr (the app sends no signal)")
    if not half_asleep:
        return
    e = stall_event(run, report)
    check(e["samples_running"] > 0 and e["samples_waiting"] > 0,
          f"a loop half on CPU, half asleep: {e['samples_running']} running and "
          f"{e['samples_waiting']} waiting samples")


def test_cpu_stall():
    """A 2 s CPU stall (main-thread CPU time) sampled every 10 ms, then 300 ms
    of 2 ms sleeps in poll and usleep in the same dispatch. The running
    thread samples itself on its CPU-time timer (src/core/js-sample-timer.h):
    the watchdog thread wakes a few times a second, not twice per sample
    (counted: its voluntary context switches over the CPU part, which the
    app reads from /proc), with samples still about every 10 ms of CPU; and
    the timer's signal never cuts a sleep short when the stall turns into
    sleeps."""
    run = run_stacks("cpu-stall", "2000", "300", extra_env={"JANKSCOPE_SAMPLE_MS": "10"},
                     timeout=90)
    check_ran_fine(run)
    switches = int(fact(run, "watch_switches"))
    sampler = run.report["summary"]["sampler"]
    report = stacks_report(run)
    e = stall_event(run, report)
    info(f"watchdog thread: {switches} voluntary context switches over 2 s of CPU; stall: "
         f"{e['samples_total']} samples ({e['samples_running']} running, "
         f"{e['samples_waiting']} waiting); sampler: "
         + ", ".join(f"{k} {sampler.get(k)}" for k in (
             "samples", "samples_timer", "samples_folded", "signals_sent", "watchdog_wakeups",
             "signals_withheld", "signals_deferred")))
    check(switches >= 0, "no jankscope-watch thread found")
    # ~200 samples at 10 ms of CPU each (CPU time: not slowed by a loaded
    # machine); the watchdog's own way costs it at least one wake-up each.
    check(e["samples_running"] >= 100,
          f"only {e['samples_running']} running samples in a 2 s CPU stall at 10 ms")
    check(switches * 2 < e["samples_running"],
          f"the watchdog woke {switches} times for {e['samples_running']} running samples: "
          f"it should not wake for each")
    check(sampler["samples_timer"] >= 100,
          f"summary.sampler.samples_timer {sampler['samples_timer']}")
    check_sampling_path(sampler, "cpu-timer", None)
    check_no_eintr(run, "calls")


# A stall sampled by the watchdog's own signal at 10 ms has about 200
# running samples over its 2 s of CPU (at least 2 s of wall time); a quarter
# of that is plenty on a loaded machine, and a watchdog that believes in a
# timer that never fires takes one sample, then none (it only looks every
# 250 ms whether samples come).
WATCHDOG_MIN_SAMPLES = 50


def check_sampled_by_watchdog(run, what, reason):
    """The 2 s CPU stall of cpu-stall (2000 300 at 10 ms) was sampled all
    along by the watchdog's own signal, none on the CPU-time timer, and the
    report says so and why (`reason`); the poll and usleep tail saw no
    EINTR."""
    sampler = run.report["summary"]["sampler"]
    check_sampling_path(sampler, "watchdog", reason)
    e = stall_event(run, stacks_report(run))
    info(f"{what}: watchdog thread {fact(run, 'watch_switches')} voluntary context switches; "
         f"stall: {e['samples_total']} samples ({e['samples_running']} running, "
         f"{e['samples_waiting']} waiting); sampler: "
         + ", ".join(f"{k} {sampler.get(k)}" for k in (
             "samples", "samples_timer", "samples_folded", "signals_sent", "signal_timeouts",
             "watchdog_wakeups", "signals_withheld", "signals_deferred")))
    check_equal(sampler["samples_timer"], 0, f"summary.sampler.samples_timer ({what})")
    check(sampler["signals_sent"] >= WATCHDOG_MIN_SAMPLES,
          f"summary.sampler.signals_sent {sampler['signals_sent']} ({what}): the watchdog "
          f"did not sample the 2 s CPU stall with its signal")
    check(e["samples_running"] >= WATCHDOG_MIN_SAMPLES,
          f"only {e['samples_running']} running samples in a 2 s CPU stall at 10 ms ({what})")
    check_no_eintr(run, "calls")


def test_cpu_stall_no_timer():
    """The CPU-time timer cannot be created: the app's seccomp filter
    (tests/apps/deny-syscall.c), installed at the top of main before
    jankscope starts, makes timer_create fail with EAGAIN. The stall of
    cpu-stall is then sampled by the watchdog with its signal, as in GTK
    module mode: all along, none on the timer, no EINTR in the poll and
    usleep tail, nothing but jankscope's lines on stderr (the app runs with
    fatal warnings and criticals), and, with JANKSCOPE_DEBUG=1, one line
    saying the timer is unavailable. Without JANKSCOPE_DEBUG jankscope says
    nothing: the stacks are all there, only the watchdog's CPU is higher."""
    run = run_stacks("cpu-stall-no-timer", "2000", "300",
                     extra_env={"JANKSCOPE_SAMPLE_MS": "10", "JANKSCOPE_DEBUG": "1"},
                     timeout=90)
    deny = fact(run, "deny")
    if deny != "ok":
        raise Skip(f"the kernel takes no seccomp filter here: {deny}")
    check_equal(run.returncode, 0, "exit code")
    check("FAIL" not in run.stderr, "the test program reported a failure")
    lines = run.stderr_lines()
    foreign = [line for line in lines if not line.startswith("jankscope: ")]
    check(not foreign, f"stderr lines that are not jankscope's: {foreign}")
    said = [line for line in lines if "CPU-time timer" in line]
    check(len(said) == 1 and "timer_create" in said[0] and "EAGAIN" in said[0],
          f"expected one line saying the CPU-time timer is unavailable (timer_create, "
          f"EAGAIN), got {said}")
    check_sampled_by_watchdog(run, "timer_create denied", "timer_create: EAGAIN")

    quiet = run_stacks("cpu-stall-no-timer", "300", "50",
                       extra_env={"JANKSCOPE_SAMPLE_MS": "10"})
    check_ran_fine(quiet)
    check_equal(quiet.report["summary"]["sampler"]["samples_timer"], 0,
                "summary.sampler.samples_timer (timer_create denied, 300 ms)")


def test_cpu_stall_timer_off():
    """JANKSCOPE_SAMPLE_TIMER=0: the stall of cpu-stall is sampled by the
    watchdog's own signal, none on the CPU-time timer, as when the timer
    cannot be created; no EINTR, and jankscope says nothing."""
    run = run_stacks("cpu-stall", "2000", "300",
                     extra_env={"JANKSCOPE_SAMPLE_MS": "10", "JANKSCOPE_SAMPLE_TIMER": "0"},
                     timeout=90)
    check_ran_fine(run)
    check_sampled_by_watchdog(run, "JANKSCOPE_SAMPLE_TIMER=0", "JANKSCOPE_SAMPLE_TIMER=0")


def test_nanosleep_loop():
    """2 ms of CPU and a 2 ms nanosleep in a loop for 1 s, sampled at the
    default schedule: the sampling signal never cuts a nanosleep short (a
    thread entering it between the watchdog's look at /proc and the signal's
    arrival would see EINTR, but for the handshake of js-call-guard.h)."""
    run = run_stacks("nanosleep-loop")
    check_ran_fine(run)
    check_no_eintr(run, "nanosleeps")


def sleep_loop_check(call):
    """2 ms of CPU and a 2 ms blocking call (`call`, or each in turn for
    "mixed") in a loop for 4 s inside one dispatch, sampled every 1 ms so that
    the race is frequent: no call returns EINTR."""
    def check_call():
        run = run_stacks("sleep-loop", call, "4000", extra_env={"JANKSCOPE_SAMPLE_MS": "1"},
                         timeout=90)
        check_ran_fine(run)
        check_no_eintr(run, "calls")
    return check_call


def test_pollfunc_loop():
    """The app's own poll function, which makes the ppoll system call itself
    (no wrapper of the preload sees it), in a loop whose every iteration
    stalls 25 ms (sampled every 1 ms) and then polls: the sampling signal
    never cuts that poll short (EINTR). Only jankscope's poll function
    guards it, and it must do so although the preload wraps poll. The
    CPU-time timer that samples each stall is still armed when the stall
    ends, so the polls that start then run with the sampling signal blocked
    (the app sees a signal blocked that its loop does not block): no other
    guard would block it, and that race itself is too rare to be seen."""
    run = run_stacks("pollfunc-loop", "4000", extra_env={"JANKSCOPE_SAMPLE_MS": "1"}, timeout=90)
    check_ran_fine(run)
    check(int(fact(run, "calls")) >= 50, f"only {fact(run, 'calls')} polls of the app's poll "
          "function")
    info(f"{fact(run, 'held')} of {fact(run, 'calls')} polls with the sampling signal held")
    check(int(fact(run, "held")) > 0, "no poll of the app's poll function ran with the sampling "
          "signal blocked: jankscope's poll function did not guard it")
    check_no_eintr(run, "calls", half_asleep=False)


SLEEP_LOOP_CALLS = ("poll", "select", "ppoll", "epoll_wait", "nanosleep", "clock_nanosleep",
                    "usleep", "mixed")


def test_app_signals():
    """The app's own signals (handlers without SA_RESTART) still cut its
    blocking calls short, and the masks it gives ppoll, pselect, epoll_pwait
    and sigsuspend keep their meaning: the same results without jankscope
    and with it, sampling every 1 ms during the stall they run in."""
    without = run_stacks("app-signals", preload=False, report=False)
    check_ran_fine(without)
    run = run_stacks("app-signals", extra_env={"JANKSCOPE_SAMPLE_MS": "1"})
    check_ran_fine(run)
    cases = run.facts.get("case", [])
    info("with jankscope: " + "; ".join(cases))
    check_equal(cases, without.facts.get("case", []),
                "results of the app's calls (with jankscope vs without)")
    check(len(cases) == 20, f"expected 20 cases, got {len(cases)}")
    for line in cases:
        name = line.split()[0]
        if name.endswith("-mask-blocks"):
            check(line == f"{name} ret=0 errno=0 usr1=1 alrm=0",
                  f"{name}: the app's mask blocks SIGUSR1, the call times out: {line}")
        else:
            check(" ret=-1 errno=4 " in line and (" usr1=1 " in line or line.endswith("alrm=1")),
                  f"{name}: the app's signal cut the call short (EINTR): {line}")
    report = stacks_report(run)
    sampler = report["summary"]["sampler"]
    info(f"app-signals: signals_sent {sampler['signals_sent']}, signals_withheld "
         f"{sampler['signals_withheld']}, signals_deferred {sampler['signals_deferred']}, "
         f"blocking_calls_eintr {sampler['blocking_calls_eintr']}")
    check(sampler["signals_sent"] > 0, "no sampling signal was sent during the stall")
    # Every EINTR the app saw came from its own signal, and each is counted.
    check_equal(sampler["blocking_calls_eintr"], 17,
                "summary.sampler.blocking_calls_eintr (the 17 cases the app's signal interrupted)")


def test_lock():
    run = run_stacks("lock")
    check_ran_fine(run)
    report = stacks_report(run)
    check_wait_event(stall_event(run, report), "lock", "js_test_wait_lock")


def test_io():
    run = run_stacks("io")
    check_ran_fine(run)
    report = stacks_report(run)
    check_wait_event(stall_event(run, report), "io", "js_test_open_fifo")


def test_ipc():
    run = run_stacks("ipc")
    check_ran_fine(run)
    report = stacks_report(run)
    e = stall_event(run, report)
    if SANITIZED:
        # The stacks libunwind takes in ASan's read () interceptor
        # (libasan.so.8) end there: the app's frame is never sampled.
        check_wait_event(e, "ipc", None)
        skip_if_sanitized("stacks end in ASan's read () interceptor: no culprit in the app")
    check_wait_event(e, "ipc", "js_test_read_socket")


def test_malloc():
    run = run_stacks("malloc", "10", extra_env={"JANKSCOPE_SAMPLE_MS": "1"}, timeout=90)
    check_ran_fine(run)
    check_equal(fact(run, "done"), "1", "the program reached its end")
    report = stacks_report(run, final=True)
    sampler = report["summary"]["sampler"]
    e = stall_event(run, report)
    info(f"malloc: {fact(run, 'allocations')} allocations; sampler: samples {sampler['samples']}, "
         f"signals_sent {sampler['signals_sent']}, timeouts {sampler['signal_timeouts']}, "
         f"late {sampler['signal_late']}, failed {sampler['samples_failed']}, dropped "
         f"{sampler['samples_dropped']}, handler_ns_max {sampler['handler_ns_max']}")
    check(sampler["samples"] > 100, f"summary.sampler.samples {sampler['samples']} in a 10 s "
                                    f"stall sampled every 1 ms")
    check(e["samples_total"] > 100, f"event samples_total {e['samples_total']}")
    check_equal(e["class"], "compute", "class of a malloc/free loop")
    check_culprit(e, "js_test_malloc_loop")


def test_fork():
    run = run_stacks("fork")
    check_ran_fine(run)
    check_equal(fact(run, "spinner_exit"), "0", "exit code of the forked child (no exec)")
    check_equal(fact(run, "execer_exit"), "0", "exit code of the child that ran /bin/true")
    report = stacks_report(run)
    files = sorted(os.listdir(run.tmpdir))
    check_equal(files, ["report.json"], "files in the report directory (a forked child without "
                                        "exec has no collector, /bin/true has no GLib)")
    e = stall_event(run, report)
    # No class: the spinning child competes with the parent for the CPUs
    # (off-CPU time while runnable is "not scheduled", counted as waiting).
    check(e["samples_running"] > 0, "no running sample in a 600 ms CPU stall")
    check_culprit(e, "js_test_fork_stall")


def start_app(argv, report_path, extra_env=None):
    env = {"LD_PRELOAD": preload_path(), "JANKSCOPE_REPORT": report_path}
    env.update(extra_env or {})
    return subprocess.Popen(argv, env=clean_env(env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)


def without_ongoing(report):
    """A copy of @report without the ongoing hang event (id 0), which the
    general rules (ids, events_total) do not count."""
    copy = json.loads(json.dumps(report))
    copy["events"] = [e for e in copy["events"] if not e.get("ongoing")]
    return copy


def check_hang(mode):
    exe = app(APP)
    tmpdir = tempfile.mkdtemp(prefix="jankscope-test-")
    report_path = os.path.join(tmpdir, "report.json")
    proc = start_app([exe, "hang", mode], report_path)
    stacks_cut = SANITIZED and mode == "sleep"  # SLEEP_STACKS_CUT
    try:
        started = None
        lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("hang-started="):
                started = time.monotonic()
                break
        check(started is not None, f"the app did not print hang-started: {lines}")
        time.sleep(3.5)
        check(proc.poll() is None, "the app ended before it was killed (the hang lasts 5 s)")
        killed_ns = time.monotonic_ns()  # CLOCK_MONOTONIC, the report's clock
        proc.send_signal(signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=30)
        check_equal(proc.returncode, -signal.SIGKILL, "the killed app's status")
        check_equal(stderr, "", "stderr of the hanging app")

        report = read_report(report_path)
        check_equal(report["final"], False, "final (the app was killed)")
        validate_report(without_ongoing(report), pid=proc.pid, final=False, exe=exe)
        hangs = [e for e in report["events"] if e.get("type") == "hang"]
        check(len(hangs) == 1, f"expected one hang event in the report of the killed app, got "
                               f"{summarize(report['events']) if report['events'] else []}")
        hang = hangs[0]
        check_equal(hang["id"], 0, "id of the ongoing hang")
        check_equal(hang.get("ongoing"), True, "ongoing")
        check(hang is report["events"][-1], "the ongoing hang is not the last event")
        validate_stack_members(hang)
        info(f"hang ({mode}): {hang['duration_ns'] / MS:.0f} ms on disk, class {hang['class']}, "
             f"wait {hang['wait']}, samples {hang['samples_total']}, culprit "
             f"{describe_culprit(hang['culprit'])}")
        check(hang["duration_ns"] >= 2000 * MS,
              f"the hang on disk lasts {hang['duration_ns'] / MS:.0f} ms, not >= 2 s "
              f"(killed 3.5 s into it)")
        # The journal gets the hang under way every 500 ms (+ a 250 ms tick):
        # what is on disk after a kill is never more than 1 s old. Whole
        # every 2 s; in between, a hang_progress line with its times.
        age_ms = (killed_ns - hang["end_ns"]) / MS
        check(age_ms <= 1000, f"the hang on disk ends {age_ms:.0f} ms before the kill (> 1 s)")
        journal = journal_lines(report_path + ".journal")
        whole = [j for j in journal if isinstance(j.get("hang"), dict)]
        progress = [j for j in journal if "hang_progress" in j]
        info(f"journal: {len(whole)} whole hang lines, {len(progress)} hang_progress lines")
        check(len(progress) >= 2, f"hang_progress lines in the journal: {len(progress)} (< 2)")
        # 3.5 s: whole at its first tier and 2 s later; a third if a new
        # journal started in between (it begins with the hang under way).
        check(len(whole) <= 3, f"the hang written whole {len(whole)} times in 3.5 s (> 3)")
        # The CLI's reader folds the journal by the same rule (symbolize
        # writes the document it read).
        folded = os.path.join(tmpdir, "folded.json")
        code, _, err = run_cli("symbolize", report_path, "-o", folded)
        check_equal(code, 0, f"symbolize of the killed run's report ({err})")
        with open(folded, encoding="utf-8") as f:
            cli_hang = json.load(f)["events"][-1]
        for key in ("end_ns", "duration_ns", "max_part_ns", "tier", "unattributed_ns"):
            check_equal(cli_hang.get(key), hang.get(key), f"the CLI's reading of the hang's {key}")
        if not stacks_cut:
            check(any("js_test_hang" in functions(s) for s in hang["stacks"]),
                  f"no stack of the hang holds js_test_hang: "
                  f"{[stack_text(s) for s in hang['stacks']]}")
            check_culprit(hang, "js_test_hang")
        expected_class = "compute" if mode == "cpu" else "wait"
        check_equal(hang["class"], expected_class, f"class of a {mode} hang")
        if mode == "sleep":
            check_equal(hang["wait"], "sleep", "wait kind of a sleeping hang")
        tiers = [t["tier_ms"] for t in hang["watchdog"]["tiers_crossed"]]
        check(250 in tiers and 1000 in tiers, f"watchdog tiers crossed: {tiers}")

        # The next run with the same report path finds it.
        argv = [exe, "busy"]
        run = run_app(argv, report=False, extra_env={"JANKSCOPE_REPORT": report_path})
        run.report_path = report_path
        check_equal(run.returncode, 0, "exit code of the next run")
        lines = run.stderr_lines()
        check(len(lines) == 1 and "previous run" in lines[0] and str(proc.pid) in lines[0],
              f"stderr of the next run should be one line about the previous run (pid "
              f"{proc.pid}): {lines}")
        report2 = read_report(report_path)
        validate_report(report2, pid=run.pid, exe=exe,
                        glib_version=fact(run, "glib_version"))
        previous = report2.get("previous_run")
        check(isinstance(previous, dict), f"previous_run: {previous!r}")
        check_equal(previous["pid"], proc.pid, "previous_run.pid")
        check_equal(previous["exe"], os.path.realpath(exe), "previous_run.exe")
        check_equal(previous["hang"]["type"], "hang", "previous_run.hang.type")
        check_equal(previous["hang"]["duration_ns"], hang["duration_ns"],
                    "previous_run.hang.duration_ns (vs the killed run's report)")
        check(stacks_cut or any("js_test_hang" in functions(s)
                                for s in previous["hang"]["stacks"]),
              "previous_run.hang has no stack with js_test_hang")
        check(all(not e.get("ongoing") for e in report2["events"]),
              "the next run's final report has an ongoing event")
        if stacks_cut:
            skip_if_sanitized(SLEEP_STACKS_CUT)
    except CheckFailed:
        if os.path.exists(report_path):
            with open(report_path, encoding="utf-8") as f:
                print(f"report {report_path}:\n{f.read()[:20000]}")
        raise
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for name in os.listdir(tmpdir):
            os.unlink(os.path.join(tmpdir, name))
        os.rmdir(tmpdir)


def test_hang_cpu():
    check_hang("cpu")


def test_hang_sleep():
    check_hang("sleep")


def test_dlclose():
    module = env_path("JANKSCOPE_TEST_STACKS_MODULE")
    name = os.path.basename(module)
    run = run_stacks("dlclose", module)
    check_ran_fine(run)
    check_equal(fact(run, "module_unloaded"), "1", "the module is gone after dlclose")
    report = stacks_report(run)
    e = stall_event(run, report)
    check(e["stacks"], "no stacks")
    top = e["stacks"][0]
    info(f"top stack: {stack_text(top)}")
    first = next((f for f in top["frames"] if f["module"] == name), None)
    check(first is not None, f"no frame of {name} in the top stack: {stack_text(top)}")
    check_equal(first["function"], "js_test_module_busy", f"innermost frame of {name}")
    check_culprit(e, "js_test_module_busy", module=name)


def test_dlclose_reuse():
    """Module A is dlclosed and module B (another file) is dlopened at once,
    where A was; a second stall runs in B: each stall's frames name their
    own module and function."""
    module_a = env_path("JANKSCOPE_TEST_STACKS_MODULE")
    module_b = env_path("JANKSCOPE_TEST_STACKS_MODULE2")
    run = run_stacks("dlclose-reuse", module_a, module_b)
    check_ran_fine(run)
    base_a, base_b = fact(run, "module_a_base"), fact(run, "module_b_base")
    info(f"module A at {base_a}, module B at {base_b}"
         f"{' (the same address)' if base_a == base_b else ''}")
    report = stacks_report(run)
    check_equal(len(stalls(run)), 2, "stalls the app made")
    for index, (path, function) in enumerate(((module_a, "js_test_module_busy"),
                                              (module_b, "js_test_module2_busy"))):
        e = stall_event(run, report, index)
        name = os.path.basename(path)
        check(e["stacks"], f"stall {index}: no stacks")
        info(f"stall {index}: top stack: {stack_text(e['stacks'][0])}")
        check_culprit(e, function, module=name)
        for s in e["stacks"]:
            for f in s["frames"]:
                if f["function"] in ("js_test_module_busy", "js_test_module2_busy"):
                    check_equal((f["function"], f["module"]), (function, name),
                                f"stall {index}: a frame of the module (function, module)")


# --- Where debug information comes from ---------------------------------------
#
# tests/apps/debuginfo-module.c stalls 300 ms in a static function, called
# from the static callback of its source; tests/apps/split-debug.sh made
# copies of it the ways distributions ship debug information. Each route
# must name both static functions in the stacks, the culprit and the
# event's callback; the stripped copy (the control) must name neither.

DEBUGINFO_MODULE = "libdebuginfo-module.so"
DEBUGINFO_STATIC = ("debuginfo_static_spin", "debuginfo_static_callback")


def debuginfo_variant(sub):
    root = os.environ.get("JANKSCOPE_TEST_DEBUGINFO_VARIANTS")
    if not root:
        raise Skip("no split copies of the test module (binutils or xz missing at build time)")
    return os.path.join(root, sub)


# How long a run waits for its journal to show the stall named (then it
# quits, and the report's checks say what is missing).
JOURNAL_WAIT_S = 30


def journaled_events(report_path):
    """The events of @report_path's journal so far."""
    return [line["event"] for line in journal_lines(report_path + ".journal")
            if isinstance(line, dict) and isinstance(line.get("event"), dict)]


@functools.lru_cache(maxsize=None)
def plt_sections(path):
    """[start, end) of the ELF file's PLT sections (.plt, .plt.got, .plt.sec):
    the stubs of calls into other modules, which have no symbol to name them
    by. A sample of a loaded machine lands in one now and then."""
    out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True,
                         check=True).stdout
    ranges = []
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] in (".plt", ".plt.got", ".plt.sec"):
            start = int(fields[3], 16)
            ranges.append((start, start + int(fields[5], 16)))
    return tuple(ranges)


def in_plt(frame, module_path):
    return any(a <= int(frame["offset"], 16) < b for a, b in plt_sections(module_path))


def stack_frames_of_module(e, module_path):
    """The event's frames of the test module but its PLT stubs', and not
    inline frames."""
    return [f for s in e.get("stacks") or [] for f in s.get("frames") or []
            if f.get("module") == DEBUGINFO_MODULE and not f.get("inlined")
            and not in_plt(f, module_path)]


def named_as(named, with_lines):
    """A test of a journaled event (and the module's path): its frames of the
    module, and its callback's frame, are named (with file and line) as a
    route must give them."""
    def settled(e, module_path):
        ours = stack_frames_of_module(e, module_path) + [e.get("callback_frame") or {}]
        return all((not named or f.get("function") is not None)
                   and (not with_lines or f.get("file") is not None) for f in ours)
    return settled


def run_debuginfo(variant, extra_env=None, linger_ms=None, until=None, **kwargs):
    """The debuginfo scenario with the module of @variant. The app quits
    @linger_ms (default 200) after the stall or, with @until, once its journal
    holds the stall's event and until(event, module's path) is true (at most
    JOURNAL_WAIT_S):
    at exit jankscope loads no debug information, and on a loaded machine
    200 ms may not be enough for its thread to have named the stall."""
    module = debuginfo_variant(os.path.join(variant, DEBUGINFO_MODULE))
    if until is None:
        args = [module] + ([str(linger_ms)] if linger_ms is not None else [])
        return run_stacks("debuginfo", *args, extra_env=extra_env, **kwargs)
    read_end, write_end = os.pipe()
    watching = []

    def watch(report_path):
        def wait_then_quit():
            try:
                deadline = time.monotonic() + JOURNAL_WAIT_S
                while time.monotonic() < deadline:
                    if any(e.get("source") == "debuginfo-stall" and until(e, module)
                           for e in journaled_events(report_path)):
                        break
                    time.sleep(0.05)
            finally:
                os.close(write_end)  # the app's stdin ends: it quits
        watching.append(threading.Thread(target=wait_then_quit, daemon=True))
        watching[0].start()

    try:
        return run_stacks("debuginfo", module, "stdin", extra_env=extra_env, stdin=read_end,
                          on_start=watch, **kwargs)
    finally:
        os.close(read_end)
        if watching:
            watching[0].join()
        else:
            os.close(write_end)


def check_callback_frame(frame, what, named, with_lines):
    validate_frame(frame, what)
    check_equal(frame["module"], DEBUGINFO_MODULE, f"{what}: module")
    check(frame.get("inlined") is None, f"{what}: inlined")
    if not named:
        check_equal(frame["function"], None, f"{what}: function (no debug information)")
    else:
        check_equal(frame["function"], "debuginfo_static_callback", f"{what}: function")
    if with_lines:
        check(isinstance(frame["file"], str) and frame["file"].endswith("debuginfo-module.c")
              and is_int(frame["line"]), f"{what}: file:line {frame['file']}:{frame['line']}")
    else:
        check_equal((frame["file"], frame["line"]), (None, None), f"{what}: file, line")


def check_debuginfo_report(run, named, with_lines, what):
    """The stall's event as one route (@what) must give it."""
    report = stacks_report(run)
    e = stall_event(run, report)
    check_equal(e["source"], "debuginfo-stall", f"{what}: the event's source")
    ours = [f for s in e["stacks"] for f in s["frames"] if f["module"] == DEBUGINFO_MODULE]
    check(ours, f"{what}: no frame of {DEBUGINFO_MODULE}: {[stack_text(s) for s in e['stacks']]}")
    info(f"{what}: callback {e['callback']!r}, top stack {stack_text(e['stacks'][0])}")
    if named:
        # Inline frames (now_ns, with debug information) and PLT stubs
        # (nameless by nature) aside.
        ours = stack_frames_of_module(e, run.argv[2])
        names = {f["function"] for f in ours}
        check(names <= set(DEBUGINFO_STATIC) and "debuginfo_static_spin" in names,
              f"{what}: the module's frames are named {sorted(map(str, names))}")
        check_culprit(e, "debuginfo_static_spin", module=DEBUGINFO_MODULE)
        check_equal(e["callback"], "debuginfo_static_callback", f"{what}: the event's callback")
        for f in ours:
            if with_lines:
                check(isinstance(f["file"], str) and f["file"].endswith("debuginfo-module.c")
                      and is_int(f["line"]), f"{what}: frame {f}")
            else:
                check_equal((f["file"], f["line"]), (None, None), f"{what}: frame {f}")
    else:
        check(all(f["function"] is None for f in ours),
              f"{what}: a static function was named without debug information: {ours}")
        # Nameless, but one profile frame per function (its entry from the
        # call frame information), not one per address sampled: the culprit
        # is then the spinning function, not its caller.
        # (A PLT stub has call frame information of its own: aside.)
        mine = [f for f in e["profile"]["frames"] if f.get("module") == DEBUGINFO_MODULE
                and not in_plt(f, run.argv[2])]
        check(0 < len(mine) <= len(DEBUGINFO_STATIC),
              f"{what}: {len(mine)} profile frames for the module's "
              f"{len(DEBUGINFO_STATIC)} functions: {mine}")
        check(e["culprit"]["samples"] >= 0.9 * e["culprit"]["of_samples"],
              f"{what}: the culprit holds {e['culprit']['samples']} of "
              f"{e['culprit']['of_samples']} samples")
        check(e["callback"].startswith(DEBUGINFO_MODULE + "+0x"),
              f"{what}: the event's callback {e['callback']!r}")
    check_callback_frame(e["callback_frame"], f"{what}: callback_frame", named, with_lines)
    sources = [x for x in report["summary"]["sources"] if x["source"] == "debuginfo-stall"]
    check_equal(len(sources), 1, f"{what}: summary.sources entries of debuginfo-stall")
    check_equal(sources[0]["callback"], e["callback"], f"{what}: the source's callback")
    check_callback_frame(sources[0]["callback_frame"], f"{what}: the source's callback_frame",
                         named, with_lines)
    return report


def test_debuginfo_stripped():
    """The control: stripped, no debug file anywhere."""
    run = run_debuginfo("stripped")
    check_ran_fine(run)
    check_debuginfo_report(run, named=False, with_lines=False, what="stripped")


def test_debuginfo_build_id():
    """ROOT/.build-id/xx/rest.debug under a root of JANKSCOPE_DEBUG_DIRS
    (after one that does not exist)."""
    root = debuginfo_variant("build-id-root")
    run = run_debuginfo("build-id", {"JANKSCOPE_DEBUG_DIRS": f"/nonexistent/debug:{root}"},
                        until=named_as(True, True))
    check_ran_fine(run)
    check_debuginfo_report(run, named=True, with_lines=True, what="build-id")


def test_debuginfo_debuglink():
    """.gnu_debuglink: the debug file beside the module, in .debug/ beside
    it, and under a debug root with the module's directory appended."""
    for variant, extra in (("debuglink", {}), ("debuglink-dot", {}),
                           ("debuglink-root-module",
                            {"JANKSCOPE_DEBUG_DIRS": debuginfo_variant("debuglink-root")})):
        run = run_debuginfo(variant, extra, until=named_as(True, True))
        check_ran_fine(run)
        check_debuginfo_report(run, named=True, with_lines=True, what=variant)


def test_debuginfo_minidebuginfo():
    """.gnu_debugdata (Fedora's MiniDebugInfo): names of the static
    functions, no lines."""
    run = run_debuginfo("minidebuginfo", until=named_as(True, False))
    check_ran_fine(run)
    check_debuginfo_report(run, named=True, with_lines=False, what="minidebuginfo")


def test_debuginfo_bad_dirs():
    """A relative entry: one warning, the rest of the list still used."""
    root = debuginfo_variant("build-id-root")
    run = run_debuginfo("build-id", {"JANKSCOPE_DEBUG_DIRS": f"relative/dir:{root}"},
                        until=named_as(True, True))
    check_equal(run.returncode, 0, "exit code")
    warnings = [line for line in run.stderr_lines() if line.startswith("jankscope")]
    check(len(warnings) == 1 and "JANKSCOPE_DEBUG_DIRS" in warnings[0],
          f"one warning about JANKSCOPE_DEBUG_DIRS: {run.stderr_lines()}")
    check_debuginfo_report(run, named=True, with_lines=True, what="relative entry")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def debuginfod_env(url, tmpdir):
    return {"JANKSCOPE_DEBUGINFOD": "1", "DEBUGINFOD_URLS": url,
            "DEBUGINFOD_CACHE_PATH": os.path.join(tmpdir, "cache")}


class DelayingProxy:
    """Forwards GET requests to @upstream after @delay_s: a debuginfod server
    on a slow link."""

    def __init__(self, upstream, delay_s):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                time.sleep(delay_s)
                try:
                    with urllib.request.urlopen(upstream + self.path, timeout=30) as r:
                        body, status = r.read(), r.status
                except urllib.error.HTTPError as e:
                    body, status = b"", e.code
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def debuginfod_server(tmp):
    """A real debuginfod server (elfutils' debuginfod -F) serving the test
    module's debug file on 127.0.0.1, once it serves it: yields its URL."""
    server = shutil.which("debuginfod")
    if server is None:
        raise Skip("no debuginfod (Debian package debuginfod)")
    served = debuginfo_variant("debuginfod")
    with open(debuginfo_variant("build-id.txt")) as f:
        build_id = f.read().strip()
    port = free_port()
    log = open(os.path.join(tmp, "server.log"), "w")
    proc = subprocess.Popen([server, "-F", served, "-p", str(port), "-d",
                             os.path.join(tmp, "db.sqlite"), "-t", "0", "-g", "0"],
                            stdout=log, stderr=log)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            # The server scans its directory on start: wait until it serves
            # the file.
            try:
                with urllib.request.urlopen(f"{url}/buildid/{build_id}/debuginfo",
                                            timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            check(proc.poll() is None, "debuginfod ended")
            check(time.monotonic() < deadline, "debuginfod did not serve the file in 30 s")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def run_debuginfod(delay_s=0):
    """The stripped module, with a real debuginfod server serving its debug
    file behind a proxy that answers @delay_s late: it must be named with
    lines once the file has come (it is fetched on jankscope's own thread,
    the stacks named again), and the file be in the client's cache."""
    with open(debuginfo_variant("build-id.txt")) as f:
        build_id = f.read().strip()
    with tempfile.TemporaryDirectory(prefix="jankscope-debuginfod-") as tmp:
        with debuginfod_server(tmp) as url:
            proxy = None
            try:
                if delay_s > 0:
                    proxy = DelayingProxy(url, delay_s)
                    url = proxy.url
                linger_ms = 1500 + int(delay_s * 1000) * 2
                run = run_debuginfo("stripped", debuginfod_env(url, tmp), linger_ms=linger_ms)
            finally:
                if proxy is not None:
                    proxy.close()
        check_ran_fine(run)
        report = check_debuginfo_report(run, named=True, with_lines=True, what="debuginfod")
        fetched = report["summary"]["sampler"]["debuginfod"]
        info(f"debuginfod: {fetched}")
        # Behind the slow proxy, other modules' requests (one download at a
        # time) may still be on their way when the app ends.
        check(fetched is not None and fetched["found"] >= 1
              and (fetched["pending"] == 0 or delay_s > 0),
              f"summary.sampler.debuginfod: {fetched}")
        check(os.path.exists(os.path.join(tmp, "cache", build_id, "debuginfo")),
              "the debug file is in DEBUGINFOD_CACHE_PATH")


def test_debuginfod():
    run_debuginfod()


def test_debuginfod_slow():
    """The debug file comes 4 s after the stall, long after the stall would
    otherwise settle (1.5 s): the stall waits for it, and the event's
    profile has the names and lines, not the stripped module's offsets."""
    run_debuginfod(delay_s=4)


class SilentServer:
    """Accepts connections on 127.0.0.1 and never answers."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            self.accepted += 1

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


def run_timed_exit(argv, env):
    """Runs a program that prints done=1 at the end of main; returns its
    stdout, stderr, exit code and how long its exit took after that line."""
    full_env = clean_env(env)
    proc = subprocess.Popen(argv, env=full_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines = []
    done_at = None
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.strip() == "done=1":
                done_at = time.monotonic()
        proc.wait(timeout=60)
        ended = time.monotonic()
        stderr = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    check(done_at is not None, f"the program did not get to its end: {''.join(lines)}")
    return "".join(lines), stderr, proc.returncode, ended - done_at


def test_debuginfod_silent():
    """A server that accepts and never answers: the app's main thread runs
    as without jankscope (its stall is the only event, timed as usual), the
    final report is written and the app's exit does not wait for the
    collector up to JANKSCOPE_EXIT_MS (2 s here, so that a loaded machine
    does not miss it): a download on the collector thread kept it busy for
    the client's 90 s, so the exit waited the whole bound and lost the final
    report."""
    server = SilentServer()
    with tempfile.TemporaryDirectory(prefix="jankscope-debuginfod-") as tmp:
        path = os.path.join(tmp, "report.json")
        env = {"LD_PRELOAD": preload_path(), "JANKSCOPE_REPORT": path,
               "JANKSCOPE_EXIT_MS": "2000"}
        env.update(debuginfod_env(server.url, tmp))
        module = debuginfo_variant(os.path.join("stripped", DEBUGINFO_MODULE))
        try:
            stdout, stderr, code, exit_s = run_timed_exit([app(APP), "debuginfo", module], env)
        finally:
            server.close()
        info(f"silent server: {server.accepted} connections; the exit took {exit_s * 1000:.0f} ms")
        check_equal(code, 0, "exit code")
        check_equal([l for l in stderr.splitlines() if l.strip()], [], "stderr")
        check(server.accepted >= 1, "jankscope never asked the server")
        # Well under the bound: nothing kept the collector from the final
        # report (the old code waited the whole 2 s).
        check(exit_s < 1.5, f"the exit took {exit_s:.2f} s")
        report = read_report(path)
        check_equal(report["final"], True, "final (the final report was written)")
        windows = [tuple(int(x) for x in l.split("=", 1)[1].split(","))
                   for l in stdout.splitlines() if l.startswith("stall=")]
        check_equal(len(windows), 1, "stalls the app made")
        events = report["events"]
        check_equal(len(events), 1, f"events: {summarize(events)}")
        check_equal(events[0]["source"], "debuginfo-stall", "the event's source")
        check_ms(events[0]["duration_ns"], 295, 330, "the stall's duration")
        fetched = report["summary"]["sampler"]["debuginfod"]
        info(f"debuginfod: {fetched}")
        check(fetched["requested"] >= 1 and fetched["found"] == 0,
              f"summary.sampler.debuginfod: {fetched}")


def test_debuginfod_gives_up():
    """A server that never answers is given up after 10 s
    (JS_DEBUGINFOD_ANSWER_S): the module's frames are then final, unnamed."""
    server = SilentServer()
    with tempfile.TemporaryDirectory(prefix="jankscope-debuginfod-") as tmp:
        try:
            run = run_debuginfo("stripped", debuginfod_env(server.url, tmp), linger_ms=12000)
        finally:
            server.close()
    check_ran_fine(run)
    report = check_debuginfo_report(run, named=False, with_lines=False, what="given up")
    fetched = report["summary"]["sampler"]["debuginfod"]
    info(f"debuginfod: {fetched}")
    check(fetched["given_up"] >= 1 and fetched["found"] == 0, f"summary.sampler.debuginfod: {fetched}")


def test_signal_takeover():
    run = run_stacks("signal-takeover")
    check_equal(run.returncode, 0, "exit code")
    check(int(fact(run, "signals_taken")) >= 1, "the app took no signal over")
    check_equal(fact(run, "handler_calls"), "0",
                "calls of the app's own handler (jankscope must stop sending its signal)")
    report = stacks_report(run)
    sampler = report["summary"]["sampler"]
    info(f"signal-takeover: signal {sampler['signal']}, signal_lost {sampler['signal_lost']}, "
         f"signals_sent {sampler['signals_sent']}; stderr: {run.stderr_lines()}")
    check_equal(sampler["signal_lost"], True, "summary.sampler.signal_lost")
    check_sampling_path(sampler, "off", "signal-lost")
    lines = run.stderr_lines()
    check(len(lines) == 1 and "took over signal" in lines[0],
          f"expected one warning about the signal taken over, stderr: {lines}")
    e = stall_event(run, report)
    check(e["samples_total"] > 0, "the stall was not sampled at all")


def test_signal_blocked():
    run = run_stacks("signal-blocked")
    check_ran_fine(run)
    check_equal(fact(run, "rt_pending"), "0",
                "real-time signals pending on the main thread while it blocked them")
    report = stacks_report(run)
    sampler = report["summary"]["sampler"]
    info(f"signal-blocked: signal_blocked {sampler['signal_blocked']}, signals_sent "
         f"{sampler['signals_sent']}")
    check(sampler["signal_blocked"] > 0, f"summary.sampler.signal_blocked "
                                         f"{sampler['signal_blocked']}")
    e = stall_event(run, report)
    check_equal(e["class"], "compute", "class (from the CPU clock) of a 300 ms spin")


def test_sampling_off():
    run = run_stacks("busy", extra_env={"JANKSCOPE_SAMPLING": "0"})
    check_ran_fine(run)
    report = stacks_report(run)
    e = stall_event(run, report)
    check_equal(e["class"], "compute", "class (from the CPU clock) without sampling")
    check(is_int(e["cpu_ns"]) and e["cpu_ns"] > 0, f"cpu_ns {e['cpu_ns']}")
    check(e["watched_ns"] > 0, "the watchdog did not see the stall")
    check_equal(e["stacks"], [], "stacks without sampling")
    check_equal(e["culprit"], None, "culprit without sampling")
    sampler = report["summary"]["sampler"]
    check_equal(sampler["signal"], None, "summary.sampler.signal with sampling off")
    check_sampling_path(sampler, "off", "JANKSCOPE_SAMPLING=0")
    check_equal(sampler["signals_sent"], 0, "summary.sampler.signals_sent with sampling off")


def test_idle():
    run = run_stacks("idle")
    check_ran_fine(run)
    check(int(fact(run, "ticks")) >= 5, f"only {fact(run, 'ticks')} ticks in 2 s")
    report = stacks_report(run)
    check_equal(report["events"], [], "events of an idle program")
    sampler = report["summary"]["sampler"]
    info(f"idle: stalls {sampler['stalls']}, samples {sampler['samples']}, wakeups "
         f"{sampler['watchdog_wakeups']}, parks {sampler['watchdog_parks']}")
    check_equal(sampler["samples"], 0, "summary.sampler.samples of an idle program")
    check_equal(sampler["signals_sent"], 0, "summary.sampler.signals_sent of an idle program")


# --- jankscope symbolize: a saved report named afterwards -------------------
#
# The stripped module's report (no name for its static functions) named by
# `jankscope symbolize` from the split copies' debug files, with the core's
# own symbolizer: the same checks as a run that had them.


def run_cli(*args, env=None, timeout=120):
    """`jankscope ARGS...`: (exit code, stdout, stderr); never waits past
    @timeout."""
    proc = subprocess.run([env_path("JANKSCOPE_TEST_CLI"), *args], capture_output=True,
                          text=True, timeout=timeout, env=clean_env(env))
    return proc.returncode, proc.stdout, proc.stderr


def module_frames(report):
    """Every frame object of the test module: stacks, callback frames,
    culprits, profile frames."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            if value.get("module") == DEBUGINFO_MODULE and "offset" in value:
                found.append(value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(report)
    return found


def signatures_of(report):
    """The distinct signatures of the events' stacks (stacks that became one
    function's when named are one stack)."""
    return sorted({(s["signature"], s["signature_id"]) for e in report["events"]
                   for s in e.get("stacks", [])})


def symbolize_stripped(run, *extra, what="symbolize", env=None):
    """Symbolizes @run's report into its folder: (path, report, stderr)."""
    out = os.path.join(run.tmpdir, f"{what}.json")
    code, _, err = run_cli("symbolize", *extra, run.report_path, "-o", out, env=env)
    check_equal(code, 0, f"{what}: exit code of jankscope symbolize (stderr: {err})")
    return out, read_report(out, fold=False), err


PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "export",
                         "pprof")


def pprof_mappings(report_path, tmpdir):
    """The mappings of `jankscope export --format=pprof`, decoded with
    `protoc --decode`: [{filename, build_id, memory_start, memory_limit,
    file_offset, has_functions}], the main binary first; and every
    location's (filename, address - memory_start)."""
    if shutil.which("protoc") is None:
        raise Skip("protoc is not installed (Debian: protobuf-compiler)")
    out = os.path.join(tmpdir, "export.pb.gz")
    code, _, err = run_cli("export", "--format=pprof", report_path, "-o", out)
    check_equal(code, 0, f"jankscope export --format=pprof ({err})")
    with gzip.open(out, "rb") as f:
        raw = f.read()
    proc = subprocess.run(["protoc", f"--proto_path={PROTO_DIR}",
                           "--decode=perftools.profiles.Profile", "profile.proto"],
                          input=raw, capture_output=True, timeout=60)
    check_equal(proc.returncode, 0, f"protoc --decode: {proc.stderr.decode()}")
    text = proc.stdout.decode("utf-8")
    # C-style escapes (octal for bytes past ASCII), as a bytes literal's.
    strings = [codecs.escape_decode(m)[0].decode("utf-8")
               for m in re.findall(r'^string_table: "(.*)"$', text, re.M)]
    mappings, locations = [], []
    for kind, body in re.findall(r"^(mapping|location) \{\n(.*?)^\}", text, re.M | re.S):
        fields = dict(re.findall(r"^  (\w+): (\S+)$", body, re.M))
        if kind == "mapping":
            mappings.append({"id": int(fields["id"]),
                             "filename": strings[int(fields.get("filename", 0))],
                             "build_id": strings[int(fields.get("build_id", 0))],
                             "memory_start": int(fields.get("memory_start", 0)),
                             "memory_limit": int(fields.get("memory_limit", 0)),
                             "file_offset": int(fields.get("file_offset", 0)),
                             "has_functions": fields.get("has_functions") == "true"})
        elif "mapping_id" in fields:
            locations.append((int(fields["mapping_id"]), int(fields.get("address", 0))))
    by_id = {m["id"]: m for m in mappings}
    return mappings, [(by_id[i]["filename"], address - by_id[i]["memory_start"],
                       by_id[i]["memory_start"]) for i, address in locations]


def text_segment(path):
    """(p_vaddr, p_offset) of the ELF file's first executable PT_LOAD."""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD" and "E" in fields[6:-1]:
            return int(fields[2], 16), int(fields[1], 16)
    raise AssertionError(f"no executable segment in {path}: {out}")


def check_pprof_mappings(run, report_path, report, what):
    """The pprof mappings carry each module's path (the report's module
    table) and build-id; each starts at its module's code as the process
    mapped it (the executable segment's p_vaddr past its base, at that
    segment's file offset), so that pprof's rule, base = memory_start -
    file_offset + p_offset - p_vaddr, and `go tool pprof`'s, base =
    memory_start - p_vaddr, both make address - base the report's offset."""
    mappings, locations = pprof_mappings(report_path, run.tmpdir)
    with open(debuginfo_variant("build-id.txt")) as f:
        build_id = f.read().strip()
    exe = report["process"]["exe"]
    check_equal(mappings[0]["filename"], exe, f"{what}: pprof main mapping's file")
    check(mappings[0]["build_id"], f"{what}: the executable's mapping has no build-id")
    # One mapping a module: the profiles' frames (function and module, no
    # build-id) are in their module's mapping, not in one of their own.
    files = [m["filename"] for m in mappings]
    check(len(files) == len(set(files)),
          f"{what}: a module in several mappings: "
          f"{sorted(f for f in set(files) if files.count(f) > 1)}")
    table = [m for m in report["modules"] if m["name"] == DEBUGINFO_MODULE]
    check_equal(len(table), 1, f"{what}: module table entries of {DEBUGINFO_MODULE}")
    path = table[0]["path"]
    check_equal(os.path.basename(path), DEBUGINFO_MODULE, f"{what}: the module table's path")
    vaddr, offset = text_segment(path)
    check_equal((int(table[0]["text_vaddr"], 16), int(table[0]["text_offset"], 16)),
                (vaddr, offset), f"{what}: the module table's executable segment")
    ours = [m for m in mappings if m["filename"] == path]
    check_equal(len(ours), 1, f"{what}: pprof mappings of {path}: {mappings}")
    check_equal(ours[0]["build_id"], build_id, f"{what}: its build-id")
    check_equal(ours[0]["file_offset"], offset, f"{what}: its file offset")
    base = ours[0]["memory_start"] - vaddr
    check_equal(base % (1 << 40), 0, f"{what}: its base")
    offsets = {int(f["offset"], 16) for f in module_frames(report) if "line" in f}
    found = {address + start - base for name, address, start in locations if name == path}
    check(found and found <= offsets,
          f"{what}: location offsets {sorted(map(hex, found))} not the report's "
          f"{sorted(map(hex, offsets))}")
    for m in mappings:
        check(m["memory_start"] < m["memory_limit"], f"{what}: mapping range {m}")
    return ours[0]


def check_symbolized(run, out, report, what):
    """@report (@run's, symbolized) names the static functions with lines,
    as a run with the debug file would; its profiles hold (validated)."""
    original = read_report(run.report_path)
    run._report = report
    check_debuginfo_report(run, named=True, with_lines=True, what=what)
    named = [f for f in module_frames(report) if f.get("function") is not None]
    check(named and all(f.get("symbolized") is True for f in named),
          f"{what}: every named frame of the module says symbolized: {named[:3]}")
    check_equal(signatures_of(report), signatures_of(original),
                f"{what}: the stacks' signatures as the run computed them")
    mapping = check_pprof_mappings(run, out, report, what)
    check(mapping["has_functions"], f"{what}: the named module's mapping has_functions")
    mapping = check_pprof_mappings(run, run.report_path, original, what + " (before)")
    check(not mapping["has_functions"],
          f"{what}: the stripped module's mapping is left to pprof's symbolizer")
    # The reader, the summary and the exports read it.
    for args in (["summary", out], ["export", "--format=pprof", out, "-o",
                                    os.path.join(run.tmpdir, "out.pb.gz")]):
        code, _, err = run_cli(*args)
        check_equal(code, 0, f"{what}: jankscope {args[0]} of the symbolized report ({err})")


def test_symbolize():
    """`symbolize --debug-dir ROOT` names the stripped module's static
    functions from ROOT/.build-id; a second pass changes nothing."""
    run = run_debuginfo("stripped")
    check_ran_fine(run)
    check_debuginfo_report(run, named=False, with_lines=False, what="stripped")
    root = debuginfo_variant("build-id-root")
    out, report, err = symbolize_stripped(run, "--debug-dir", root)
    info(f"symbolize: {err.strip()}")
    check_symbolized(run, out, report, "symbolize")
    # Idempotent: byte for byte, and --in-place leaves the file alone.
    again = os.path.join(run.tmpdir, "again.json")
    code, _, err = run_cli("symbolize", "--debug-dir", root, out, "-o", again)
    check_equal(code, 0, f"second pass: exit code ({err})")
    with open(out, "rb") as a, open(again, "rb") as b:
        check(a.read() == b.read(), "a second pass changed the symbolized report")
    check(" 0 named" in err, f"second pass: nothing to name: {err}")
    before = os.stat(out)
    code, _, err = run_cli("symbolize", "--debug-dir", root, "--in-place", out)
    check_equal(code, 0, f"--in-place: exit code ({err})")
    check_equal(os.stat(out).st_mtime_ns, before.st_mtime_ns, "--in-place with nothing to name")
    # In place on a copy of the stripped report: the same result.
    copy = os.path.join(run.tmpdir, "copy.json")
    shutil.copyfile(run.report_path, copy)
    code, _, err = run_cli("symbolize", "-d", root, "--in-place", copy)
    check_equal(code, 0, f"--in-place: exit code ({err})")
    with open(out, "rb") as a, open(copy, "rb") as b:
        check(a.read() == b.read(), "--in-place and -o wrote different reports")


def test_symbolize_module_path():
    """The module's file is found where the report's module table says it
    was loaded (a folder no search covers), without --debug-dir."""
    tmpdir = tempfile.mkdtemp(prefix="jankscope-modpath-")
    try:
        module = os.path.join(tmpdir, DEBUGINFO_MODULE)
        shutil.copyfile(debuginfo_variant(os.path.join("stripped", DEBUGINFO_MODULE)), module)
        run = run_stacks("debuginfo", module)
        check_ran_fine(run)
        report = read_report(run.report_path)
        check_equal([m["path"] for m in report["modules"] if m["name"] == DEBUGINFO_MODULE],
                    [module], "the module table's path of the module")
        # The same build, with its symbols and DWARF, where it was loaded.
        shutil.copyfile(env_path("JANKSCOPE_TEST_DEBUGINFO_MODULE"), module)
        out, report, err = symbolize_stripped(run, what="module-path")
        info(f"symbolize: {err.strip()}")
        check_symbolized(run, out, report, "module-path")
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def test_symbolize_mismatch():
    """A file of the module's name with another build-id, and a debug file
    at its build-id's path that is another module's: refused, the frames
    left as they were, one line on stderr."""
    run = run_debuginfo("stripped")
    check_ran_fine(run)
    original = read_report(run.report_path)
    # As a report without the module table (older ones) has it: its path
    # names the right (stripped) file, which would be taken first.
    del original["modules"]
    with open(run.report_path, "w") as f:
        json.dump(original, f)
    with open(debuginfo_variant("build-id.txt")) as f:
        build_id = f.read().strip()
    root = os.path.join(run.tmpdir, "wrong")
    os.makedirs(os.path.join(root, ".build-id", build_id[:2]))
    other = env_path("JANKSCOPE_TEST_STACKS_MODULE")  # another module, another build-id
    shutil.copyfile(other, os.path.join(root, DEBUGINFO_MODULE))
    shutil.copyfile(other, os.path.join(root, ".build-id", build_id[:2], build_id[2:] + ".debug"))
    out, report, err = symbolize_stripped(run, "--debug-dir", root, what="mismatch")
    lines = [line for line in err.splitlines() if DEBUGINFO_MODULE in line
             and "build-id" in line]
    check_equal(len(lines), 1, f"one line about the build-id mismatch: {err}")
    check("refused" in err and " 0 refused" not in err, f"the frames counted as refused: {err}")
    check(all(f.get("function") is None for f in module_frames(report)),
          f"a frame was named from the wrong file: {module_frames(report)[:3]}")
    check_equal(len(module_frames(report)), len(module_frames(original)),
                "the module's frames left as they were")
    check_equal(signatures_of(report), signatures_of(original), "signatures")


def test_symbolize_merge():
    """A merge of a symbolized report and another run's unsymbolized one
    keeps one signature for the one cause, at any signature depth: the
    same signatures, with the same counts, as the merge of the two
    unsymbolized reports."""
    runs = [run_debuginfo("stripped") for _ in range(2)]
    for run in runs:
        check_ran_fine(run)
    out, _, _ = symbolize_stripped(runs[0], "--debug-dir", debuginfo_variant("build-id-root"))

    def merged_signatures(first, frames, name):
        merged = os.path.join(runs[0].tmpdir, f"{name}-{frames}.json")
        code, _, err = run_cli("merge", "--signature-frames", frames, first, runs[1].report_path,
                               "-o", merged)
        check_equal(code, 0, f"merge: exit code ({err})")
        with open(merged, encoding="utf-8") as f:
            agg = json.load(f)
        return sorted((s["signature"], s["events"]) for s in agg["signatures"]
                      if DEBUGINFO_MODULE in s["signature"])

    for frames in ("5", "1", "8"):
        ours = merged_signatures(out, frames, "symbolized")
        check_equal(ours, merged_signatures(runs[0].report_path, frames, "unsymbolized"),
                    f"--signature-frames {frames}: the module's signatures, symbolized or not")
        # Under ASan, samples in the sanitizer's interceptors (its
        # clock_gettime, called by the spinning function) are causes of
        # their own, in one run or both.
        if not SANITIZED:
            check_equal(len(ours), 1, f"--signature-frames {frames}: signatures of the module's "
                                      f"stall: {ours}")
            check_equal(ours[0][1], 2, f"--signature-frames {frames}: its events")


# The stall's source, made a GLib type name (which names no callback) by
# give_library_culprit, so that a nameless culprit callback reads
# "module+0x…" (jsr_culprit_callback_name).
STALL_SOURCE = "GIdleSource"


def give_library_culprit(path):
    """Makes the debuginfo stall's culprits a library's, with the callback
    they were dispatched in (culprit.callback, a return address inside it),
    and gives the events and parts a slow-callback diagnosis without a
    function or caller, whose place is then the culprit: what a stripped
    library's static functions give in an app's report."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    for event in report["events"]:
        if event.get("source") != "debuginfo-stall":
            continue
        module, offset = event["callback"].rsplit("+", 1)
        for x in [event] + event.get("parts", []):
            x["source"] = STALL_SOURCE
            if x.get("culprit"):
                x["culprit"]["reason"] = "library"
                x["culprit"]["callback"] = {"function": None, "module": module,
                                            "offset": hex(int(offset, 16) + 8)}
            x["diagnosis"] = {"id": "slow-callback", "title": "Slow callback",
                              "evidence_ns": x["duration_ns"], "share": 1.0, "function": None,
                              "node": -1, "wait": None, "caller": None, "fix": "do less"}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f)


def test_symbolize_aggregate():
    """An aggregate keeps a nameless callback's build-id (from the report's
    module table) beside it; `symbolize` names it, and the cells that became
    one are one: symbolizing the merge of a symbolized and an unsymbolized
    run gives the groups and cells of the merge of both symbolized. The
    worst events' culprits, culprit callbacks and parts, and the diagnoses'
    places, keep their build-ids too and are named the same way (places
    that became one summed). A second pass changes nothing."""
    runs = [run_debuginfo("stripped") for _ in range(2)]
    for run in runs:
        check_ran_fine(run)
    root = debuginfo_variant("build-id-root")
    with open(debuginfo_variant("build-id.txt")) as f:
        build_id = f.read().strip()
    for run in runs:
        give_library_culprit(run.report_path)
    symbolized = [symbolize_stripped(run, "--debug-dir", root)[0] for run in runs]
    tmp = runs[0].tmpdir

    def merge(name, *inputs):
        out = os.path.join(tmp, name)
        code, _, err = run_cli("merge", *inputs, "-o", out)
        check_equal(code, 0, f"merge {name}: exit code ({err})")
        return out

    def load(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def ours(keys):
        return [k for k in keys if (k.get("callback") or "").startswith(DEBUGINFO_MODULE)
                or k.get("source") == STALL_SOURCE]

    def cells(agg):
        """Groups and each signature's cells, as comparable tuples."""
        out = [("group",) + tuple(sorted(g.items())) for g in agg["groups"]]
        for sig in agg["signatures"]:
            out += [("cell", sig["signature"]) + tuple(sorted(c.items())) for c in sig["cells"]]
        return sorted(out, key=repr)

    mixed = merge("mixed.json", symbolized[0], runs[1].report_path)
    agg = load(mixed)
    nameless = [g for g in ours(agg["groups"]) if g.get("callback_build_id")]
    check(nameless, f"the unsymbolized run's group keeps its callback's build-id: "
                    f"{ours(agg['groups'])}")
    check(all(g["callback_build_id"] == build_id and g["callback"].startswith(DEBUGINFO_MODULE)
              for g in nameless), f"the build-id beside the nameless callback: {nameless}")
    check(any(c.get("callback_build_id") == build_id for sig in agg["signatures"]
              for c in sig["cells"]), "a cell keeps the build-id")
    check(any(e.get("callback_build_id") == build_id for e in agg["worst_events"]),
          "a worst event keeps the build-id")
    stripped = [e for e in ours(agg["worst_events"]) if e.get("callback_build_id")]
    check(stripped, f"the unsymbolized run's worst event: {agg['worst_events']}")
    for e in stripped:
        for x in [e] + e["parts"]:
            for member in ("culprit", "culprit_callback") + (("callback",) if x is not e else ()):
                check(x[member].startswith(DEBUGINFO_MODULE + "+0x")
                      and x.get(member + "_build_id") == build_id,
                      f"a nameless {member} keeps its build-id: {x}")
    places = [p for d in agg["diagnoses"] for p in d["places"]]
    check(any(p["function"].startswith(DEBUGINFO_MODULE + "+0x")
              and p.get("function_build_id") == build_id for p in places),
          f"a nameless place keeps its build-id: {agg['diagnoses']}")

    out = os.path.join(tmp, "mixed-symbolized.json")
    code, _, err = run_cli("symbolize", "--debug-dir", root, mixed, "-o", out)
    check_equal(code, 0, f"symbolize of the aggregate: exit code ({err})")
    info(f"symbolize: {err.strip()}")
    named = load(out)
    check(not any("callback_build_id" in g for g in named["groups"]),
          f"a callback left with its build-id: {ours(named['groups'])}")
    groups = [g for g in ours(named["groups"]) if g["source"] == STALL_SOURCE]
    check_equal(sorted({g["callback"] for g in groups}), ["debuginfo_static_callback"],
                "the groups' callbacks, named")
    check_equal(sum(g["events"] for g in groups), 2, "the stall events of both runs")
    both = load(merge("both-symbolized.json", *symbolized))
    check_equal(cells(named), cells(both),
                "groups and cells: symbolized after merging, or merged after symbolizing")
    check_equal(named["stalls"], both["stalls"], "the stall totals")
    check(all(e.get("callback") == "debuginfo_static_callback" for e in named["worst_events"]
              if e.get("source") == STALL_SOURCE), "the worst events' callbacks, named")
    for e in ours(named["worst_events"]):
        for x in [e] + e["parts"]:
            check_equal((x["callback"], x["culprit"], x["culprit_callback"]),
                        ("debuginfo_static_callback", "debuginfo_static_spin",
                         "debuginfo_static_callback"),
                        "a worst event's (or part's) callback, culprit and culprit callback")
            check(not any(k.endswith("_build_id") for k in x), f"a build-id left: {x}")
    check_equal(named["worst_events"], both["worst_events"],
                "worst events: symbolized after merging, or merged after symbolizing")
    check_equal(named["diagnoses"], both["diagnoses"],
                "diagnoses: symbolized after merging, or merged after symbolizing")
    check_equal([p["function"] for d in named["diagnoses"] for p in d["places"]
                 if "debuginfo" in p["function"]], ["debuginfo_static_spin"],
                "the two runs' places, named and one")
    check(not any("callback_build_id" in p for p in named["postings"]),
          f"a posting's callback left with its build-id: {named['postings']}")
    # The reader takes it; a second pass changes nothing.
    code, _, err = run_cli("report", out)
    check_equal(code, 0, f"report of the symbolized aggregate ({err})")
    again = os.path.join(tmp, "again.json")
    code, _, err = run_cli("symbolize", "--debug-dir", root, out, "-o", again)
    check_equal(code, 0, f"second pass: exit code ({err})")
    with open(out, "rb") as a, open(again, "rb") as b:
        check(a.read() == b.read(), "a second pass changed the symbolized aggregate")


def test_symbolize_debuginfod():
    """`symbolize --debuginfod` waits for the module's debug file from a
    real debuginfod server, and names the stripped module with lines."""
    run = run_debuginfo("stripped")
    check_ran_fine(run)
    with debuginfod_server(run.tmpdir) as url:
        env = {"DEBUGINFOD_URLS": url,
               "DEBUGINFOD_CACHE_PATH": os.path.join(run.tmpdir, "cache")}
        out, report, err = symbolize_stripped(run, "--debuginfod", what="debuginfod", env=env)
    info(f"symbolize --debuginfod: {err.strip()}")
    check_symbolized(run, out, report, "symbolize --debuginfod")


# --- Names of C++ and Rust code (src/symbols/js-demangle.c) ----------------------

def names_app(variable, missing):
    """A C++ or Rust test program, or Skip when it was not built."""
    if not os.environ.get(variable):
        raise Skip(missing)
    if os.environ.get("JANKSCOPE_TEST_DEMANGLE") != "1":
        raise Skip("jankscope was built without libiberty (libiberty-dev): names stay mangled")
    return env_path(variable)


def run_names(path):
    """Runs a names program; returns its stall's event and the report."""
    run = run_app([path])
    check_ran_fine(run)
    report = stacks_report(run)
    return stall_event(run, report), report


def check_raw_symbols(e, prefix):
    """Frames carry `symbol` only where it is not `function`; the culprit's
    is its raw name."""
    frames = [f for s in e["stacks"] for f in s["frames"]]
    for f in frames:
        if "symbol" in f:
            check(isinstance(f["symbol"], str) and f["symbol"] != f["function"],
                  f"frame {f}: symbol is not another name than function")
    check(all("symbol" not in f for f in frames if f["function"] == "g_main_context_dispatch"),
          "a C function's frame has a symbol member")
    symbol = e["culprit"].get("symbol")
    check(isinstance(symbol, str) and symbol.startswith(prefix),
          f"culprit symbol {symbol!r} does not start with {prefix!r}")
    return symbol


def culprit_signature(e):
    """The signature of the heaviest stack whose leaf is the culprit."""
    function = e["culprit"]["function"]
    stacks = [s for s in e["stacks"] if s["frames"] and s["frames"][0]["function"] == function]
    check(stacks, f"no stack ends in {function}: {[stack_text(s) for s in e['stacks']]}")
    return stacks[0]["signature"], stacks[0]["signature_id"]


def check_exports(report, folded):
    """The folded and Chrome exports carry the demangled names: @folded, the
    leaf and its caller in folded form."""
    with tempfile.TemporaryDirectory(prefix="jankscope-test-") as tmp:
        path = os.path.join(tmp, "report.json")
        with open(path, "w") as f:
            json.dump(report, f)
        for fmt in ("folded", "chrome"):
            out = subprocess.run([env_path("JANKSCOPE_TEST_CLI"), "export", "--format=" + fmt,
                                  path], capture_output=True, text=True, timeout=60)
            check_equal(out.returncode, 0, f"jankscope export --format={fmt}: {out.stderr}")
            if fmt == "folded":
                check(folded in out.stdout, f"export --format=folded has no {folded!r}")
            else:
                text = json.dumps(json.loads(out.stdout), ensure_ascii=False)
                leaf = folded.split(";")[-1]
                check(json.dumps(leaf, ensure_ascii=False) in text,
                      f"export --format={fmt} has no {leaf!r}")


def test_cxx_names():
    e, report = run_names(names_app("JANKSCOPE_TEST_CXX_NAMES",
                                    "no C++ compiler: tests/apps/cxx-names.cc not built"))
    # The template function inlined into another (an inline frame, named by
    # its DWARF linkage name), called by a method.
    check_culprit(e, "names_test::step<unsigned long>", module="cxx-names")
    check_raw_symbols(e, "_ZN10names_test4stepI")
    inlined = [f for s in e["stacks"] for f in s["frames"]
               if f["function"] == "names_test::step<unsigned long>"]
    check(inlined and all(f.get("inlined") for f in inlined),
          f"names_test::step<unsigned long> is not an inline frame: {inlined[:1]}")
    signature, _ = culprit_signature(e)
    info(f"signature: {signature}")
    check(signature.startswith("names_test::step<unsigned long> < names_test::spin<unsigned long> "
                               "< names_test::Worker::crunch < names_test::slow_idle"),
          f"signature {signature!r}")
    check_equal(e["callback"], "names_test::slow_idle", "the event's callback")
    check_exports(report, "names_test::Worker::crunch;names_test::spin<unsigned long>;"
                          "names_test::step<unsigned long>")


def test_rust_names():
    """Two legacy-mangled builds whose hashes differ, and a v0 build: the
    same names and, between the legacy builds, the same signature."""
    missing = "no rustc (Debian package rustc): tests/apps/rust-names.rs not built"
    # The Rust programs are not built with the sanitizers; libasan, loaded
    # as the sanitized preload's dependency, crashes in its own start-up in
    # them (a null call in __sanitizer::InitTlsSize, before any of
    # jankscope's code runs).
    skip_if_sanitized("libasan's start-up crashes in rustc's programs under the sanitized preload")
    results = {}
    for variant in ("a", "b", "v0"):
        e, report = run_names(names_app("JANKSCOPE_TEST_RUST_NAMES_" + variant.upper(), missing))
        check_culprit(e, "rust_names::slow::crunch", module="rust-names-" + variant)
        raw = check_raw_symbols(e, "_RNv" if variant == "v0" else "_ZN10rust_names4slow6crunch17h")
        check_equal(e["callback"], "rust_names::on_timeout", f"{variant}: the event's callback")
        signature, signature_id = culprit_signature(e)
        info(f"{variant}: culprit symbol {raw}, signature {signature} ({signature_id})")
        check(signature.startswith("rust_names::slow::crunch < rust_names::on_timeout"),
              f"{variant}: signature {signature!r}")
        check("::h" not in signature, f"{variant}: a hash in the signature {signature!r}")
        results[variant] = (raw, signature, signature_id)
        if variant == "a":
            check_exports(report, "rust_names::on_timeout;rust_names::slow::crunch")
    check(results["a"][0] != results["b"][0],
          f"the two builds' symbols have the same hash: {results['a'][0]}")
    check_equal(results["b"][1:], results["a"][1:], "signature of build b (that of build a)")
    # Rust's start-up frames, named differently by v0, are left out.
    check_equal(results["v0"][1:], results["a"][1:], "signature of the v0 build (that of build a)")


CHECKS = {
    "cxx-names": test_cxx_names,
    "rust-names": test_rust_names,
    "busy": test_busy,
    "recursion": test_recursion,
    "usleep": test_usleep,
    "nanosleep-loop": test_nanosleep_loop,
    "cpu-stall": test_cpu_stall,
    "cpu-stall-no-timer": test_cpu_stall_no_timer,
    "cpu-stall-timer-off": test_cpu_stall_timer_off,
    "lock": test_lock,
    "io": test_io,
    "ipc": test_ipc,
    "malloc": test_malloc,
    "fork": test_fork,
    "hang-cpu": test_hang_cpu,
    "hang-sleep": test_hang_sleep,
    "dlclose": test_dlclose,
    "dlclose-reuse": test_dlclose_reuse,
    "debuginfo-stripped": test_debuginfo_stripped,
    "debuginfo-build-id": test_debuginfo_build_id,
    "debuginfo-debuglink": test_debuginfo_debuglink,
    "debuginfo-minidebuginfo": test_debuginfo_minidebuginfo,
    "debuginfo-bad-dirs": test_debuginfo_bad_dirs,
    "debuginfod": test_debuginfod,
    "debuginfod-slow": test_debuginfod_slow,
    "debuginfod-silent": test_debuginfod_silent,
    "debuginfod-gives-up": test_debuginfod_gives_up,
    "symbolize": test_symbolize,
    "symbolize-module-path": test_symbolize_module_path,
    "symbolize-mismatch": test_symbolize_mismatch,
    "symbolize-aggregate": test_symbolize_aggregate,
    "symbolize-merge": test_symbolize_merge,
    "symbolize-debuginfod": test_symbolize_debuginfod,
    "signal-takeover": test_signal_takeover,
    "signal-blocked": test_signal_blocked,
    "app-signals": test_app_signals,
    "sampling-off": test_sampling_off,
    "idle": test_idle,
}

CHECKS.update({f"sleep-loop-{call}": sleep_loop_check(call) for call in SLEEP_LOOP_CALLS})
CHECKS["pollfunc-loop"] = test_pollfunc_loop

if __name__ == "__main__":
    sys.exit(main(CHECKS))
