#!/usr/bin/env python3
"""Tests of jankscope report, merge and diff (docs/aggregate-format.md), on
synthetic reports: signature rules, aggregation counts and attribution,
merges that equal the sum of their parts (and do not depend on grouping or
order), diff verdicts (a planted 10% regression fails, an unchanged run
passes, tiny samples are not judged), and hostile inputs (a clear error and
a non-zero exit, never a crash).

Run by meson (tests/cli/meson.build) with JANKSCOPE_CLI set; by hand:
  JANKSCOPE_CLI=build/src/cli/jankscope python3 tests/cli/test_analysis.py
"""

import copy
import json
import math
import os
import random
import resource
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli as base  # noqa: E402  (its helpers: reports, frames, run_cli)
import test_export as te  # noqa: E402  (reports with profiles)

MS = base.MS
S = 1_000_000_000
run_cli = base.run_cli


# ---- the log-linear histogram (src/core/js-histogram.c) -----------------------

SUB_BITS, MIN_EXP, MAX_EXP = 4, 6, 43
N_BUCKETS = 1 + (MAX_EXP - MIN_EXP) * 16


def bucket_of(ns):
    if ns < (1 << MIN_EXP):
        return 0
    e = ns.bit_length() - 1
    if e >= MAX_EXP:
        return N_BUCKETS - 1
    return 1 + (e - MIN_EXP) * 16 + ((ns >> (e - SUB_BITS)) & 15)


def bucket_mid(b):
    if b == 0:
        return (1 << MIN_EXP) // 2
    e = (b - 1) // 16 + MIN_EXP
    width = 1 << (e - SUB_BITS)
    return (16 + (b - 1) % 16) * width + width // 2


def percentile(buckets, count, lo, hi, q):
    """The core's reading: the rank's bucket midpoint clamped to [lo, hi]."""
    if count == 0:
        return 0
    rank = max(1, math.ceil(q * count))
    if rank >= count:
        return hi
    if rank == 1:
        return lo
    seen = 0
    for b in sorted(buckets):
        seen += buckets[b]
        if seen >= rank:
            return min(max(bucket_mid(b), lo), hi)
    return hi


def histogram(values):
    buckets = {}
    for v in values:
        buckets[bucket_of(v)] = buckets.get(bucket_of(v), 0) + 1
    return {"sub_bits": 4, "min_exp": 6, "count": len(values),
            "min_ns": min(values) if values else 0, "max_ns": max(values) if values else 0,
            "buckets": [[b, c] for b, c in sorted(buckets.items())]}


def fnv(text):
    h = 14695981039346656037
    for byte in text.encode():
        h ^= byte
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


# ---- synthetic reports ------------------------------------------------------------

frame = base.frame

# Stacks of one cause in two builds: other offsets and lines, same functions.
X_FRAMES = [frame("memcpy", "libc.so.6"), frame("parse_row", "fake-app", "rows.c", 10),
            frame("load_history", "fake-app", "history.c", 20),
            frame("g_main_context_dispatch", "libglib-2.0.so.0"), frame(None, "libglib-2.0.so.0"),
            frame("main", "fake-app", "main.c", 5), frame("__libc_start_main", "libc.so.6")]
X_FRAMES_V2 = [dict(f, offset="0x9999", line=(f["line"] + 7 if f["line"] else None))
               for f in X_FRAMES]
X_SIGNATURE = "parse_row < load_history"
Y_FRAMES = [frame("__futex_abstimed_wait_common", "libc.so.6"),
            frame("g_mutex_lock", "libglib-2.0.so.0"), frame("save_draft", "fake-app"),
            frame("g_main_context_dispatch", "libglib-2.0.so.0")]
Y_SIGNATURE = "save_draft"
Z_FRAMES = [frame(None, "libfoo.so.1", offset="0x10"), frame(None, "libfoo.so.1", offset="0x20"),
            frame("render_avatar", "fake-app"), frame("main", "fake-app")]
Z_SIGNATURE = "libfoo.so.1!? < render_avatar"


def stack(frames, count, signature=None, time_ms=None):
    s = {"count": count, "frames": copy.deepcopy(frames)}
    if signature is not None:
        s["signature"] = signature
        s["signature_id"] = fnv(signature)
    if time_ms is not None:
        s["time_ns"] = int(time_ms * MS)
    return s


def stall_event(event_id, start_s, duration_ms, tier, klass, wait, source, callback, stacks,
                watched_ms=None, samples_total=None, attributed_ms=None, culprit="parse_row"):
    ev = base.event(event_id, start_s, duration_ms, tier, "dispatch", source, callback)
    ev.update({"watched_ns": int((duration_ms if watched_ms is None else watched_ms) * MS),
               "cpu_ns": 0, "off_cpu_ns": 0, "class": klass, "wait": wait,
               "culprit": base.culprit(culprit) if culprit else None,
               "stacks": stacks, "stacks_omitted": 0,
               "samples_total": samples_total if samples_total is not None
               else sum(s["count"] for s in stacks),
               "samples": [{"t_ns": ev["start_ns"], "count": 1, "state": "running", "stack": 0}]})
    if attributed_ms is not None:
        ev["attributed_ns"] = int(attributed_ms * MS)
        ev["unattributed_ns"] = ev["duration_ns"] - ev["attributed_ns"]
    return ev


def frame_event(event_id, start_s, duration_ms, tier):
    ev = base.event(event_id, start_s, duration_ms, tier, "frame", "[gtk] paint", "paint_idle")
    ev["parts"][0].update(type="frame", window=1, budget_ns=16_666_666, work_ns=duration_ms * MS,
                          phases={"layout": 2 * MS, "paint": 5 * MS})
    return ev


def make_report(pid, start_s, events, monitored_s=60, install_id=None, iterations=None,
                frames=None, slow=0, events_total=None):
    """A report of the run (pid, start); iterations and frames: lists of
    values (histograms are made of them), None for a report without."""
    r = base.make_report()
    r["process"].update(pid=pid, start_ns=base.START_NS + int(start_s * S))
    if install_id is not None:
        r["install_id"] = install_id
    r["summary"]["monitored_ns"] = int(monitored_s * S)
    r["events"] = events
    stall = [e for e in events if e["type"] != "frame"]
    tiers = {"noticeable": 0, "severe": 0, "frozen": 0, "hang": 0}
    for e in stall:
        tiers[e["tier"]] += 1
    r["summary"]["events_by_tier"] = tiers
    r["summary"]["events_total"] = len(stall) if events_total is None else events_total
    if iterations is not None:
        h = histogram(iterations)
        b = {x: c for x, c in h["buckets"]}
        r["summary"]["iterations"] = len(iterations)
        r["summary"]["iteration_busy"] = {
            "p50_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.5),
            "p95_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.95),
            "p99_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.99),
            "max_ns": h["max_ns"], "histogram": h}
    if frames is not None:
        h = histogram(frames)
        b = {x: c for x, c in h["buckets"]}
        r["summary"]["frames"] = {
            "frames": len(frames), "slow": slow, "frozen": 0,
            "slow_rate": slow / max(len(frames), 1), "frozen_rate": 0, "big_jank_rate": 0,
            "p50_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.5),
            "p90_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.9),
            "p95_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.95),
            "p99_ns": percentile(b, h["count"], h["min_ns"], h["max_ns"], 0.99),
            "max_ns": h["max_ns"], "histogram": h, "fps_animating": 60.0,
            "budget_ns": 16_666_666, "windows_dropped": 0, "windows": []}
    return r


def golden_reports():
    """Two runs (docs/aggregate-format.md's attribution rule, by hand):

    A.1  400 ms severe compute s1/c1: watched 400 ms, 10 samples, X 6 and Y 3
         (no time_ns: shares of the watched time) -> X 240, Y 120, 40 left
    A.2  100 ms noticeable wait/lock s2/c2: watched 80 ms, X 4 of 4 -> X 80, 20 left
    B.1  1 s frozen compute s1/c1: X 500 ms and Z 300 ms (time_ns), attributed
         900 ms (100 ms to a stack left out of the report), 100 left
    B.2  a 300 ms frame event: counted apart
    A's stacks have no signature (an older report: recomputed), B's have the core's.
    """
    a = make_report(100, 1, [
        stall_event(1, 1.0, 400, "severe", "compute", None, "s1", "c1",
                    [stack(X_FRAMES, 6), stack(Y_FRAMES, 3)], samples_total=10),
        stall_event(2, 5.0, 100, "noticeable", "wait", "lock", "s2", "c2",
                    [stack(X_FRAMES, 4)], watched_ms=80, culprit="save_draft"),
    ], install_id="install-a")
    b = make_report(200, 2, [
        stall_event(1, 2.0, 1000, "frozen", "compute", None, "s1", "c1",
                    [stack(X_FRAMES_V2, 10, X_SIGNATURE, 500),
                     stack(Z_FRAMES, 10, Z_SIGNATURE, 300)],
                    samples_total=25, attributed_ms=900, culprit=None),
        frame_event(2, 9.0, 300, "severe"),
    ], install_id="install-b")
    return a, b


def diagnosis_entry(*places):
    """An aggregate's diagnoses[] entry with these places (and no details)."""
    return {"id": "slow-callback", "title": "Slow callback", "events": 1, "parts": 1, "runs": 1,
            "blocked_ns": sum(p["blocked_ns"] for p in places), "evidence_ns": 1,
            "places": list(places), "places_other_ns": 0, "details": [], "details_other_ns": 0}


class AnalysisTestCase(base.CliTestCase):
    def write_json(self, name, document):
        return self.write(name, json.dumps(document))

    def merge(self, *paths, out="merged.json", args=(), code=0):
        proc = run_cli("merge", *paths, "-o", self.path(out), *args)
        self.assertExit(proc, code)
        if code != 0:
            return proc
        with open(self.path(out)) as f:
            return json.load(f)

    def report(self, *args, code=0):
        proc = run_cli("report", *args)
        self.assertExit(proc, code)
        return proc

    def check_error(self, command, path, code, *fragments):
        args = [command, path] + (["-o", self.path("out.json")] if command == "merge" else [])
        if command == "diff":
            args.append(path)
        proc = run_cli(*args)
        self.assertExit(proc, code)
        self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
        for fragment in fragments:
            self.assertIn(fragment, proc.err)
        if command == "merge":
            self.assertFalse(os.path.exists(self.path("out.json")), "nothing is written")


def signature_entry(aggregate, text):
    for entry in aggregate["signatures"]:
        if entry["signature"] == text:
            return entry
    raise AssertionError(f"no signature {text!r} in {[s['signature'] for s in aggregate['signatures']]}")


# ---- signatures and aggregation ----------------------------------------------------

