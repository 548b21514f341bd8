#!/usr/bin/env python3
"""Checks of the JANKSCOPE_* settings: valid values take effect, an invalid
value gives exactly one "jankscope: " warning naming the variable and the
default is used, a report path that cannot be written gives an error and the
app runs on unchanged.
Usage: check_config.py CHECK
"""

import os
import sys
import tempfile

from jankscope_test import (
    MS, DEFAULT_MAX_EVENTS, DEFAULT_MERGE_NS, DEFAULT_SLOW_FRAME_PCT, DEFAULT_THRESHOLD_NS,
    DEFAULT_TIERS_NS, check,
    check_dispatch_part, check_equal, check_ran_fine, main, only_event, run_scenario, stalls,
    summarize, validate_run_report)

LOW, HIGH = 5, 30


def check_warned_once(run, variable):
    lines = run.stderr_lines()
    check(len(lines) == 1, f"expected exactly one warning line on stderr, got {lines}")
    check(lines[0].startswith("jankscope: "), f"warning does not start with 'jankscope: ': "
          f"{lines[0]!r}")
    check(variable in lines[0], f"warning does not name {variable}: {lines[0]!r}")


def check_threshold_mix_default(run):
    """threshold-mix under the default settings: both stalls are events."""
    report = validate_run_report(run)
    events = report["events"]
    check(len(events) == 2, f"expected two events (80 and 200 ms), got {summarize(events)}")
    windows = stalls(run)
    check_dispatch_part(events[0]["parts"][0], "threshold-mix", "timeline_stall_cb", 80 - LOW,
                        80 + HIGH, stall=windows[0])
    check_dispatch_part(events[1]["parts"][0], "threshold-mix", "timeline_stall_cb", 200 - LOW,
                        200 + HIGH, stall=windows[1])
    check_equal([e["tier"] for e in events], ["noticeable", "severe"], "tiers")
    return report


def check_default_config(report):
    config = report["config"]
    check_equal(config["threshold_ns"], DEFAULT_THRESHOLD_NS, "config.threshold_ns")
    check_equal(config["merge_gap_ns"], DEFAULT_MERGE_NS, "config.merge_gap_ns")
    check_equal(config["max_events"], DEFAULT_MAX_EVENTS, "config.max_events")
    for tier, bound in DEFAULT_TIERS_NS.items():
        check_equal(config["tiers_ns"][tier], bound, f"config.tiers_ns.{tier}")
    check_equal(config["slow_frame_pct"], DEFAULT_SLOW_FRAME_PCT, "config.slow_frame_pct")


def invalid(variable, value):
    """An invalid value: one warning, the defaults, the app unchanged."""
    def test():
        run = run_scenario("threshold-mix", extra_env={variable: value}, exit_code=4)
        check_equal(run.returncode, 4, "exit code")
        check("FAIL" not in run.stderr, "the test program reported a failure")
        check_warned_once(run, variable)
        report = check_threshold_mix_default(run)
        check_default_config(report)
    return test


def test_disabled():
    run = run_scenario("single-200ms", extra_env={"JANKSCOPE": "0"}, exit_code=6)
    check_ran_fine(run, exit_code=6)
    check(not os.path.exists(run.report_path), "JANKSCOPE=0 but a report was written")
    check_equal(os.listdir(run.tmpdir), [], "files in the report directory")


def test_enabled_explicitly():
    run = run_scenario("single-200ms", extra_env={"JANKSCOPE": "1"})
    check_ran_fine(run)
    validate_run_report(run)
    only_event(run.report)


def test_threshold_100():
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_THRESHOLD_MS": "100"})
    check_ran_fine(run)
    report = validate_run_report(run)
    check_equal(report["config"]["threshold_ns"], 100 * MS, "config.threshold_ns")
    event = only_event(report)
    check_dispatch_part(event["parts"][0], "threshold-mix", "timeline_stall_cb", 200 - LOW,
                        200 + HIGH, stall=stalls(run)[1])
    # Statistics still count the 80 ms dispatch.
    entry = [s for s in report["summary"]["sources"] if s["source"] == "threshold-mix"]
    check(len(entry) == 1 and entry[0]["count"] == 2, f"threshold-mix sources entry: {entry}")


def test_threshold_default():
    run = run_scenario("threshold-mix")
    check_ran_fine(run)
    check_default_config(check_threshold_mix_default(run))


