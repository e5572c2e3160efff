#!/usr/bin/env python3
"""Measures `taskwidget sync` against a private local Radicale (SPEC §9: the first sync of 1 000
tasks ≤ 10 s, a sync with nothing changed one request per collection and ≤ 200 ms).

Usage: sync_figures.py BIN_DIR WORK_DIR [COUNT]
  BIN_DIR has taskwidget and taskwidget-sync (release builds); WORK_DIR is emptied and used.

Prints one line of figures, `key=value` separated by spaces:
  push_s push_requests push_client_cpu_s  pull_s pull_requests pull_client_cpu_s
  nochange_median_ms nochange_max_ms nochange_requests collections
Push: COUNT tasks in one store's Inbox to an empty server (one collection: Radicale's worst
case, as its cost per PUT grows with the collection). Pull: the same tasks into an empty store.
No change: 20 syncs of the pulled store, nothing changed anywhere. Client CPU is the sync
process's own user + system time (getrusage of the child), apart from Radicale's.
Radicale runs with its defaults (fsync on), from scripts/sync/radicale.sh.
"""
import json, os, random, resource, statistics, subprocess, sys, time, uuid

bin_dir, work = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
radicale_sh = os.path.join(root, "scripts/sync/radicale.sh")
subprocess.run(["rm", "-rf", work], check=True)
os.makedirs(work)
now = "2026-11-22T12:00:00Z"

# COUNT tasks in the Inbox: dated, some completed, fixed seed.
rng = random.Random(count)
tasks = []
for index in range(count):
    created = f"2026-10-{1 + index % 28:02d}T09:00:00.000Z"
    task = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(), "title": f"Task {index}",
            "isCompleted": False, "state": "notStarted", "createdAt": created, "modifiedAt": created, "sortOrder": index}
    if rng.random() < 0.7:
        task["dueDate"] = f"2026-12-{1 + index % 28:02d}T{index % 24:02d}:00:00.000Z"
    if rng.random() < 0.2:
        task.update(isCompleted=True, state="completed", completedAt=created)
    tasks.append(task)
with open(os.path.join(work, "tasks.json"), "w") as f:
    json.dump({"schema": "taskwidget.export/1", "lists": [], "tasks": tasks, "habits": []}, f)

url, pid = subprocess.run([radicale_sh, "start", os.path.join(work, "radicale"), "alice", "secret"],
                          check=True, capture_output=True, text=True).stdout.split()
try:
    env = dict(os.environ, HOME=work, XDG_CONFIG_HOME=os.path.join(work, "config"), TZ="UTC", LC_ALL="C")
    password = os.path.join(work, "password")
    with open(password, "w") as f:
        f.write("secret\n")
    os.chmod(password, 0o600)

    def run(*arguments):
        return subprocess.run([os.path.join(bin_dir, "taskwidget"), *arguments], env=env, check=True,
                              capture_output=True, text=True)

    run("sync", "account", "add", "bench", "--url", url, "--user", "alice", "--password-file", password,
        "--inbox", "Tasks")
    run("import", os.path.join(work, "tasks.json"), "--store", os.path.join(work, "push.sqlite"))

    def timed_sync(store):
        """(seconds, requests, client CPU seconds) of one `taskwidget sync --verbose`."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = run("sync", "--store", store, "--now", now, "--verbose")
        elapsed = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        requests = sum(int(line.split("requests=")[1].split()[0]) for line in result.stderr.splitlines()
                       if "requests=" in line)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed, requests, cpu, result.stdout.strip()

    push = timed_sync(os.path.join(work, "push.sqlite"))
    pull = timed_sync(os.path.join(work, "pull.sqlite"))
    assert f"pulled {count}," in pull[3], pull[3]
    quiet = [timed_sync(os.path.join(work, "pull.sqlite")) for _ in range(20)]
    assert all(q[3].endswith("pulled 0, pushed 0, 0 conflicts merged, deleted 0") for q in quiet), quiet[0][3]
    collections = len([name for name in os.listdir(os.path.join(work, "radicale/collections/collection-root/alice"))
                       if not name.startswith(".")])
    print(" ".join([
        f"push_s={push[0]:.2f}", f"push_requests={push[1]}", f"push_client_cpu_s={push[2]:.2f}",
        f"pull_s={pull[0]:.2f}", f"pull_requests={pull[1]}", f"pull_client_cpu_s={pull[2]:.2f}",
        f"nochange_median_ms={statistics.median(q[0] for q in quiet) * 1000:.0f}",
        f"nochange_max_ms={max(q[0] for q in quiet) * 1000:.0f}",
        f"nochange_requests={max(q[1] for q in quiet)}", f"collections={collections}",
    ]))
finally:
    subprocess.run([radicale_sh, "stop", os.path.join(work, "radicale")], capture_output=True)
