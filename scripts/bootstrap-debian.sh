#!/bin/bash
# bootstrap-debian.sh: install the Debian 12 packages that building, testing,
# the demo and the benchmarks of jankscope need.  Idempotent, and a fast no-op
# when everything is installed already.  Uses sudo when not run as root.
set -euo pipefail

packages=(
    # build
    build-essential pkg-config meson ninja-build gettext
    libglib2.0-dev libglib2.0-bin libgtk-4-dev libgtk-3-dev libjson-glib-dev
    libunwind-dev libdw-dev libelf-dev desktop-file-utils
    appstream # appstreamcli validates the viewer's metainfo (suites data, install)
    libiberty-dev # C++ and Rust names demangled (src/symbols/js-demangle.c)
    # jankscope export: pprof (protobuf-c) and sysprof (libsysprof-capture)
    libprotobuf-c-dev protobuf-c-compiler libsysprof-4-dev
    # tests, demo and benchmarks
    python3 xvfb xauth gtk-4-examples time
    libgdk-pixbuf-2.0-dev libfontconfig-dev # tests/apps/diagnosis-app.c (image and font scenarios)
    clang-format # the style check (tests/check_style.py) formats as clang-format 14 does
    dbus-daemon # a session bus for GTK test programs (GtkApplication warns without one)
    xdotool # the inspector shortcut check presses real keys under Xvfb
    fonts-wqy-microhei # CJK glyphs: the zh_CN screenshot of the inspector (check_inspector.py)
    protobuf-compiler # protoc --decode reads the pprof export back
    python3-gi # a PyGObject app (GLib loaded by dlopen) in the safety checks
    rustc # a Rust program whose names the stacks checks demangle (g++: build-essential)
    # debuginfod: the client's header (the core dlopens libdebuginfod.so.1) and
    # the server the stacks checks fetch a test module's debug file from
    libdebuginfod-dev debuginfod
)

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [[ $status == installed ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if ! command -v apt-get >/dev/null; then
    echo "bootstrap: apt-get not found; install by hand: ${missing[*]}" >&2
    exit 1
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
        echo "bootstrap: not root and no sudo; install by hand: ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi

echo "bootstrap: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
