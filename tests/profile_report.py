"""Synthetic jank events with profiles, as the core writes them
(docs/report-format.md, "Stacks and classification", "Profiles", "Samples
over time", "Causes per part", "Culprit").

The tests of the reading side (tests/cli/, tests/ui/ through their JSON
files) build reports from samples they describe: each sample a time, a stack
(leaf first, frames as in reports) or None, the time it speaks for, its part,
and its state. Everything an event holds about them is computed here from
those samples, with the format's rules: the profile (function-level
calling-context tree, bounded, [other] nodes), the top stacks, the merged
timeline, the parts' causes. The classes and culprits are the test's to
give: the reader shows them, it does not compute them.

    from profile_report import Sample, profile_event, frame
"""

import copy

MS = 1_000_000


def frame(function, module="fake-app", file=None, line=None, offset="0x10", build_id="ab12cd34",
          inlined=False):
    f = {"function": function, "module": module, "file": file, "line": line, "offset": offset,
         "build_id": build_id}
    if inlined:
        f["inlined"] = True
    return f


class Sample:
    """One sample: at t_ns, `frames` (leaf first, None: no stack), speaking
    for `ns` of part `part` (an index of the event's parts)."""

    def __init__(self, t_ns, frames, ns, part=0, state="running", wait=None, count=1):
        self.t_ns = t_ns
        self.frames = frames
        self.ns = ns
        self.part = part
        self.state = state
        self.wait = wait
        self.count = count


def frame_key(f):
    if f.get("function") is not None:
        return ("f", f["function"], f.get("module"))
    return ("o", f.get("module"), f.get("offset"))


NOISE_MODULES = ("libc.so", "libc-", "ld-linux", "libpthread", "libdl.so", "libm.so",
                 "linux-vdso", "libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgmodule-2.0",
                 "libffi")
NOISE_FUNCTIONS = ("main", "poll", "g_main_context_iteration", "gdk_frame_clock_paint_idle")
NOISE_PREFIXES = ("g_main_context_", "g_main_loop_", "g_main_dispatch", "g_idle_dispatch",
                  "g_timeout_dispatch", "g_source_dispatch", "g_application_run", "gtk_main",
                  "__libc_start", "_start")


def signature(frames, depth=5):
    """src/common/js-signature.c for the frames these tests use (named
    frames; libc and GLib skipped at the leaf, main loop and main left out)."""
    def noise(f):
        fn, mod = f.get("function"), f.get("module") or ""
        if fn is None:
            return mod.startswith(NOISE_MODULES)
        return fn in NOISE_FUNCTIONS or fn.startswith(NOISE_PREFIXES)

    first = 0
    for i, f in enumerate(frames):
        if f.get("function") == "main":
            break
        if not noise(f) and not (f.get("module") or "").startswith(NOISE_MODULES):
            first = i
            break
    kept = []
    for f in frames[first:]:
        if len(kept) >= depth or f.get("function") == "main":
            break
        if noise(f):
            continue
        kept.append(f["function"] if f.get("function") is not None else f"{f.get('module')}!?")
    return " < ".join(kept)


def fnv(text):
    h = 14695981039346656037
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


class Profile:
    def __init__(self, nodes_max):
        self.nodes_max = nodes_max
        self.frames = []
        self.frame_index = {}
        self.parent, self.frame, self.self_samples, self.self_ns = [], [], [], []
        self.children = {}
        self.first_frames = {}  # node -> the frames of the first sample that ended there

    def intern(self, f):
        key = frame_key(f)
        if key not in self.frame_index:
            self.frame_index[key] = len(self.frames)
            entry = {"function": f.get("function"), "module": f.get("module")}
            if f.get("function") is None:
                entry["offset"] = f.get("offset")
                entry["build_id"] = f.get("build_id")
            self.frames.append(entry)
        return self.frame_index[key]

    def child(self, parent, frame_index):
        key = (parent, frame_index)
        if key in self.children:
            return self.children[key]
        if len(self.parent) >= self.nodes_max:
            return None
        self.children[key] = len(self.parent)
        self.parent.append(parent)
        self.frame.append(frame_index)
        self.self_samples.append(0)
        self.self_ns.append(0)
        return self.children[key]

    def add(self, frames, count, ns):
        node = -1
        for f in reversed(frames):
            nxt = self.child(node, self.intern(f))
            if nxt is None:
                # Full: counted at the deepest node there is, in its [other].
                other = self.children.get((node, -1))
                if other is None:
                    self.children[(node, -1)] = other = len(self.parent)
                    self.parent.append(node)
                    self.frame.append(-1)
                    self.self_samples.append(0)
                    self.self_ns.append(0)
                node = other
                break
            node = nxt
        self.self_samples[node] += count
        self.self_ns[node] += ns
        self.first_frames.setdefault(node, frames)
        return node

    def path(self, node):
        out = []
        while node >= 0:
            out.append(node)
            node = self.parent[node]
        return out

    def json(self):
        return {"samples": sum(self.self_samples), "time_ns": sum(self.self_ns),
                "frames": copy.deepcopy(self.frames),
                "nodes": {"parent": list(self.parent), "frame": list(self.frame),
                          "self_samples": list(self.self_samples),
                          "self_ns": list(self.self_ns)},
                "nodes_max": self.nodes_max}


