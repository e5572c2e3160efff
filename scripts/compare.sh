#!/usr/bin/env bash
# Measures SPEC §9's targets in one run and prints one table of medians, ratios and, beside each
# process that is timed, its instruction count (callgrind; counts do not depend on load):
# - on the same generated tasks (1k, 10k, 100k), `taskwidget status --format waybar` against
#   Taskwarrior 2.6's `task +OVERDUE count` and against the floor, a Swift hello world with
#   Foundation (Benchmarks/floor), with the Swift runtime and Foundation linked in (the floor issue 18
#   names), dynamic, and as one static executable as taskwidget is: the five in one hyperfine run per
#   size, so that every ratio comes from one run; status at 1k and at 100k in one more run, for
#   their ratio; `taskwidget timeline --format json` at 100k;
# - watch: how long another process's write takes to show, and wake-ups while idle
#   (scripts/bench/watch_figures.py);
# - notify: wake-ups while it waits with nothing due and no notification server
#   (scripts/bench/notify_figures.py, on a private dbus-daemon);
# - on the demo store, `taskwidget render --family medium --scale 2 -o FILE` as a whole process
#   against the C baseline (Benchmarks/cbaseline) writing with Cairo's own PNG writer, and one frame
#   in a long-running process (the `Render medium @2x` benchmark of Benchmarks/: draw and encode in
#   memory) against the C baseline's frame loop with the fast libpng writer. Both draw the same image;
# - serve (taskwidget-serve): a cached image and a status line under wrk (2 threads, 32
#   connections on loopback, 10 s) at the fixed time, and the status line again on the live clock
#   (the demo's tasks are all overdue by then, so that most entries look alike: the costliest case
#   for the scans that find when an answer next changes), and an uncached first image against that frame
#   (scripts/bench/serve_figures.py), and also against the same frame drawn 200 ms after the last
#   one (the `Render medium @2x after a pause` benchmark), as serve draws a new image;
# - sync (taskwidget-sync) against a private Radicale: the first push and pull of 1 000 tasks and a
#   sync with nothing changed (scripts/bench/sync_figures.py).
# Installs hyperfine, taskwarrior, gcc, wrk and valgrind when missing. Work files go to ${COMPARE_DIR:-/tmp/taskwidget-compare}.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/swiftpm.sh
source scripts/lib/callgrind.sh
source scripts/lib/release_build.sh
TASKWIDGET_PACKAGES+=("${TASKWIDGET_TEST_PACKAGES[@]}" hyperfine taskwarrior gcc wrk)
ensure_dependencies
for product in taskwidget taskwidget-render taskwidget-serve taskwidget-notify taskwidget-sync; do build_release "$product" >/dev/null; done
work=${COMPARE_DIR:-/tmp/taskwidget-compare}
now=2026-11-22T12:00:00Z
sizes=(1000 10000 100000)
rm -rf "$work" && mkdir -p "$work/bin"
export TZ=UTC
# valgrind 3.19 cannot read the DWARF of Swift 6.3: time and count copies without it.
for product in taskwidget taskwidget-render taskwidget-serve taskwidget-notify taskwidget-sync; do strip -o "$work/bin/$product" ".build/release/$product"; done
taskwidget=$work/bin/taskwidget
swiftc -O -static-stdlib Benchmarks/floor/hello.swift -o "$work/hello-static"
swiftc -O Benchmarks/floor/hello.swift -o "$work/hello-dynamic"
# (its link warns of the calls a static program can make only with this C library: shown on failure)
swiftc -O -static-executable Benchmarks/floor/hello.swift -o "$work/hello-static-executable" 2>"$work/hello-static-executable.log" ||
  { cat "$work/hello-static-executable.log" >&2; exit 1; }

median() {  # median seconds of a hyperfine JSON export (its command number $2, else the first), in milliseconds
  python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"] * 1000))' "$1" "${2:-0}"
}

ratio() {  # $1 / $2, as 0.00×
  python3 -c "print('%.2f×' % ($1 / $2))"
}

instructions() {  # callgrind's instruction count of a command (children included), as 12.3 M
  local count
  count=$(callgrind_instructions "$work" "$@")
  python3 -c "print('%.1f M' % ($count / 1e6))"
}
declare -A counts