class AggregationTest(AnalysisTestCase):
    def golden(self):
        a, b = golden_reports()
        return self.write_json("a.json", a), self.write_json("b.json", b)

    def test_signatures_and_counts(self):
        agg = self.merge(*self.golden())
        self.assertEqual(agg["format"], "jankscope-aggregate")
        self.assertEqual(agg["version"], 1)
        self.assertTrue(agg["exact"])
        self.assertEqual(agg["reports"], 2)
        self.assertEqual(agg["runs"]["count"], 2)
        self.assertEqual(agg["installs"], {"count": 2, "ids": ["install-a", "install-b"]})
        # One signature for X: recomputed for A (no signature in the file), the
        # core's for B (another build: offsets and lines differ).
        self.assertEqual([s["signature"] for s in agg["signatures"]],
                         [X_SIGNATURE, Z_SIGNATURE, Y_SIGNATURE])
        x = signature_entry(agg, X_SIGNATURE)
        self.assertEqual(x["signature_id"], fnv(X_SIGNATURE))
        self.assertEqual((x["samples"], x["events"], x["runs"], x["total_ns"], x["max_ns"]),
                         (20, 3, 2, 820 * MS, 500 * MS))
        y = signature_entry(agg, Y_SIGNATURE)
        self.assertEqual((y["samples"], y["events"], y["runs"], y["total_ns"], y["max_ns"]),
                         (3, 1, 1, 120 * MS, 120 * MS))
        z = signature_entry(agg, Z_SIGNATURE)
        self.assertEqual((z["samples"], z["events"], z["runs"], z["total_ns"]),
                         (10, 1, 1, 300 * MS))
        self.assertEqual(agg["signatures_other"]["total_ns"], 100 * MS)  # left out of B
        self.assertEqual(agg["signatures_other"]["signatures"], 0)

    def test_attribution_adds_up(self):
        agg = self.merge(*self.golden())
        stalls = agg["stalls"]
        self.assertEqual((stalls["events"], stalls["blocked_ns"], stalls["attributed_ns"],
                          stalls["unattributed_ns"], stalls["runs"]),
                         (3, 1500 * MS, 1340 * MS, 160 * MS, 2))
        named = sum(s["total_ns"] for s in agg["signatures"])
        self.assertEqual(named + agg["signatures_other"]["total_ns"] + stalls["unattributed_ns"],
                         stalls["blocked_ns"])
        for group in agg["groups"]:
            self.assertEqual(group["attributed_ns"] + group["unattributed_ns"],
                             group["blocked_ns"])
        worst = [(e["pid"], e["id"], e["duration_ns"], e["attributed_ns"], e["unattributed_ns"],
                  e["culprit"], e["signature"]) for e in agg["worst_events"]]
        self.assertEqual(worst, [
            (200, 1, 1000 * MS, 900 * MS, 100 * MS, None, X_SIGNATURE),
            (100, 1, 400 * MS, 360 * MS, 40 * MS, "parse_row", X_SIGNATURE),
            (100, 2, 100 * MS, 80 * MS, 20 * MS, "save_draft", X_SIGNATURE),
        ])
        # The frame event is counted apart.
        self.assertEqual(agg["frame_events"]["by_tier"]["severe"], 1)
        self.assertEqual(agg["frame_events"]["total_ns"], 300 * MS)

    def test_groups_and_cells(self):
        agg = self.merge(*self.golden())
        groups = {(g["tier"], g["class"], g["wait"], g["source"]): g for g in agg["groups"]}
        self.assertEqual(set(groups), {("severe", "compute", None, "s1"),
                                       ("noticeable", "wait", "lock", "s2"),
                                       ("frozen", "compute", None, "s1")})
        lock = groups[("noticeable", "wait", "lock", "s2")]
        self.assertEqual((lock["events"], lock["blocked_ns"], lock["attributed_ns"], lock["runs"]),
                         (1, 100 * MS, 80 * MS, 1))
        cells = {(c["tier"], c["class"]): c for c in signature_entry(agg, X_SIGNATURE)["cells"]}
        self.assertEqual({k: (c["events"], c["total_ns"]) for k, c in cells.items()},
                         {("severe", "compute"): (1, 240 * MS), ("noticeable", "wait"): (1, 80 * MS),
                          ("frozen", "compute"): (1, 500 * MS)})

    def test_signature_depth(self):
        a, b = self.golden()
        agg = self.merge(a, b, args=["--signature-frames", "1"])
        self.assertEqual(agg["signature_frames"], 1)
        self.assertEqual(sorted(s["signature"] for s in agg["signatures"]),
                         ["libfoo.so.1!?", "parse_row", "save_draft"])
        self.assertEqual(signature_entry(agg, "parse_row")["total_ns"], 820 * MS)
        # An aggregate of another depth cannot be folded into this one.
        proc = self.merge(self.path("merged.json"), a, out="m2.json", code=1)
        self.assertIn("signatures have 1 frames, not 5", proc.err)

    def test_signature_rules(self):
        # Loop, dispatch glue, libc leaves, start-up and jankscope frames are
        # left out; unnamed frames of one module count once; no addresses.
        frames = [frame("__memmove_avx_unaligned_erms", "libc.so.6"),
                  frame(None, "libapp.so", offset="0x1"), frame(None, "libapp.so", offset="0x2"),
                  frame("js_dispatch", "libjankscope-core.so"), frame("on_click", "app"),
                  frame("g_closure_invoke", "libgobject-2.0.so.0"),
                  frame("g_main_context_dispatch", "libglib-2.0.so.0"),
                  frame("gtk_main", "libgtk-3.so.0"), frame("main", "app"),
                  frame("after_main", "app")]
        report = make_report(1, 1, [stall_event(1, 1, 100, "noticeable", "compute", None, "s",
                                                "c", [stack(frames, 5)])])
        agg = self.merge(self.write_json("r.json", report))
        self.assertEqual([s["signature"] for s in agg["signatures"]],
                         ["libapp.so!? < on_click < g_closure_invoke"])
        only_noise = [frame("poll", "libc.so.6"), frame("g_main_context_iteration",
                                                         "libglib-2.0.so.0")]
        report = make_report(2, 1, [stall_event(1, 1, 100, "noticeable", "compute", None, "s",
                                                "c", [stack(only_noise, 5)])])
        agg = self.merge(self.write_json("r2.json", report))
        self.assertEqual([s["signature"] for s in agg["signatures"]], [""])
        out = self.report(self.write_json("r3.json", report)).out
        self.assertIn("(main loop and system frames only)", out)

    def test_signature_without_frames_is_cut(self):
        # A stack with the core's signature but no frames: at a lower depth,
        # its signature is cut (a shorter signature is a prefix of a longer one).
        st = {"count": 3, "signature": "a < b < c", "signature_id": fnv("a < b < c"),
              "frames": []}
        report = make_report(1, 1, [stall_event(1, 1, 100, "noticeable", "compute", None, "s",
                                                "c", [st])])
        path = self.write_json("r.json", report)
        self.assertEqual([s["signature"] for s in self.merge(path)["signatures"]], ["a < b < c"])
        agg = self.merge(path, out="m2.json", args=["--signature-frames=2"])
        self.assertEqual([(s["signature"], s["signature_id"]) for s in agg["signatures"]],
                         [("a < b", fnv("a < b"))])

    def test_signature_ids_are_computed(self):
        # A report's id that does not match its text (or is not hex) is not
        # trusted: the aggregate it makes must read back (found by fuzzing).
        st = stack(X_FRAMES, 2, X_SIGNATURE)
        st["signature_id"] = "ZZZZZZZZZZZZZZZZ"
        report = make_report(1, 1, [stall_event(1, 1, 100, "noticeable", "compute", None, "s",
                                                "c", [st])])
        agg = self.merge(self.write_json("r.json", report))
        self.assertEqual(agg["signatures"][0]["signature_id"], fnv(X_SIGNATURE))
        self.report(self.path("merged.json"))

    def test_duplicate_runs(self):
        a, b = self.golden()
        proc = run_cli("merge", a, b, a, "-o", self.path("m.json"))
        self.assertExit(proc, 0)
        self.assertIn("is already merged: skipped", proc.err)
        with open(self.path("m.json")) as f:
            self.assertEqual(json.load(f)["runs"]["count"], 2)
        # An aggregate that holds a run already merged: refused.
        self.merge(a, out="only-a.json")
        proc = run_cli("merge", self.path("only-a.json"), a, b, "-o", self.path("m2.json"))
        self.assertExit(proc, 0)
        self.assertIn("a.json: the run of fake-app (pid 100) is already merged: skipped", proc.err)
        proc = self.merge(a, self.path("only-a.json"), out="m3.json", code=1)
        self.assertIn("1 of its runs is already merged", proc.err)

    def test_previous_run_is_a_run_of_its_own(self):
        report = make_report(300, 1, [])
        hang = base.ongoing_hang()
        hang.update(id=0, ongoing=True)
        report["previous_run"] = {"pid": 299, "exe": "/usr/bin/fake-app", "hang": hang}
        agg = self.merge(self.write_json("r.json", report))
        self.assertEqual(agg["runs"]["count"], 2)
        self.assertEqual(agg["stalls"]["events"], 1)
        self.assertEqual(agg["worst_events"][0]["pid"], 299)

    def test_caps_keep_counts_exact(self):
        rng = random.Random(7)
        reports = []
        for i in range(6):
            stacks = [stack([frame(f"cause_{i}_{k}", "app")], 2, f"cause_{i}_{k}", 10 * (k + 1))
                      for k in range(3)]
            reports.append(self.write_json(f"r{i}.json", make_report(
                i + 1, i, [stall_event(1, 1, 200, "severe", "compute", None, "s", "c", stacks,
                                       attributed_ms=60)])))
        full = self.merge(*reports, out="full.json")
        capped = self.merge(*reports, out="capped.json", args=["--max-signatures", "4"])
        self.assertEqual(len(full["signatures"]), 18)
        self.assertEqual(len(capped["signatures"]), 4)
        self.assertFalse(capped["exact"])
        kept = sum(s["total_ns"] for s in capped["signatures"])
        self.assertEqual(kept + capped["signatures_other"]["total_ns"],
                         sum(s["total_ns"] for s in full["signatures"]))
        self.assertEqual(capped["signatures_other"]["signatures"], 14)
        self.assertEqual(sum(s["samples"] for s in capped["signatures"])
                         + capped["signatures_other"]["samples"], 6 * 3 * 2)
        del rng


# ---- merging many -------------------------------------------------------------------

