# shellcheck shell=bash disable=SC2034,SC2154
# gtk-bench-lib.sh: what gtk-cpu.sh, gtk-frames.sh and gtk-cpu-paired.sh
# share (sourced, not run): settings, the GTK4 example apps, the private
# Xvfb, each side's environment, launching an app and reading its CPU time,
# the summary statistics and the exit status.
#
# The sourcing script sets first: bench (its name in messages, e.g. gtk-cpu),
# and before calling the functions that use them: seconds, warmup, preload,
# failed (see each function).

# bench_settings QUICK_SECONDS REPS: sets quick (BENCH_QUICK), seconds
# (BENCH_SECONDS: default 20, QUICK_SECONDS when quick), reps (BENCH_REPS:
# default REPS, 1 when quick) and warmup (bench_warmup), or exits 2 when one
# is out of range.
bench_settings() {
    quick=0
    [[ -n ${BENCH_QUICK:-} && ${BENCH_QUICK} != 0 ]] && quick=1
    seconds=${BENCH_SECONDS:-$((quick ? $1 : 20))}
    reps=${BENCH_REPS:-$((quick ? 1 : $2))}
    if ! [[ $seconds =~ ^[0-9]+$ && $seconds -ge 2 && $reps =~ ^[0-9]+$ && $reps -ge 1 ]]; then
        echo "$bench: BENCH_SECONDS must be a whole number >= 2, BENCH_REPS >= 1" >&2
        exit 2
    fi
    bench_warmup
}

# bench_warmup: sets warmup from BENCH_WARMUP (default 1/4 of $seconds run,
# rounded up), or exits 2 when it is not in [1, seconds).
bench_warmup() {
    warmup=${BENCH_WARMUP:-$(((seconds + 3) / 4))}
    if ! [[ $warmup =~ ^[0-9]+$ && $warmup -ge 1 && $warmup -lt $seconds ]]; then
        echo "$bench: BENCH_WARMUP must be a whole number in [1, BENCH_SECONDS)" >&2
        exit 2
    fi
}

