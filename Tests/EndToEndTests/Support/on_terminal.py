"""Runs a command on a new terminal, types INPUT into it, and reports what the terminal showed.

Usage: on_terminal.py INPUT COMMAND [ARGUMENTS...]

The command gets a pseudo-terminal for its standard input, output and error, as on a user's
terminal. INPUT is typed at once (a line ends with "\n", as Enter sends it). A command still
running after 10 seconds is killed. Prints one JSON line: its exit status (or "timeout") and
everything the terminal showed, with the terminal's "\r\n" as "\n". The system Python, standard
library only.
"""
import json
import os
import pty
import select
import signal
import sys
import time

pid, terminal = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
os.write(terminal, sys.argv[1].encode())
shown = b""
deadline = time.monotonic() + 10
status = "timeout"
while time.monotonic() < deadline:
    ready, _, _ = select.select([terminal], [], [], max(0, deadline - time.monotonic()))
    if not ready:
        continue
    try:
        chunk = os.read(terminal, 4096)
    except OSError:  # EIO: the command and its terminal are gone
        chunk = b""
    if not chunk:
        break
    shown += chunk
if time.monotonic() >= deadline:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
else:
    _, code = os.waitpid(pid, 0)
    status = os.waitstatus_to_exitcode(code)
print(json.dumps({"status": status, "shown": shown.decode(errors="replace").replace("\r\n", "\n")}))
