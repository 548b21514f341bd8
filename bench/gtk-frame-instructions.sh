#!/bin/bash
# gtk-frame-instructions.sh: what jankscope adds to each frame of an animating
# GTK4 app, counted in instructions: gtk4-widget-factory (its spinner
# animates; BENCH_APP=fishbowl: gtk4-demo's fishbowl, a slow frame now and
# then) without and with the jankscope preload, both at once under
# callgrind, the main thread's instructions per frame on each side and the
# difference, by library.  Instruction counts do not swing with the machine
# as CPU time does (gtk-frames.sh: ±12% between runs of the same side), so a
# cost of a fraction of a percent shows.
#
#   bench/gtk-frame-instructions.sh [PRELOAD]   (or JANKSCOPE_PRELOAD=...)
#   BENCH_CG_WARMUP    seconds before counting starts (default 45: start-up
#                      under valgrind is slow)
#   BENCH_CG_SECONDS   seconds counted (default 60)
#   BENCH_APP          widget-factory (default) or fishbowl
#   BENCH_QUICK=1      skipped (exit 77): minutes of valgrind
#
# Counting starts after the warm-up (callgrind_control -i on) and ends with a
# dump, on both sides at the same moments.  Frames are the calls of
# gdk_draw_context_begin_frame (one per frame of the window), counted by
# callgrind itself: no probe, whose own emission hook would change GLib's
# cost of emitting after-paint on both sides.
#
# What callgrind shows differently from a real run, and is reported apart:
# valgrind's rdtsc makes jankscope's TSC clock fall back to clock_gettime
# (libc's instructions, ~16 instructions and an rdtsc natively); and a frame
# takes ~0.3 s under callgrind, so every frame is a stall to the watchdog
# (samples: libunwind on the main thread) and posting sites of library
# callers take a stack per frame instead of one per 100 ms.  The "steady"
# line leaves both out.
#
# Exit status: 0 done; 77 skipped (quick mode, no valgrind, no
# the app, no preload); 1 a side died or drew no frame.
set -euo pipefail
bench=gtk-frame-instructions
# shellcheck source=bench/gtk-bench-lib.sh
. "$(dirname "$0")/gtk-bench-lib.sh"

preload=${1:-${JANKSCOPE_PRELOAD:-}}
cg_warmup=${BENCH_CG_WARMUP:-45}
cg_seconds=${BENCH_CG_SECONDS:-60}
if ! [[ $cg_warmup =~ ^[0-9]+$ && $cg_warmup -ge 5 && $cg_seconds =~ ^[0-9]+$ &&
    $cg_seconds -ge 5 ]]; then
    echo "$bench: BENCH_CG_WARMUP and BENCH_CG_SECONDS must be whole numbers >= 5" >&2
    exit 2
fi
if [[ -n ${BENCH_QUICK:-} && ${BENCH_QUICK} != 0 ]]; then
    echo "$bench: SKIPPED in quick mode (minutes under valgrind)"
    exit 77
fi
case ${BENCH_APP:-widget-factory} in
    widget-factory) app_cmd=(gtk4-widget-factory) ;;
    fishbowl) app_cmd=(gtk4-demo --run fishbowl) ;;
    *)
        echo "$bench: BENCH_APP must be widget-factory or fishbowl" >&2
        exit 2
        ;;
esac
app_name=${app_cmd[*]}
for tool in valgrind callgrind_control callgrind_annotate "${app_cmd[0]}"; do
    if ! command -v "$tool" >/dev/null; then
        echo "$bench: SKIPPED: $tool not found"
        exit 77
    fi
done
bench_in_xvfb GTK_FRAME_INSTRUCTIONS_IN_XVFB -- "$@"
bench_setup
# shellcheck disable=SC2034 # read by bench_finish
failed=0
if [[ -n $preload_problem ]]; then
    echo "$bench: SKIPPED: $preload_problem"
    exit 77
fi

# start_side SIDE: the app under callgrind, counting off; prints
# valgrind's pid.
start_side() {
    local side=$1
    local -a envs=(env -u JANKSCOPE_REPORT -u JANKSCOPE)
    [[ $side == with ]] && envs+=("LD_PRELOAD=$preload" "JANKSCOPE_REPORT=$workdir/report-%p.json")
    "${envs[@]}" valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes \
        --callgrind-out-file="$workdir/cg-$side.%p" "${app_cmd[@]}" \
        >"$workdir/$side.log" 2>&1 &
    echo $!
}

