#!/bin/bash
# gtk-cpu-paired.sh: what jankscope adds to the CPU time of animating GTK4
# apps, both sides at once: each pair starts the app without and with the
# jankscope preload together, in the same Xvfb (GSK_RENDERER=cairo), and
# reads both processes' CPU time over the same steady window, so that what
# the machine does meanwhile (other load, the host, frequency) weighs on
# both alike.  Alternating runs (gtk-cpu.sh, gtk-frames.sh) see that as
# run-to-run spread of ±8-12 % on a shared VM, too wide for a 1 % target.
#   widget-factory  gtk4-widget-factory left alone (its spinner animates);
#   fishbowl        gtk4-demo --run fishbowl, animating; with FRAME_PROBE,
#                   a fixed number of icons on both sides (below).
#
#   bench/gtk-cpu-paired.sh [PRELOAD]   (or JANKSCOPE_PRELOAD=...)
#   FRAME_PROBE     build/bench/libframe-probe.so: preloaded into both
#                   fishbowls (first, so its small cost cancels out) to fix
#                   their icons at BENCH_FISHBOWL_COUNT (default 50), checked
#                   at the end of each pair; without it fishbowl adapts its
#                   count to the frame rate it holds, and the two sides of a
#                   pair race for icons
#   BENCH_SECONDS   seconds per pair (default 20; BENCH_QUICK=1: 6)
#   BENCH_WARMUP    seconds left out (default 1/4 of a pair)
#   BENCH_REPS      pairs per app (default 7; BENCH_QUICK=1: 1)
#   BENCH_APPS      the apps to run, of "widget-factory fishbowl" (default both)
#
# CPU time is the sum over the process's threads of the time they ran
# (/proc/PID/task/*/schedstat, ns; stat's utime and stime count 10 ms
# ticks), between the end of the warm-up and the end of the pair.  Per pair:
# without, with (ms), the difference in %, and the with side's split (main
# thread, jankscope's collector and watchdog).  Then per app: the median of
# the paired differences and their spread, and each side's median.
# Which side is started first alternates from pair to pair.
#
# Exit status: 0 done; 77 no preload or no GTK4 example apps; 1 an app
# failed (died early or never started).
set -euo pipefail

bench=gtk-cpu-paired
# shellcheck source=bench/gtk-bench-lib.sh
. "$(dirname "$0")/gtk-bench-lib.sh"

preload=${1:-${JANKSCOPE_PRELOAD:-}}
probe=${FRAME_PROBE:-}
if [[ -n $probe ]]; then
    if [[ ! -f $probe ]]; then
        echo "$bench: FRAME_PROBE '$probe' not found" >&2
        exit 2
    fi
    probe=$(readlink -f "$probe")
fi
bench_fishbowl_count
bench_settings 6 7
bench_find_apps
bench_in_xvfb GTK_CPU_PAIRED_IN_XVFB -- "$@"

bench_setup
if [[ -n $preload_problem ]]; then
    echo "$bench: SKIPPED: $preload_problem"
    exit 77
fi

# start APP SIDE: starts APP on SIDE in the background; prints its pid.
start() {
    local app=$1 side=$2 log=$workdir/$1-$2.log
    if [[ $app == fishbowl && -n $probe ]]; then
        bench_side_env "$app" "$side" "$probe"
        side_env+=("FRAME_PROBE_OUT=$workdir/probe-$app-$side.txt"
            "FRAME_PROBE_FISHBOWL_COUNT=$fishbowl_count")
    else
        bench_side_env "$app" "$side"
    fi
    # shellcheck disable=SC2046
    "${side_env[@]}" $(app_command "$app") >"$log" 2>&1 &
    echo $!
}

# alive PID APP SIDE: fails, with the app's output, when PID has ended.
alive() {
    kill -0 "$1" 2>/dev/null && return 0
    echo "$bench: $2 ($3 preload) exited before $seconds s; its output:" >&2
    tail -n 20 "$workdir/$2-$3.log" >&2
    return 1
}