# bench_find_apps: sets apps to those of widget-factory and fishbowl that are
# installed, or exits 77 when neither is; BENCH_APPS keeps only the ones it
# names (exits 2 when it names none of them).
bench_find_apps() {
    local -a wanted kept=()
    local app
    apps=()
    command -v gtk4-widget-factory >/dev/null && apps+=(widget-factory)
    command -v gtk4-demo >/dev/null && apps+=(fishbowl)
    if [[ ${#apps[@]} -eq 0 ]]; then
        echo "$bench: SKIPPED: gtk4-widget-factory and gtk4-demo not found (package gtk-4-examples)"
        exit 77
    fi
    [[ -z ${BENCH_APPS:-} ]] && return 0
    read -r -a wanted <<<"$BENCH_APPS"
    for app in "${apps[@]}"; do
        [[ " ${wanted[*]} " == *" $app "* ]] && kept+=("$app")
    done
    if [[ ${#kept[@]} -eq 0 ]]; then
        echo "$bench: BENCH_APPS names none of: ${apps[*]}" >&2
        exit 2
    fi
    apps=("${kept[@]}")
}

# bench_in_xvfb FLAG [NAME=VALUE ...] -- [ARG ...]: unless $FLAG is set, runs
# the script again (exec) with ARGs under one private X server for every run,
# so both sides share the same one; FLAG=1 and the NAME=VALUEs in its
# environment.
bench_in_xvfb() {
    local flag=$1
    local -a assigns=()
    shift
    while [[ $1 != -- ]]; do
        assigns+=("$1")
        shift
    done
    shift
    [[ -n ${!flag:-} ]] && return 0
    if ! command -v xvfb-run >/dev/null; then
        echo "$bench: xvfb-run not found (package xvfb)" >&2
        exit 1
    fi
    exec env "$flag=1" "${assigns[@]}" xvfb-run -a -s "-screen 0 1280x1024x24" "$0" "$@"
}

# bench_setup: the apps' GTK environment; preload made absolute, or
# preload_problem set; tick (clock ticks per second); workdir (removed at
# exit).
bench_setup() {
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
    workdir=$(mktemp -d "${TMPDIR:-/tmp}/jankscope-$bench.XXXXXX")
    trap 'rm -rf "$workdir"' EXIT
}

# bench_side_env APP SIDE [FIRST]: sets side_env to the env command that
# starts APP on SIDE: "without" the preload (none of jankscope's variables
# inherited), "with" $preload, "base" $against (another build), each writing
# its reports into $workdir. FIRST, when given, is preloaded before them on
# every side (a probe whose own cost then cancels out).
bench_side_env() {
    local app=$1 side=$2 first=${3:-}
    case $side in
        without)
            side_env=(env -u LD_PRELOAD -u JANKSCOPE_REPORT -u JANKSCOPE)
            [[ -n $first ]] && side_env+=("LD_PRELOAD=$first")
            ;;
        with)
            side_env=(env "LD_PRELOAD=${first:+$first:}$preload"
                "JANKSCOPE_REPORT=$workdir/report-$app-%p.json")
            ;;
        base)
            side_env=(env "LD_PRELOAD=${first:+$first:}$against"
                "JANKSCOPE_REPORT=$workdir/base-report-$app-%p.json")
            ;;
    esac
}

# bench_fishbowl_count: sets fishbowl_count from BENCH_FISHBOWL_COUNT
# (default 50): the icons the frame probe (frame-probe.c) fixes gtk4-demo's
# fishbowl at, on every side; 0 lets the demo adapt its count itself (it adds
# icons while it holds its frame rate, so a slower side draws fewer icons and
# uses less CPU). Exits 2 on a bad value.
bench_fishbowl_count() {
    fishbowl_count=${BENCH_FISHBOWL_COUNT:-50}
    if ! [[ $fishbowl_count =~ ^[0-9]+$ && $fishbowl_count -le 100000 ]]; then
        echo "$bench: BENCH_FISHBOWL_COUNT must be a whole number from 0 to 100000" >&2
        exit 2
    fi
}

# bench_fishbowl_check FILE SIDE: fails, saying so, when the probe's FILE does
# not show the fishbowl at $fishbowl_count icons.
bench_fishbowl_check() {
    local got
    got=$(awk '$1 == "fishbowl_count" { print $2 }' "$1" 2>/dev/null)
    [[ $got == "$fishbowl_count" ]] && return 0
    echo "$bench: the fishbowl's count on the $2 side was '${got:-none}', not" \
        "$fishbowl_count (the probe's file $1)" >&2
    return 1
}

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
    local -a fields
    stat=$(<"/proc/$1/stat") || return 1
    rest=${stat##*) }
    read -r -a fields <<<"$rest"
    echo $((fields[11] + fields[12]))
}

# thread_ns PID: one line per thread of PID, "TID NS COMM": the time it ran
# on a CPU in ns (/proc/PID/task/TID/schedstat: exact, where stat's utime
# and stime count 10 ms ticks; spaces in the name become _).
thread_ns() {
    local t ns comm
    for t in /proc/"$1"/task/*; do
        read -r ns _ 2>/dev/null <"$t/schedstat" || continue
        comm=$(cat "$t/comm" 2>/dev/null) || continue
        echo "${t##*/} $ns ${comm// /_}"
    done
}

# thread_split BEFORE AFTER MAIN_TID: "MAIN JANKSCOPE WATCH OTHER" ms of CPU
# between two thread_ns snapshots: the main thread, jankscope's collector
# ("jankscope"), its watchdog ("jankscope-watch"), every other thread (a
# thread started in between counts from 0; one that ended in between is
# missing).
thread_split() {
    awk -v main="$3" 'NR == FNR { t0[$1] = $2; next }
        { d = ($2 - (($1 in t0) ? t0[$1] : 0)) / 1e6;
            if ($1 == main) m += d; else if ($3 == "jankscope") j += d;
            else if ($3 == "jankscope-watch") w += d; else o += d }
        END { printf "%.1f %.1f %.1f %.1f\n", m, j, w, o }' "$1" "$2"
}

seconds_of() {
    awk -v t="$1" -v hz="$tick" 'BEGIN { printf "%.2f\n", t / hz }'
}

# bench_run_app APP SIDE LOG COMMAND...: starts COMMAND... followed by APP's
# command in the background (output in LOG) and sets pid; reads its CPU
# ticks after $warmup s (t_warm) and at $seconds s (t_end), and sets threads
# to the steady part's split by thread (thread_split: ms).  Fails, with the
# app's output on stderr, when it ended before.
bench_run_app() {
    local app=$1 side=$2 log=$3
    shift 3
    # shellcheck disable=SC2046
    "$@" $(app_command "$app") >"$log" 2>&1 &
    pid=$!
    sleep "$warmup"
    t_warm=$(cpu_ticks "$pid" 2>/dev/null) || t_warm=
    thread_ns "$pid" >"$log.threads0"
    sleep $((seconds - warmup))
    thread_ns "$pid" >"$log.threads1"
    threads=$(thread_split "$log.threads0" "$log.threads1" "$pid")
    if [[ -z $t_warm ]] || ! t_end=$(cpu_ticks "$pid" 2>/dev/null) ||
        ! kill -0 "$pid" 2>/dev/null; then
        local rc=0
        wait "$pid" 2>/dev/null || rc=$?
        echo "$bench: $app ($side preload) exited before $seconds s with status $rc" \
            "(>128: killed by signal status-128); its output:" >&2
        tail -n 20 "$log" >&2
        return 1
    fi
}

# stop_app PID [TRIES]: SIGTERM, then SIGKILL if it still runs after TRIES
# x 0.2 s (default 50).
stop_app() {
    local pid=$1 tries=${2:-50}
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq "$tries"); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# median: of the numbers on stdin ("-" are left out), or "-".
median() {
    sort -g | awk '$1 != "-" && NF { v[++n] = $1 } END { if (n == 0) print "-";
        else if (n % 2) print v[(n + 1) / 2];
        else printf "%.2f\n", (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# spread: "MIN-MAX" of the numbers on stdin ("-" left out), or "-".
spread() {
    sort -g | awk '$1 != "-" && NF { v[++n] = $1 } END { if (n == 0) print "-";
        else printf "%s-%s\n", v[1], v[n] }'
}

# diff_cols OFF ON: "+0.12 +3.4" (difference, %), or "- -".
diff_cols() {
    awk -v off="$1" -v on="$2" 'BEGIN {
        d = "-"; p = "-";
        if (off != "-" && on != "-") {
            d = sprintf("%+.2f", on - off);
            if (off > 0) p = sprintf("%+.1f", 100 * (on - off) / off);
        }
        print d, p }'
}

# bench_finish: how many JSON reports the preload wrote, then exits: 1 when
# $failed, 77 when the with-preload side was skipped, else 0.
bench_finish() {
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
}