def classify(watched, cpu):
    if watched <= 0:
        return None
    share = cpu / watched
    return "compute" if share >= 0.7 else "wait" if share <= 0.3 else "mixed"


def most_wait(samples):
    kinds = {}
    for s in samples:
        if s.state == "waiting" and s.wait:
            kinds[s.wait] = kinds.get(s.wait, 0) + s.count
    return max(kinds, key=kinds.get) if kinds else None


def merge_timeline(entries, limit):
    """Neighbouring entries of one part merged two by two while there are
    more than `limit` (then between parts)."""
    def merged(a, b):
        big = a if a["count"] >= b["count"] else b
        m = {k: v for k, v in big.items()}
        m["t_ns"] = a["t_ns"]
        m["last_ns"] = b.get("last_ns", b["t_ns"])
        m["count"] = a["count"] + b["count"]
        m["running"] = sum(e.get("running", e["count"] if e["state"] == "running" else 0)
                           for e in (a, b))
        return m

    same_part_only = True
    while len(entries) > limit:
        out, i, changed = [], 0, False
        while i < len(entries):
            if (i + 1 < len(entries) and len(entries) - (i - len(out)) > limit and
                    (not same_part_only or entries[i]["part"] == entries[i + 1]["part"])):
                out.append(merged(entries[i], entries[i + 1]))
                i += 2
                changed = True
            else:
                out.append(entries[i])
                i += 1
        entries = out
        if not changed:
            same_part_only = False
    return entries