def test_threshold_min():
    """1 ms is the smallest valid threshold: no warning, and it applies."""
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_THRESHOLD_MS": "1"})
    check_ran_fine(run)
    report = validate_run_report(run)
    check_equal(report["config"]["threshold_ns"], 1 * MS, "config.threshold_ns")
    # The two dispatches (80 and 200 ms). At 1 ms an iteration's own
    # remainder can be a part too (GLib's work around a dispatch, preempted
    # on a loaded machine: 1.4 ms seen once), with the same source.
    durations = sorted(p["duration_ns"] for e in report["events"] for p in e["parts"]
                       if p.get("source") == "threshold-mix" and p.get("type") == "dispatch")
    check(len(durations) == 2 and 75 * MS <= durations[0] and 195 * MS <= durations[1],
          f"threshold-mix parts: {durations}")


def test_threshold_max():
    """60000 ms is the largest valid threshold: no warning, no events."""
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_THRESHOLD_MS": "60000"})
    check_ran_fine(run)
    report = validate_run_report(run)
    check_equal(report["config"]["threshold_ns"], 60000 * MS, "config.threshold_ns")
    check_equal(report["events"], [], "events")


def test_merge_0():
    run = run_scenario("merge", extra_env={"JANKSCOPE_MERGE_MS": "0"})
    check_ran_fine(run)
    report = validate_run_report(run)
    check_equal(report["config"]["merge_gap_ns"], 0, "config.merge_gap_ns")
    events = report["events"]
    check(len(events) == 3, f"expected three events without merging, got {summarize(events)}")
    for event, window in zip(events, stalls(run)):
        check_equal(event["parts_count"], 1, "parts_count")
        check_dispatch_part(event["parts"][0], "merge", "timeline_stall_cb", 80 - LOW, 80 + HIGH,
                            stall=window)


def test_max_events_1():
    run = run_scenario("merge-apart", extra_env={"JANKSCOPE_MAX_EVENTS": "1"})
    check_ran_fine(run)
    report = validate_run_report(run)
    summary = report["summary"]
    check_equal(report["config"]["max_events"], 1, "config.max_events")
    check_equal(len(report["events"]), 1, "events kept")
    check_equal(summary["events_total"], 2, "summary.events_total")
    check_equal(summary["events_dropped"], 1, "summary.events_dropped")
    check_equal(summary["events_by_tier"]["noticeable"], 2, "events_by_tier.noticeable")


def test_tiers():
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_TIERS_MS": "100,150,250"})
    check_ran_fine(run)
    report = validate_run_report(run)
    tiers = report["config"]["tiers_ns"]
    check_equal((tiers["severe"], tiers["frozen"], tiers["hang"]), (100 * MS, 150 * MS, 250 * MS),
                "config.tiers_ns")
    events = report["events"]
    check(len(events) == 2, f"expected two events, got {summarize(events)}")
    check_equal([e["tier"] for e in events], ["noticeable", "frozen"], "tiers of 80 and 200 ms")
    by_tier = report["summary"]["events_by_tier"]
    check_equal((by_tier["noticeable"], by_tier["severe"], by_tier["frozen"], by_tier["hang"]),
                (1, 0, 1, 0), "summary.events_by_tier")


def test_slow_frame_pct():
    """The slow-frame rule the app ran with is in its report (the window
    judges frames with it)."""
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_SLOW_FRAME_PCT": "300"})
    check_ran_fine(run)
    report = validate_run_report(run)
    check_equal(report["config"]["slow_frame_pct"], 300, "config.slow_frame_pct")


def test_two_invalid():
    run = run_scenario("threshold-mix", extra_env={"JANKSCOPE_THRESHOLD_MS": "abc",
                                                   "JANKSCOPE_MERGE_MS": "xyz"})
    check_equal(run.returncode, 0, "exit code")
    lines = run.stderr_lines()
    check(len(lines) == 2, f"expected one warning per invalid variable, got {lines}")
    check(all(line.startswith("jankscope: ") for line in lines), f"warnings: {lines}")
    check(any("JANKSCOPE_THRESHOLD_MS" in line for line in lines), f"warnings: {lines}")
    check(any("JANKSCOPE_MERGE_MS" in line for line in lines), f"warnings: {lines}")
    check_default_config(check_threshold_mix_default(run))


def test_report_pattern():
    run = run_scenario("single-200ms", report="r-%e-%p.json")
    check_ran_fine(run)
    expected = f"r-glib-scenarios-{run.pid}.json"
    check_equal(os.listdir(run.tmpdir), [expected], "files in the report directory")
    run.report_path = os.path.join(run.tmpdir, expected)
    validate_run_report(run)
    only_event(run.report)


