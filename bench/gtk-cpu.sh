#!/bin/bash
# gtk-cpu.sh: CPU time (user+sys) of real GTK4 apps without and with the
# jankscope preload, alternating, under Xvfb with GSK_RENDERER=cairo:
#   widget-factory  gtk4-widget-factory left alone;
#   fishbowl        gtk4-demo --run fishbowl, animating.
#
#   bench/gtk-cpu.sh [PRELOAD]          (or JANKSCOPE_PRELOAD=...)
#   BENCH_SECONDS   seconds per run (default 20; BENCH_QUICK=1: 5)
#   BENCH_WARMUP    seconds left out of the "steady" figure (default 1/4 run)
#   BENCH_REPS      runs per app and side (default 2; BENCH_QUICK=1: 1)
#   BENCH_APPS      the apps to run, of "widget-factory fishbowl" (default both)
#
# CPU time is read from /proc/PID/stat after the warm-up and just before the
# app is stopped: "total" includes start-up, "steady" is what came after.
# Exit status: 0 done; 77 no preload or no GTK4 example apps (what could be
# measured is printed); 1 an app failed (died early or never started).
set -euo pipefail

bench=gtk-cpu
# shellcheck source=bench/gtk-bench-lib.sh
. "$(dirname "$0")/gtk-bench-lib.sh"

preload=${1:-${JANKSCOPE_PRELOAD:-}}
bench_settings 5 2
bench_find_apps
bench_in_xvfb GTK_CPU_IN_XVFB -- "$@"

bench_setup

# run_one APP SIDE: prints "TOTAL STEADY" CPU seconds of the app, or fails.
run_one() {
    local app=$1 side=$2 pid t_warm t_end log=$workdir/$1-$2.log
    bench_side_env "$app" "$side"
    bench_run_app "$app" "$side" "$log" "${side_env[@]}" || return 1
    stop_app "$pid" 10
    echo "$(seconds_of "$t_end") $(seconds_of $((t_end - t_warm)))"
}

echo "gtk-cpu: ${seconds} s per run (${warmup} s warm-up), $reps run(s) per app and side," \
    "GSK_RENDERER=cairo, Xvfb"
if [[ -n $preload_problem ]]; then
    echo "without the preload only: $preload_problem"
else
    echo "preload: $preload"
fi

failed=0
declare -A total steady
for ((i = 0; i < reps; i++)); do
    for app in "${apps[@]}"; do
        # Alternate which side goes first.
        if ((i % 2 == 0)); then sides="without with"; else sides="with without"; fi
        for side in $sides; do
            [[ $side == with && -n $preload_problem ]] && continue
            if cpu=$(run_one "$app" "$side"); then
                read -r t s <<<"$cpu"
                total[$app-$side]+="$t "
                steady[$app-$side]+="$s "
                printf '  %-15s %-8s run %d: %6s s CPU total, %6s s after warm-up\n' \
                    "$app" "$side" $((i + 1)) "$t" "$s"
            else
                failed=1
            fi
        done
    done
done

echo
fmt='%-15s  %-6s  %11s  %8s  %8s  %7s\n'
# shellcheck disable=SC2059
printf "$fmt" app cpu "without (s)" "with (s)" "diff (s)" "diff %"
# shellcheck disable=SC2059
printf "$fmt" --------------- ------ ----------- -------- -------- -------
for app in "${apps[@]}"; do
    for kind in total steady; do
        declare -n values=$kind
        # shellcheck disable=SC2086
        off=$(printf '%s\n' ${values[$app-without]:-} | median)
        # shellcheck disable=SC2086
        on=$(printf '%s\n' ${values[$app-with]:-} | median)
        read -r d p <<<"$(diff_cols "$off" "$on")"
        label=$app
        [[ $kind == steady ]] && label=
        # shellcheck disable=SC2059
        printf "$fmt" "$label" "$kind" "$off" "$on" "$d" "$p"
        unset -n values
    done
done
echo
echo "CPU = user+sys of the app, median of $reps run(s); total = the whole ${seconds} s run"
echo "(start-up included), steady = the last $((seconds - warmup)) s.  Clock tick 1/${tick} s."
echo "fishbowl raises its icon count while it holds its frame rate, so its load grows"
echo "during a run and varies between runs: read its numbers as rough."
bench_finish