for size in "${sizes[@]}"; do
  echo "Preparing $size tasks…" >&2
  python3 scripts/bench/generate_tasks.py "$size" "$now" "$work"
  "$taskwidget" import "$work/taskwidget-$size.json" --store "$work/tasks-$size.sqlite" >/dev/null
  mkdir -p "$work/taskwarrior-$size"
  printf 'data.location=%s\nconfirmation=off\nverbose=nothing\ngc=on\n' "$work/taskwarrior-$size" > "$work/taskrc-$size"
  TASKRC="$work/taskrc-$size" task import "$work/taskwarrior-$size.json" >/dev/null 2>&1
  TASKRC="$work/taskrc-$size" task +OVERDUE count >/dev/null  # its first run moves completed tasks aside
  status=("$taskwidget" status --format waybar --store "$work/tasks-$size.sqlite" --now "$now")
  warrior=(env "TASKRC=$work/taskrc-$size" task +OVERDUE count)
  echo "Timing status, Taskwarrior and the floor at $size tasks…" >&2
  hyperfine -N --warmup 3 --runs 30 --export-json "$work/status-$size.json" \
    "${status[*]}" "${warrior[*]}" "$work/hello-static" "$work/hello-dynamic" "$work/hello-static-executable" >/dev/null
  counts[status-$size]=$(instructions "${status[@]}")
  counts[taskwarrior-$size]=$(instructions "${warrior[@]}")
done
echo "Timing status at 1k and at 100k…" >&2
status_at() { echo "$taskwidget status --format waybar --store $work/tasks-$1.sqlite --now $now"; }
hyperfine -N --warmup 3 --runs 30 --export-json "$work/status-sizes.json" "$(status_at 1000)" "$(status_at 100000)" >/dev/null
counts[hello-static]=$(instructions "$work/hello-static")
counts[hello-dynamic]=$(instructions "$work/hello-dynamic")
counts[hello-static-executable]=$(instructions "$work/hello-static-executable")
timeline=("$taskwidget" timeline --format json --store "$work/tasks-100000.sqlite" --now "$now")
hyperfine -N --warmup 3 --runs 20 --export-json "$work/timeline-100000.json" "${timeline[*]}" >/dev/null
counts[timeline]=$(instructions "${timeline[@]}")

echo "Measuring watch…" >&2
read -r watch_median watch_max watch_wakeups < <(python3 scripts/bench/watch_figures.py "$taskwidget" "$work/watch.sqlite")
echo "Measuring notify…" >&2
read -r notify_wakeups notify_main_wakeups < <(python3 scripts/bench/notify_figures.py "$taskwidget" "$work")

echo "Preparing the render comparison…" >&2
"$taskwidget" demo --store "$work/demo.sqlite" --now $now >/dev/null
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -O2 -o "$work/widget" Benchmarks/cbaseline/widget.c $(pkg-config --cflags --libs pangocairo libpng)
render=("$taskwidget" render --family medium --scale 2 -o "$work/ours.png" --store "$work/demo.sqlite" --now "$now")
render_cairo=("$work/widget" --writer cairo -o "$work/c-cairo.png")
hyperfine -N --warmup 3 --runs 30 --export-json "$work/render.json" "${render[*]}" "${render_cairo[*]}" >/dev/null
counts[render]=$(instructions "${render[@]}")
counts[render-c]=$(instructions "${render_cairo[@]}")
# The baseline must draw what taskwidget draws: the same pixels (taskwidget compresses its two
# halves at once, so the compressed bytes differ).
"$work/widget" --writer libpng -o "$work/c-libpng.png"
python3 scripts/bench/same_pixels.py "$work/ours.png" "$work/c-libpng.png" ||
  { echo "Benchmarks/cbaseline/widget.c no longer draws taskwidget's widget ($work/ours.png vs $work/c-libpng.png): update it" >&2; exit 1; }
# Per frame: ours from the benchmark (5 warm-up frames, then 3 s of frames), the C loop likewise;
# and ours after a pause (25 frames, each 200 ms after the last).
for benchmark in 'Render medium @2x' 'Render medium @2x after a pause'; do
  if ! swift package --package-path Benchmarks benchmark --filter "^$benchmark\$" --metric wallClock \
    --time-units nanoseconds --format histogramPercentiles --path stdout --no-progress \
    >"$work/$benchmark.tsv" 2>"$work/benchmarks.log"; then
    cat "$work/benchmarks.log" >&2
    exit 1
  fi