def test_no_report_path():
    """Without JANKSCOPE_REPORT nothing is written (here: in the working
    directory) and nothing is printed."""
    cwd = tempfile.mkdtemp(prefix="jankscope-test-cwd-")
    try:
        run = run_scenario("single-200ms", report=False, cwd=cwd)
        check_ran_fine(run)
        check_equal(os.listdir(cwd), [], "files written in the working directory")
        check_equal(os.listdir(run.tmpdir), [], "files written in the private directory")
    finally:
        for name in os.listdir(cwd):
            os.unlink(os.path.join(cwd, name))
        os.rmdir(cwd)


def test_debug():
    """JANKSCOPE_DEBUG=1: diagnostics on stderr, all marked as jankscope's;
    the app and the report are as without it."""
    run = run_scenario("single-200ms", extra_env={"JANKSCOPE_DEBUG": "1"}, exit_code=3)
    check_equal(run.returncode, 3, "exit code")
    check_equal(run.facts.get("scenario"), ["single-200ms done"], "the app ran to its end")
    lines = run.stderr_lines()
    check(lines, "JANKSCOPE_DEBUG=1 printed nothing")
    check(all(line.startswith("jankscope") for line in lines),
          f"stderr lines not from jankscope: {[l for l in lines if not l.startswith('jankscope')]}")
    validate_run_report(run)
    only_event(run.report)


def unwritable(path):
    def test():
        run = run_scenario("single-200ms", extra_env={"JANKSCOPE_REPORT": path}, exit_code=5)
        check_equal(run.returncode, 5, "exit code")
        check("FAIL" not in run.stderr, "the test program reported a failure")
        check_equal(run.facts.get("scenario"), ["single-200ms done"], "the app ran to its end")
        check_equal(len(run.facts.get("stall", [])), 1, "stalls the app made")
        lines = run.stderr_lines()
        check(len(lines) == 1, f"expected one error line on stderr, got {lines}")
        check(lines[0].startswith("jankscope: "), f"error line: {lines[0]!r}")
        check(os.path.dirname(path) in lines[0], f"the error does not name the path: {lines[0]!r}")
    return test


CHECKS = {
    "disabled": test_disabled,
    "enabled-explicitly": test_enabled_explicitly,
    "threshold-100": test_threshold_100,
    "threshold-default": test_threshold_default,
    "threshold-min": test_threshold_min,
    "threshold-max": test_threshold_max,
    "threshold-abc": invalid("JANKSCOPE_THRESHOLD_MS", "abc"),
    "threshold-negative": invalid("JANKSCOPE_THRESHOLD_MS", "-5"),
    "threshold-huge": invalid("JANKSCOPE_THRESHOLD_MS", "999999999"),
    "threshold-zero": invalid("JANKSCOPE_THRESHOLD_MS", "0"),
    "threshold-above-max": invalid("JANKSCOPE_THRESHOLD_MS", "60001"),
    "threshold-trailing-junk": invalid("JANKSCOPE_THRESHOLD_MS", "12abc"),
    "merge-abc": invalid("JANKSCOPE_MERGE_MS", "abc"),
    "merge-above-max": invalid("JANKSCOPE_MERGE_MS", "60001"),
    "tiers-abc": invalid("JANKSCOPE_TIERS_MS", "abc"),
    "tiers-decreasing": invalid("JANKSCOPE_TIERS_MS", "700,200,3000"),
    "max-events-negative": invalid("JANKSCOPE_MAX_EVENTS", "-1"),
    "enable-invalid": invalid("JANKSCOPE", "maybe"),
    "sample-timer-invalid": invalid("JANKSCOPE_SAMPLE_TIMER", "2"),
    "two-invalid": test_two_invalid,
    "merge-0": test_merge_0,
    "max-events-1": test_max_events_1,
    "tiers": test_tiers,
    "slow-frame-pct": test_slow_frame_pct,
    "slow-frame-pct-100": invalid("JANKSCOPE_SLOW_FRAME_PCT", "100"),
    "report-pattern": test_report_pattern,
    "no-report-path": test_no_report_path,
    "debug": test_debug,
    "report-unwritable-proc": unwritable("/proc/nonexistent/r.json"),
    "report-unwritable-missing-dir": unwritable("/nonexistent-jankscope-dir/sub/r.json"),
}

if __name__ == "__main__":
    sys.exit(main(CHECKS))
