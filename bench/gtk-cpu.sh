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
#
# CPU time is read from /proc/PID/stat after the warm-up and just before the
# app is stopped: "total" includes start-up, "steady" is what came after.
# Exit status: 0 done; 77 no preload or no GTK4 example apps (what could be
# measured is printed); 1 an app failed (died early or never started).
set -euo pipefail

preload=${1:-${JANKSCOPE_PRELOAD:-}}
quick=0
[[ -n ${BENCH_QUICK:-} && ${BENCH_QUICK} != 0 ]] && quick=1
seconds=${BENCH_SECONDS:-$((quick ? 5 : 20))}
reps=${BENCH_REPS:-$((quick ? 1 : 2))}
if ! [[ $seconds =~ ^[0-9]+$ && $seconds -ge 2 && $reps =~ ^[0-9]+$ && $reps -ge 1 ]]; then
    echo "gtk-cpu: BENCH_SECONDS must be a whole number >= 2, BENCH_REPS >= 1" >&2
    exit 2
fi
warmup=${BENCH_WARMUP:-$(((seconds + 3) / 4))}
if ! [[ $warmup =~ ^[0-9]+$ && $warmup -ge 1 && $warmup -lt $seconds ]]; then
    echo "gtk-cpu: BENCH_WARMUP must be a whole number in [1, BENCH_SECONDS)" >&2
    exit 2
fi

apps=()
command -v gtk4-widget-factory >/dev/null && apps+=(widget-factory)
command -v gtk4-demo >/dev/null && apps+=(fishbowl)
if [[ ${#apps[@]} -eq 0 ]]; then
    echo "gtk-cpu: SKIPPED: gtk4-widget-factory and gtk4-demo not found (package gtk-4-examples)"
    exit 77
fi

# One private X server for every run, so both sides share the same one.
if [[ -z ${GTK_CPU_IN_XVFB:-} ]]; then
    if ! command -v xvfb-run >/dev/null; then
        echo "gtk-cpu: xvfb-run not found (package xvfb)" >&2
        exit 1
    fi
    GTK_CPU_IN_XVFB=1 exec xvfb-run -a -s "-screen 0 1280x1024x24" "$0" "$@"
fi

export GSK_RENDERER=cairo GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
unset LD_PRELOAD

preload_problem=
if [[ -z $preload ]]; then
    preload_problem="no preload given (pass it as argument or JANKSCOPE_PRELOAD)"
elif [[ ! -f $preload ]]; then
    preload_problem="preload $preload does not exist (not built yet?)"
else
    preload=$(readlink -f "$preload")
fi

tick=$(getconf CLK_TCK)
workdir=$(mktemp -d "${TMPDIR:-/tmp}/jankscope-gtk-cpu.XXXXXX")
trap 'rm -rf "$workdir"' EXIT

app_command() {
    case $1 in
        widget-factory) echo gtk4-widget-factory ;;
        fishbowl) echo "gtk4-demo --run fishbowl" ;;
    esac
}

# utime+stime of PID in clock ticks (fields 14 and 15; the name in field 2
# may hold spaces, so count from the closing parenthesis).
cpu_ticks() {
    local stat rest
    stat=$(<"/proc/$1/stat") || return 1
    rest=${stat##*) }
    read -r -a f <<<"$rest"
    echo $((f[11] + f[12]))
}

seconds_of() {
    awk -v t="$1" -v hz="$tick" 'BEGIN { printf "%.2f\n", t / hz }'
}

# run_one APP SIDE: prints "TOTAL STEADY" CPU seconds of the app, or fails.
run_one() {
    local app=$1 side=$2 pid t_warm t_end log=$workdir/$1-$2.log
    local -a envs=(env -u LD_PRELOAD -u JANKSCOPE_REPORT -u JANKSCOPE)
    if [[ $side == with ]]; then
        envs=(env "LD_PRELOAD=$preload" "JANKSCOPE_REPORT=$workdir/report-$app-%p.json")
    fi
    # shellcheck disable=SC2046
    "${envs[@]}" $(app_command "$app") >"$log" 2>&1 &
    pid=$!
    sleep "$warmup"
    t_warm=$(cpu_ticks "$pid" 2>/dev/null) || t_warm=
    sleep $((seconds - warmup))
    if [[ -z $t_warm ]] || ! t_end=$(cpu_ticks "$pid" 2>/dev/null) ||
        ! kill -0 "$pid" 2>/dev/null; then
        local rc=0
        wait "$pid" 2>/dev/null || rc=$?
        echo "gtk-cpu: $app ($side preload) exited before $seconds s with status $rc" \
            "(>128: killed by signal status-128); its output:" >&2
        tail -n 20 "$log" >&2
        return 1
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "$(seconds_of "$t_end") $(seconds_of $((t_end - t_warm)))"
}

median() {
    sort -g | awk 'NF { v[++n] = $1 } END { if (n == 0) print "-";
        else if (n % 2) print v[(n + 1) / 2];
        else printf "%.2f\n", (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# diff_cols OFF ON: "+0.12 +3.4" (seconds, %), or "- -".
diff_cols() {
    awk -v off="$1" -v on="$2" 'BEGIN {
        d = "-"; p = "-";
        if (off != "-" && on != "-") {
            d = sprintf("%+.2f", on - off);
            if (off > 0) p = sprintf("%+.1f", 100 * (on - off) / off);
        }
        print d, p }'
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
if [[ -z $preload_problem ]]; then
    n=$(find "$workdir" -name 'report-*.json' | wc -l)
    echo "preload $preload: $n JSON report(s) written"
fi

((failed)) && exit 1
if [[ -n $preload_problem ]]; then
    echo "SKIPPED the with-preload side: $preload_problem"
    exit 77
fi
exit 0
