#!/bin/bash
# gtk-frames.sh: frame intervals (P50/P95/P99) and CPU time (user+sys) of real
# GTK4 apps without and with the jankscope preload, alternating, under Xvfb
# with GSK_RENDERER=cairo:
#   widget-factory  gtk4-widget-factory left alone (its spinner animates);
#   fishbowl        gtk4-demo --run fishbowl, animating a fixed number of
#                   icons (BENCH_FISHBOWL_COUNT, default 50: the probe sets
#                   it on both sides; left to itself the fishbowl adds icons
#                   while it holds its frame rate, so a side's CPU time
#                   would measure how many icons it drew).
# Frames are timed by an independent probe (frame-probe.c, loaded with
# LD_PRELOAD on BOTH sides, so its own cost cancels out); jankscope is added
# to LD_PRELOAD on the "with" side only.  Then, if valgrind is installed,
# jankscope's per-frame hook cost (instructions of phase_hook and
# after_paint_done, src/core/js-frame-hooks.c) under callgrind, converted to µs
# with this machine's measured instructions per second.
#
#   bench/gtk-frames.sh --probe build/bench/libframe-probe.so [PRELOAD]
#   (or FRAME_PROBE=... and JANKSCOPE_PRELOAD=...)
#   --no-callgrind             skip the callgrind part
#   --against PRELOAD          a third side, "base": another build's preload
#                              (e.g. main's), alternated with the other two
#   BENCH_SECONDS      seconds per run (default 20; BENCH_QUICK=1: 6)
#   BENCH_WARMUP       seconds left out of the steady figures (default 1/4 run)
#   BENCH_REPS         runs per app and side (default 5; BENCH_QUICK=1: 1)
#   BENCH_CG_SECONDS   seconds of frames under callgrind (default 10;
#                      BENCH_QUICK=1: 0 = skip)
#   BENCH_APPS         the apps to run, of "widget-factory fishbowl" (default both)
#   BENCH_FISHBOWL_COUNT  the fishbowl's icons (default 50; 0: the demo
#                      adapts the count itself, as before)
#
# Exit status: 0 done; 77 no preload, probe or GTK4 example apps (what could
# be measured is printed); 1 an app failed (died early or never started) or
# the probe timed no frame on a side (its output is shown).
set -euo pipefail

bench=gtk-frames
# shellcheck source=bench/gtk-bench-lib.sh
. "$(dirname "$0")/gtk-bench-lib.sh"

probe=${FRAME_PROBE:-}
preload=${JANKSCOPE_PRELOAD:-}
bench_fishbowl_count
use_callgrind=1
against=
args=("$@")
while (($#)); do
    case $1 in
        --probe) probe=${2:-}; shift 2 ;;
        --probe=*) probe=${1#--probe=}; shift ;;
        --no-callgrind) use_callgrind=0; shift ;;
        --against) against=${2:-}; shift 2 ;;
        --against=*) against=${1#--against=}; shift ;;
        -h | --help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "gtk-frames: unknown option $1" >&2; exit 2 ;;
        *) preload=$1; shift ;;
    esac
done

bench_settings 6 5
cg_seconds=${BENCH_CG_SECONDS:-$((quick ? 0 : 10))}
if ! [[ $cg_seconds =~ ^[0-9]+$ ]]; then
    echo "gtk-frames: BENCH_CG_SECONDS must be a whole number >= 0" >&2
    exit 2
fi

if [[ -z $probe || ! -f $probe ]]; then
    echo "gtk-frames: SKIPPED: frame probe '${probe}' not found (meson compile -C build builds" \
        "build/bench/libframe-probe.so; pass it with --probe)"
    exit 77
fi
probe=$(readlink -f "$probe")

bench_find_apps
bench_in_xvfb GTK_FRAMES_IN_XVFB "FRAME_PROBE=$probe" "JANKSCOPE_PRELOAD=$preload" -- "${args[@]}"

bench_setup
if [[ -n $against ]]; then
    if [[ ! -f $against ]]; then
        echo "gtk-frames: --against $against does not exist" >&2
        exit 2
    fi
    against=$(readlink -f "$against")
fi

# probe_value FILE KEY: the probe's value, or "-".
probe_value() {
    awk -v k="$2" '$1 == k { print $2; found = 1 } END { if (!found) print "-" }' "$1" \
        2>/dev/null || echo -
}

