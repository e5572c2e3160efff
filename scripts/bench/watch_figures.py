#!/usr/bin/env python3
"""Watch mode's figures for scripts/compare.sh (SPEC §9): how long a store change takes to show,
and how often an idle watch wakes up.

Usage: watch_figures.py TASKWIDGET STORE
Prints one line: `latency_median_ms latency_max_ms wakeups_in_10s`.
- Latency: 10 times, another process's `add` changes the store; the time from that process's
  exit to watch's next line (adds are 1.5 s apart: watch prints at most a line a second).
- Wake-ups: context switches of all of watch's threads over 10 s with nothing due (the clock is
  set to 16:31 with the next entry at 16:45), counted from when it waits in poll.
"""
import os, select, statistics, subprocess, sys, time

taskwidget, store = sys.argv[1], sys.argv[2]
env = dict(os.environ, TZ="UTC")


def switches(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            for line in status:
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split(":")[1])
    return total


def in_poll(pid):
    with open(f"/proc/{pid}/syscall") as syscall:
        return syscall.read().split(" ")[0] in ("7", "271")


def read_line(process, timeout):
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        sys.exit(f"watch printed nothing within {timeout} s")
    return process.stdout.readline()


subprocess.run([taskwidget, "add", "seed task", "--store", store], env=env, check=True, capture_output=True)
watch = subprocess.Popen([taskwidget, "watch", "--format", "json", "--store", store], env=env,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
read_line(watch, 10)
latencies = []
for index in range(10):
    time.sleep(1.5)
    subprocess.run([taskwidget, "add", f"task {index}", "--store", store], env=env, check=True, capture_output=True)
    added = time.monotonic()
    read_line(watch, 10)
    latencies.append((time.monotonic() - added) * 1000)
watch.terminate()
watch.wait()

idle = subprocess.Popen([taskwidget, "watch", "--format", "waybar", "--store", store, "--now", "2026-11-22T16:31:00Z"],
                        env=env, stdout=subprocess.PIPE, text=True, bufsize=1)
read_line(idle, 10)
deadline = time.monotonic() + 10
while not in_poll(idle.pid):
    if time.monotonic() > deadline:
        sys.exit("the idle watch never waited in poll")
    time.sleep(0.001)
before = switches(idle.pid)
time.sleep(10)
wakeups = switches(idle.pid) - before
idle.terminate()
idle.wait()
print("%.1f %.1f %d" % (statistics.median(latencies), max(latencies), wakeups))