done
frame_ours=$(awk -F'\t' '$1 == 50 { printf "%.2f", $2 / 1e6 }' "$work/Render medium @2x.tsv")
frame_paused=$(awk -F'\t' '$1 == 50 { printf "%.2f", $2 / 1e6 }' "$work/Render medium @2x after a pause.tsv")
frame_c=$("$work/widget" --writer libpng --frames 1000 | awk '{ printf "%.2f", $4 / 1e6 }')

echo "Measuring sync against a private Radicale…" >&2
declare -A sync_figures
while IFS='=' read -r key value; do sync_figures[$key]=$value; done < <(python3 scripts/bench/sync_figures.py "$PWD/.build/release" "$work/sync" | tr ' ' '\n')
echo "Measuring serve…" >&2
read -r first_image first_image_max < <(python3 scripts/bench/serve_figures.py "$taskwidget" "$work/demo.sqlite" "$now")
start_serve() {  # $@: serve's clock options; sets serve_pid and base
  : >"$work/serve.out"  # (else the wait below can read the last server's line)
  "$taskwidget" serve --store "$work/demo.sqlite" "$@" --listen 127.0.0.1:0 >"$work/serve.out" &
  serve_pid=$!
  trap 'kill $serve_pid 2>/dev/null || true' EXIT
  until grep -q '^serving' "$work/serve.out" 2>/dev/null; do sleep 0.1; done
  base=$(sed -n 's|^serving \(http://[^ ]*\)/ .*|\1|p' "$work/serve.out")
}
stop_serve() {
  kill -TERM $serve_pid && wait $serve_pid
  trap - EXIT
}
load() {  # $1: path; prints `requests/s p99_ms` from wrk's --latency report
  curl -sf -o /dev/null "$base$1"  # drawn once: from here on the cache answers
  wrk -t2 -c32 -d10s --latency "$base$1" >"$work/wrk.txt"
  awk '/^Requests\/sec:/ { rps = $2 } $1 == "99%" { p = $2; ms = p ~ /us$/ ? p / 1000 : p ~ /ms$/ ? p + 0 : p * 1000 } END { printf "%.0f %.2f\n", rps, ms }' "$work/wrk.txt"
}
start_serve --now "$now" --clock-speed 0
read -r image_rps image_p99 < <(load "/widget/medium.png?scale=2")
read -r status_rps status_p99 < <(load "/status?format=waybar")
stop_serve
start_serve
read -r live_status_rps live_status_p99 < <(load "/status?format=waybar")
stop_serve

printf '\n| measure | median | instructions | target | baseline on the same data |\n|---|---|---|---|---|\n'
for size in "${sizes[@]}"; do
  ours=$(median "$work/status-$size.json" 0)
  theirs=$(median "$work/status-$size.json" 1)
  floor=$(median "$work/status-$size.json" 2)
  floor_dynamic=$(median "$work/status-$size.json" 3)
  floor_executable=$(median "$work/status-$size.json" 4)
  target=""
  [ "$size" = 10000 ] && target="≥ 20× Taskwarrior; ≤ 2× the static floor"
  printf '| status --format waybar, %s tasks | %s ms | %s | %s | Taskwarrior task +OVERDUE count: %s ms (%s), %s our time; static floor: %s ms, ours is %s it; dynamic floor: %s ms; one static executable, as taskwidget is: %s ms, ours is %s it |\n' \
    "$size" "$ours" "${counts[status-$size]}" "$target" "$theirs" "${counts[taskwarrior-$size]}" "$(ratio "$theirs" "$ours")" \
    "$floor" "$(ratio "$ours" "$floor")" "$floor_dynamic" "$floor_executable" "$(ratio "$ours" "$floor_executable")"
done
printf '| the floor: Swift hello world with Foundation, static; dynamic; one static executable (in the 10k run) | %s ms; %s ms; %s ms | %s; %s; %s | | |\n' \
  "$(median "$work/status-10000.json" 2)" "$(median "$work/status-10000.json" 3)" "$(median "$work/status-10000.json" 4)" \
  "${counts[hello-static]}" "${counts[hello-dynamic]}" "${counts[hello-static-executable]}"
