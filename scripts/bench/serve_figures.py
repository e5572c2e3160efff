#!/usr/bin/env python3
"""`taskwidget serve`'s figures for scripts/compare.sh (SPEC §9, issue 14).

Usage: serve_figures.py TASKWIDGET STORE NOW
Prints one line: `first_image_median_ms first_image_max_ms`.
- The uncached first image: 15 times, a server is started on STORE at NOW (its clock standing
  still; it has drawn each family at @1x and @2x, light, before it says it is serving), and then
  asked for `/widget/medium.png?scale=2&theme=dark`, which it has not drawn yet: the time from
  sending that request to the last byte of the answer, on a connection opened before.
  compare.sh sets it against one frame of the `Render medium @2x` benchmark (the same image drawn
  and encoded in memory).
"""
import http.client, os, re, signal, statistics, subprocess, sys, time

taskwidget, store, now = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, TZ="UTC")


def start():
    server = subprocess.Popen(
        [taskwidget, "serve", "--store", store, "--now", now, "--clock-speed", "0", "--listen", "127.0.0.1:0"],
        env=env, stdout=subprocess.PIPE, text=True)
    banner = server.stdout.readline()
    match = re.match(r"serving http://127\.0\.0\.1:(\d+)/", banner)
    if not match:
        sys.exit(f"serve printed {banner!r}")
    return server, int(match.group(1))


def get(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit(f"GET {path}: {response.status}")
    return body


times = []
for _ in range(15):
    server, port = start()
    connection = http.client.HTTPConnection("127.0.0.1", port)
    get(connection, "/healthz")
    start_time = time.perf_counter()
    get(connection, "/widget/medium.png?scale=2&theme=dark")
    times.append((time.perf_counter() - start_time) * 1000)
    connection.close()
    server.send_signal(signal.SIGTERM)
    if server.wait(timeout=20) != 0:
        sys.exit("serve did not exit 0 on SIGTERM")
print(f"{statistics.median(times):.2f} {max(times):.2f}")
