#!/usr/bin/env python3
"""Tests of the CLI's JSON output (docs/cli-json.md): `summary`, `report` and
`diff` with --json, on synthetic reports. Each document is parsed, its
members checked against the documented types, and its numbers against what
the text prints for the same input; diff's verdicts, its warning for runs of
different programs and --strict's exit status; and hostile inputs: a clear
error, a non-zero exit and nothing on stdout.

Run by meson (tests/cli/meson.build) with JANKSCOPE_CLI set; by hand:
  JANKSCOPE_CLI=build/src/cli/jankscope python3 tests/cli/test_cli_json.py
"""

import json
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_analysis as ta  # noqa: E402  (reports for report and diff)
import test_cli as base  # noqa: E402  (reports for summary, run_cli)
import test_export as te  # noqa: E402  (reports with profiles)

MS = base.MS
run_cli = base.run_cli

INT, NUM, STR, BOOL, OBJ, ARR, NULL = int, (int, float), str, bool, dict, list, type(None)


def ms_text(ns):
    """summary-printer.c's format_ms: two decimals below 1 ms."""
    ms = ns / 1e6
    return f"{ms:.2f} ms" if ms < 1.0 else f"{ms:.1f} ms"


def duration_text(ns):
    """analysis.c's cli_format_duration (below an hour)."""
    return f"{ns / 1e9:.1f} s" if ns >= 1_000_000_000 else ms_text(ns)


def fine_text(ns):
    """analysis.c's cli_format_duration_fine (below an hour)."""
    return f"{ns / 1e9:.3f} s" if ns >= 1_000_000_000 else ms_text(ns)


class JsonTestCase(ta.AnalysisTestCase):
    def json_of(self, *args, code=0):
        proc = run_cli(*args)
        self.assertExit(proc, code)
        self.assertTrue(proc.out.endswith("}\n"), proc.out[-200:])
        # Pretty, like the other JSON outputs: one member a line.
        self.assertTrue(proc.out.startswith('{\n  "format" : '), proc.out[:200])
        return json.loads(proc.out), proc

    def assertTypes(self, document, schema, where=""):
        """Every member of `schema` is in `document` with one of its types
        (a type, a tuple of them, or a nested schema for an object)."""
        for name, kind in schema.items():
            self.assertIn(name, document, f"{where}{name}")
            value = document[name]
            if isinstance(kind, dict):
                self.assertIsInstance(value, dict, f"{where}{name}")
                self.assertTypes(value, kind, f"{where}{name}.")
                continue
            kinds = kind if isinstance(kind, tuple) else (kind,)
            # bool is an int in Python: an integer member must not be a boolean.
            if bool not in kinds:
                self.assertNotIsInstance(value, bool, f"{where}{name}")
            self.assertIsInstance(value, kinds, f"{where}{name}: {value!r}")


# ---- summary --------------------------------------------------------------------------

EVENT_SCHEMA = {
    "id": INT, "start_ns": (INT, NULL), "duration_ns": INT, "tier": STR, "type": STR,
    "source": (STR, NULL), "callback": (STR, NULL), "class": (STR, NULL), "wait": (STR, NULL),
    "cpu_ns": (INT, NULL), "off_cpu_ns": (INT, NULL), "culprit": (OBJ, NULL),
    "top_stack": (OBJ, NULL), "parts_count": INT, "parts": ARR,
}
CULPRIT_SCHEMA = {
    "function": (STR, NULL), "file": (STR, NULL), "line": (INT, NULL), "module": (STR, NULL),
    "callback": (STR, NULL), "confidence": (NUM, NULL), "samples": (INT, NULL),
    "of_samples": (INT, NULL), "reason": (STR, NULL),
}
SUMMARY_SCHEMA = {
    "format": STR, "version": INT, "final": BOOL,
    "process": {"name": (STR, NULL), "pid": (INT, NULL), "exe": (STR, NULL)},
    "toolkit": {"name": (STR, NULL), "gtk_version": (STR, NULL), "mode": (STR, NULL)},
    "monitored_ns": INT, "iterations": INT, "dispatches": INT, "busy_ns": INT,
    "busy_fraction": (NUM, NULL),
    "events": {"total": INT, "threshold_ns": INT, "dropped": INT,
               "by_tier": {"noticeable": INT, "severe": INT, "frozen": INT, "hang": INT}},
    "records_dropped": INT, "frames": (OBJ, NULL), "sampler": (OBJ, NULL),
    "ongoing_hang": (OBJ, NULL), "previous_run": (OBJ, NULL),
    "top_sources_by_total": ARR, "top_sources_by_longest": ARR, "events_listed": INT,
    "worst_events": ARR,
}
SAMPLER_SCHEMA = {
    "sampling_off": BOOL, "samples": (INT, NULL), "stalls": (INT, NULL),
    "signals_sent": (INT, NULL), "signal_timeouts": (INT, NULL),
    "syscalls_interrupted": (INT, NULL), "signal_lost": BOOL, "sampling_path": (STR, NULL),
    "sampling_path_reason": (STR, NULL),
}
SOURCE_SCHEMA = {"source": (STR, NULL), "callback": (STR, NULL), "count": INT, "total_ns": INT,
                 "max_ns": INT, "p95_ns": INT}


