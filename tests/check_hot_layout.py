#!/usr/bin/env python3
"""The main thread's hot code and data of the core and the preload sit where
src/bridge/js-hot.h says: each in its section, each section within one 4 KiB
page (a page walk each after a TLB flush, not a dozen).

    check_hot_layout.py [--paged] CORE_SO PRELOAD_SO
    check_hot_layout.py --self-test

Fails (exit 1, one line per problem) when
 - an object lacks js_hot_text or js_hot_data;
 - a function or variable the main thread uses at every iteration (HOT
   below) is not inside its section: marked JS_HOT / JS_HOT_DATA no more,
   or renamed without this list;
 - with --paged (the build gave the linker src/bridge/js-hot.ld), a
   section spans more than one page: it grew past 4 KiB (a large table
   marked hot, a stand-in that should not be), or the script stopped
   aligning it.
Reads the objects with readelf and nm. Run by meson (suite "unit").
"""

import subprocess
import sys

PAGE = 4096

# What must be hot, by object: functions in js_hot_text, variables in js_hot_data.
HOT = {
    "core": {
        "js_hot_text": ["js_poll", "js_dispatch", "js_ring_push", "js_names_for_source",
                        "name_of_new_source", "js_posting_posted", "copy_dispatch"],
        "js_hot_data": ["stuck_since", "busy_since", "open_post", "js_tsc_line",
                        "js_sampler_guard", "main_attaches", "dispatch_hook"],
    },
    "preload": {
        "js_hot_text": ["poll", "js_preload_dispatch", "g_idle_funcs_dispatch",
                        "g_timeout_funcs_dispatch", "g_idle_add", "g_timeout_add",
                        "g_timeout_add_full", "g_source_attach", "js_preload_post_attach"],
        "js_hot_data": ["js_preload_bridge", "js_preload_state", "g_idle_funcs",
                        "g_timeout_funcs", "real_poll", "real_g_idle_add"],
    },
}


def sections(path):
    """{name: (address, size)} of the object's sections (readelf -S -W)."""
    out = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        line = line.replace("[ ", "[")
        fields = line.split()
        if len(fields) >= 6 and fields[0].startswith("[") and fields[0] != "[Nr]":
            try:
                found[fields[1]] = (int(fields[3], 16), int(fields[5], 16))
            except ValueError:
                pass
    return found


def symbols(path):
    """{name: address} of the object's defined symbols (nm)."""
    out = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3:
            found.setdefault(fields[2], int(fields[0], 16))
    return found


def problems_of(label, secs, syms, want, paged):
    problems = []
    for section, names in want.items():
        if section not in secs:
            problems.append("%s: no section %s" % (label, section))
            continue
        start, size = secs[section]
        if size == 0:
            problems.append("%s: %s is empty" % (label, section))
            continue
        for name in names:
            address = syms.get(name)
            if address is None:
                problems.append("%s: no symbol %s" % (label, name))
            elif not start <= address < start + size:
                problems.append("%s: %s (0x%x) is not in %s (0x%x-0x%x)"
                                % (label, name, address, section, start, start + size))
        if paged and start // PAGE != (start + size - 1) // PAGE:
            problems.append("%s: %s spans %d pages (0x%x, %d bytes): it must fit in one"
                            % (label, section, (start + size - 1) // PAGE - start // PAGE + 1,
                               start, size))
    return problems


def self_test():
    want = {"js_hot_text": ["f"], "js_hot_data": ["v"]}
    good = {"js_hot_text": (0x1000, 0x800), "js_hot_data": (0x5000, 0x100)}
    syms = {"f": 0x1010, "v": 0x5008}
    cases = [
        ("fine", good, syms, True, 0),
        ("function outside", good, {"f": 0x2000, "v": 0x5008}, True, 1),
        ("missing symbol", good, {"v": 0x5008}, True, 1),
        ("missing section", {"js_hot_text": good["js_hot_text"]}, syms, True, 1),
        ("straddles a page", {"js_hot_text": (0x1f00, 0x200), "js_hot_data": (0x5000, 0x100)},
         {"f": 0x1f10, "v": 0x5008}, True, 1),
        ("straddles, not paged", {"js_hot_text": (0x1f00, 0x200),
                                  "js_hot_data": (0x5000, 0x100)},
         {"f": 0x1f10, "v": 0x5008}, False, 0),
        ("too big", {"js_hot_text": (0x1000, 0x1001), "js_hot_data": (0x5000, 0x100)}, syms,
         True, 1),
    ]
    failed = 0
    for name, secs, s, paged, expected in cases:
        got = len(problems_of("x", secs, s, want, paged))
        if got != expected:
            print("self-test %s: %d problems, expected %d" % (name, got, expected))
            failed += 1
    print("self-test: %d of %d cases right" % (len(cases) - failed, len(cases)))
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    args = argv[1:]
    paged = "--paged" in args
    args = [a for a in args if a != "--paged"]
    if len(args) != 2:
        print(__doc__)
        return 2
    problems = []
    for label, path in zip(("core", "preload"), args):
        secs = sections(path)
        problems += problems_of(label, secs, symbols(path), HOT[label], paged)
        for name in ("js_hot_text", "js_hot_data"):
            if name in secs:
                print("%s: %s at 0x%x, %d bytes" % (label, name, secs[name][0], secs[name][1]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