# run_one APP SIDE: prints "TOTAL STEADY FPS P50 P95 P99 MAX MAIN JS WATCH OTHER"
# (CPU seconds, frames per second, interval in ms, steady CPU ms per thread),
# or fails: the app died, or the probe timed no frame interval (a side
# without frame numbers would leave the comparison silently empty).
run_one() {
    local app=$1 side=$2 pid t_warm t_end threads log=$workdir/$1-$2.log
    local out=$workdir/probe-$1-$2.txt
    bench_side_env "$app" "$side" "$probe"
    rm -f "$out"
    bench_run_app "$app" "$side" "$log" "${side_env[@]}" FRAME_PROBE_OUT="$out" \
        FRAME_PROBE_WARMUP_MS=$((warmup * 1000)) \
        FRAME_PROBE_FISHBOWL_COUNT="$([[ $app == fishbowl ]] && echo "$fishbowl_count" || echo 0)" ||
        return 1
    stop_app "$pid"
    local n fps p50 p95 p99 max
    n=$(probe_value "$out" intervals)
    if [[ $n == - || $n == 0 || $(probe_value "$out" pid) != "$pid" ]]; then
        echo "gtk-frames: the frame probe timed no frame interval of $app ($side side," \
            "pid $pid) after the ${warmup} s warm-up; its file $out:" >&2
        if [[ -f $out ]]; then sed 's/^/    /' "$out" >&2; else echo "    (none)" >&2; fi
        echo "  the app's output:" >&2
        tail -n 10 "$log" >&2
        return 1
    fi
    if [[ $app == fishbowl && $fishbowl_count != 0 ]]; then
        bench_fishbowl_check "$out" "$side" || return 1
    fi
    fps=$(probe_value "$out" fps)
    # µs -> ms
    read -r p50 p95 p99 max <<<"$(for k in p50_us p95_us p99_us max_us; do
        awk -v v="$(probe_value "$out" $k)" 'BEGIN { printf "%.2f ", v / 1000 }'
    done)"
    echo "$(seconds_of "$t_end") $(seconds_of $((t_end - t_warm))) $fps $p50 $p95 $p99 $max $threads"
}

echo "gtk-frames: ${seconds} s per run (${warmup} s warm-up), $reps run(s) per app and side," \
    "GSK_RENDERER=cairo, Xvfb"
echo "frame probe (both sides): $probe"
if [[ -n $preload_problem ]]; then
    echo "without the preload only: $preload_problem"
else
    echo "preload (with side): $preload"
fi

[[ -n $against ]] && echo "base side: $against"

sides_all=(without)
[[ -z $preload_problem ]] && sides_all+=(with)
[[ -n $against ]] && sides_all+=(base)
failed=0
metrics=(fps p50 p95 p99 max cpu_total cpu_steady t_main t_js t_watch t_other t_sum)
declare -A vals
for ((i = 0; i < reps; i++)); do
    for app in "${apps[@]}"; do
        # Each run starts with the next side: the order rotates.
        n=${#sides_all[@]}
        for ((k = 0; k < n; k++)); do
            side=${sides_all[(i + k) % n]}
            if res=$(run_one "$app" "$side"); then
                read -r t s fps p50 p95 p99 max t_main t_js t_watch t_other <<<"$res"
                # shellcheck disable=SC2034 # read through ${!m} below
                t_sum=$(awk -v a="$t_main" -v b="$t_js" -v c="$t_watch" -v d="$t_other" \
                    'BEGIN { printf "%.1f", a + b + c + d }')
                for m in "${metrics[@]}"; do
                    case $m in
                        cpu_total) v=$t ;; cpu_steady) v=$s ;; *) v=${!m} ;;
                    esac
                    vals[$app-$side-$m]+="$v "
                done
                printf '  %-15s %-8s run %d: %6s fps, p50 %6s ms p99 %6s ms max %7s ms;' \
                    "$app" "$side" $((i + 1)) "$fps" "$p50" "$p99" "$max"
                printf ' CPU %6s s, steady %6s s = main %s + jankscope %s + watch %s + other %s ms\n' \
                    "$t" "$s" "$t_main" "$t_js" "$t_watch" "$t_other"
            else
                failed=1
            fi
        done
    done
done