class SummaryJsonTest(JsonTestCase):
    def summary(self, report):
        path = self.write_json("report.json", report)
        text = run_cli("summary", path)
        self.assertExit(text, 0)
        document, proc = self.json_of("summary", path, "--json")
        self.assertEqual(proc.err, "")
        return document, text.out

    def check_event(self, event):
        self.assertTypes(event, EVENT_SCHEMA, f"event {event['id']}: ")
        if event["culprit"] is not None:
            self.assertTypes(event["culprit"], CULPRIT_SCHEMA, "culprit.")

    def test_schema_and_overview(self):
        document, text = self.summary(base.make_report())
        self.assertEqual((document["format"], document["version"]),
                         ("jankscope-summary-json", 1))
        self.assertTypes(document, SUMMARY_SCHEMA)
        self.assertEqual(document["process"]["name"], "fake-app")
        self.assertEqual(text.splitlines()[0],
                         f"Jank summary: fake-app (pid {document['process']['pid']})")
        self.assertEqual(base.overview_value(text, "Monitored"),
                         f"{document['monitored_ns'] / 1e9:.1f} s")
        self.assertEqual(base.overview_value(text, "Iterations"), str(document["iterations"]))
        self.assertEqual(base.overview_value(text, "Dispatches"), str(document["dispatches"]))
        self.assertEqual(base.overview_value(text, "Busy"),
                         f"{100 * document['busy_fraction']:.1f} % of the monitored time")
        events = document["events"]
        tiers = events["by_tier"]
        self.assertEqual(base.overview_value(text, "Stall events"),
                         f"{events['total']} (noticeable {tiers['noticeable']}, severe "
                         f"{tiers['severe']}, frozen {tiers['frozen']}, hang {tiers['hang']}), "
                         f"threshold {ms_text(events['threshold_ns'])}")
        self.assertIsNone(document["ongoing_hang"])
        self.assertTrue(document["final"])

    def test_sampler(self):
        report = base.make_stacks_report()
        document, _ = self.summary(report)
        self.assertTypes(document["sampler"], SAMPLER_SCHEMA, "sampler.")
        # A report from before sampling_path: null.
        self.assertIsNone(document["sampler"]["sampling_path"])
        report["summary"]["sampler"].update(sampling_path="watchdog",
                                            sampling_path_reason="timer_create: EAGAIN")
        document, text = self.summary(report)
        self.assertTypes(document["sampler"], SAMPLER_SCHEMA, "sampler.")
        self.assertEqual((document["sampler"]["sampling_path"],
                          document["sampler"]["sampling_path_reason"]),
                         ("watchdog", "timer_create: EAGAIN"))
        self.assertIn("sampled by the watchdog (timer_create: EAGAIN)",
                      base.overview_value(text, "Sampling"))

    def test_sources_are_the_tables(self):
        document, text = self.summary(base.make_report())
        for member, heading in (("top_sources_by_total", "Top sources by total time"),
                                ("top_sources_by_longest", "Top sources by longest dispatch")):
            rows = base.section(text, heading)[1:]
            self.assertEqual(len(document[member]), len(rows))
            for source, row in zip(document[member], rows):
                self.assertTypes(source, SOURCE_SCHEMA)
                cells = row.split()
                name = source["source"] if source["source"] is not None else "(unnamed)"
                self.assertEqual(cells[:len(name.split())], name.split(), row)
                self.assertIn(str(source["count"]), cells)
                for key in ("total_ns", "max_ns", "p95_ns"):
                    self.assertIn(ms_text(source[key]), row)

    def test_worst_events_are_the_table(self):
        document, text = self.summary(base.make_report())
        table = base.section(text, "Worst events (5 of 7)")[1:]
        self.assertEqual(document["events_listed"], 7)
        self.assertEqual(len(document["worst_events"]), 5)
        for event, row in zip(document["worst_events"], table):
            self.check_event(event)
            cells = row.split()
            self.assertEqual(cells[0], str(event["id"]))
            self.assertEqual(" ".join(cells[1:3]), f"{event['start_ns'] / 1e9:.3f} s")
            self.assertEqual(" ".join(cells[3:5]), ms_text(event["duration_ns"]))
            self.assertEqual(cells[5], event["tier"])
            self.assertEqual(cells[6], event["type"])

    def test_stacks_and_culprits(self):
        document, text = self.summary(base.make_stacks_report())
        shown = [e for e in document["worst_events"] if e["top_stack"] is not None]
        self.assertTrue(shown)
        for event in document["worst_events"]:
            self.check_event(event)
        event = shown[0]
        frames = event["top_stack"]["frames"]
        self.assertTrue(frames)
        self.assertIn(frames[0]["function"], text)
        self.assertIsNotNone(event["culprit"])
        self.assertIn(event["culprit"]["function"], text)
        self.assertIn(f"{event['top_stack']['samples']} of {event['top_stack']['of_samples']} "
                      "samples", text)

    def test_ongoing_hang(self):
        document, text = self.summary(base.make_hang_report())
        hang = document["ongoing_hang"]
        self.assertIsNotNone(hang)
        self.check_event(hang)
        self.assertEqual(hang["type"], "hang")
        self.assertIn(f"Main thread stuck for {duration_text(hang['duration_ns'])}", text)

    def test_hostile_strings_stay_json(self):
        """Escape sequences and control characters are escaped, kept as they are."""
        report = base.make_stacks_report()
        name = "app\x1b[2J\r\nInjected \u2028 \x07"
        report["process"]["name"] = name
        report["summary"]["sources"] = [
            base.source("\x1b]0;pwned\x07", "cb\x00\"}\\", 1, 100, 100, 100)]
        report["events"][3]["culprit"]["function"] = "evil\x9b31m" + "x" * 5000
        document, _ = self.summary(report)
        self.assertEqual(document["process"]["name"], name)
        # The reader's (a NUL is U+FFFD), the rest as it is.
        self.assertEqual(document["top_sources_by_total"][0]["callback"], "cb\ufffd\"}\\")
        path = self.path("report.json")
        out = run_cli("summary", "--json", path).out
        for raw in ("\x1b", "\r", "\x07", "\x00"):
            self.assertNotIn(raw, out)


