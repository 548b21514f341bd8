#!/usr/bin/env python3
"""The CLI against hostile inputs and outputs (src/reader/jsr-saturate.h,
src/cli/output-file.c, src/cli/cli-common.c; docs/exports.md, "Hostile
numbers" and "Options").

- Numbers: reports whose counts and times are 2^63 - 1 or near it, exported in
  every format and folded by report, merge and diff. Sums saturate, spans are
  never negative, nothing loops for ever, what merge writes reads back; and
  the same commands under a build of the CLI with UBSan (-fno-sanitize-recover,
  JANKSCOPE_CLI_UBSAN) report no undefined behaviour.
- Standard output: every command that writes there, with stdout = /dev/full,
  exits non-zero with one message.
- -o FILE: a FIFO (never blocked on), a symbolic link, a directory and a
  character device are refused and left as they were; a regular file is
  replaced atomically, keeping its mode.
- Messages: a string of a report, a file name or an option value with
  control characters and 10,000 characters comes out escaped and cut.

Run by meson (tests/cli/meson.build), suites cli and exports:

    meson test -C build hostile -v
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_export as te  # noqa: E402  (the synthetic reports and the independent readers)

BIG = 2**63 - 1
TIMEOUT = 60
CLI = os.environ.get("JANKSCOPE_CLI", "")
CLI_UBSAN = os.environ.get("JANKSCOPE_CLI_UBSAN", "")
TEXT_FORMATS = ("chrome", "folded", "json")
# Numbers every hostile report set is built with: the largest, one below,
# one that overflows when added to itself, one that takes ten of them.
VALUES = (BIG, BIG - 1, BIG // 2 + 1, 10**18)
# Members that keep their value: they are not counts or times (or must
# stay small for the report to be valid at all).
KEEP = ("version", "stack", "pid", "id", "window", "sub_bits", "min_exp", "signal", "node",
        "part")


def run(cli, *args, stdout=subprocess.PIPE, timeout=TIMEOUT):
    proc = subprocess.run([cli, *args], env=te.clean_env(), stdin=subprocess.DEVNULL,
                          stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
    proc.out = proc.stdout.decode("utf-8", "replace") if proc.stdout is not None else ""
    proc.err = proc.stderr.decode("utf-8", "replace")
    return proc


def set_numbers(node, value):
    """Every integer count and time of a report (not the ones in KEEP) to value."""
    if isinstance(node, dict):
        for key, member in node.items():
            if isinstance(member, bool) or key in KEEP:
                continue
            if isinstance(member, int):
                node[key] = value
            else:
                set_numbers(member, value)
    elif isinstance(node, list):
        for member in node:
            set_numbers(member, value)


def hostile_reports(value):
    """The four synthetic reports of test_export.py with every count and time
    set to value, and the report with profiles (test_export.profile_report)
    with its profiles' and parts' counts and times too."""
    reports = [te.report_a(), te.report_b(), te.report_c(), te.report_d(), te.profile_report()]
    for report in reports:
        set_numbers(report, value)
    for e in reports[-1]["events"]:
        nodes = e["profile"]["nodes"]
        nodes["self_samples"] = [value] * len(nodes["self_samples"])
        nodes["self_ns"] = [value] * len(nodes["self_ns"])
        for p in e["parts"]:
            if p.get("profile"):
                p["profile"]["self_samples"] = [value] * len(p["profile"]["self_samples"])
                p["profile"]["self_ns"] = [value] * len(p["profile"]["self_ns"])
    return reports


def overflowing_report():
    """Real times, but two events of one stack with counts that add up past
    2^63 (the folded line, pprof's samples), a sample entry of count 2^63 - 2
    over 20 ms (sysprof: as many samples), stall and monitored times at the
    top, a frame part that ends before it starts and a frame whose paint
    phase and work took 2^63 - 1 ns."""
    report = te.report_a()
    e1, e2, e3 = report["events"]
    e2["stacks"] = [te.stack(BIG - 2, te.SA, "compute_hash < slow_idle")]
    e2["samples"] = [te.sample(3020, 0, BIG - 2, 3040)]
    e2["samples_total"] = BIG - 2
    e1["stacks"][0]["count"] = BIG - 3
    e1["samples_total"] = BIG
    e1["watched_ns"] = BIG
    e1["duration_ns"] = BIG
    e3["parts"][0]["end_ns"] = e3["parts"][0]["start_ns"] - 5
    e3["parts"][1]["phases"]["paint"] = BIG
    e3["parts"][1]["work_ns"] = BIG
    report["summary"]["monitored_ns"] = BIG
    report["summary"]["busy_ns"] = BIG
    return report


class HostileTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(te.need_env("JANKSCOPE_CLI")):
            raise AssertionError(f"JANKSCOPE_CLI={CLI} does not exist (not built?)")
        cls.built = te.formats_built()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="jankscope-hostile-test-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, content):
        with open(self.path(name), "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return self.path(name)

    def write_all(self, prefix, reports):
        return [self.write(f"{prefix}{i}.json", r) for i, r in enumerate(reports)]

    def formats(self):
        return [f for f, ok in self.built.items() if ok]


class NumbersTest(HostileTestCase):
    """Counts and times of 2^63 - 1: saturated, never negative, never for ever."""

    def export(self, fmt, inputs, extra=()):
        out = self.path(f"out.{fmt}")
        proc = run(CLI, "export", f"--format={fmt}", *extra, *inputs, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.err)
        self.assertEqual(proc.err, "")
        return out

    def check_folded(self, path):
        with open(path) as f:
            counts = te.read_folded(f.read())
        for line, count in counts.items():
            self.assertGreaterEqual(count, 0, line)
            self.assertLessEqual(count, BIG, line)
        return counts

    def check_chrome(self, path):
        with open(path) as f:
            trace = json.load(f)
        for e in trace["traceEvents"]:
            if "dur" in e:
                self.assertGreaterEqual(e["dur"], 0, e)
                self.assertLessEqual(e["dur"], BIG / 1000, e)
            for key in ("count", "samples", "iterations", "events_total"):
                value = e.get("args", {}).get(key)
                if isinstance(value, int):
                    self.assertGreaterEqual(value, 0, e)
        for s in trace["samples"]:
            self.assertGreaterEqual(s["weight"], 1)

    def check_pprof(self, path):
        with open(path, "rb") as f:
            profile = te.Pprof(te.decode_pprof(f.read(), te.need_env("EXPORT_TEST_PROTO_DIR")))
        self.assertGreaterEqual(te.one(profile.m, "duration_nanos"), 0)
        for sample in profile.samples:
            for value in sample["value"]:
                self.assertGreaterEqual(value, 0)
        return profile

    def check_sysprof(self, path):
        lines = te.dump_sysprof(path)
        for line in lines:
            if line[0] == "mark":
                self.assertGreaterEqual(int(line[3]), 0, line)
        return [line for line in lines if line[0] == "sample"]

    def test_every_format_with_the_largest_numbers(self):
        for value in VALUES:
            inputs = self.write_all(f"v{value}-", hostile_reports(value))
            for fmt in self.formats():
                for extra in ((), ("--align=start",)):
                    with self.subTest(value=value, format=fmt, extra=extra):
                        out = self.export(fmt, inputs, extra)
                        if fmt == "folded":
                            self.check_folded(out)
                        elif fmt == "chrome":
                            self.check_chrome(out)
                        elif fmt == "sysprof":
                            self.check_sysprof(out)

    def test_folded_counts_saturate(self):
        path = self.write("over.json", overflowing_report())
        counts = self.check_folded(self.export("folded", [path], ["--folded-weight=samples"]))
        # 2^63 - 3 (the dispatch event) + 2^63 - 2 (the iteration event).
        self.assertEqual(counts["main;slow_idle;compute_hash"], BIG)
        # Time: 2^63 - 3 of 2^63 - 1 samples of 2^63 - 1 ns watched, and 80
        # ms: saturated in nanoseconds, then written in microseconds.
        counts = self.check_folded(self.export("folded", [path]))
        self.assertEqual(counts["main;slow_idle;compute_hash"], round(BIG / 1000))

    def test_pprof_values_saturate(self):
        if not self.built["pprof"]:
            self.skipTest("the pprof format is not in this build")
        path = self.write("over.json", overflowing_report())
        monitored = [self.write(f"m{i}.json", te.report(4000 + i, "app", [], monitored_ms=0))
                     for i in range(2)]
        for m in monitored:
            with open(m) as f:
                report = json.load(f)
            report["summary"]["monitored_ns"] = BIG
            self.write(os.path.basename(m), report)
        profile = self.check_pprof(self.export("pprof", [path, *monitored]))
        self.assertEqual(te.one(profile.m, "duration_nanos"), BIG)

    def test_sysprof_sample_count_is_bounded(self):
        if not self.built["sysprof"]:
            self.skipTest("the sysprof format is not in this build")
        path = self.write("over.json", overflowing_report())
        # Before the bound, 2^63 samples: the export never ended.
        samples = self.check_sysprof(self.export("sysprof", [path]))
        # One sample per millisecond of attributed time (2^63 ns of it), or
        # per longer period: at most 2^16 in the capture, proportions kept.
        self.assertLessEqual(len(samples), 1 << 16)
        self.assertGreater(len(samples), (1 << 16) - 3)

    def test_chrome_phase_of_the_largest_time(self):
        path = self.write("over.json", overflowing_report())
        out = self.export("chrome", [path])
        self.check_chrome(out)
        with open(out) as f:
            events = te.x_events(json.load(f))
        frame = [e for e in events if e["cat"] == "frame" and e["name"].startswith("frame")
                 and e["ts"] + e["dur"] == max(x["ts"] + x["dur"] for x in events
                                               if x["cat"] == "frame")]
        paint = [e for e in events if e["cat"] == "frame-phase" and e["name"] == "paint"
                 and e["args"]["phase_ms"] > 1e12]
        self.assertEqual(len(frame), 1)
        self.assertEqual(len(paint), 1)
        # The work and its phases start with the frame; paint, after 2 ms of
        # others, lasts up to the frame's end (not past it, not wrapped).
        self.assertEqual(te.ns(paint[0]["ts"] + paint[0]["dur"]),
                         te.ns(frame[0]["ts"] + frame[0]["dur"]))
        self.assertEqual(te.ns(paint[0]["dur"]), te.ns(frame[0]["dur"]) - 2 * te.MS)

    def test_merge_of_saturated_sums_reads_back(self):
        for value in VALUES:
            with self.subTest(value=value):
                inputs = self.write_all(f"v{value}-", hostile_reports(value))
                merged = self.path(f"merged-{value}.json")
                proc = run(CLI, "merge", *inputs, "-o", merged)
                self.assertEqual(proc.returncode, 0, proc.err)
                with open(merged) as f:
                    text = f.read()
                for number in re.findall(r"-?\d{19,}", text):
                    self.assertLessEqual(int(number), BIG, "an integer the reader refuses")
                    self.assertGreaterEqual(int(number), 0)
                again = self.path(f"again-{value}.json")
                proc = run(CLI, "merge", merged, "-o", again)
                self.assertEqual(proc.returncode, 0, proc.err)
                proc = run(CLI, "report", merged)
                self.assertEqual(proc.returncode, 0, proc.err)

    def test_report_sums_saturate(self):
        # 2^63 - 1 ns is 2562047.8 h: no time of the report may be more.
        for value in VALUES:
            with self.subTest(value=value):
                inputs = self.write_all(f"v{value}-", hostile_reports(value))
                proc = run(CLI, "report", *inputs)
                self.assertEqual(proc.returncode, 0, proc.err)
                hours = [float(h) for h in re.findall(r"(\d+(?:\.\d+)?) h\b", proc.out)]
                self.assertTrue(hours)
                self.assertLessEqual(max(hours), 2562047.8, proc.out)
                for number in re.findall(r"\b\d{19,}\b", proc.out):
                    self.assertLessEqual(int(number), BIG, proc.out)


class UndefinedBehaviourTest(HostileTestCase):
    """The same inputs through the CLI built with UBSan: the first undefined
    operation (a signed overflow, an out-of-range conversion) aborts it."""

    def setUp(self):
        super().setUp()
        if not CLI_UBSAN:
            self.skipTest("no UBSan build of the CLI (the compiler has no -fsanitize=undefined)")

    def check(self, *args, codes=(0,)):
        proc = run(CLI_UBSAN, *args)
        self.assertNotIn("runtime error", proc.err)
        self.assertIn(proc.returncode, codes, proc.err)

    def test_commands(self):
        sets = {value: self.write_all(f"v{value}-", hostile_reports(value)) for value in VALUES}
        sets["over"] = [self.write("over.json", overflowing_report()), *sets[BIG]]
        for name, inputs in sets.items():
            with self.subTest(inputs=name):
                for fmt in self.formats():
                    for extra in ((), ("--align=start",)):
                        self.check("export", f"--format={fmt}", *extra, *inputs, "-o",
                                   self.path(f"out.{fmt}"))
                self.check("summary", inputs[0])
                self.check("report", *inputs)
                self.check("report", "--signature-frames=2", *inputs)
                merged = self.path(f"merged-{name}.json")
                self.check("merge", *inputs, "-o", merged)
                self.check("report", merged)
                self.check("merge", merged, "-o", self.path("again.json"))
                self.check("diff", inputs[0], inputs[1], codes=(0, 1))
                self.check("diff", merged, inputs[2], codes=(0, 1))


class StdoutTest(HostileTestCase):
    """stdout = /dev/full: a non-zero exit and one message, never a silent 0."""

    MESSAGE = "jankscope: cannot write to the standard output: No space left on device\n"

    def full(self, *args, codes=(1,)):
        with open("/dev/full", "w") as full:
            proc = run(CLI, *args, stdout=full)
        self.assertIn(proc.returncode, codes, proc.err)
        self.assertEqual(proc.err.count("cannot write"), 1, proc.err)
        self.assertIn(self.MESSAGE, proc.err)

    def test_dev_full(self):
        a, c = [self.write(f"{n}.json", r) for n, r in (("a", te.report_a()),
                                                         ("c", te.report_c()))]
        commands = [
            ("summary", a),
            ("report", a, c),
            ("merge", a, c, "-o", "-"),
            ("export", "--format=folded", a),
            ("--version",),
            ("help",),
            ("help", "report"),
            ("report", "--help"),
        ]
        commands += [("export", f"--format={fmt}", a, "-o", "-")
                     for fmt in self.formats()]
        for args in commands:
            with self.subTest(args=args):
                self.full(*args)
        with self.subTest(args="diff"):
            # 1 would read "regressed": a comparison not written is 2.
            self.full("diff", a, c, codes=(2,))


class OutputFileTest(HostileTestCase):
    """-o FILE of export and merge: only a regular file (or a new one) is
    written, atomically, keeping its mode."""

    def inputs(self):
        return [self.write("a.json", te.report_a())]

    def commands(self, output):
        a = self.inputs()
        yield ("export", "--format=folded", *a, "-o", output)
        yield ("merge", *a, "-o", output)

    def refused(self, output, check):
        for args in self.commands(output):
            with self.subTest(command=args[0], output=os.path.basename(output)):
                # A FIFO without a reader would block an open for writing.
                proc = run(CLI, *args, timeout=20)
                self.assertEqual(proc.returncode, 1, proc.err)
                self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
                self.assertIn("only a regular file is replaced", proc.err)
                check()
                self.assertEqual([n for n in os.listdir(self.tmp) if ".json." in n or
                                  n.startswith(os.path.basename(output) + ".")], [])

    def test_fifo(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        self.refused(fifo, lambda: self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode)))

    def test_symbolic_link(self):
        target = self.write("target", "old")
        link = self.path("link")
        os.symlink(target, link)

        def check():
            self.assertTrue(os.path.islink(link))
            with open(target) as f:
                self.assertEqual(f.read(), "old")
        self.refused(link, check)

    def test_directory(self):
        folder = self.path("folder")
        os.mkdir(folder)
        self.refused(folder, lambda: self.assertEqual(os.listdir(folder), []))

    def test_character_device(self):
        device = self.path("null")
        try:
            os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            self.skipTest("mknod needs root (CAP_MKNOD)")

        def check():
            st = os.lstat(device)
            self.assertTrue(stat.S_ISCHR(st.st_mode))
            self.assertEqual(st.st_rdev, os.makedev(1, 3))
        self.refused(device, check)

    def test_dev_full(self):
        # As root, the old export replaced /dev/full itself: use a private one.
        device = self.path("full")
        try:
            os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        except PermissionError:
            self.skipTest("mknod needs root (CAP_MKNOD)")
        self.refused(device, lambda: self.assertTrue(stat.S_ISCHR(os.lstat(device).st_mode)))

    def test_regular_file_replaced(self):
        for args in self.commands(self.path("out")):
            with self.subTest(command=args[0]):
                out = self.write("out", "old")
                os.chmod(out, 0o640)
                inode = os.stat(out).st_ino
                proc = run(CLI, *args)
                self.assertEqual(proc.returncode, 0, proc.err)
                st = os.stat(out)
                self.assertEqual(stat.S_IMODE(st.st_mode), 0o640)
                self.assertNotEqual(st.st_ino, inode, "not replaced by a rename")
                with open(out) as f:
                    self.assertNotEqual(f.read(), "old")
                self.assertEqual(sorted(os.listdir(self.tmp)), ["a.json", "out"])
                os.unlink(out)

    def test_new_file(self):
        umask = os.umask(0o027)
        try:
            for args in self.commands(self.path("new")):
                with self.subTest(command=args[0]):
                    proc = run(CLI, *args)
                    self.assertEqual(proc.returncode, 0, proc.err)
                    self.assertEqual(stat.S_IMODE(os.stat(self.path("new")).st_mode), 0o640)
                    os.unlink(self.path("new"))
        finally:
            os.umask(umask)


class MessageTest(HostileTestCase):
    """Values from outside in messages: control characters escaped, cut at
    200 characters."""

    HOSTILE = "\x1b]0;pwned\x07\x1b[2J\u202eevil\r\nInjected" + "x" * 10000

    def check_line(self, err, escaped):
        self.assertNotIn("\x1b", err)
        self.assertNotIn("\x07", err)
        self.assertNotIn("\r", err)
        self.assertNotIn("\u202e", err)
        self.assertNotRegex(err, r"(?m)^Injected")
        for piece in escaped:
            self.assertIn(piece, err)
        self.assertIn("…", err)
        for line in err.splitlines():
            self.assertLess(len(line), 400, line[:100])

    def test_json_string_in_a_warning(self):
        report = te.report_c()
        report["process"]["name"] = self.HOSTILE
        path = self.write("named.json", report)
        proc = run(CLI, "merge", path, path, "-o", self.path("out.json"))
        self.assertEqual(proc.returncode, 0, proc.err)
        warning = [line for line in proc.err.splitlines() if "already merged" in line]
        self.assertEqual(len(warning), 1, proc.err)
        self.check_line(proc.err, ["\\x1b]0;pwned\\x07\\x1b[2J\\u202eevil\\r\\nInjected"])

    def test_json_string_in_an_error(self):
        report = te.report_c()
        report["events"][0]["tier"] = self.HOSTILE
        path = self.write("tier.json", report)
        for args in (("summary", path), ("report", path), ("export", "--format=folded", path)):
            with self.subTest(command=args[0]):
                proc = run(CLI, *args)
                self.assertEqual(proc.returncode, 1, proc.err)
                self.assertEqual(len(proc.err.splitlines()), 1, proc.err)
                self.check_line(proc.err, ["\\x1b]0;pwned"])

    def test_file_name(self):
        name = "\x1b[2J\u202e" + "f" * 200
        proc = run(CLI, "summary", self.path(name))
        self.assertEqual(proc.returncode, 1)
        self.check_line(proc.err, ["\\x1b[2J\\u202e"])

    def test_option_values(self):
        a = self.write("a.json", te.report_a())
        cases = [
            ("export", "--format=" + self.HOSTILE, a),
            ("export", "--format=folded", "--folded-prefix=" + self.HOSTILE, a),
            ("report", "--tier=" + self.HOSTILE, a),
            ("report", "--top=" + self.HOSTILE, a),
            ("merge", "--jobs=" + self.HOSTILE, a, "-o", "-"),
            ("diff", "--threshold=" + self.HOSTILE, a, a),
            (self.HOSTILE,),
        ]
        for args in cases:
            with self.subTest(args=[arg[:16] for arg in args[:2]]):
                proc = run(CLI, *args)
                self.assertEqual(proc.returncode, 2, proc.err)
                first = proc.err.splitlines()[0]
                self.check_line(first, ["\\x1b]0;pwned"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