pid_without=$(start_side without)
pid_with=$(start_side with)
sleep "$cg_warmup"
for pid in "$pid_without" "$pid_with"; do
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "$bench: $app_name died during the warm-up; its output:" >&2
        tail -n 20 "$workdir"/*.log >&2
        stop_app "$pid_without"
        stop_app "$pid_with"
        exit 1
    fi
done
callgrind_control -i on "$pid_without" >/dev/null
callgrind_control -i on "$pid_with" >/dev/null
sleep "$cg_seconds"
callgrind_control -d "$pid_without" >/dev/null
callgrind_control -d "$pid_with" >/dev/null
stop_app "$pid_without"
stop_app "$pid_with"

# The dump of the main thread (thread 1) of a side: cg-SIDE.PID.1-01.
dump_of() {
    local f=$workdir/cg-$1.$2.1-01
    [[ -s $f ]] && echo "$f"
}

# side_figures FILE: "FRAMES TOTAL" then "OBJECT SELF" lines (self
# instructions by object; clock_gettime apart as CLOCK).
side_figures() {
    local f=$1 frames
    frames=$(callgrind_annotate --tree=calling --threshold=100 "$f" 2>/dev/null |
        awk '/> +\?\?\?:gdk_draw_context_begin_frame \(/ {
                 c = $0; sub(/.*begin_frame \(/, "", c); sub(/x\).*/, "", c);
                 gsub(",", "", c); n += c } END { print n + 0 }')
    echo "$frames $(awk '/^(summary|totals):/ { print $2; exit }' "$f")"
    callgrind_annotate --inclusive=no --threshold=100 "$f" 2>/dev/null |
        awk '$1 ~ /^[0-9,]+$/ && /\[/ && !/PROGRAM TOTALS/ {
                 n = $1; gsub(",", "", n); o = $0; sub(/.*\[/, "", o); sub(/\].*/, "", o);
                 sub(/.*\//, "", o); sub(/\.so.*/, "", o);
                 if ($0 ~ /clock_gettime/) o = "CLOCK";
                 t[o] += n }
             END { for (k in t) print k, t[k] }'
}

f_without=$(dump_of without "$pid_without") || true
f_with=$(dump_of with "$pid_with") || true
if [[ -z $f_without || -z $f_with ]]; then
    echo "$bench: callgrind wrote no dump for a side (see $workdir/*.log)" >&2
    tail -n 20 "$workdir"/*.log >&2
    exit 1
fi
side_figures "$f_without" >"$workdir/without.txt"
side_figures "$f_with" >"$workdir/with.txt"
echo "$app_name under callgrind, both sides at once: ${cg_warmup} s warm-up, then"
echo "${cg_seconds} s counted; the main thread's instructions per frame"
echo
awk '
    FNR == 1 { side = (FILENAME ~ /without/) ? "w" : "j"; frames[side] = $1; total[side] = $2; next }
    { self[side, $1] = $2; objs[$1] = 1 }
    END {
        if (frames["w"] == 0 || frames["j"] == 0) { print "a side drew no frame"; exit 1 }
        fw = total["w"] / frames["w"]; fj = total["j"] / frames["j"];
        printf "%-34s %12s %12s %10s\n", "", "without", "with", "added";
        printf "%-34s %12d %12d\n", "frames counted", frames["w"], frames["j"];
        printf "%-34s %12.0f %12.0f %+10.0f (%+.2f%%)\n", "instructions per frame", fw, fj,
               fj - fw, 100 * (fj - fw) / fw;
        print "";
        print "by library, self instructions per frame (the largest differences):";
        n = 0;
        for (o in objs) {
            a = self["w", o] / frames["w"]; b = self["j", o] / frames["j"];
            d[o] = b - a; av[o] = a; bv[o] = b
        }
        # jankscope and GLib first, then the rest by size of the difference.
        split("libjankscope-core libjankscope-preload libgobject-2.0 libglib-2.0 libunwind CLOCK", first, " ");
        for (i = 1; i in first; i++) {
            o = first[i]; if (!(o in d)) continue;
            printf "  %-32s %12.0f %12.0f %+10.0f\n", o, av[o], bv[o], d[o]; shown[o] = 1
        }
        jank = 0;
        for (o in d) if (o ~ /^libjankscope/) jank += d[o];
        glib = d["libgobject-2.0"] + d["libglib-2.0"];
        extra = (("libunwind" in d) ? d["libunwind"] : 0) + (("CLOCK" in d) ? d["CLOCK"] : 0);
        print "";
        printf "jankscope'"'"'s code on the main thread      %+9.0f per frame  %6.3f%% of the frame\n",
               jank, 100 * jank / fw;
        printf "+ GLib and GObject (all of it counted   %+9.0f per frame  %6.3f%%\n",
               glib, 100 * glib / fw;
        printf "  as jankscope'"'"'s: emission hooks, stand-ins)\n";
        printf "= jankscope, steady                     %+9.0f per frame  %6.3f%%\n",
               jank + glib, 100 * (jank + glib) / fw;
        printf "+ libunwind and the clock fallback      %+9.0f per frame  %6.3f%%\n",
               extra, 100 * extra / fw;
        printf "  (valgrind inflates both: see above)\n";
        printf "= upper bound                           %+9.0f per frame  %6.3f%%\n",
               jank + glib + extra, 100 * (jank + glib + extra) / fw;
        print "";
        print "Other libraries differ because the frames differ a little (the spinner'"'"'s";
        print "angle, what a slow frame skips): the total is within that noise, the";
        print "jankscope and GLib lines are not. jankscope'"'"'s threads are left out: under";
        print "valgrind every frame is a stall they sample and symbolize (gtk-frames.sh";
        print "times them natively, from schedstat).";
    }' "$workdir/without.txt" "$workdir/with.txt"
bench_finish