# ---- report ---------------------------------------------------------------------------

TABLE_ROW_SCHEMA = {"label": STR, "events": INT, "blocked_ns": INT, "mean_ns": (INT, NULL),
                    "max_ns": INT, "attributed_ns": INT, "unattributed_ns": INT}
REPORT_SCHEMA = {
    "format": STR, "version": INT,
    "overview": {
        "runs": INT, "apps": OBJ, "apps_other_runs": INT, "reports": INT, "monitored_ns": INT,
        "installations": INT, "filter": (OBJ, NULL),
        "stall_events": {"total": INT, "blocked_ns": INT,
                         "by_tier": {"noticeable": INT, "severe": INT, "frozen": INT,
                                     "hang": INT}},
        "attribution": {"blocked_ns": INT, "attributed_ns": INT, "to_signatures_ns": INT,
                        "signatures": INT, "unattributed_ns": INT},
        "frame_events": {"total": INT, "uncovered": INT, "uncovered_attributed_ns": INT},
        "iteration_busy": (OBJ, NULL), "frame_time": (OBJ, NULL), "frames": INT,
        "frames_slow": INT, "overflowed": BOOL, "saturated": BOOL,
    },
    "diagnoses": {"of": INT, "rows": ARR, "other_parts": INT, "other_ns": INT},
    "postings": {"of": INT, "rows": ARR, "other_parts": INT, "other_ns": INT},
    "signatures": {"sort": STR, "of": INT, "runs_upper_bound": BOOL, "rows": ARR,
                   "other": {"signatures": INT, "total_ns": INT, "events": INT, "samples": INT},
                   "unattributed_ns": INT},
    "by_tier": {"of": INT, "rows": ARR}, "by_class": {"of": INT, "rows": ARR},
    "by_source": {"of": INT, "rows": ARR}, "by_scene": (OBJ, NULL),
    "worst_events": {"of": INT, "rows": ARR},
}
SIGNATURE_SCHEMA = {"rank": INT, "id": STR, "signature": STR, "total_ns": INT,
                    "mean_ns": (INT, NULL), "max_ns": INT, "events": INT, "samples": INT,
                    "runs": INT}