label_of() {
    case $1 in
        fps) echo "frames/s" ;;
        p50) echo "interval P50 (ms)" ;;
        p95) echo "interval P95 (ms)" ;;
        p99) echo "interval P99 (ms)" ;;
        max) echo "interval max (ms)" ;;
        cpu_total) echo "CPU total (s)" ;;
        cpu_steady) echo "CPU steady (s)" ;;
        t_main) echo "steady main (ms)" ;;
        t_js) echo "steady jankscope (ms)" ;;
        t_watch) echo "steady js-watch (ms)" ;;
        t_other) echo "steady other (ms)" ;;
        t_sum) echo "steady threads (ms)" ;;
    esac
}

echo
hdr=(app metric)
for side in "${sides_all[@]}"; do hdr+=("$side (min-max)"); done
hdr+=("with-without" "%")
[[ -n $against ]] && hdr+=("base-without" "%")
row() {
    printf '%-15s %-22s' "$1" "$2"
    shift 2
    printf ' %23s' "$@"
    echo
}
row "${hdr[@]}"
for app in "${apps[@]}"; do
    label=$app
    for m in "${metrics[@]}"; do
        cells=()
        declare -A med=()
        for side in "${sides_all[@]}"; do
            # shellcheck disable=SC2086
            med[$side]=$(printf '%s\n' ${vals[$app-$side-$m]:-} | median)
            # shellcheck disable=SC2086
            cells+=("${med[$side]} ($(printf '%s\n' ${vals[$app-$side-$m]:-} | spread))")
        done
        read -r d p <<<"$(diff_cols "${med[without]}" "${med[with]:--}")"
        cells+=("$d" "$p")
        if [[ -n $against ]]; then
            read -r d p <<<"$(diff_cols "${med[without]}" "${med[base]:--}")"
            cells+=("$d" "$p")
        fi
        row "$label" "$(label_of "$m")" "${cells[@]}"
        unset med
        label=
    done
done
echo
echo "Medians of $reps run(s) per side, (fastest-slowest).  Frame numbers: the probe's after-paint"
echo "intervals after the ${warmup} s warm-up (per frame clock); CPU total/steady = user+sys of the"
echo "app from /proc/PID/stat (clock tick 1/${tick} s), total = the whole ${seconds} s run, steady = the"
echo "last $((seconds - warmup)) s; steady per thread = time on a CPU (/proc/PID/task/*/schedstat, ns)"
echo "of the main thread, jankscope's collector, its watchdog and every other thread."
if [[ $fishbowl_count != 0 ]]; then
    echo "fishbowl drew $fishbowl_count icons on every side (BENCH_FISHBOWL_COUNT; checked at the end)."
else
    echo "fishbowl adds icons while it holds its frame rate, so its CPU varies between runs."
fi

# --- per-frame hook cost under callgrind ----------------------------------

# Instructions per second of this machine on GLib main-loop code:
# dispatch-overhead (repeat mode, ~no work per dispatch), instructions counted
# by callgrind, user CPU time measured natively; both as the difference of two
# run lengths, so start-up cancels out.  Prints "IPS" or nothing.
measure_ips() {
    local exe=$1 n1=200000 n2=1000000 m1=1000000 m2=5000000 ir1 ir2 u1 u2 best1 best2
    ir_of() {
        valgrind --tool=callgrind --callgrind-out-file="$workdir/ips.out" \
            "$exe" -m repeat -s 1 -n "$1" >/dev/null 2>&1 || return 1
        awk '/^(summary|totals):/ { print $2; exit }' "$workdir/ips.out"
    }
    user_of() {
        "$exe" -m repeat -s 1 -n "$1" | sed -n 's/.*cpu_user_s=\([0-9.]*\).*/\1/p'
    }
    ir1=$(ir_of $n1) && ir2=$(ir_of $n2) || return 0
    best1=; best2=
    for _ in 1 2 3; do
        u1=$(user_of $m1); u2=$(user_of $m2)
        best1=$(awk -v a="$u1" -v b="$best1" 'BEGIN { print (b == "" || a < b) ? a : b }')
        best2=$(awk -v a="$u2" -v b="$best2" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    awk -v i1="$ir1" -v i2="$ir2" -v n1=$n1 -v n2=$n2 -v u1="$best1" -v u2="$best2" \
        -v m1=$m1 -v m2=$m2 'BEGIN {
        ipd = (i2 - i1) / (n2 - n1); spd = (u2 - u1) / (m2 - m1);
        if (spd > 0) printf "%.0f %.0f %.1f\n", ipd / spd, ipd, spd * 1e9 }'
}