def random_report(rng, pid, causes, n_events=None):
    events = []
    t = 1.0
    for i in range(rng.randint(0, 5) if n_events is None else n_events):
        duration = rng.randint(50, 4000)
        chosen = rng.sample(causes, rng.randint(1, min(4, len(causes))))
        counts = [rng.randint(1, 20) for _ in chosen]
        times = [rng.randint(0, duration // (len(chosen) + 1)) for _ in chosen]
        stacks = [stack(frames, c, sig, tm) for (sig, frames), c, tm in zip(chosen, counts, times)]
        tier = ("noticeable" if duration < 200 else "severe" if duration < 700
                else "frozen" if duration < 3000 else "hang")
        klass, wait = rng.choice([("compute", None), ("wait", "lock"), ("mixed", "io")])
        events.append(stall_event(i + 1, t, duration, tier, klass, wait,
                                  rng.choice(["a", "b", None]), rng.choice(["f", "g"]), stacks,
                                  samples_total=sum(counts) + rng.randint(0, 5),
                                  attributed_ms=sum(times) + rng.randint(0, 10)))
        t += duration / 1000 + 1
    iterations = [int(rng.lognormvariate(13, 1.2)) + 1 for _ in range(rng.randint(50, 400))]
    frames = [int(rng.lognormvariate(16.6, 0.15)) for _ in range(rng.randint(0, 300))]
    return make_report(pid, rng.randint(0, 10**6), events, monitored_s=rng.randint(5, 300),
                       install_id="install-%d" % rng.randint(1, 4), iterations=iterations,
                       frames=frames or None, slow=rng.randint(0, len(frames)) if frames else 0)


class MergeTest(AnalysisTestCase):
    def corpus(self, n, seed=3):
        rng = random.Random(seed)
        causes = [(f"cause_{k} < caller_{k % 3}", [frame(f"cause_{k}", "app"),
                                                    frame(f"caller_{k % 3}", "app")])
                  for k in range(12)]
        reports = [random_report(rng, 1000 + i, causes) for i in range(n)]
        os.makedirs(self.path("reports"), exist_ok=True)
        paths = [self.write_json(f"reports/r{i:03}.json", r) for i, r in enumerate(reports)]
        return reports, paths

    def test_merge_of_many_is_the_sum_of_the_parts(self):
        reports, paths = self.corpus(40)
        agg = self.merge(*paths)
        summary = agg["summary"]
        for key in ("monitored_ns", "iterations", "events_total"):
            self.assertEqual(summary[key], sum(r["summary"][key] for r in reports), key)
        self.assertEqual(summary["frames"]["frames"],
                         sum(r["summary"].get("frames", {}).get("frames", 0) for r in reports))
        # Histograms: bucket by bucket.
        expected = {}
        for r in reports:
            for b, c in r["summary"]["iteration_busy"]["histogram"]["buckets"]:
                expected[b] = expected.get(b, 0) + c
        self.assertEqual({b: c for b, c in summary["iteration_busy"]["histogram"]["buckets"]},
                         expected)
        self.assertEqual(summary["iteration_busy"]["approximate"], 0)
        # Percentiles: exactly those of one histogram holding every value.
        count = sum(expected.values())
        lo = min(r["summary"]["iteration_busy"]["histogram"]["min_ns"] for r in reports)
        hi = max(r["summary"]["iteration_busy"]["histogram"]["max_ns"] for r in reports)
        for q, key in ((0.5, "p50_ns"), (0.95, "p95_ns"), (0.99, "p99_ns")):
            self.assertEqual(summary["iteration_busy"][key], percentile(expected, count, lo, hi, q))
        # Signatures: the attribution rule applied by hand.
        sigs = {}
        blocked = attributed = 0
        for r in reports:
            for e in r["events"]:
                blocked += e["duration_ns"]
                attributed += e["attributed_ns"]
                for s in e["stacks"]:
                    entry = sigs.setdefault(s["signature"], [0, 0, 0, 0])
                    entry[0] += s["count"]
                    entry[1] += 1
                    entry[2] += s["time_ns"]
                    entry[3] = max(entry[3], s["time_ns"])
        got = {s["signature"]: [s["samples"], s["events"], s["total_ns"], s["max_ns"]]
               for s in agg["signatures"]}
        self.assertEqual(got, sigs)
        self.assertEqual(agg["stalls"]["blocked_ns"], blocked)
        self.assertEqual(agg["stalls"]["attributed_ns"], attributed)
        self.assertEqual(agg["stalls"]["events"], sum(len(r["events"]) for r in reports))
        self.assertEqual(agg["runs"]["count"], 40)

    def test_grouping_and_order_do_not_matter(self):
        _, paths = self.corpus(12, seed=5)
        self.merge(*paths, out="all.json")
        self.merge(*paths[:4], out="p1.json")
        self.merge(*paths[4:7], out="p2.json")
        self.merge(self.path("p1.json"), self.path("p2.json"), out="p12.json")
        self.merge(self.path("p12.json"), *paths[7:], out="left.json")
        self.merge(*paths[7:], out="p3.json")
        self.merge(self.path("p2.json"), self.path("p3.json"), out="p23.json")
        self.merge(self.path("p1.json"), self.path("p23.json"), out="right.json")
        self.merge(*reversed(paths), out="reversed.json")
        with open(self.path("all.json"), "rb") as f:
            expected = f.read()
        for name in ("left.json", "right.json", "reversed.json"):
            with open(self.path(name), "rb") as f:
                self.assertEqual(f.read(), expected, name)

    def test_folders_and_threads(self):
        _, paths = self.corpus(9, seed=11)
        one = self.merge(*paths, out="one.json", args=["--jobs", "1"])
        folder = self.merge(self.path("reports"), out="folder.json", args=["--jobs", "4"])
        self.assertEqual(one, folder)

    def test_parallel_loaders_read_aggregates_like_one(self):
        # Two aggregates read by two loader threads at once, many times: each
        # merge equals the single-threaded one, byte for byte. (GLib 2.74's
        # g_ascii_string_to_unsigned failed now and then when two threads made
        # the process's first conversion together: jsr-input-queue.c.)
        _, paths = self.corpus(7, seed=5)
        self.merge(*paths[:4], out="p1.json", args=["--jobs", "1"])
        self.merge(*paths[4:], out="p2.json", args=["--jobs", "1"])
        parts = [self.path("p1.json"), self.path("p2.json")]
        self.merge(*parts, out="ref.json", args=["--jobs", "1"])
        with open(self.path("ref.json"), "rb") as f:
            expected = f.read()
        for attempt in range(40):
            jobs = "2" if attempt % 4 else "8"
            self.merge(*parts, out="par.json", args=["--jobs", jobs])
            with open(self.path("par.json"), "rb") as f:
                self.assertEqual(f.read(), expected, f"--jobs {jobs}, attempt {attempt}")
        # An aggregate holding a run merged before: refused, whatever the loaders.
        for jobs in ("1", "8"):
            proc = self.merge(*paths[:1], *parts, out="dup.json", args=["--jobs", jobs], code=1)
            self.assertIn("p1.json: 1 of its runs is already merged", proc.err)

    def test_reports_without_histograms_are_approximate(self):
        a, b = golden_reports()
        a = make_report(1, 1, [], iterations=[MS] * 300)
        b = make_report(2, 1, [], iterations=[2 * MS] * 300)
        del b["summary"]["iteration_busy"]["histogram"]
        agg = self.merge(self.write_json("a.json", a), self.write_json("b.json", b))
        busy = agg["summary"]["iteration_busy"]
        self.assertEqual((busy["count"], busy["approximate"]), (600, 300))
        self.assertIn("approximate", self.report(self.path("merged.json")).out)

    def test_bounded_memory(self):
        # 1500 reports: the CLI holds a few at a time.
        rng = random.Random(9)
        causes = [(f"c{k}", [frame(f"c{k}", "app")]) for k in range(30)]
        folder = self.path("many")
        os.mkdir(folder)
        template = json.dumps(random_report(rng, 1, causes, n_events=5))
        for i in range(1500):
            with open(os.path.join(folder, f"r{i:04}.json"), "w") as f:
                f.write(template.replace('"pid": 1,', f'"pid": {i + 2},'))
        with open(self.path("stdout"), "w+b") as out, open(self.path("stderr"), "w+b") as err:
            proc = subprocess.Popen([base.CLI, "merge", folder, "-o", self.path("m.json")],
                                    env=base.base_env(), stdout=out, stderr=err,
                                    preexec_fn=base.memory_limit_fn())
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        self.assertEqual(proc.returncode, 0)
        with open(self.path("m.json")) as f:
            self.assertEqual(json.load(f)["runs"]["count"], 1500)
        self.assertPeakBelow(usage.ru_maxrss / 1024, 80)


# ---- the report command ---------------------------------------------------------------

class ReportTest(AnalysisTestCase):
    def golden(self):
        a, b = golden_reports()
        return self.write_json("a.json", a), self.write_json("b.json", b)

    def test_tables(self):
        out = self.report(*self.golden()).out
        self.assertEqual(out.splitlines()[0], "Jank report: 2 runs of fake-app")
        table = base.section(out, "Top signatures by stall time (3 of 3)")
        self.assertEqual(table[0].split(), ["#", "TOTAL", "MEAN", "MAX", "EVENTS", "SAMPLES",
                                            "RUNS", "SIGNATURE"])
        self.assertEqual(table[1].split(), ["1", "820.0", "ms", "273.3", "ms", "500.0", "ms", "3",
                                            "20", "2", "parse_row", "<", "load_history"])
        self.assertEqual(table[2].split()[-3:], ["libfoo.so.1!?", "<", "render_avatar"])
        self.assertIn("(stacks left out of the reports)", table[4])
        self.assertIn("160.0 ms", table[5])
        self.assertIn("(unattributed", table[5])
        tiers = base.section(out, "By tier")
        self.assertEqual([row.split()[0] for row in tiers[1:]], ["noticeable", "severe", "frozen"])
        classes = base.section(out, "By class")
        self.assertEqual([row.split()[0] for row in classes[1:]], ["compute", "wait"])
        self.assertIn("wait (lock)", classes[2])
        sources = base.section(out, "By source")
        self.assertEqual(sources[1].split()[:4], ["s1", "c1", "2", "1.4"])
        worst = base.section(out, "Worst events (3 of 3)")
        self.assertEqual(worst[1].split(), ["fake-app", "(200)", "1", "1.0", "s", "frozen",
                                            "compute", "-", "900.0", "ms", "100.0", "ms"])
        self.assertEqual(worst[2].split()[-5:], ["parse_row", "360.0", "ms", "40.0", "ms"])
        self.assertEqual(base.overview_value(out, "Stall events"),
                         "3 (noticeable 1, severe 1, frozen 1, hang 0), 1.5 s blocked")
        self.assertIn("1, not counted above (frame events see the same stalls", out)

    def test_sort_and_top(self):
        a, b = self.golden()
        by_runs = base.section(self.report(a, b, "--sort=runs").out,
                               "Top signatures by runs affected (3 of 3)")
        self.assertIn("parse_row", by_runs[1])
        top1 = self.report(a, b, "--sort", "count", "--top", "1").out
        table = base.section(top1, "Top signatures by events (1 of 3)")
        self.assertIn("parse_row", table[1])
        self.assertIn("(2 other signatures)", table[2])
        self.assertIn("Worst events (1 of 3)", top1)

    def test_filters(self):
        a, b = self.golden()
        out = self.report(a, b, "--tier=frozen").out
        table = base.section(out, "Top signatures by stall time (2 of 2)")
        self.assertEqual(table[1].split()[:2], ["1", "500.0"])
        self.assertIn("tier frozen (2 events left out)", base.overview_value(out, "Filter"))
        out = self.report(a, b, "--class=lock").out
        table = base.section(out, "Top signatures by stall time (1 of 1)")
        self.assertEqual(table[1].split()[:2], ["1", "80.0"])
        out = self.report(a, b, "--source=s*", "--class", "compute").out
        self.assertIn("Stall events", out)
        self.assertIn("2 (noticeable 0, severe 1, frozen 1, hang 0)",
                      base.overview_value(out, "Stall events"))
        # On an aggregate, the same filter reads the cells (runs: at most).
        self.merge(a, b)
        out = self.report(self.path("merged.json"), "--tier=frozen").out
        table = base.section(out, "Top signatures by stall time (2 of 2)")
        self.assertEqual(table[1].split()[:2], ["1", "500.0"])
        self.assertIn("≤1", table[1])

    def test_scenes(self):
        a, b = golden_reports()
        a["events"][0]["scene"] = "chat-list"
        a["events"][0]["context"] = {"process_cpu_pct": 97.5, "load_avg_1m": 1.25,
                                     "mem_available_kb": 123456, "startup": True,
                                     "window_title": None}
        a["events"][1]["scene"] = "settings"
        b["events"][0]["context"] = {"process_cpu_pct": None, "load_avg_1m": None,
                                     "mem_available_kb": None, "startup": False}
        pa, pb = self.write_json("a.json", a), self.write_json("b.json", b)
        out = self.report(pa, pb).out
        scenes = base.section(out, "By scene")
        self.assertEqual([row.split()[0] for row in scenes[1:]], ["(none)", "chat-list", "settings"])
        out = self.report(pa, pb, "--scene=chat*").out
        table = base.section(out, "Top signatures by stall time (2 of 2)")
        self.assertEqual(table[1].split()[:2], ["1", "240.0"])
        agg = self.merge(pa, pb)
        self.assertEqual(sorted(str(g["scene"]) for g in agg["groups"]),
                         ["None", "chat-list", "settings"])

    def test_aggregates_and_reports_together(self):
        a, b = self.golden()
        self.merge(a)
        out = self.report(self.path("merged.json"), b).out
        self.assertEqual(out, self.report(a, b).out)

    def test_usage(self):
        a, _ = self.golden()
        for args, fragment in ((["--sort=size", a], "--sort must be time, count or runs"),
                               (["--top=0", a], "--top must be"),
                               (["--tier=extreme", a], "--tier must be"),
                               (["--signature-frames=99", a], "--signature-frames must be"),
                               ([], "no report file given")):
            with self.subTest(args=args):
                self.assertUsageError(run_cli("report", *args), fragment)


# ---- reports with profiles ------------------------------------------------------------

class ProfileReportTest(AnalysisTestCase):
    """Reports with profiles (docs/report-format.md, "Profiles", "Causes per
    part"): every stack of an episode is in the signatures, and the worst
    events come with their parts."""

    def setUp(self):
        super().setUp()
        self.input = self.write_json("P.json", te.profile_report())

    def test_every_stack_is_in_the_signatures(self):
        proc = self.report(self.input)
        line = base.overview_value(proc.out, "Attributed")
        # 24 stacks of work_cb (16 listed), sleepy_cb, the hang's spin; the
        # iteration event's 40 ms are all in [other] nodes: no signature.
        self.assertEqual(line, "900.0 ms (90%) to stacks, 860.0 ms to 26 signatures; "
                               "100.0 ms unattributed")
        aggregate = self.merge(self.input)
        self.assertEqual(aggregate["stalls"]["attributed_ns"], 900 * MS)
        self.assertEqual(aggregate["signatures_other"]["total_ns"], 40 * MS)
        for i in range(24):
            entry = signature_entry(aggregate, f"leaf_{i:02d} < work_cb")
            self.assertEqual((entry["total_ns"], entry["samples"]), (10 * MS, 1 + i % 2))
        self.assertEqual(signature_entry(aggregate, "sleepy_cb")["total_ns"], 120 * MS)

    def test_signature_depth_from_the_profile(self):
        """Another depth: computed from the profile's paths, every stack."""
        aggregate = self.merge(self.input, args=["--signature-frames", "1"])
        self.assertEqual(signature_entry(aggregate, "leaf_23")["total_ns"], 10 * MS)
        self.assertEqual(signature_entry(aggregate, "spin")["total_ns"], 500 * MS)

    def test_worst_events_have_their_parts(self):
        proc = self.report(self.input)
        rows = [line.split() for line in base.section(proc.out, "Worst events (3 of 3)")]
        event = next(i for i, r in enumerate(rows) if r[:3] == ["fake-app", "(5151)", "1"])
        self.assertEqual(rows[event + 1], ["work_cb", "part", "300.0", "ms", "severe", "compute",
                                           "work_cb", "240.0", "ms", "60.0", "ms"])
        self.assertEqual(rows[event + 2], ["sleepy_cb", "part", "120.0", "ms", "severe", "wait",
                                           "(sleep)", "sleepy_cb", "→", "g_usleep", "120.0", "ms",
                                           "0.00", "ms"])
        # An episode of one part has no part rows.
        hang = next(i for i, r in enumerate(rows) if r[:3] == ["fake-app", "(5151)", "0"])
        self.assertEqual(rows[hang + 1][:3], ["fake-app", "(5151)", "1"])

        aggregate = self.merge(self.input)
        worst = next(e for e in aggregate["worst_events"] if e["id"] == 1)
        self.assertEqual(worst["parts_count"], 2)
        self.assertEqual([(p["callback"], p["class"], p["wait"], p["culprit"],
                           p["culprit_callback"], p["attributed_ns"]) for p in worst["parts"]],
                         [("work_cb", "compute", None, "work_cb", None, 240 * MS),
                          ("sleepy_cb", "wait", "sleep", "g_usleep", "sleepy_cb", 120 * MS)])
        # The aggregate keeps them: merged again, and read by report.
        again = self.merge(self.path("merged.json"), out="again.json")
        self.assertEqual(again["worst_events"], aggregate["worst_events"])
        proc = self.report(self.path("merged.json"))
        self.assertIn("sleepy_cb → g_usleep", proc.out)

    def test_library_culprit_shows_its_callback(self):
        report = te.profile_report()
        report["events"][0]["culprit"] = te.pr.culprit(
            "gtk_text_layout_validate", "libgtk-4.so.1", "library", time_ns=300 * MS,
            callback=("first_validate_callback", "libgtk-4.so.1"))
        proc = self.report(self.write_json("L.json", report))
        self.assertIn("first_validate_callback → gtk_text_layout_validate", proc.out)
        # A callback without a name (a static function of a stripped library).
        report["events"][0]["culprit"]["callback"]["function"] = None
        proc = self.report(self.write_json("L.json", report))
        self.assertIn("libgtk-4.so.1+0x20 → gtk_text_layout_validate", proc.out)
        # The app's own code: no callback shown, whatever the report names.
        report["events"][0]["culprit"]["reason"] = "app-code"
        proc = self.report(self.write_json("A.json", report))
        row = next(line for line in base.section(proc.out, "Worst events (3 of 3)")
                   if "gtk_text_layout_validate" in line)
        self.assertNotIn("→", row)

    def test_nameless_callback_named_by_its_source(self):
        """A stripped library's callback has no name; the source it was
        dispatched for names it where that is certain (GTK names its sources
        after their callbacks), not GLib's type names."""
        report = te.profile_report()
        event = report["events"][0]
        event["culprit"] = te.pr.culprit(
            "pango_shape", "libgtk-4.so.1", "library", time_ns=300 * MS,
            callback=(None, "libgtk-4.so.1"))
        paint = "[gtk] gdk_frame_clock_paint_idle"
        for e in (event, *event["parts"]):
            e["source"] = paint
        proc = self.report(self.write_json("S.json", report))
        self.assertIn(f"{paint} → pango_shape", proc.out)
        aggregate = self.merge(self.path("S.json"))
        worst = next(e for e in aggregate["worst_events"] if e["id"] == 1)
        self.assertEqual(worst["culprit_callback"], paint)
        # GLib's type name says nothing: module+offset.
        for e in (event, *event["parts"]):
            e["source"] = "GIdleSource"
        proc = self.report(self.write_json("S.json", report))
        self.assertIn("libgtk-4.so.1+0x20 → pango_shape", proc.out)
        # Parts of two sources: the culprit may be in either, so the event
        # does not guess; each part names its own.
        event["source"] = event["parts"][0]["source"] = paint
        event["parts"][1]["source"] = "src-sleep"
        event["parts"][1]["culprit"]["callback"]["function"] = None
        proc = self.report(self.write_json("S.json", report))
        self.assertIn("libgtk-4.so.1+0x20 → pango_shape", proc.out)
        self.assertIn("src-sleep → g_usleep", proc.out)
        # A part's own label: its callback's name, or its source's for a
        # nameless callback.
        event["parts"][0]["callback"] = "libgtk-4.so.1+0x479550"
        event["parts"][1]["callback"] = "libgtk-4.so.1+0x12ab"
        event["parts"][1]["source"] = "GIdleSource"
        proc = self.report(self.write_json("S.json", report))
        rows = [line.split() for line in base.section(proc.out, "Worst events (3 of 3)")]
        labels = [" ".join(r[:r.index("part")]) for r in rows if "part" in r]
        self.assertEqual(len(labels), 2)
        self.assertTrue(labels[0].startswith("[gtk] gdk_frame_clock_paint"), labels)  # cut to fit
        self.assertEqual(labels[1], "libgtk-4.so.1+0x12ab")

    def test_nameless_callback_keeps_its_build_id(self):
        """A nameless callback's group, cells and worst event carry its
        module's build-id from the report's module table; a callback with a
        name, a module the table lists twice, or a report without the table
        carries none; merging aggregates keeps it, in any grouping."""
        a, b = golden_reports()
        for e in a["events"]:
            e["callback"] = "libfoo.so.1+0x4711"
        a["modules"] = [{"name": "libfoo.so.1", "path": "/usr/lib/libfoo.so.1",
                         "build_id": "c2490b1f"}]
        agg = self.merge(self.write_json("a.json", a), self.write_json("b.json", b))
        nameless = [g for g in agg["groups"] if g["callback"] == "libfoo.so.1+0x4711"]
        self.assertEqual(len(nameless), 2)
        self.assertTrue(all(g["callback_build_id"] == "c2490b1f" for g in nameless), nameless)
        self.assertTrue(all("callback_build_id" not in g for g in agg["groups"]
                            if g["callback"] != "libfoo.so.1+0x4711"))
        cells = [c for sig in agg["signatures"] for c in sig["cells"]
                 if c["callback"] == "libfoo.so.1+0x4711"]
        self.assertTrue(cells and all(c["callback_build_id"] == "c2490b1f" for c in cells))
        worst = [e for e in agg["worst_events"] if e["callback"] == "libfoo.so.1+0x4711"]
        self.assertTrue(worst and all(e["callback_build_id"] == "c2490b1f" for e in worst))
        # Aggregates of it merge as the reports do.
        self.merge(self.path("a.json"), out="only-a.json")
        self.merge(self.path("b.json"), out="only-b.json")
        again = self.merge(self.path("only-a.json"), self.path("only-b.json"), out="again.json")
        self.assertEqual(again, agg)
        # The same run's callback under another build of the module is
        # another group; a module listed twice, or no table: no build-id.
        a2 = copy.deepcopy(a)
        a2["process"]["pid"] = 101
        a2["modules"][0]["build_id"] = "d00d"
        agg = self.merge(self.path("a.json"), self.write_json("a2.json", a2), out="two.json")
        ids = sorted(g["callback_build_id"] for g in agg["groups"]
                     if g["callback"] == "libfoo.so.1+0x4711")
        self.assertEqual(ids, ["c2490b1f", "c2490b1f", "d00d", "d00d"])
        a2["modules"].append(dict(a2["modules"][0], build_id="beef", path="/opt/libfoo.so.1"))
        self.write_json("a2.json", a2)
        a3 = copy.deepcopy(a)
        del a3["modules"]
        a3["process"]["pid"] = 102
        agg = self.merge(self.path("a2.json"), self.write_json("a3.json", a3), out="none.json")
        self.assertFalse([g for g in agg["groups"] if "callback_build_id" in g])

    def test_nameless_culprits_keep_their_build_ids(self):
        """A worst event's nameless culprit (module+offset), culprit callback
        and parts, and a diagnosis's place at a nameless culprit, carry
        their module's build-id from the report's module table, through
        merges of reports and of aggregates alike; a report without the
        table names the culprit module!? as before, with no build-id."""
        a, b = golden_reports()
        nameless = {"function": None, "module": "libfoo.so.1", "offset": "0x99", "file": None,
                    "line": None, "confidence": 0.9, "reason": "library",
                    "callback": {"function": None, "module": "libfoo.so.1", "offset": "0x4721"}}
        event = a["events"][0]
        for x in [event] + event["parts"]:
            # A GLib type name names no callback: the culprit callback
            # reads module+offset.
            x.update(source="GIdleSource", callback="libfoo.so.1+0x4711",
                     culprit=copy.deepcopy(nameless),
                     posted_from=posted_from("load_doc", "load_doc", "load_doc < main"),
                     diagnosis={"id": "slow-callback", "title": "Slow callback",
                                "evidence_ns": 100 * MS, "share": 0.5, "function": None,
                                "node": -1, "wait": None, "caller": None, "fix": "less"})
        a["modules"] = [{"name": "libfoo.so.1", "path": "/usr/lib/libfoo.so.1",
                         "build_id": "c2490b1f"}]
        pa, pb = self.write_json("a.json", a), self.write_json("b.json", b)
        agg = self.merge(pa, pb)
        worst = next(e for e in agg["worst_events"] if e["callback"] == "libfoo.so.1+0x4711")
        for x in [worst] + worst["parts"]:
            self.assertEqual((x["culprit"], x["culprit_build_id"]), ("libfoo.so.1+0x99", "c2490b1f"))
            self.assertEqual((x["culprit_callback"], x["culprit_callback_build_id"]),
                             ("libfoo.so.1+0x4721", "c2490b1f"))
            self.assertEqual(x["callback_build_id"], "c2490b1f")
        places = [p for d in agg["diagnoses"] for p in d["places"]]
        self.assertEqual(places, [{"function": "libfoo.so.1+0x99",
                                   "function_build_id": "c2490b1f",
                                   "blocked_ns": 400 * MS}])
        self.assertEqual([(p["callback"], p["callback_build_id"]) for p in agg["postings"]],
                         [("libfoo.so.1+0x4711", "c2490b1f")])
        others = [e for e in agg["worst_events"] if e is not worst]
        self.assertFalse([k for e in others for x in [e] + e["parts"] for k in x
                          if k.endswith("_build_id")], others)
        # Aggregates of it merge as the reports do.
        self.merge(pa, out="only-a.json")
        self.merge(pb, out="only-b.json")
        self.assertEqual(self.merge(self.path("only-b.json"), self.path("only-a.json"),
                                    out="again.json"), agg)
        # Without the module table: module!?, no build-id, the place the callback.
        del a["modules"]
        agg = self.merge(self.write_json("a.json", a), pb, out="none.json")
        worst = next(e for e in agg["worst_events"] if e["callback"] == "libfoo.so.1+0x4711")
        self.assertEqual(worst["culprit"], "libfoo.so.1!?")
        self.assertFalse([k for e in agg["worst_events"] for x in [e] + e["parts"] for k in x
                          if k.endswith("_build_id")])
        self.assertEqual([p for d in agg["diagnoses"] for p in d["places"]],
                         [{"function": "libfoo.so.1+0x4711", "blocked_ns": 400 * MS}])
        self.assertFalse([p for p in agg["postings"] if "callback_build_id" in p])

    def test_hostile_aggregate_parts(self):
        aggregate = self.merge(self.input)
        worst = next(e for e in aggregate["worst_events"] if e["id"] == 1)
        worst["parts"] = worst["parts"] * 5
        self.check_error("report", self.write_json("bad.json", aggregate), 1,
                         "worst_events[1].parts has more entries than an aggregate keeps")
        worst["parts"] = [{"type": "dispatch", "start_ns": -4}]
        self.check_error("report", self.write_json("bad.json", aggregate), 1,
                         "worst_events[1].parts[0].start_ns must not be negative")


# ---- diagnoses -----------------------------------------------------------------------

def diagnosis(id_, function, caller, evidence_ns, title=None, wait=None, node=-1, share=0.9):
    """A `diagnosis` member (docs/report-format.md, "Diagnosis")."""
    return {"id": id_, "title": title or id_, "evidence_ns": evidence_ns, "share": share,
            "function": function, "node": node, "wait": wait, "caller": caller,
            "fix": "the report's own fix"}


def diagnosed_report(pid=5151):
    """te.profile_report with diagnoses: event 1's parts a slow callback
    (work_cb) and a sleep (sleepy_cb); the hang, which has no parts, a slow
    callback in hang_cb."""
    report = te.profile_report()
    report["process"]["pid"] = pid
    e1, _, _, hang = report["events"]
    e1["parts"][0]["diagnosis"] = diagnosis("slow-callback", "work_cb", "work_cb", 240 * MS)
    e1["parts"][1]["diagnosis"] = diagnosis("sleep", "g_usleep", "sleepy_cb", 120 * MS,
                                            wait="sleep")
    e1["diagnosis"] = diagnosis("slow-callback", "work_cb", "work_cb", 240 * MS)
    hang["diagnosis"] = diagnosis("slow-callback", "spin", "spin", 500 * MS)
    return report


class DiagnosisTest(AnalysisTestCase):
    """Diagnoses: read with their checks, grouped by kind in `report` with
    the fix, counted by id in `merge` (docs/aggregate-format.md)."""

    def test_report_groups_by_kind(self):
        proc = self.report(self.write_json("D.json", diagnosed_report()))
        lines = base.section(proc.out, "Diagnoses")
        self.assertEqual(lines[0], "  Slow callback: 2 events, 800.0 ms, in `spin` "
                                   "and 1 other place")
        self.assertTrue(lines[1].startswith("    Fix: Split the work into short steps"), lines)
        self.assertEqual(lines[2], "  Sleeping on the main thread: 1 event, 120.0 ms, "
                                   "in `sleepy_cb`")
        self.assertIn("g_timeout_add", lines[3])
        # The table's own words, not the report's.
        self.assertNotIn("the report's own fix", proc.out)

    def test_unknown_ids_keep_the_reports_words(self):
        report = diagnosed_report()
        report["events"][0]["parts"][1]["diagnosis"] = diagnosis(
            "future-kind", None, "sleepy_cb", 120 * MS, title="A kind from the future")
        proc = self.report(self.write_json("F.json", report))
        lines = base.section(proc.out, "Diagnoses")
        self.assertIn("  A kind from the future: 1 event, 120.0 ms, in `sleepy_cb`", lines)

    def test_reports_without_diagnoses(self):
        proc = self.report(self.write_json("P.json", te.profile_report()))
        self.assertNotIn("Diagnoses", proc.out)
        aggregate = self.merge(self.path("P.json"))
        self.assertEqual(aggregate["diagnoses"], [])
        # An aggregate of before diagnoses reads as none.
        del aggregate["diagnoses"], aggregate["diagnoses_other"]
        proc = self.report(self.write_json("old-agg.json", aggregate))
        self.assertNotIn("Diagnoses", proc.out)

    def test_merge_counts_by_id(self):
        a = self.write_json("a.json", diagnosed_report(5151))
        b = self.write_json("b.json", diagnosed_report(5152))
        aggregate = self.merge(a, b)
        by_id = {d["id"]: d for d in aggregate["diagnoses"]}
        self.assertEqual(sorted(by_id), ["sleep", "slow-callback"])
        slow = by_id["slow-callback"]
        self.assertEqual((slow["events"], slow["parts"], slow["runs"], slow["blocked_ns"],
                          slow["evidence_ns"]), (4, 4, 2, 1600 * MS, 1480 * MS))
        self.assertEqual(slow["places"], [{"function": "spin", "blocked_ns": 1000 * MS},
                                          {"function": "work_cb", "blocked_ns": 600 * MS}])
        self.assertEqual((by_id["sleep"]["events"], by_id["sleep"]["blocked_ns"]), (2, 240 * MS))
        # Merging aggregates is merging their reports.
        self.merge(a, out="ma.json")
        self.merge(b, out="mb.json")
        again = self.merge(self.path("ma.json"), self.path("mb.json"), out="again.json")
        self.assertEqual(again["diagnoses"], aggregate["diagnoses"])
        self.assertEqual(again["diagnoses_other"], {"parts": 0, "blocked_ns": 0})
        proc = self.report(self.path("again.json"))
        self.assertIn("Sleeping on the main thread: 2 events, 240.0 ms, in `sleepy_cb`", proc.out)

    def test_details_shown_and_merged(self):
        """The file of a file-io diagnosis and the call of a dbus-sync one are
        shown after the place; merge keeps a few distinct ones per id."""
        def with_details(pid, path):
            report = diagnosed_report(pid)
            e1, hang = report["events"][0], report["events"][3]
            d = diagnosis("file-io", "g_file_get_contents", "load_cb", 120 * MS, wait="io")
            d["detail"] = {"path": path}
            e1["parts"][1]["diagnosis"] = d
            hang["diagnosis"] = diagnosis("dbus-sync", "g_dbus_connection_call_sync", "refresh_cb",
                                          500 * MS)
            hang["diagnosis"]["detail"] = {
                "bus_name": "org.example.Maps", "object_path": "/org/example/Maps",
                "interface": "org.example.Maps", "method": "Lookup"}
            return report

        a = self.write_json("a.json", with_details(5151, "/home/alice/big.json"))
        lines = base.section(self.report(a).out, "Diagnoses")
        self.assertIn("  Synchronous D-Bus call on the main thread: 1 event, 500.0 ms, in "
                      "`refresh_cb`, call org.example.Maps /org/example/Maps "
                      "org.example.Maps.Lookup", lines)
        self.assertIn("  File I/O on the main thread: 1 event, 120.0 ms, in `load_cb`, "
                      "file /home/alice/big.json", lines)
        # A read from the page cache: no file seen, and the report says so.
        b = self.write_json("b.json", with_details(5152, None))
        lines = base.section(self.report(b).out, "Diagnoses")
        self.assertIn("  File I/O on the main thread: 1 event, 120.0 ms, in `load_cb`, "
                      "no file seen", lines)
        aggregate = self.merge(a, b)
        by_id = {d["id"]: d for d in aggregate["diagnoses"]}
        self.assertEqual(by_id["file-io"]["details"],
                         [{"detail": "/home/alice/big.json", "blocked_ns": 120 * MS}])
        self.assertEqual(by_id["dbus-sync"]["details"],
                         [{"detail": "org.example.Maps /org/example/Maps org.example.Maps.Lookup",
                           "blocked_ns": 1000 * MS}])
        self.assertEqual(by_id["slow-callback"]["details"], [])
        # Merging aggregates keeps them; at most 4 files, the rest counted.
        self.merge(a, out="ma.json")
        self.merge(b, out="mb.json")
        again = self.merge(self.path("ma.json"), self.path("mb.json"), out="again.json")
        self.assertEqual(again["diagnoses"], aggregate["diagnoses"])
        many = [self.write_json(f"m{i}.json", with_details(6000 + i, f"/data/file-{i}.json"))
                for i in range(6)]
        by_id = {d["id"]: d for d in self.merge(*many, out="many.json")["diagnoses"]}
        self.assertEqual(len(by_id["file-io"]["details"]), 4)
        self.assertEqual(by_id["file-io"]["details_other_ns"], 2 * 120 * MS)
        lines = base.section(self.report(self.path("many.json")).out, "Diagnoses")
        self.assertTrue(any(line.endswith(" and 3 other files") for line in lines), lines)
        rows = {r["id"]: r for r in json.loads(self.report(a, "--json").out)["diagnoses"]["rows"]}
        self.assertEqual(rows["file-io"]["details"],
                         [{"detail": "/home/alice/big.json", "blocked_ns": 120 * MS}])

    def test_frame_events_diagnoses(self):
        """A frame event no stall event overlaps is the only record of its
        stalls: its diagnoses count. One a stall event overlaps repeats that
        event's stalls from the frame clock's side: not counted twice."""
        report = diagnosed_report()
        covered = report["events"][1]
        covered["diagnosis"] = diagnosis("slow-frame", "snapshot_cb", "snapshot_cb", 300 * MS)
        covered["parts"][0]["diagnosis"] = dict(covered["diagnosis"])
        lonely = copy.deepcopy(covered)
        lonely["id"] = 5

        def shift(node):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in ("start_ns", "end_ns", "t_ns", "last_ns", "detected_ns", "at_ns") \
                            and isinstance(value, int):
                        node[key] = value + 3 * S
                    else:
                        shift(value)
            elif isinstance(node, list):
                for value in node:
                    shift(value)
        shift(lonely)
        lonely["diagnosis"]["function"] = lonely["diagnosis"]["caller"] = "measure_cb"
        lonely["parts"][0]["diagnosis"] = dict(lonely["diagnosis"])
        report["events"].insert(3, lonely)
        path = self.write_json("frames.json", report)
        lines = base.section(self.report(path).out, "Diagnoses")
        duration = lonely["parts"][0]["duration_ns"]
        self.assertIn(f"  Slow frame: 1 event, {duration / MS:.1f} ms, in `measure_cb`", lines)
        by_id = {d["id"]: d for d in self.merge(path)["diagnoses"]}
        self.assertEqual((by_id["slow-frame"]["events"], by_id["slow-frame"]["parts"],
                          by_id["slow-frame"]["places"]),
                         (1, 1, [{"function": "measure_cb", "blocked_ns": duration}]))
        # A filter on the stall events' keys applies to them too.
        proc = self.report(path, "--tier", "hang")
        self.assertNotIn("Slow frame", proc.out)

    def test_hostile_diagnoses(self):
        def broken(where, **change):
            report = diagnosed_report()
            e1 = report["events"][0]
            target = e1 if where == "event" else e1["parts"][1]
            target["diagnosis"].update(change)
            return self.write_json("bad.json", report)

        for command in ("report", "merge"):
            self.check_error(command, broken("part", id="File I/O!"), 1,
                             "events[0].parts[1].diagnosis.id must be a short id")
            self.check_error(command, broken("part", id="x" * 65), 1,
                             "events[0].parts[1].diagnosis.id must be a short id")
            self.check_error(command, broken("part", id=None), 1,
                             "events[0].parts[1].diagnosis.id")
            self.check_error(command, broken("part", evidence_ns=-1), 1,
                             "events[0].parts[1].diagnosis.evidence_ns must not be negative")
            self.check_error(command, broken("part", share=2.5), 1,
                             "events[0].parts[1].diagnosis.share")
            self.check_error(command, broken("part", node=9999), 1,
                             "events[0].parts[1].diagnosis.node must be from -1 to")
            self.check_error(command, broken("event", node=9999), 1,
                             "events[0].diagnosis.node must be from -1 to")
            self.check_error(command, broken("event", node=-2), 1,
                             "events[0].diagnosis.node must be an integer from -1")
            self.check_error(command, broken("event", caller=7), 1,
                             "events[0].diagnosis.caller")
            self.check_error(command, broken("part", detail="big.json"), 1,
                             "events[0].parts[1].diagnosis.detail must be")
            self.check_error(command, broken("part", detail={"path": "/a\nb"}), 1,
                             "events[0].parts[1].diagnosis.detail.path must be a string of at "
                             "most 1024 bytes without control characters")
            self.check_error(command, broken("part", detail={"path": "/" + "a" * 1024}), 1,
                             "events[0].parts[1].diagnosis.detail.path must be a string")
            self.check_error(command, broken("event", detail={"bus_name": 7}), 1,
                             "events[0].diagnosis.detail.bus_name")
            self.check_error(command, broken("event", detail={"method": "x" * 257}), 1,
                             "events[0].diagnosis.detail.method must be a string of at most 256")
        report = diagnosed_report()
        report["events"][0]["diagnosis"] = "sleep"
        self.check_error("report", self.write_json("bad.json", report), 1,
                         "events[0].diagnosis must be")

    def test_hostile_aggregate_diagnoses(self):
        aggregate = self.merge(self.write_json("D.json", diagnosed_report()))
        cases = [
            (lambda d: d[0].update(id="Bad Id"), "diagnoses[0].id must be a short id"),
            (lambda d: d[0].update(events=99), "diagnoses[0].events must not be more than"),
            (lambda d: d[0].update(places=d[0]["places"] * 9), "diagnoses[0].places has too many"),
            (lambda d: d.append(copy.deepcopy(d[0])), "diagnoses[2] is listed twice"),
            (lambda d: d[0].update(blocked_ns=-3), "diagnoses[0].blocked_ns must not be negative"),
            (lambda d: d[0]["places"].append(dict(d[0]["places"][0])),
             "diagnoses[0].places[2] is listed twice"),
            (lambda d: d[0].update(details=[{"detail": f"/f{i}", "blocked_ns": 1}
                                            for i in range(5)]),
             "diagnoses[0].details has too many"),
            (lambda d: d[0].update(details=[{"detail": "/f", "blocked_ns": 1}] * 2),
             "diagnoses[0].details[1] is listed twice"),
            (lambda d: d[0].update(details=[{"detail": "/f\x01", "blocked_ns": 1}]),
             "diagnoses[0].details[0].detail has a control character"),
            (lambda d: d[0].update(details=[{"detail": None, "blocked_ns": 1}]),
             "diagnoses[0].details[0].detail"),
            (lambda d: d[0].update(details="x"), "diagnoses[0].details must be"),
            (lambda d: d[0].update(details_other_ns=-1),
             "diagnoses[0].details_other_ns must not be negative"),
        ]
        for change, message in cases:
            broken = copy.deepcopy(aggregate)
            change(broken["diagnoses"])
            self.check_error("report", self.write_json("bad-agg.json", broken), 1, message)


def posted_from(caller, culprit, signature, chain=()):
    """A `posted_from` member (docs/report-format.md, "Posting sites")."""
    frame = lambda f: {"function": f, "module": "app", "file": None, "line": None,
                       "offset": "0x10", "build_id": None}
    return {"kind": "idle", "thread": "main", "caller": frame(caller), "stack": None,
            "signature": signature, "signature_id": "0123456789abcdef",
            "culprit": frame(culprit) if culprit else None,
            "culprit_reason": "app" if culprit else
            "no full stack, and the caller is not the app's code",
            "chain": [frame(c) for c in chain]}


def posted_report(pid=6161):
    """te.profile_report whose event 1 has its first part (work_cb) posted
    from load_doc and its second (sleepy_cb) from on_button."""
    report = te.profile_report()
    report["process"]["pid"] = pid
    e1 = report["events"][0]
    e1["parts"][0]["posted_from"] = posted_from("load_doc", "load_doc", "load_doc < main",
                                                chain=["on_button"])
    e1["parts"][1]["posted_from"] = posted_from("g_something", None, "g_something")
    e1["posted_from"] = e1["parts"][0]["posted_from"]
    return report


class PostingTest(AnalysisTestCase):
    """Posting sites: read with their checks, ranked in `report` and counted
    by posting signature in `merge` (docs/aggregate-format.md)."""

    def test_report_ranks_by_posting_site(self):
        proc = self.report(self.write_json("P.json", posted_report()))
        lines = base.section(proc.out, "Slow callbacks by posting site (2 of 2)")
        self.assertIn("POSTED FROM", lines[0])
        self.assertTrue(lines[1].split()[0:2] == ["load_doc", "work_cb"], lines)
        self.assertIn("load_doc < main", lines[1])
        self.assertTrue(lines[2].split()[0:2] == ["g_something", "sleepy_cb"], lines)
        # Beside the culprit in the worst events.
        self.assertIn("(posted from load_doc)", proc.out)

    def test_unnamed_posting_site(self):
        """A stripped library's caller and an app whose culprit has no name
        either (Debian's GTK and gnome-text-editor): "module+offset", never
        an empty name."""
        report = posted_report()
        unnamed = posted_from(None, None, "")
        unnamed["caller"]["module"] = "libgtk-4.so.1"
        unnamed["caller"]["offset"] = "0x2b10a1"
        report["events"][0]["parts"][1]["posted_from"] = unnamed
        culprit = posted_from(None, None, "app!?")
        culprit["culprit"] = dict(culprit["caller"], offset="0x3b85e")
        culprit["culprit_reason"] = "app"
        report["events"][0]["parts"][0]["posted_from"] = culprit
        report["events"][0]["posted_from"] = culprit
        proc = self.report(self.write_json("P.json", report))
        lines = base.section(proc.out, "Slow callbacks by posting site (2 of 2)")
        self.assertTrue(lines[1].split()[0:2] == ["app+0x3b85e", "work_cb"], lines)
        self.assertTrue(lines[2].split()[0:2] == ["libgtk-4.so.1+0x2b10a1", "sleepy_cb"], lines)
        self.assertIn("(posted from app+0x3b85e)", proc.out)
        self.assertNotIn("(posted from )", proc.out)

    def test_inherited_stack(self):
        """A posting site whose culprit came from an earlier attach's stack
        (`stack_inherited`) says so beside the culprit; the ranking by
        posting site keeps the name alone. A stack_inherited that is not a
        bool is refused."""
        report = posted_report()
        inherited = report["events"][0]["parts"][0]["posted_from"]
        inherited["stack"] = [dict(inherited["caller"])]
        inherited["stack_truncated"] = False
        inherited["stack_inherited"] = True
        report["events"][0]["posted_from"] = inherited
        proc = self.report(self.write_json("P.json", report))
        self.assertIn("(posted from load_doc, inherited stack)", proc.out)
        lines = base.section(proc.out, "Slow callbacks by posting site (2 of 2)")
        self.assertTrue(lines[1].split()[0:2] == ["load_doc", "work_cb"], lines)
        # Not inherited: the name alone.
        inherited["stack_inherited"] = False
        proc = self.report(self.write_json("P.json", report))
        self.assertIn("(posted from load_doc)", proc.out)
        self.assertNotIn("inherited stack", proc.out)
        # Kept through an aggregate, and said by the report of it.
        inherited["stack_inherited"] = True
        aggregate = self.merge(self.write_json("P.json", report))
        worst = [e for e in aggregate["worst_events"] if e.get("posted_from")]
        self.assertTrue(worst[0].get("posted_from_inherited"), worst)
        proc = self.report(self.write_json("agg.json", aggregate))
        self.assertIn("(posted from load_doc, inherited stack)", proc.out)
        inherited["stack_inherited"] = "yes"
        for command in ("report", "merge"):
            self.check_error(command, self.write_json("bad.json", report), 1,
                             "posted_from.stack_inherited must be a boolean")

    def test_reports_without_posting_sites(self):
        proc = self.report(self.write_json("P.json", te.profile_report()))
        self.assertNotIn("posting site", proc.out)
        self.assertNotIn("posted from", proc.out)
        aggregate = self.merge(self.path("P.json"))
        self.assertEqual(aggregate["postings"], [])
        del aggregate["postings"], aggregate["postings_other"]
        proc = self.report(self.write_json("old-agg.json", aggregate))
        self.assertNotIn("posting site", proc.out)

    def test_merge_counts_by_posting_signature(self):
        a = self.write_json("a.json", posted_report(6161))
        b = self.write_json("b.json", posted_report(6162))
        aggregate = self.merge(a, b)
        by_sig = {p["signature"]: p for p in aggregate["postings"]}
        self.assertEqual(sorted(by_sig), ["g_something", "load_doc < main"])
        load = by_sig["load_doc < main"]
        parts = posted_report()["events"][0]["parts"]
        self.assertEqual((load["posted_from"], load["callback"], load["events"], load["parts"],
                          load["runs"], load["blocked_ns"]),
                         ("load_doc", "work_cb", 2, 2, 2, 2 * parts[0]["duration_ns"]))
        self.assertEqual(by_sig["g_something"]["posted_from"], "g_something")
        # Merging aggregates is merging their reports.
        self.merge(a, out="ma.json")
        self.merge(b, out="mb.json")
        again = self.merge(self.path("ma.json"), self.path("mb.json"), out="again.json")
        self.assertEqual(again["postings"], aggregate["postings"])
        self.assertEqual(again["postings_other"], {"parts": 0, "blocked_ns": 0})
        worst = [e for e in again["worst_events"] if e.get("posted_from")]
        self.assertTrue(worst and worst[0]["posted_from"] == "load_doc", again["worst_events"])

    def test_hostile_posting_sites(self):
        def broken(where, change):
            report = posted_report()
            e1 = report["events"][0]
            target = e1 if where == "event" else e1["parts"][0]
            target["posted_from"] = copy.deepcopy(target["posted_from"])
            change(target["posted_from"])
            return self.write_json("bad.json", report)

        for command in ("report", "merge"):
            self.check_error(command, broken("part", lambda p: p.update(kind=3)), 1,
                             "events[0].parts[0].posted_from.kind")
            self.check_error(command, broken("part", lambda p: p.update(caller="main")), 1,
                             "events[0].parts[0].posted_from.caller")
            self.check_error(command, broken("part", lambda p: p["caller"].update(function=[])),
                             1, "events[0].parts[0].posted_from.caller.function")
            self.check_error(command, broken("event", lambda p: p.update(chain=[None] * 4)), 1,
                             "events[0].posted_from.chain must have at most 3 links")
            self.check_error(command, broken("event", lambda p: p.update(chain=[7])), 1,
                             "events[0].posted_from.chain")
            self.check_error(command, broken("event", lambda p: p.update(chain={})), 1,
                             "events[0].posted_from.chain")
            self.check_error(command, broken("event", lambda p: p.update(stack="x")), 1,
                             "events[0].posted_from.stack")
            self.check_error(command, broken("event", lambda p: p.update(signature=12)), 1,
                             "events[0].posted_from.signature")
        report = posted_report()
        report["events"][0]["posted_from"] = "load_doc"
        self.check_error("report", self.write_json("bad.json", report), 1,
                         "events[0].posted_from must be")
        # Nulls are fine: nothing known.
        report = posted_report()
        report["events"][0]["posted_from"]["chain"] = [None]
        report["events"][0]["parts"][1]["posted_from"] = None
        self.report(self.write_json("ok.json", report))

    def test_hostile_aggregate_postings(self):
        aggregate = self.merge(self.write_json("P.json", posted_report()))
        cases = [
            (lambda d: d[0].update(events=99), "postings[0].events must not be more than"),
            (lambda d: d[0].update(runs=99), "postings[0].runs must not be more than"),
            (lambda d: d.append(copy.deepcopy(d[0])), "postings[2] is listed twice"),
            (lambda d: d[0].update(blocked_ns=-3), "postings[0].blocked_ns must not be negative"),
            (lambda d: d[0].update(signature=None), "postings[0].signature"),
            (lambda d: d.extend([dict(d[0], signature=str(i)) for i in range(300)]),
             "postings has too many entries"),
        ]
        for change, message in cases:
            broken = copy.deepcopy(aggregate)
            change(broken["postings"])
            self.check_error("report", self.write_json("bad-agg.json", broken), 1, message)


# ---- diff ----------------------------------------------------------------------------

def lognormal(rng, n, median_ns, sigma, scale=1.0):
    return [max(1, int(rng.lognormvariate(math.log(median_ns), sigma) * scale)) for _ in range(n)]


def diff_report(seed, pid, frame_scale=1.0, busy_scale=1.0, n_frames=5000, n_busy=20000,
                events_total=1000, monitored_s=600, slow=100):
    rng = random.Random(seed)
    return make_report(pid, seed, [], monitored_s=monitored_s,
                       iterations=lognormal(rng, n_busy, 1 * MS, 0.8, busy_scale),
                       frames=lognormal(rng, n_frames, 16.7 * MS, 0.2, frame_scale),
                       slow=slow, events_total=events_total)


class DiffTest(AnalysisTestCase):
    def diff(self, base_report, new_report, *args):
        proc = run_cli("diff", self.write_json("base.json", base_report),
                       self.write_json("new.json", new_report), *args)
        return proc

    def verdicts(self, proc):
        rows = base.section(proc.out, "  METRIC")
        result = {}
        for row in rows:
            for name in ("iteration busy P95", "iteration busy P99", "frame time P95",
                         "frame time P99", "jank rate (events per minute)", "slow frames"):
                if row.strip().startswith(name):
                    for verdict in ("REGRESSED", "improved", "noise", "not judged", "ok"):
                        if verdict in row:
                            result[name] = verdict
                            break
        return result

    def test_unchanged_run_passes(self):
        proc = self.diff(diff_report(1, 1), diff_report(2, 2))
        self.assertExit(proc, 0)
        self.assertIn("Result: no regression beyond 5%", proc.out)
        self.assertNotIn("REGRESSED", proc.out)

    def test_planted_frame_regression_fails(self):
        proc = self.diff(diff_report(1, 1), diff_report(2, 2, frame_scale=1.10))
        self.assertExit(proc, 1)
        v = self.verdicts(proc)
        self.assertEqual(v["frame time P95"], "REGRESSED")
        self.assertEqual(v["frame time P99"], "REGRESSED")
        self.assertEqual(v["iteration busy P95"], "ok")
        self.assertRegex(proc.out, r"Regressed: frame time P99 [0-9.]+ ms → [0-9.]+ ms "
                                   r"\(\+[0-9]+\.[0-9]%, more than 5%\)")
        self.assertIn("Result: 2 metrics regressed by more than 5%", proc.out)
        # The same with a looser gate passes.
        self.assertExit(self.diff(diff_report(1, 1), diff_report(2, 2, frame_scale=1.10),
                                  "--threshold=15%"), 0)

    def test_planted_busy_regression_fails(self):
        proc = self.diff(diff_report(1, 1), diff_report(2, 2, busy_scale=1.10))
        self.assertExit(proc, 1)
        v = self.verdicts(proc)
        self.assertEqual(v["iteration busy P95"], "REGRESSED")
        self.assertEqual(v["frame time P95"], "ok")

    def test_improvement_passes(self):
        proc = self.diff(diff_report(1, 1, frame_scale=1.2), diff_report(2, 2))
        self.assertExit(proc, 0)
        self.assertEqual(self.verdicts(proc)["frame time P95"], "improved")

    def test_jank_rate(self):
        proc = self.diff(diff_report(1, 1), diff_report(2, 2, events_total=1100))
        self.assertExit(proc, 1)
        self.assertEqual(self.verdicts(proc)["jank rate (events per minute)"], "REGRESSED")
        # +10% of a handful of events is noise.
        proc = self.diff(diff_report(1, 1, events_total=10), diff_report(2, 2, events_total=11))
        self.assertExit(proc, 0)
        self.assertEqual(self.verdicts(proc)["jank rate (events per minute)"], "noise")
        proc = self.diff(diff_report(1, 1, events_total=3), diff_report(2, 2, events_total=6))
        self.assertExit(proc, 0)
        self.assertIn("too few jank events to judge (3 base, 6 new; 10 needed in all)", proc.out)
        proc = self.diff(diff_report(1, 1, monitored_s=5), diff_report(2, 2, monitored_s=5,
                                                                         events_total=2000))
        self.assertExit(proc, 0)
        self.assertIn("too little monitored time", proc.out)

    def test_slow_frames(self):
        proc = self.diff(diff_report(1, 1, slow=100), diff_report(2, 2, slow=140))
        self.assertExit(proc, 1)
        self.assertEqual(self.verdicts(proc)["slow frames"], "REGRESSED")
        proc = self.diff(diff_report(1, 1, slow=4), diff_report(2, 2, slow=5))
        self.assertExit(proc, 0)
        self.assertIn("too few frames to judge", proc.out)

    def test_tiny_samples_are_not_judged(self):
        small = dict(n_frames=100, n_busy=150)
        proc = self.diff(diff_report(1, 1, **small), diff_report(2, 2, frame_scale=2, busy_scale=2,
                                                                 **small))
        self.assertExit(proc, 0)
        self.assertIn("too few frames to judge (100 base, 100 new; 200 needed)", proc.out)
        self.assertIn("too few iterations to judge (150 base, 150 new; 1000 needed)", proc.out)

    def test_small_shift_in_one_bucket_is_noise(self):
        # Every frame 16.70 ms against 16.75 ms: one histogram bucket.
        base_report = make_report(1, 1, [], iterations=[MS] * 5000, frames=[16_700_000] * 5000)
        new_report = make_report(2, 1, [], iterations=[MS] * 5000, frames=[16_750_000] * 5000)
        proc = self.diff(base_report, new_report)
        self.assertExit(proc, 0)

    def test_aggregates_and_folders(self):
        for i in range(3):
            self.write_json(f"base-{i}.json", diff_report(10 + i, 10 + i))
            self.write_json(f"new-{i}.json", diff_report(20 + i, 20 + i, frame_scale=1.1))
        os.mkdir(self.path("b"))
        os.mkdir(self.path("n"))
        for i in range(3):
            os.rename(self.path(f"base-{i}.json"), self.path(f"b/{i}.json"))
            os.rename(self.path(f"new-{i}.json"), self.path(f"n/{i}.json"))
        self.merge(self.path("b"), out="base-agg.json")
        proc = run_cli("diff", self.path("base-agg.json"), self.path("n"))
        self.assertExit(proc, 1)
        self.assertEqual(self.verdicts(proc)["frame time P99"], "REGRESSED")
        proc = run_cli("diff", self.path("base-agg.json"), self.path("b"))
        self.assertExit(proc, 0)

    def test_bad_input_exits_2(self):
        good = self.write_json("good.json", diff_report(1, 1))
        bad = self.write("bad.json", "{")
        for args in ((good, bad), (bad, good), (good, self.path("missing.json")), (good,),
                     (good, good, good), (good, good, "--threshold=abc"),
                     (good, good, "--threshold=0")):
            with self.subTest(args=args):
                proc = run_cli("diff", *args)
                self.assertExit(proc, 2)
                self.assertTrue(proc.err.startswith("jankscope: "), proc.err)


# ---- hostile inputs -------------------------------------------------------------------

class HostileInputTest(AnalysisTestCase):
    def golden_text(self):
        a, _ = golden_reports()
        return json.dumps(a)

    def check_all(self, path, *fragments):
        self.check_error("report", path, 1, *fragments)
        self.check_error("merge", path, 1, *fragments)
        self.check_error("diff", path, 2, *fragments)

    def test_files(self):
        self.check_all(self.path("missing.json"), "No such file")
        self.check_all(self.tmp, "")  # a folder without reports: nothing to read
        self.check_all(self.write("empty.json", ""), "the file is empty")
        self.check_all(self.write("junk.json", "hello"), "not valid JSON")
        self.check_all(self.write("array.json", "[1]"), "not a jankscope report or aggregate")
        self.check_all(self.write("other.json", '{"format": "sysprof"}'),
                       "not a jankscope report or aggregate")

    def test_broken_json_inside_skipped_members(self):
        # Frames, samples and parts are not read for aggregation: they are
        # still checked as JSON, with the same limits.
        text = self.golden_text()
        marker = '"function": "parse_row"'
        self.assertIn(marker, text)
        for bad, fragment in (('"function": [1 2]', "not valid JSON"),
                              ('"function": 99999999999999999999999', "does not fit in 64 bits"),
                              ('"function": ' + "[" * 200 + "]" * 200, "nested more than"),
                              ('"function": "\\x"', "invalid escape"),
                              ('"function": "a\x01b"', "control character")):
            with self.subTest(fragment=fragment):
                path = self.write("r.json", text.replace(marker, bad, 1))
                self.check_all(path, fragment)

    def test_bounds(self):
        a, _ = golden_reports()
        ev = a["events"][0]
        ev["stacks"] = [stack(X_FRAMES, 1) for _ in range(65)]
        self.check_all(self.write_json("stacks.json", a),
                       "events[0].stacks has 65 entries: at most 64 can be loaded")
        a, _ = golden_reports()
        a["events"][0]["stacks"][0]["frames"] = [frame("f", "app")] * 300
        self.check_all(self.write_json("frames.json", a),
                       "events[0].stacks[0].frames has 300 entries: at most 256 can be loaded")
        a, _ = golden_reports()
        ev = a["events"][0]
        del ev["samples_total"]
        ev["samples"] = [{"t_ns": 1, "count": 1, "state": "running", "stack": 0}] * 5000
        self.check_all(self.write_json("samples.json", a),
                       "events[0].samples has 5000 entries: at most 4096 can be loaded")

    def test_wrong_values(self):
        cases = [
            (lambda r: r["events"][0]["stacks"][0].update(count="6"),
             "events[0].stacks[0].count must be an integer or null, not a string"),
            (lambda r: r["events"][0]["stacks"][0].update(signature=5),
             "events[0].stacks[0].signature must be a string or null, not an integer"),
            (lambda r: r["events"][0]["stacks"][0].update(time_ns=-1),
             "events[0].stacks[0].time_ns must not be negative"),
            (lambda r: r["events"][0].update(attributed_ns="all"),
             "events[0].attributed_ns must be an integer or null"),
            (lambda r: (r["events"][0].pop("samples_total"),
                        r["events"][0]["samples"][0].update(stack=7)),
             "events[0].samples[0].stack must be from -1 to 1 (it is 7)"),
            (lambda r: r["summary"]["iteration_busy"].update(
                histogram={"sub_bits": 4, "min_exp": 6, "buckets": [[5, 1], [5, 2]]}),
             "summary.iteration_busy.histogram.buckets[1] must be [index, count]"),
            (lambda r: r["summary"]["iteration_busy"].update(
                histogram={"sub_bits": 4, "min_exp": 6, "buckets": [[900, 1]]}),
             "summary.iteration_busy.histogram.buckets[0] must be [index, count]"),
            (lambda r: r["events"][0].update(scene=5),
             "events[0].scene must be a string or null, not an integer"),
            (lambda r: r["events"][0].update(context="busy"),
             "events[0].context must be an object or null, not a string"),
            (lambda r: r["events"][0].update(context={"process_cpu_pct": "high"}),
             "events[0].context.process_cpu_pct must be a number or null, not a string"),
            (lambda r: r["events"][0].update(context={"load_avg_1m": -1}),
             "events[0].context.load_avg_1m must be a number from 0 to 10^15"),
            (lambda r: r["events"][0].update(context={"startup": "yes"}),
             "events[0].context.startup must be a boolean, not a string"),
            (lambda r: r["summary"]["iteration_busy"].update(
                histogram={"sub_bits": 4, "min_exp": 6, "buckets": "many"}),
             "summary.iteration_busy.histogram.buckets must be an array, not a string"),
        ]
        for mutate, fragment in cases:
            with self.subTest(fragment=fragment):
                a, _ = golden_reports()
                mutate(a)
                self.check_all(self.write_json("r.json", a), fragment)

    def test_histogram_of_another_layout_is_left_out(self):
        report = make_report(1, 1, [], iterations=[MS] * 300)
        report["summary"]["iteration_busy"]["histogram"]["sub_bits"] = 5
        agg = self.merge(self.write_json("r.json", report))
        self.assertEqual(agg["summary"]["iteration_busy"]["approximate"], 300)

    def test_hostile_aggregates(self):
        a, b = golden_reports()
        self.merge(self.write_json("a.json", a), self.write_json("b.json", b), out="agg.json")
        with open(self.path("agg.json")) as f:
            good = json.load(f)
        cases = [
            (lambda g: g.update(version=2), "aggregate format version 2 is not supported"),
            (lambda g: g.update(signature_frames=0), "signature_frames must be from 1 to 64"),
            (lambda g: g["groups"][0].update(attributed_ns=1),
             "groups[0] does not add up: attributed_ns + unattributed_ns must equal"),
            (lambda g: g["runs"].update(count=5), "runs.count must be the number of its ids"),
            (lambda g: g["runs"]["ids"].__setitem__(0, "xyz"),
             "runs.ids[0] must be 16 lowercase hex digits"),
            (lambda g: g["runs"]["ids"].__setitem__(1, g["runs"]["ids"][0]),
             "runs.ids[1] is listed twice"),
            (lambda g: g["signatures"].append(copy.deepcopy(g["signatures"][0])),
             "signatures[3].signature is listed twice"),
            (lambda g: g["signatures"][0].update(samples=-4),
             "signatures[0].samples must not be negative"),
            (lambda g: g["summary"]["iteration_busy"].update(approximate=10**9),
             "summary.iteration_busy.approximate must not be more than"),
            (lambda g: g["worst_events"][0].update(duration_ns=1),
             "worst_events[0] does not add up"),
            (lambda g: g.pop("stalls"), "stalls is missing"),
            (lambda g: g["groups"][0].update(callback="libfoo.so+0x10", callback_build_id="xyz"),
             "groups[0].callback_build_id must be hex digits"),
            (lambda g: g["groups"][0].update(callback="libfoo.so+0x10", callback_build_id=7),
             "groups[0].callback_build_id must be a string or null"),
            (lambda g: g["groups"][0].update(callback="on_click", callback_build_id="ab12"),
             "groups[0].callback_build_id must be beside a nameless callback"),
            (lambda g: g["groups"][0].update(callback=None, callback_build_id="ab12"),
             "groups[0].callback_build_id must be beside a nameless callback"),
            (lambda g: g["signatures"][0]["cells"][0].update(callback_build_id="ab" * 65),
             "signatures[0].cells[0].callback_build_id must be hex digits"),
            (lambda g: g["worst_events"][0].update(callback_build_id="ab12"),
             "worst_events[0].callback_build_id must be beside a nameless callback"),
            (lambda g: g["worst_events"][0].update(culprit="libfoo.so+0x10",
                                                   culprit_build_id="xyz"),
             "worst_events[0].culprit_build_id must be hex digits"),
            (lambda g: g["worst_events"][0].update(culprit="libfoo.so!?", culprit_build_id="ab12"),
             "worst_events[0].culprit_build_id must be beside a nameless function"),
            (lambda g: g["worst_events"][0].update(culprit_callback=None,
                                                   culprit_callback_build_id="ab12"),
             "worst_events[0].culprit_callback_build_id must be beside a nameless function"),
            (lambda g: g["worst_events"][0].update(culprit_callback="libfoo.so+0x10",
                                                   culprit_callback_build_id=["ab"]),
             "worst_events[0].culprit_callback_build_id must be a string or null"),
            (lambda g: g["worst_events"][0]["parts"][0].update(callback="libfoo.so+0x10",
                                                               callback_build_id="abc"),
             "worst_events[0].parts[0].callback_build_id must be hex digits"),
            (lambda g: g["worst_events"][0]["parts"][0].update(callback="c1",
                                                               callback_build_id="ab12"),
             "worst_events[0].parts[0].callback_build_id must be beside a nameless function"),
            (lambda g: g["worst_events"][0]["parts"][0].update(culprit="libfoo.so+0x10",
                                                               culprit_build_id="ab" * 65),
             "worst_events[0].parts[0].culprit_build_id must be hex digits"),
            (lambda g: g["worst_events"][0]["parts"][0].update(culprit="libfoo.so+10",
                                                               culprit_build_id="ab12"),
             "worst_events[0].parts[0].culprit_build_id must be beside a nameless function"),
            (lambda g: g["worst_events"][0]["parts"][0].update(
                culprit_callback="+0x10", culprit_callback_build_id="ab12"),
             "worst_events[0].parts[0].culprit_callback_build_id must be beside a nameless"),
            (lambda g: g["worst_events"][0]["parts"][0].update(
                culprit_callback="libfoo.so+0x10", culprit_callback_build_id=""),
             "worst_events[0].parts[0].culprit_callback_build_id must be hex digits"),
            (lambda g: g.update(postings=[{
                "signature": "s", "posted_from": "f", "callback": "on_idle",
                "callback_build_id": "ab12", "events": 1, "parts": 1, "runs": 1,
                "blocked_ns": 1}]),
             "postings[0].callback_build_id must be beside a nameless function"),
            (lambda g: g.update(postings=[{
                "signature": "s", "posted_from": "f", "callback": "libfoo.so+0x10",
                "callback_build_id": "0xab", "events": 1, "parts": 1, "runs": 1,
                "blocked_ns": 1}]),
             "postings[0].callback_build_id must be hex digits"),
            (lambda g: g.update(diagnoses=[diagnosis_entry(
                {"function": "load_settings", "function_build_id": "ab12", "blocked_ns": 5})]),
             "diagnoses[0].places[0].function_build_id must be beside a nameless function"),
            (lambda g: g.update(diagnoses=[diagnosis_entry(
                {"function": None, "function_build_id": "ab12", "blocked_ns": 5})]),
             "diagnoses[0].places[0].function_build_id must be beside a nameless function"),
            (lambda g: g.update(diagnoses=[diagnosis_entry(
                {"function": "libfoo.so+0x10", "function_build_id": "g0", "blocked_ns": 5})]),
             "diagnoses[0].places[0].function_build_id must be hex digits"),
            (lambda g: g.update(diagnoses=[diagnosis_entry(
                {"function": "libfoo.so+0x10", "function_build_id": "ab12", "blocked_ns": 5},
                {"function": "libfoo.so+0x10", "function_build_id": "ab12", "blocked_ns": 3})]),
             "diagnoses[0].places[1] is listed twice"),
        ]
        for mutate, fragment in cases:
            with self.subTest(fragment=fragment):
                g = copy.deepcopy(good)
                mutate(g)
                self.check_all(self.write_json("bad-agg.json", g), fragment)
        # One function of two builds is two places; they read, merge and
        # write back as they are.
        g = copy.deepcopy(good)
        g["diagnoses"] = [diagnosis_entry(
            {"function": "libfoo.so+0x10", "function_build_id": "ab12", "blocked_ns": 5},
            {"function": "libfoo.so+0x10", "function_build_id": "cd34", "blocked_ns": 3},
            {"function": "libfoo.so+0x10", "blocked_ns": 1})]
        again = self.merge(self.write_json("two-builds.json", g), out="two-builds-again.json")
        self.assertEqual(again["diagnoses"], g["diagnoses"])

    def test_keep_going(self):
        a, b = golden_reports()
        pa, pb = self.write_json("a.json", a), self.write_json("b.json", b)
        bad = self.write("bad.json", "[")
        proc = run_cli("merge", pa, bad, pb, "--keep-going", "-o", self.path("m.json"))
        self.assertExit(proc, 0)
        self.assertIn("bad.json: not valid JSON", proc.err)
        self.assertIn("skipped", proc.err)
        with open(self.path("m.json")) as f:
            self.assertEqual(json.load(f)["runs"]["count"], 2)

    def test_not_regular_files(self):
        fifo = self.path("fifo.json")
        os.mkfifo(fifo)
        self.check_all(fifo, "not a regular file")

    def test_huge_and_deep_files(self):
        path = self.path("huge.json")
        with open(path, "wb") as f:
            f.truncate(300 * 1024 * 1024)
        self.check_all(path, "too large")
        self.check_all(self.write("deep.json", "[" * 100_000), "nested more than")

    def test_random_corruption_never_crashes(self):
        # Bytes flipped, cut or duplicated anywhere: a clean exit, never a signal.
        rng = random.Random(42)
        text = self.golden_text().encode()
        for i in range(150):
            data = bytearray(text)
            for _ in range(rng.randint(1, 4)):
                pos = rng.randrange(len(data))
                op = rng.randrange(3)
                if op == 0:
                    data[pos] = rng.randrange(256)
                elif op == 1:
                    del data[pos:pos + rng.randint(1, 40)]
                else:
                    data[pos:pos] = data[pos:pos + rng.randint(1, 40)]
            path = self.write("fuzz.json", bytes(data))
            for command in ("report", "merge"):
                args = [command, path] + (["-o", self.path("o.json")] if command == "merge" else [])
                proc = run_cli(*args)
                self.assertIn(proc.returncode, (0, 1), f"case {i}: {proc.err}")
                if proc.returncode == 1:
                    self.assertTrue(proc.err.startswith("jankscope: "), proc.err)


if __name__ == "__main__":
    unittest.main()