WORST_SCHEMA = {"app": (STR, NULL), "pid": INT, "event_id": INT, "duration_ns": INT,
                "tier": (STR, NULL), "class": (STR, NULL), "wait": (STR, NULL),
                "source": (STR, NULL), "callback": (STR, NULL), "culprit": (STR, NULL),
                "culprit_callback": (STR, NULL), "posted_from": (STR, NULL),
                "posted_from_inherited": BOOL, "signature": (STR, NULL), "attributed_ns": INT, "unattributed_ns": INT,
                "parts_count": INT, "parts": ARR}
PART_SCHEMA = {"type": (STR, NULL), "source": (STR, NULL), "callback": (STR, NULL),
               "duration_ns": INT, "tier": (STR, NULL), "class": (STR, NULL),
               "wait": (STR, NULL), "culprit": (STR, NULL), "culprit_callback": (STR, NULL),
               "posted_from": (STR, NULL), "posted_from_inherited": BOOL,
               "attributed_ns": (INT, NULL),
               "unattributed_ns": (INT, NULL)}
POSTING_SCHEMA = {"posted_from": (STR, NULL), "callback": (STR, NULL), "signature": STR,
                  "events": INT, "parts": INT, "runs": INT, "blocked_ns": INT}


class ReportJsonTest(JsonTestCase):
    def both(self, *args):
        text = self.report(*args).out
        document, _ = self.json_of("report", *args, "--json")
        self.assertTypes(document, REPORT_SCHEMA)
        self.assertEqual((document["format"], document["version"]),
                         ("jankscope-report-json", 1))
        return document, text

    def golden(self):
        a, b = ta.golden_reports()
        return self.write_json("a.json", a), self.write_json("b.json", b)

    def test_overview_is_the_text(self):
        document, text = self.both(*self.golden())
        o = document["overview"]
        self.assertEqual(o["apps"], {"fake-app": 2})
        self.assertEqual(text.splitlines()[0], f"Jank report: {o['runs']} runs of fake-app")
        s = o["stall_events"]
        tiers = s["by_tier"]
        self.assertEqual(base.overview_value(text, "Stall events"),
                         f"{s['total']} (noticeable {tiers['noticeable']}, severe "
                         f"{tiers['severe']}, frozen {tiers['frozen']}, hang {tiers['hang']}), "
                         f"{duration_text(s['blocked_ns'])} blocked")
        a = o["attribution"]
        self.assertEqual(base.overview_value(text, "Attributed"),
                         f"{fine_text(a['attributed_ns'])} "
                         f"({round(100 * a['attributed_ns'] / a['blocked_ns'])}%) to stacks, "
                         f"{fine_text(a['to_signatures_ns'])} to {a['signatures']} "
                         f"signatures; {fine_text(a['unattributed_ns'])} unattributed")
        busy = o["iteration_busy"]
        self.assertIn(f"P50 {duration_text(busy['p50_ns'])}, P95 {duration_text(busy['p95_ns'])}"
                      f", P99 {duration_text(busy['p99_ns'])} ({busy['count']} iterations",
                      base.overview_value(text, "Iteration busy"))
        self.assertEqual(o["frame_events"]["total"], 1)

    def test_signatures_are_the_table(self):
        document, text = self.both(*self.golden())
        sigs = document["signatures"]
        self.assertEqual(sigs["sort"], "time")
        rows = base.section(text, f"Top signatures by stall time ({len(sigs['rows'])} of "
                                  f"{sigs['of']})")[1:]
        for sig, row in zip(sigs["rows"], rows):
            self.assertTypes(sig, SIGNATURE_SCHEMA)
            self.assertRegex(sig["id"], r"^[0-9a-f]{16}$")
            cells = row.split()
            self.assertEqual(cells[0], str(sig["rank"]))
            self.assertEqual(" ".join(cells[1:3]), duration_text(sig["total_ns"]))
            self.assertEqual(" ".join(cells[3:5]), duration_text(sig["mean_ns"]))
            self.assertEqual(" ".join(cells[5:7]), duration_text(sig["max_ns"]))
            self.assertEqual(cells[7:10], [str(sig["events"]), str(sig["samples"]),
                                           str(sig["runs"])])
            if sig["signature"]:
                self.assertEqual(" ".join(cells[10:]), sig["signature"])
        self.assertEqual(sigs["rows"][0]["signature"], "parse_row < load_history")
        self.assertIn(duration_text(sigs["unattributed_ns"]), rows[-1])
        # --top and --sort act on the JSON as on the text.
        top1, _ = self.both(*self.golden(), "--top", "1", "--sort", "count")
        self.assertEqual(top1["signatures"]["sort"], "events")
        self.assertEqual(len(top1["signatures"]["rows"]), 1)
        self.assertEqual(top1["signatures"]["other"]["signatures"], 2)
        self.assertEqual(len(top1["worst_events"]["rows"]), 1)

    def test_tables_are_the_text(self):
        document, text = self.both(*self.golden())
        for member, heading in (("by_tier", "By tier"), ("by_class", "By class"),
                                ("by_source", "By source")):
            rows = base.section(text, heading)[1:]
            table = document[member]
            self.assertEqual(len(table["rows"]), len(rows), member)
            for entry, row in zip(table["rows"], rows):
                self.assertTypes(entry, TABLE_ROW_SCHEMA, f"{member}: ")
                self.assertTrue(row.strip().startswith(entry["label"]), (entry, row))
                expected = [str(entry["events"]), duration_text(entry["blocked_ns"]),
                            duration_text(entry["mean_ns"]), duration_text(entry["max_ns"]),
                            f"{round(100 * entry['attributed_ns'] / entry['blocked_ns'])}%"]
                self.assertTrue(" ".join(row.split()).endswith(" ".join(expected)),
                                (expected, row))
        self.assertEqual([r["label"] for r in document["by_tier"]["rows"]],
                         ["noticeable", "severe", "frozen"])
        self.assertEqual(document["by_source"]["rows"][0]["callback"], "c1")
        self.assertIsNone(document["by_scene"])

    def test_scenes(self):
        a, b = ta.golden_reports()
        a["events"][0]["scene"] = "chat-list"
        document, text = self.both(self.write_json("a.json", a), self.write_json("b.json", b))
        rows = base.section(text, "By scene")[1:]
        self.assertEqual([r["label"] for r in document["by_scene"]["rows"]],
                         [row.split()[0] for row in rows])

    def test_filter(self):
        document, text = self.both(*self.golden(), "--tier=frozen")
        f = document["overview"]["filter"]
        self.assertEqual(f["tiers"], ["frozen"])
        self.assertIsNone(f["classes"])
        self.assertIn(f"tier frozen ({f['events_left_out']} events left out)",
                      base.overview_value(text, "Filter"))

    def test_worst_events_with_parts(self):
        document, text = self.both(self.write_json("P.json", te.profile_report()))
        worst = document["worst_events"]
        self.assertEqual(f"Worst events ({len(worst['rows'])} of {worst['of']})",
                         next(line for line in text.splitlines()
                              if line.startswith("Worst events")))
        for e in worst["rows"]:
            self.assertTypes(e, WORST_SCHEMA)
            for part in e["parts"]:
                self.assertTypes(part, PART_SCHEMA)
        event = next(e for e in worst["rows"] if e["event_id"] == 1)
        self.assertEqual(event["parts_count"], 2)
        self.assertEqual([(p["callback"], p["duration_ns"], p["class"], p["wait"], p["culprit"],
                           p["culprit_callback"], p["attributed_ns"], p["unattributed_ns"])
                          for p in event["parts"]],
                         [("work_cb", 300 * MS, "compute", None, "work_cb", None, 240 * MS,
                           60 * MS),
                          ("sleepy_cb", 120 * MS, "wait", "sleep", "g_usleep", "sleepy_cb",
                           120 * MS, 0)])
        rows = [line.split() for line in base.section(text, "Worst events (3 of 3)")]
        first = next(i for i, r in enumerate(rows) if r[:3] == ["fake-app", "(5151)", "1"])
        self.assertEqual(" ".join(rows[first][3:5]), duration_text(event["duration_ns"]))
        self.assertEqual(rows[first + 1][2:4], duration_text(300 * MS).split())

    def test_diagnoses(self):
        document, text = self.both(self.write_json("D.json", ta.diagnosed_report()))
        d = document["diagnoses"]
        self.assertEqual(d["of"], 2)
        first = d["rows"][0]
        self.assertEqual((first["id"], first["title"], first["events"], first["blocked_ns"]),
                         ("slow-callback", "Slow callback", 2, 800 * MS))
        self.assertEqual(first["places"][0]["function"], "spin")
        self.assertTrue(first["fix"].startswith("Split the work into short steps"))
        lines = base.section(text, "Diagnoses")
        self.assertEqual(lines[0], f"  {first['title']}: {first['events']} events, "
                                   f"{duration_text(first['blocked_ns'])}, in "
                                   f"`{first['places'][0]['function']}` and "
                                   f"{len(first['places']) - 1} other place")
        self.assertEqual(d["rows"][1]["id"], "sleep")
        # Without diagnoses: the section is there, empty.
        document, text = self.both(*self.golden())
        self.assertEqual((document["diagnoses"]["of"], document["diagnoses"]["rows"]), (0, []))
        self.assertNotIn("Diagnoses", text)

    def test_postings(self):
        document, text = self.both(self.write_json("P.json", ta.posted_report()))
        d = document["postings"]
        self.assertEqual((d["of"], d["other_parts"], d["other_ns"]), (2, 0, 0))
        for row in d["rows"]:
            self.assertTypes(row, POSTING_SCHEMA)
        first = d["rows"][0]
        self.assertEqual((first["posted_from"], first["callback"], first["signature"],
                          first["events"], first["runs"]),
                         ("load_doc", "work_cb", "load_doc < main", 1, 1))
        lines = base.section(text, "Slow callbacks by posting site (2 of 2)")
        self.assertEqual(lines[1].split()[:5],
                         ["load_doc", "work_cb", "1", *duration_text(first["blocked_ns"]).split()])
        worst = [e for e in document["worst_events"]["rows"] if e["posted_from"] is not None]
        self.assertEqual(worst[0]["posted_from"], "load_doc")
        # Without posting sites: the section is there, empty.
        document, text = self.both(*self.golden())
        self.assertEqual((document["postings"]["of"], document["postings"]["rows"]), (0, []))
        self.assertNotIn("posting site", text)


