"""Runs a command on a new terminal and presses Ctrl-C once it has printed a given text.

Usage: interrupt_on_terminal.py [--signal NAME] TEXT COMMAND [ARGUMENTS...]

The command gets a pseudo-terminal (so it behaves as on a user's terminal); once TEXT appears in
what it printed, its process group gets SIGINT, as the terminal sends for Ctrl-C (or the signal
NAME, such as TERM, as `kill` sends it). Prints one JSON
line: whether the interrupt was sent, the signal that ended the command (or its exit status), and
the last 80 characters the terminal got. The system Python, standard library only.
"""
import json
import os
import pty
import signal
import sys

arguments = sys.argv[1:]
sent = signal.SIGINT
if arguments[0] == "--signal":
    sent = signal.Signals["SIG" + arguments[1]]
    arguments = arguments[2:]
text = arguments[0].encode()
pid, terminal = pty.fork()
if pid == 0:
    os.execv(arguments[1], arguments[1:])
seen = b""
interrupted = False
while True:
    try:
        chunk = os.read(terminal, 4096)
    except OSError:  # EIO: the command and its terminal are gone
        break
    if not chunk:
        break
    seen += chunk
    if not interrupted and text in seen:
        os.killpg(os.getpgid(pid), sent)
        interrupted = True
_, status = os.waitpid(pid, 0)
print(json.dumps({
    "interrupted": interrupted,
    "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
    "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
    "tail": seen[-80:].decode("utf-8", "replace"),
}))