def profile_event(event_id, type_, parts, samples, tier="severe", culprit=None, part_culprits=None,
                  nodes_max=2048, stacks_max=16, timeline_max=256, unlisted_parts=(),
                  ongoing=False):
    """A dispatch, iteration, hang or frame event over `parts` (dicts as the
    report has them, each at least type, start_ns, end_ns, duration_ns,
    source, callback), with the members of "Stacks and classification"
    computed from `samples`. Parts in `unlisted_parts` (indices) are left
    out of `parts` as max_parts would (their samples and time stay in the
    event's)."""
    profile = Profile(nodes_max)
    nodes = []
    for s in samples:
        nodes.append(profile.add(s.frames, s.count, s.ns) if s.frames is not None else -1)

    # Stacks: the profile's leaves with the most time.
    leaves = sorted((n for n in range(len(profile.parent))
                     if profile.self_samples[n] > 0 or profile.self_ns[n] > 0),
                    key=lambda n: (-profile.self_ns[n], n))
    stacks, stack_of = [], {}
    for n in leaves[:stacks_max]:
        frames = copy.deepcopy(profile.first_frames.get(n, []))
        if profile.frame[n] == -1:
            frames = []
        sig = signature(frames)
        stack_of[n] = len(stacks)
        stacks.append({"count": profile.self_samples[n], "time_ns": profile.self_ns[n], "node": n,
                       "signature": sig, "signature_id": fnv(sig), "frames": frames})

    listed = [i for i in range(len(parts)) if i not in unlisted_parts]
    part_index = {old: new for new, old in enumerate(listed)}

    timeline = []
    for s, n in zip(samples, nodes):
        e = {"t_ns": s.t_ns, "count": s.count, "state": s.state,
             "stack": stack_of.get(n, -1) if n >= 0 else -1, "node": n,
             "part": part_index.get(s.part, -1)}
        if s.count > 1:
            e["last_ns"] = s.t_ns
        if s.state == "waiting":
            e["wait"] = s.wait
            e["syscall"] = 202
        timeline.append(e)
    timeline = merge_timeline(timeline, timeline_max)

    out_parts = []
    for i in listed:
        p = copy.deepcopy(parts[i])
        mine = [(s, n) for s, n in zip(samples, nodes) if s.part == i]
        watched = sum(s.ns for s, _ in mine)
        cpu = sum(s.ns for s, _ in mine if s.state == "running")
        per_node = {}
        for s, n in mine:
            if n < 0:
                continue
            c, t = per_node.get(n, (0, 0))
            per_node[n] = (c + s.count, t + s.ns)
        order = sorted(per_node, key=lambda n: (-per_node[n][1], n))
        p.update({
            "stalls": 1 if mine else 0, "watched_ns": watched, "sampled_ns": watched,
            "cpu_ns": cpu if mine else None, "off_cpu_ns": watched - cpu if mine else None,
            "runnable_ns": 0 if mine else None,
            "class": classify(watched, cpu), "wait": most_wait(s for s, _ in mine),
            "culprit": (part_culprits or {}).get(i),
            "attributed_ns": min(sum(t for _, t in per_node.values()), p["duration_ns"]),
            "samples_total": sum(s.count for s, _ in mine),
            "samples_running": sum(s.count for s, _ in mine if s.state == "running"),
            "samples_waiting": sum(s.count for s, _ in mine if s.state == "waiting"),
            "samples_with_stack": sum(s.count for s, n in mine if n >= 0),
            "profile": {"samples": sum(c for c, _ in per_node.values()),
                        "time_ns": sum(t for _, t in per_node.values()),
                        "node": order, "self_samples": [per_node[n][0] for n in order],
                        "self_ns": [per_node[n][1] for n in order],
                        "other_samples": 0, "other_ns": 0},
            "stacks": [{"node": n, "count": per_node[n][0], "time_ns": per_node[n][1],
                        "signature": stacks[stack_of[n]]["signature"] if n in stack_of else "",
                        "signature_id": fnv(stacks[stack_of[n]]["signature"]
                                            if n in stack_of else "")}
                       for n in order[:3]],
        })
        if p["class"] is None:
            p["wait"] = None
        out_parts.append(p)

    duration = sum(p["duration_ns"] for p in parts)
    watched = sum(s.ns for s in samples)
    cpu = sum(s.ns for s in samples if s.state == "running")
    longest = max(parts, key=lambda p: p["duration_ns"]) if parts else None
    attributed = min(profile.json()["time_ns"], duration) if parts else profile.json()["time_ns"]
    unlisted_time = sum(s.ns for s, n in zip(samples, nodes)
                        if n >= 0 and s.part in unlisted_parts)
    klass = classify(watched, cpu)
    e = {"id": event_id, "type": type_,
         "start_ns": min(p["start_ns"] for p in parts) if parts else samples[0].t_ns,
         "end_ns": max(p["end_ns"] for p in parts) if parts else samples[-1].t_ns,
         "duration_ns": duration if parts else watched,
         "max_part_ns": longest["duration_ns"] if longest else watched, "tier": tier,
         "source": longest["source"] if longest else None,
         "callback": longest["callback"] if longest else None, "depth": 1,
         "parts_count": len(parts), "parts": out_parts,
         "stalls": 1 if samples else 0, "watched_ns": watched, "sampled_ns": watched,
         "cpu_ns": cpu if samples else None, "off_cpu_ns": watched - cpu if samples else None,
         "runnable_ns": 0 if samples else None,
         "class": klass, "wait": most_wait(samples) if klass in ("wait", "mixed") else None,
         "culprit": culprit,
         "attributed_ns": attributed,
         "unattributed_ns": (duration if parts else watched) - attributed,
         "attributed_unlisted_ns": unlisted_time,
         "samples_total": sum(s.count for s in samples),
         "samples_running": sum(s.count for s in samples if s.state == "running"),
         "samples_waiting": sum(s.count for s in samples if s.state == "waiting"),
         "samples_with_stack": sum(s.count for s, n in zip(samples, nodes) if n >= 0),
         "profile": profile.json(),
         "stacks": stacks, "stacks_omitted": max(0, len(leaves) - stacks_max),
         "samples": timeline, "watchdog": None}
    if ongoing:
        e["ongoing"] = True
    return e


def culprit(function, module="fake-app", reason="app-code", callback=None, time_ns=0,
            app_code_ns=None, confidence=0.8, samples=4, of_samples=5, node=None):
    c = {"function": function, "module": module, "file": None, "line": None, "offset": "0x10",
         "node": node, "time_ns": time_ns, "samples": samples, "of_samples": of_samples,
         "confidence": confidence, "reason": reason,
         "app_code_ns": app_code_ns if app_code_ns is not None else
         (time_ns if reason == "app-code" else 0),
         "callback": None}
    if callback is not None:
        c["callback"] = {"function": callback[0], "module": callback[1], "offset": "0x20"}
    return c