# ---- diff -----------------------------------------------------------------------------

METRIC_SCHEMA = {"id": STR, "name": STR, "unit": STR, "base": NUM, "new": NUM,
                 "change": (NUM, NULL), "verdict": STR, "why": (STR, NULL), "approximate": BOOL}
DIFF_SCHEMA = {"format": STR, "version": INT, "base": STR, "new": STR,
               "threshold_percent": NUM, "base_apps": ARR, "new_apps": ARR,
               "different_programs": BOOL, "metrics": ARR, "regressions": INT,
               "not_judged": INT, "regressed": BOOL, "exit_status": INT}
VERDICTS = {"REGRESSED": "regressed", "improved": "improved", "noise": "noise",
            "not judged": "not_judged", "ok": "ok"}


def named(report, name, exe):
    report["process"]["name"] = name
    report["process"]["exe"] = exe
    return report


class DiffJsonTest(JsonTestCase):
    def diff(self, base_report, new_report, *args, code):
        paths = (self.write_json("base.json", base_report),
                 self.write_json("new.json", new_report))
        text = run_cli("diff", *paths, *args)
        self.assertExit(text, code)
        document, proc = self.json_of("diff", *paths, "--json", *args, code=code)
        self.assertTypes(document, DIFF_SCHEMA)
        self.assertEqual((document["format"], document["version"]), ("jankscope-diff-json", 1))
        self.assertEqual(document["exit_status"], code)
        self.assertEqual(proc.err, text.err, "the same warnings with --json")
        return document, text, proc

    def check_against_text(self, document, text):
        rows = base.section(text.out, "  METRIC")
        self.assertEqual(len(document["metrics"]), len(rows))
        for metric, row in zip(document["metrics"], rows):
            self.assertTypes(metric, METRIC_SCHEMA, f"{metric['id']}: ")
            self.assertTrue(row.strip().startswith(metric["name"]), row)
            verdict = next(v for k, v in VERDICTS.items() if f"  {k}" in row)
            self.assertEqual(metric["verdict"], verdict, row)
            if metric["unit"] == "ns":
                self.assertIsInstance(metric["base"], int)
                self.assertIn(f"{duration_text(metric['base'])}  ", row)
                self.assertIn(f"{duration_text(metric['new'])}  ", row)
            elif metric["unit"] == "per_minute":
                self.assertIn(f"{metric['base']:.2f}/min", row)
            else:
                self.assertEqual(metric["unit"], "fraction")
                self.assertIn(f"{100 * metric['base']:.2f}%", row)
            if metric["change"] is not None:
                self.assertIn(f"{100 * metric['change']:+.1f}%", row)
        self.assertEqual(document["regressions"],
                         sum(m["verdict"] == "regressed" for m in document["metrics"]))

    def test_regression(self):
        document, text, _ = self.diff(ta.diff_report(1, 1),
                                      ta.diff_report(2, 2, frame_scale=1.10), code=1)
        self.check_against_text(document, text)
        verdicts = {m["id"]: m["verdict"] for m in document["metrics"]}
        self.assertEqual(verdicts["frame_time_p95"], "regressed")
        self.assertEqual(verdicts["frame_time_p99"], "regressed")
        self.assertEqual(verdicts["iteration_busy_p95"], "ok")
        self.assertEqual((document["regressions"], document["regressed"]), (2, True))
        self.assertEqual(document["threshold_percent"], 5)
        self.assertFalse(document["different_programs"])
        self.assertEqual(document["base_apps"], ["fake-app"])
        frame = next(m for m in document["metrics"] if m["id"] == "frame_time_p95")
        self.assertAlmostEqual(frame["change"], (frame["new"] - frame["base"]) / frame["base"],
                               places=2)

    def test_no_change(self):
        document, text, proc = self.diff(ta.diff_report(1, 1), ta.diff_report(2, 2), code=0)
        self.check_against_text(document, text)
        self.assertEqual({m["verdict"] for m in document["metrics"]}, {"ok"})
        self.assertEqual(len(document["metrics"]), 6)
        self.assertEqual((document["regressions"], document["regressed"]), (0, False))
        self.assertEqual(proc.err, "")

    def test_not_judged(self):
        document, text, _ = self.diff(ta.diff_report(1, 1, events_total=3),
                                      ta.diff_report(2, 2, events_total=6), code=0)
        self.check_against_text(document, text)
        rate = next(m for m in document["metrics"] if m["id"] == "jank_rate")
        self.assertEqual(rate["verdict"], "not_judged")
        self.assertIn("too few jank events", rate["why"])
        self.assertEqual(document["not_judged"], 1)

    def test_different_programs(self):
        calculator = named(ta.diff_report(1, 1), "gnome-calculator", "/usr/bin/gnome-calculator")
        editor = named(ta.diff_report(2, 2), "gedit", "/usr/bin/gedit")
        document, text, proc = self.diff(calculator, editor, code=0)
        self.assertTrue(document["different_programs"])
        self.assertEqual((document["base_apps"], document["new_apps"]),
                         (["gnome-calculator"], ["gedit"]))
        self.assertEqual(proc.err.count("\n"), 1, proc.err)
        self.assertEqual(proc.err, "jankscope: warning: BASE and NEW are runs of different "
                                   "programs (gnome-calculator, gedit): the comparison says "
                                   "nothing about a regression\n")
        self.assertIn("Result: no regression", text.out, "still compared")
        # --strict fails on it, with its own status, even without a regression...
        document, _, _ = self.diff(calculator, editor, "--strict", code=3)
        self.assertTrue(document["different_programs"])
        # ... and before a regression's 1.
        document, _, _ = self.diff(calculator, named(ta.diff_report(2, 2, frame_scale=1.10),
                                                     "gedit", "/usr/bin/gedit"),
                                   "--strict", code=3)
        self.assertTrue(document["regressed"])

    def test_same_program_is_not_warned(self):
        a = named(ta.diff_report(1, 1), "gedit", "/usr/bin/gedit")
        b = named(ta.diff_report(2, 2), "gedit", "/usr/bin/gedit")
        document, _, proc = self.diff(a, b, "--strict", code=0)
        self.assertFalse(document["different_programs"])
        self.assertEqual(proc.err, "")
        # An app on both sides (folders of several apps) is the same program.
        c = named(ta.diff_report(3, 3), "gnome-calculator", "/usr/bin/gnome-calculator")
        os.makedirs(self.path("left"))
        os.makedirs(self.path("right"))
        self.write_json("left/a.json", a)
        self.write_json("left/c.json", c)
        self.write_json("right/b.json", b)
        proc = run_cli("diff", self.path("left"), self.path("right"), "--strict", "--json")
        self.assertExit(proc, 0)
        self.assertFalse(json.loads(proc.out)["different_programs"])
        # A report that names no program says nothing either way.
        nameless = named(ta.diff_report(4, 4), None, None)
        document, _, proc = self.diff(nameless, b, "--strict", code=0)
        self.assertFalse(document["different_programs"])


