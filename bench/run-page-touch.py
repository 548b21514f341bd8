#!/usr/bin/env python3
"""Counts the distinct 4 KiB pages the main thread touches per dispatch of
dispatch-overhead (its code and its data), without and with the jankscope
preload, by object, under valgrind's lackey (which lists every instruction
and every load and store).

    run-page-touch.py --exe build/bench/dispatch-overhead \\
                      --preload build/src/libjankscope-preload.so \\
                      [--modes repeat,oneshot] [--count N]

Why pages: where a kernel entry flushes the TLB (page-table isolation
without PCID, some virtual machines: bench/kernel-entry-cost.c measures
it), each distinct page touched after the loop's poll returns costs a page
walk, a few ns each, on top of the instructions. The count does not swing
with the machine as time does: it is the same in every run.

A dispatch is the span from one call of the benchmark's callback to the
next (one iteration of the loop: its poll, prepare, check and dispatch).
valgrind runs one thread at a time, so pages of jankscope's other threads
can fall into a span; "steady" counts only the pages touched in at least
half of the dispatches, which those rare visits do not reach. Both sides
run --count dispatches of warm-up and --count measured. jankscope's side
runs with JANKSCOPE_PRETRIGGER_MS=60000: under valgrind every iteration
would be a stall (below).

Exit status: 0 done; 77 skipped (quick mode: minutes under valgrind, more
than CI's budget for all the quick benchmarks; no valgrind or nm); 1 a run
failed. Never judges the numbers.
"""

import bisect
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import threading

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import benchlib  # noqa: E402

PAGE_SHIFT = 12


def parse_args():
    ap = benchlib.arg_parser(__doc__, "dispatch-overhead")
    ap.add_argument("--modes", default="repeat,oneshot",
                    help="dispatch-overhead modes (default repeat,oneshot)")
    ap.add_argument("--count", type=int, default=1500,
                    help="dispatches measured, after as many of warm-up (default 1500)")
    args = ap.parse_args()
    if args.count < 50:
        ap.error("--count must be at least 50")
    args.modes = [m for m in args.modes.split(",") if m]
    for m in args.modes:
        if m not in ("repeat", "oneshot", "attach"):
            ap.error("unknown mode %r" % m)
    return args


class Maps:
    """The process's mappings, read from /proc while it runs: file-backed
    ones by object name; an anonymous one right after an object's is named
    after it ("libfoo.so (+anon)"): its .bss, or (after ld.so under
    valgrind) the memory valgrind maps for the program there."""

    def __init__(self, text):
        rows = []
        prev = None
        for line in text.splitlines():
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            path = parts[5].strip() if len(parts) > 5 else ""
            name = os.path.basename(path) if path.startswith("/") else path
            if not name:
                if prev is not None and prev[1] == lo and prev[2] and not prev[2].startswith("["):
                    name = prev[2].split(" (")[0] + " (+anon)"
                else:
                    name = "[anon]"
            rows.append((lo, hi, name, int(parts[2], 16), path))
            prev = rows[-1]
        rows.sort()
        self.rows = rows
        self.starts = [r[0] for r in rows]

    def name(self, address):
        i = bisect.bisect_right(self.starts, address) - 1
        if i >= 0 and address < self.rows[i][1]:
            return self.rows[i][2]
        return "?"

    def base(self, path_end):
        """The load address of the object whose path ends with path_end."""
        bases = [lo - off for lo, _, _, off, path in self.rows if path.endswith(path_end)]
        return min(bases) if bases else None


def symbol_offset(exe, symbol):
    out = subprocess.run(["nm", exe], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == symbol:
            return int(f[0], 16)
    return None


def watch_maps(pid, exe_name, want_core, box, done):
    """Keeps the last /proc/PID/maps that shows the program (and the core,
    for the side with jankscope): read until the process ends."""
    while not done.is_set():
        try:
            with open("/proc/%d/maps" % pid) as f:
                text = f.read()
            if exe_name in text and (not want_core or "libjankscope-core" in text):
                box[0] = text
        except OSError:
            pass
        done.wait(0.2)


def trace(args, mode, preload):
    """One side: per measured dispatch, the set of pages touched; returns
    (the counts of each page over the measured dispatches, their number,
    the maps)."""
    exe = os.path.abspath(args.exe)
    callback = symbol_offset(exe, "on_" + mode)
    if callback is None:
        raise benchlib.RunFailed("%s has no symbol on_%s" % (exe, mode))
    report_dir = tempfile.mkdtemp(prefix="jankscope-bench-")
    try:
        env = (benchlib.preload_env(preload, report_dir) if preload
               else benchlib.baseline_env())
        if preload:
            # Under valgrind an iteration takes tens of ms: every one would
            # be a stall to the watchdog, sampled, and every attach during
            # one would take its posting site's stack. Natively neither
            # happens in this loop; this keeps the count to what does.
            env["JANKSCOPE_PRETRIGGER_MS"] = "60000"
        read_fd, write_fd = os.pipe()
        cmd = ["valgrind", "--tool=lackey", "--trace-mem=yes", "--log-fd=%d" % write_fd,
               exe, "-m", mode, "--idle-thread", "-w", "0", "-s", "0",
               "--warmup", str(args.count), "-n", str(args.count)]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(write_fd,))
        os.close(write_fd)
        box, done = [None], threading.Event()
        watcher = threading.Thread(target=watch_maps,
                                   args=(proc.pid, os.path.basename(exe), bool(preload), box,
                                         done))
        watcher.start()
        marker = None
        counts = collections.Counter()
        seen = 0
        current = set()
        with os.fdopen(read_fd, "r", errors="replace") as log:
            for line in log:
                if marker is None:
                    # The program's base is known once its maps are: until
                    # then (valgrind's start-up), nothing is a dispatch.
                    if box[0] is not None:
                        base = Maps(box[0]).base("/" + os.path.basename(exe))
                        if base is not None:
                            marker = base + callback
                    continue
                if len(line) < 4 or line[0] == "=":
                    continue
                # "I  addr,size" for an instruction, " L addr,size" (S, M)
                # for a load, store or both.
                kind = line[0] if line[0] == "I" else line[1]
                if kind not in "ILSM":
                    continue
                comma = line.find(",", 3)
                try:
                    address = int(line[3:comma], 16)
                except ValueError:
                    continue
                if kind == "I" and address == marker:
                    seen += 1
                    if seen > args.count + 1:
                        for page in current:
                            counts[page] += 1
                    current = set()
                    continue
                current.add((address >> PAGE_SHIFT) << 1 | (kind == "I"))
        status = proc.wait()
        done.set()
        watcher.join()
        if status != 0:
            raise benchlib.RunFailed("%s %s side: exit status %d"
                                     % (mode, "with" if preload else "without", status))
        measured = seen - args.count - 1
        if measured < args.count // 2 or box[0] is None:
            raise benchlib.RunFailed("%s: only %d dispatches seen" % (mode, max(measured, 0)))
        return counts, measured, Maps(box[0])
    finally:
        shutil.rmtree(report_dir, ignore_errors=True)