printf '| status at 100k / status at 1k (one run of both) | %s ms / %s ms | %s / %s | ≤ 1.5× | %s (instructions %s) |\n' \
  "$(median "$work/status-sizes.json" 1)" "$(median "$work/status-sizes.json" 0)" "${counts[status-100000]}" "${counts[status-1000]}" \
  "$(ratio "$(median "$work/status-sizes.json" 1)" "$(median "$work/status-sizes.json" 0)")" \
  "$(ratio "${counts[status-100000]% M}" "${counts[status-1000]% M}")"
printf '| timeline --format json, 100000 tasks | %s ms | %s | ≤ 100 ms | |\n' "$(median "$work/timeline-100000.json")" "${counts[timeline]}"
printf '| watch: another process'"'"'s add shows (median of 10; max) | %s ms (max %s ms) | | ≤ 250 ms | |\n' "$watch_median" "$watch_max"
printf '| watch: wake-ups in 10 s with nothing due | %s | | 0 | |\n' "$watch_wakeups"
printf '| notify: wake-ups in 10 s with nothing due and no notification server (all threads, GLib'"'"'s too; its loop'"'"'s) | %s; %s | | 0 | |\n' \
  "$notify_wakeups" "$notify_main_wakeups"
render_ours=$(median "$work/render.json" 0)
render_c=$(median "$work/render.json" 1)
printf '| render --family medium --scale 2 -o FILE, whole process | %s ms | %s | ≤ 0.7× C | C with Cairo'"'"'s PNG writer: %s ms (%s); ours is %s its time |\n' \
  "$render_ours" "${counts[render]}" "$render_c" "${counts[render-c]}" "$(ratio "$render_ours" "$render_c")"
printf '| render medium @2x, one frame in a long-running process | %s ms | | ≤ 1.2× C | C with libpng (no filter, zlib 2): %s ms; ours is %s its time |\n' \
  "$frame_ours" "$frame_c" "$(ratio "$frame_ours" "$frame_c")"
printf '| serve: cached image under wrk (32 connections) | %s req/s, p99 %s ms | | ≥ 5000 req/s, p99 ≤ 10 ms | |\n' "$image_rps" "$image_p99"
printf '| serve: status line under wrk (32 connections) | %s req/s, p99 %s ms | | ≥ 5000 req/s, p99 ≤ 10 ms | |\n' "$status_rps" "$status_p99"
printf '| serve: status line under wrk, live clock (every demo task overdue) | %s req/s, p99 %s ms | | ≥ 5000 req/s, p99 ≤ 10 ms | |\n' "$live_status_rps" "$live_status_p99"
printf '| render medium @2x, one frame 200 ms after the last (the same benchmark paused) | %s ms | | | %s the frame above |\n' \
  "$frame_paused" "$(ratio "$frame_paused" "$frame_ours")"
printf '| serve: uncached first image, medium @2x (median of 15; max) | %s ms (max %s ms) | | ≤ 1.2× the frame | %s the frame; %s the frame after a pause |\n' \
  "$first_image" "$first_image_max" "$(ratio "$first_image" "$frame_ours")" "$(ratio "$first_image" "$frame_paused")"
printf '| sync: first push of 1000 tasks to an empty Radicale (requests; client CPU) | %s s (%s requests; %s s) | | ≤ 10 s | |\n' \
  "${sync_figures[push_s]}" "${sync_figures[push_requests]}" "${sync_figures[push_client_cpu_s]}"
printf '| sync: first pull of 1000 tasks into an empty store (requests; client CPU) | %s s (%s requests; %s s) | | ≤ 10 s | |\n' \
  "${sync_figures[pull_s]}" "${sync_figures[pull_requests]}" "${sync_figures[pull_client_cpu_s]}"
printf '| sync with nothing changed (median of 20; max; requests per collection) | %s ms (max %s ms; %s for %s) | | ≤ 200 ms, 1 request per collection | |\n' \
  "${sync_figures[nochange_median_ms]}" "${sync_figures[nochange_max_ms]}" "${sync_figures[nochange_requests]}" "${sync_figures[collections]}"
