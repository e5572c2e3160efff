#!/usr/bin/env python3
"""Notify's idle figure for scripts/compare.sh (SPEC §9, §13): how often `taskwidget notify` wakes
up while it waits with nothing due and no notification server on its session bus.

Usage: notify_figures.py TASKWIDGET WORKDIR
Prints one line: `wakeups_in_10s main_thread_wakeups_in_10s`.
A private dbus-daemon (one that starts no service, so there is no server) is started in WORKDIR;
notify follows a store whose only reminder is a day away. Once notify has said there is no server
and its main thread waits in poll, the context switches of all its threads (its own and GLib's)
are counted over 10 s, and those of its main thread (the follow loop) apart. GLib's thread pool
ends the worker that connected to the bus once it has been idle a while: that one switch may
fall in the window.
"""
import os, subprocess, sys, time

taskwidget, work = sys.argv[1], sys.argv[2]
os.makedirs(f"{work}/notify-run", exist_ok=True)
store = f"{work}/notify.sqlite"
with open(f"{work}/notify-bus.conf", "w") as config:
    config.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={work}/notify-bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
bus = subprocess.Popen(["dbus-daemon", f"--config-file={work}/notify-bus.conf", "--nofork", "--print-address=1"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
address = bus.stdout.readline().strip()
env = dict(os.environ, TZ="UTC", DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=f"{work}/notify-run",
           XDG_STATE_HOME=f"{work}/notify-state")
env.pop("DISPLAY", None)


def switches(pid, tasks=None):
    total = 0
    for task in tasks or os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            for line in status:
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split(":")[1])
    return total


def in_poll(pid):
    with open(f"/proc/{pid}/syscall") as syscall:
        return syscall.read().split(" ")[0] in ("7", "271")


subprocess.run([taskwidget, "add", "far away", "--remind", "tomorrow 9am", "--store", store], env=env, check=True,
               capture_output=True)
notify = subprocess.Popen([taskwidget, "notify", "--store", store], env=env, stderr=subprocess.PIPE, text=True)
deadline = time.monotonic() + 10
line = notify.stderr.readline()
if "no notification server" not in line:
    sys.exit(f"notify did not report the missing server: {line!r}")
while not in_poll(notify.pid):
    if time.monotonic() > deadline:
        sys.exit("the idle notify never waited in poll")
    time.sleep(0.001)
before, main_before = switches(notify.pid), switches(notify.pid, [str(notify.pid)])
time.sleep(10)
wakeups, main_wakeups = switches(notify.pid) - before, switches(notify.pid, [str(notify.pid)]) - main_before
notify.terminate()
notify.wait()
bus.terminate()
bus.wait()
print(wakeups, main_wakeups)
