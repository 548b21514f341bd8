"""A minimal client of jankscope's live stream (docs/live-protocol.md),
standard library only: newline-delimited JSON over a Unix socket.

Used by tests/view/check_view.py and bench/run-live-slow-viewer.py.
"""
import json
import os
import socket
import subprocess
import time


def socket_dir(runtime_dir):
    return os.path.join(runtime_dir, "jankscope")


def socket_path(runtime_dir, pid):
    return os.path.join(socket_dir(runtime_dir), f"{pid}.sock")


def wait_for_socket(path, proc=None, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        if proc is not None and proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False


class LiveConnection:
    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.closed = False

    def read(self, timeout=10.0):
        """The next message (a dict), or None at the end of the stream."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message within %.1f s" % timeout)
            self.sock.settimeout(left)
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def read_until(self, type_, timeout=10.0, keep=None):
        """Messages until one of @type_ (returned); the others go to @keep."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.read(max(0.01, deadline - time.monotonic()))
            if msg is None:
                return None
            if msg.get("type") == type_:
                return msg
            if keep is not None:
                keep.append(msg)

    def close(self):
        self.sock.close()


def start_app(argv, runtime_dir, extra_env=None, preload=None):
    """Starts a monitored program with JANKSCOPE_LIVE=1 and XDG_RUNTIME_DIR;
    stdin and stdout are pipes (text)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("JANKSCOPE") and k not in ("LD_PRELOAD", "GTK_MODULES")}
    env["XDG_RUNTIME_DIR"] = runtime_dir
    env["JANKSCOPE_LIVE"] = "1"
    if preload:
        env["LD_PRELOAD"] = preload
    env.update(extra_env or {})
    return subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)


def read_fact(proc, key, timeout=30.0):
    """Reads the program's stdout lines up to `key=value`; returns value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            return None
        k, sep, v = line.strip().partition("=")
        if sep and k == key:
            return v
    return None
