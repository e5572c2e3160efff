#!/usr/bin/env bash
# First run: installs what is missing, builds taskwidget, fills a demo store under output/, shows
# what taskwidget makes of it and writes its PNG widgets into output/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/swiftpm.sh
ensure_dependencies
source scripts/lib/release_build.sh
# Static binaries (the Swift runtime, Foundation and libstdc++ linked in; taskwidget, which a bar runs
# every few seconds, is one static executable): taskwidget, taskwidget-render, the
# helper that draws PNG widgets with Cairo and Pango for it, and taskwidget-notify, which shows
# reminders as desktop notifications (`taskwidget notify`, through GLib's D-Bus).
for product in taskwidget taskwidget-render taskwidget-serve taskwidget-notify taskwidget-sync; do build_release "$product"; done
taskwidget=.build/release/taskwidget
store=output/demo.sqlite
rm -f "$store" "$store-wal" "$store-shm"
export TZ=${TZ:-Europe/Berlin}
run() { echo; echo "\$ taskwidget $*"; "$taskwidget" "$@" --store "$store"; }
run demo
run ls
run list ls
run habit ls
run timeline --format text | sed -n "1,8p;\$s/.*/…/p"
for format in text waybar i3bar polybar tmux; do run status --format "$format"; done
for family in small medium large; do
  for theme in light dark mono; do run render --family "$family" --theme "$theme" --scale 2 -o "output/$family-$theme.png"; done
done
run render --size 800x480 --theme mono -o output/eink-800x480.png
echo
echo "PNG widgets in output/: $(cd output && echo *.png)"
echo "Built $taskwidget; the demo store is $store. Try: $taskwidget ls --store $store --all"