echo "$bench: ${seconds} s per pair (${warmup} s warm-up), $reps pair(s) per app," \
    "both sides at once, GSK_RENDERER=cairo, Xvfb"
echo "preload: $preload"

failed=0
declare -A diffs offs ons
fmt='  %-15s pair %2d  without %8.1f ms  with %8.1f ms  %+6.2f %%  (main %.1f, jankscope %.1f, watch %.1f ms)\n'
for app in "${apps[@]}"; do
    for ((i = 0; i < reps; i++)); do
        if ((i % 2 == 0)); then
            p_off=$(start "$app" without)
            p_on=$(start "$app" with)
        else
            p_on=$(start "$app" with)
            p_off=$(start "$app" without)
        fi
        sleep "$warmup"
        thread_ns "$p_off" >"$workdir/off0"
        thread_ns "$p_on" >"$workdir/on0"
        sleep $((seconds - warmup))
        thread_ns "$p_off" >"$workdir/off1"
        thread_ns "$p_on" >"$workdir/on1"
        ok=1
        alive "$p_off" "$app" without || ok=0
        alive "$p_on" "$app" with || ok=0
        stop_app "$p_off" 10
        stop_app "$p_on" 10
        if [[ $app == fishbowl && -n $probe && $fishbowl_count != 0 ]]; then
            bench_fishbowl_check "$workdir/probe-$app-without.txt" without || ok=0
            bench_fishbowl_check "$workdir/probe-$app-with.txt" with || ok=0
            rm -f "$workdir"/probe-"$app"-*.txt
        fi
        if ((!ok)); then
            failed=1
            continue
        fi
        read -r om oj ow oo <<<"$(thread_split "$workdir/off0" "$workdir/off1" "$p_off")"
        read -r nm nj nw no <<<"$(thread_split "$workdir/on0" "$workdir/on1" "$p_on")"
        off=$(awk -v a="$om" -v b="$oj" -v c="$ow" -v d="$oo" 'BEGIN { print a + b + c + d }')
        on=$(awk -v a="$nm" -v b="$nj" -v c="$nw" -v d="$no" 'BEGIN { print a + b + c + d }')
        d=$(awk -v off="$off" -v on="$on" 'BEGIN { printf "%.2f\n", (off > 0 ? 100 * (on - off) / off : 0) }')
        # shellcheck disable=SC2059
        printf "$fmt" "$app" $((i + 1)) "$off" "$on" "$d" "$nm" "$nj" "$nw"
        diffs[$app]+="$d "
        offs[$app]+="$off "
        ons[$app]+="$on "
    done
done

echo
tfmt='%-15s  %14s  %14s  %22s  %14s\n'
# shellcheck disable=SC2059
printf "$tfmt" app "without (ms)" "with (ms)" "paired diff %, median" "spread %"
# shellcheck disable=SC2059
printf "$tfmt" --------------- -------------- -------------- ---------------------- --------------
for app in "${apps[@]}"; do
    [[ -n ${diffs[$app]:-} ]] || continue
    # shellcheck disable=SC2059,SC2086
    printf "$tfmt" "$app" "$(printf '%s\n' ${offs[$app]} | median)" \
        "$(printf '%s\n' ${ons[$app]} | median)" \
        "$(printf '%s\n' ${diffs[$app]} | median)" "$(printf '%s\n' ${diffs[$app]} | spread)"
done
echo
echo "CPU = the process's threads' time on a CPU (schedstat) in the last $((seconds - warmup)) s"
echo "of each ${seconds} s pair, both sides running at the same time; paired diff = (with -"
echo "without) / without of one pair."
if [[ -n $probe && $fishbowl_count != 0 ]]; then
    echo "fishbowl drew $fishbowl_count icons on both sides (the frame probe, checked per pair)."
else
    echo "fishbowl raises its icon count while it holds its frame rate: a side that drew"
    echo "slower would add fewer icons and use less CPU (FRAME_PROBE fixes the count)."
fi
bench_finish