callgrind_part() {
    local out=$workdir/cg-probe.txt cg=$workdir/callgrind.out log=$workdir/callgrind.log pid
    local waited frames ir before
    echo
    echo "jankscope per-frame hook cost: gtk4-widget-factory under callgrind, ${cg_seconds} s of"
    echo "frames, instructions counted only inside phase_hook and after_paint_done (inclusive)"
    env "LD_PRELOAD=$probe:$preload" "JANKSCOPE_REPORT=$workdir/report-cg-%p.json" \
        FRAME_PROBE_OUT="$out" \
        valgrind --tool=callgrind --callgrind-out-file="$cg" --collect-atstart=no \
        --toggle-collect=phase_hook --toggle-collect=after_paint_done \
        gtk4-widget-factory >"$log" 2>&1 &
    pid=$!
    # Start-up under valgrind is slow: wait for the first frames (at most 180 s).
    for ((waited = 0; waited < 1800; waited++)); do
        frames=$(probe_value "$out" frames)
        [[ $frames != - && $frames -gt 0 ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if ! kill -0 "$pid" 2>/dev/null || [[ $frames == - || $frames -eq 0 ]]; then
        echo "gtk-frames: gtk4-widget-factory under callgrind died or drew no frame; its output:" >&2
        tail -n 20 "$log" >&2
        stop_app "$pid"
        return 1
    fi
    sleep "$cg_seconds"
    # Stop right after the probe's next write, so its count matches callgrind's.
    before=$(cat "$out")
    for _ in $(seq 40); do
        [[ $(cat "$out") != "$before" ]] && break
        sleep 0.05
    done
    frames=$(probe_value "$out" frames)
    stop_app "$pid"
    ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$cg" 2>/dev/null || true)
    if [[ -z $ir ]]; then
        echo "  callgrind wrote no totals (see $log)"
        return 0
    fi
    local calls
    calls=$(callgrind_annotate --inclusive=yes "$cg" 2>/dev/null |
        awk '/js-frame-hooks\.c:(phase_hook|after_paint_done) \[/ { line = $0; ir = $1;
            sub(/ \[.*/, "", line); sub(/.*js-frame-hooks\.c:/, "", line);
            printf "%s%s %s", sep, line, ir; sep = ", " }' || true)
    echo "  frames (probe, after-paint): $frames;  instructions: $ir"
    [[ -n $calls ]] && echo "  per function (inclusive Ir): $calls"
    local ips
    if [[ -x $bench_dispatch ]]; then
        read -r ips ipd nspd <<<"$(measure_ips "$bench_dispatch")" || true
    fi
    awk -v ir="$ir" -v f="$frames" -v ips="${ips:-}" -v ipd="${ipd:-}" -v nspd="${nspd:-}" 'BEGIN {
        ipf = ir / f;
        printf "  => %.0f instructions per frame\n", ipf;
        if (ips != "") {
            printf "  machine: %.2f G instructions/s (user time) on GLib dispatch code\n", ips / 1e9;
            printf "           (dispatch-overhead repeat: %.0f instr, %.1f ns per dispatch)\n", ipd, nspd;
            printf "  => ~%.2f us per frame at that rate (%.3f %% of a 16.7 ms frame)\n",
                ipf / ips * 1e6, 100 * ipf / ips * 1e6 / 16667;
        } else
            print "  (instructions/s not measured: dispatch-overhead not found next to the probe)";
    }'
    echo "  Counts only the two hook functions and what they call (state_for, js_ring_push,"
    echo "  clock reads ...), not GLib's cost of calling an emission hook or a handler, nor the"
    echo "  collector thread, nor jankscope's main-loop hooks (see dispatch-overhead).  One-time"
    echo "  work (a clock's first state_for) is spread over the frames counted, so few frames"
    echo "  (callgrind is slow) overstate the steady per-frame cost."
}

if ((use_callgrind && cg_seconds > 0)) && [[ -z $preload_problem ]]; then
    bench_dispatch=$(dirname "$probe")/dispatch-overhead
    if ! command -v valgrind >/dev/null; then
        echo
        echo "per-frame hook cost: skipped, valgrind not installed"
    elif ! callgrind_part; then
        failed=1
    fi
fi

bench_finish
