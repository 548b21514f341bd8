#!/usr/bin/env python3
"""Live snapshots (src/core/js-live.h), read from inside the monitored
process by tests/apps/live-app, as the inspector window reads them.

Usage: check_live.py NAME
"""
import json
import os
import sys
import tempfile

from jankscope_test import check, fact, main, run_app, app


def core_path():
    return os.path.join(os.path.dirname(os.environ["JANKSCOPE_TEST_PRELOAD"]),
                        "libjankscope-core.so")


def check_snapshots():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "snapshot.json")
        run = run_app([app("live-app"), out],
                      extra_env={"JANKSCOPE_TEST_CORE": core_path()})
        check(run.returncode == 0, f"live-app exited {run.returncode}: {run.stderr}")
        check(fact(run, "api") == "1", "the core exports jankscope_live_api_v1")
        # 2.7 s of asking, one snapshot per 500 ms at most (the newest is at
        # least 2 s into the run).
        generations = int(fact(run, "generations"))
        check(2 <= generations <= 7, f"{generations} snapshots in 2.7 s (one per 500 ms)")
        with open(out, encoding="utf-8") as f:
            snap = json.load(f)
        check(snap["format"] == "jankscope-report", "a snapshot is a report document")
        check(snap["final"] is False, "not final")
        live = snap["live"]
        check(isinstance(live["frames"], list), "live.frames")
        check(isinstance(live["strings"], list), "live.strings")
        for f in live["frames"]:
            for d in (f[6] if len(f) > 6 else []):
                check(-1 <= d[0] < len(live["strings"]) and -1 <= d[1] < len(live["strings"]),
                      f"dispatch names index live.strings: {d}")
        check(live["stuck_ns"] >= 0, "live.stuck_ns")
        check(live["overhead"]["collector_cpu_ns"] > 0, "collector CPU measured")
        check(live["overhead"]["monitored_ns"] > 2 * 10**9, "monitored for over 2 s")
        # Stalls 300 ms apart merge into one event (JANKSCOPE_MERGE_MS): count parts.
        slow = [p for e in snap["events"] for p in e["parts"] if p["duration_ns"] >= 100 * 10**6]
        check(len(slow) >= 3, f"the 120 ms stalls are parts of events ({len(slow)})")


def check_nobody_watching():
    # The report file of a run that never asks has no `live` member (and the
    # collector builds no snapshot at all: nothing to see from outside but
    # that the file stays a plain report).
    run = run_app([app("glib-scenarios"), "single-200ms"])
    check(run.report is not None, "report written")
    check("live" not in run.report, "reports carry no live member")


if __name__ == "__main__":
    sys.exit(main({"snapshots": check_snapshots, "nobody-watching": check_nobody_watching}))