# ---- errors: nothing on stdout ----------------------------------------------------------

HOSTILE = {
    "garbage.json": b"\x00\xffnot json at all",
    "truncated.json": b'{"format": "jankscope-report", "version": 1, "process": {',
    "empty.json": b"",
    "wrong-format.json": b'{"format": "something-else", "version": 1}',
    "deep.json": b"[" * 100000 + b"]" * 100000,
    "bad-member.json": None,  # a valid report with a negative count (below)
}


class ErrorTest(JsonTestCase):
    def setUp(self):
        super().setUp()
        bad = base.make_report()
        bad["summary"]["iterations"] = -5
        self.paths = []
        for name, content in HOSTILE.items():
            path = self.path(name)
            with open(path, "wb") as f:
                f.write(content if content is not None else json.dumps(bad).encode())
            self.paths.append(path)
        self.good = self.write_json("good.json", ta.diff_report(1, 1))

    def check_fails_cleanly(self, *args, code, usage=False):
        proc = run_cli(*args)
        self.assertExit(proc, code)
        self.assertEqual(proc.out, "", f"{args}: nothing on stdout")
        self.assertTrue(proc.err.startswith("jankscope: "), proc.err)
        if not usage:
            # One line (a usage error adds the usage).
            self.assertEqual(proc.err.count("\n"), 1, proc.err)

    def test_hostile_inputs(self):
        for path in self.paths + [self.path("missing.json"), self.tmp]:
            with self.subTest(path=os.path.basename(path)):
                self.check_fails_cleanly("summary", "--json", path, code=1)
                self.check_fails_cleanly("report", "--json", path, code=1)
                self.check_fails_cleanly("report", "--json", self.good, path, code=1)
                self.check_fails_cleanly("diff", "--json", self.good, path, code=2)
                self.check_fails_cleanly("diff", "--json", path, self.good, "--strict", code=2)

    def test_bad_options(self):
        self.check_fails_cleanly("summary", "--json", code=2, usage=True)
        self.check_fails_cleanly("report", "--json", "--top=0", self.good, code=2, usage=True)
        self.check_fails_cleanly("diff", "--json", self.good, code=2, usage=True)
        self.check_fails_cleanly("diff", "--json", "--threshold=-1", self.good, self.good,
                                 code=2, usage=True)

    def test_keep_going_still_writes_one_document(self):
        proc = run_cli("report", "--json", "--keep-going", self.good, self.paths[0])
        self.assertExit(proc, 0)
        self.assertEqual(json.loads(proc.out)["overview"]["reports"], 1)
        self.assertIn("jankscope: warning: ", proc.err)


if __name__ == "__main__":
    unittest.main()
