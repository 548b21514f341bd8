#!/usr/bin/env python3
"""Does a live viewer that stops reading slow the app down? Runs view-app's
`steady` script (tests/view/view-app.c: a dispatch of fixed work every 4 ms
and a 60 ms stall every 150 ms, so that snapshots are big and frequent) in
four configurations, alternating, and prints the work dispatches' wall time
and the work timer's lateness (p50/p99, µs) as the app measured them itself.

    run-live-slow-viewer.py --exe build/tests/view/view-app \\
                            --preload build/src/libjankscope-preload.so

  live off        the preload, JANKSCOPE_LIVE unset (the default)
  live, no viewer JANKSCOPE_LIVE=1, nobody connected
  live, reader    JANKSCOPE_LIVE=1, a client that reads everything
  live, stuck     JANKSCOPE_LIVE=1, a client that connects and never reads

Exit status: 0 done; 77 no preload; 1 a run failed. BENCH_QUICK=1: 3 s, 2 runs.
"""

import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "view"))
import benchlib  # noqa: E402
import live_client as lc  # noqa: E402

KEYS = ["work_p50_us", "work_p99_us", "late_p50_us", "late_p99_us"]


def reader(path, stop, counter):
    conn = lc.LiveConnection(path)
    while not stop.is_set():
        try:
            msg = conn.read(timeout=0.5)
        except TimeoutError:
            continue
        if msg is None:
            break
        counter[0] += 1
    conn.close()


def run_once(exe, preload, config, seconds):
    tmp = tempfile.mkdtemp(prefix="jankscope-bench-")
    runtime = os.path.join(tmp, "run")
    os.mkdir(runtime, 0o700)
    env = {"JANKSCOPE_LIVE": "0" if config == "live off" else "1"}
    proc = lc.start_app([exe], runtime, env, preload=preload)
    stop = threading.Event()
    counter = [0]
    stuck = None
    thread = None
    server = None
    try:
        if lc.read_fact(proc, "ready") != "1":
            raise RuntimeError("view-app did not start")
        path = lc.socket_path(runtime, proc.pid)
        if config != "live off" and not lc.wait_for_socket(path, proc):
            raise RuntimeError("no socket")
        if config == "live, stuck":
            stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            stuck.connect(path)
        elif config == "live, reader":
            thread = threading.Thread(target=reader, args=(path, stop, counter))
            thread.start()
        proc.stdin.write(f"steady {seconds}\n")
        proc.stdin.flush()
        facts = {}
        while "steady-done" not in facts:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("view-app ended early: " + proc.stderr.read())
            k, _, v = line.strip().partition("=")
            facts[k] = v
        if config == "live, stuck":
            probe = lc.LiveConnection(path)
            server = probe.read()["server"]
            probe.close()
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
        if proc.returncode != 0:
            raise RuntimeError(f"view-app exit {proc.returncode}")
        return {k: int(facts[k]) for k in KEYS}, server, counter[0]
    finally:
        stop.set()
        if thread:
            thread.join()
        if stuck:
            stuck.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = benchlib.arg_parser(__doc__, "view-app")
    args = ap.parse_args()
    if not args.preload:
        print("no preload: nothing to compare")
        return benchlib.SKIP
    seconds, runs = (3, 2) if benchlib.quick() else (8, 5)
    configs = ["live off", "live, no viewer", "live, reader", "live, stuck"]
    results = {c: [] for c in configs}
    notes = []
    for i in range(runs):
        for c in configs:
            values, server, messages = run_once(args.exe, args.preload, c, seconds)
            results[c].append(values)
            if server:
                notes.append(f"run {i + 1}, stuck viewer: server dropped "
                             f"{server['messages_dropped']} messages, sent {server['messages_sent']}")
            if c == "live, reader":
                notes.append(f"run {i + 1}, reader got {messages} messages")
    print(f"view-app steady {seconds} s, {runs} runs per configuration, medians of the runs (µs)")
    print(f"{'configuration':<18}" + "".join(f"{k:>14}" for k in KEYS))
    for c in configs:
        row = [statistics.median(r[k] for r in results[c]) for k in KEYS]
        print(f"{c:<18}" + "".join(f"{v:>14.0f}" for v in row))
    for n in notes:
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