def summarise(counts, n, maps):
    """Per object and kind (code, data): pages per dispatch, and the steady
    pages (touched in at least half of the dispatches)."""
    mean = collections.Counter()
    steady = collections.Counter()
    for key, c in counts.items():
        page, is_code = key >> 1, key & 1
        obj = (maps.name(page << PAGE_SHIFT), "code" if is_code else "data")
        mean[obj] += c / n
        if 2 * c >= n:
            steady[obj] += 1
    return mean, steady


def main():
    args = parse_args()
    if benchlib.quick():
        print("run-page-touch: SKIPPED in quick mode (minutes under valgrind)")
        return benchlib.SKIP
    for tool in ("valgrind", "nm"):
        if shutil.which(tool) is None:
            print("run-page-touch: SKIPPED: %s not found" % tool)
            return benchlib.SKIP
    problem = benchlib.preload_problem(args.preload)
    print("run-page-touch: distinct 4 KiB pages touched per dispatch, %d dispatches per side"
          % args.count)
    print("without the preload only: " + problem if problem else "preload: " + args.preload)
    sys.stdout.flush()
    try:
        for mode in args.modes:
            sides = {"without": trace(args, mode, None)}
            if not problem:
                sides["with"] = trace(args, mode, args.preload)
            print()
            print("%s (%s)" % (mode, {"repeat": "the same idle source again",
                                      "oneshot": "a new g_idle_add source each time",
                                      "attach": "repeat, adding and removing an idle"}[mode]))
            table = {s: summarise(*sides[s]) for s in sides}
            objs = set()
            for s in table:
                objs |= set(table[s][0]) | set(table[s][1])
            rows = []
            for label, pick in (("all pages, mean", lambda s: sum(table[s][0].values())),
                                ("steady pages", lambda s: sum(table[s][1].values()))):
                w = pick("without")
                on = pick("with") if "with" in table else None
                rows.append([label, benchlib.fmt(w), benchlib.fmt(on),
                             benchlib.fmt(on - w if on is not None else None, sign=True)])
            for kind in ("code", "data"):
                w = sum(v for (o, k), v in table["without"][1].items() if k == kind)
                on = (sum(v for (o, k), v in table["with"][1].items() if k == kind)
                      if "with" in table else None)
                rows.append(["  steady %s" % kind, benchlib.fmt(w), benchlib.fmt(on),
                             benchlib.fmt(on - w if on is not None else None, sign=True)])
            benchlib.print_table(["per dispatch", "without", "with", "added"], rows)
            if "with" not in table:
                continue
            print("steady pages by object where the sides differ:")
            rows = []
            for obj in sorted(objs):
                w, on = table["without"][1].get(obj, 0), table["with"][1].get(obj, 0)
                if w != on:
                    rows.append(["  %s %s" % obj, str(w), str(on), "%+d" % (on - w)])
            rows.sort(key=lambda r: (-abs(int(r[3])), r[0]))
            benchlib.print_table(["object", "without", "with", "added"], rows)
            sys.stdout.flush()
    except benchlib.RunFailed as e:
        print("FAILED: %s" % e)
        return 1
    print()
    print("steady = touched in at least half of the dispatches; (+anon) = the anonymous")
    print("mapping right after an object's (its .bss; after ld.so: what valgrind maps there,")
    print("the heap among it); [anon] = other anonymous memory.")
    print("Each page is a page walk after a TLB flush: see kernel-entry-cost for its price here.")
    return 0 if not problem else benchlib.SKIP


if __name__ == "__main__":
    sys.exit(main())
