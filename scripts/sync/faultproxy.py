#!/usr/bin/python3
"""A fault-injecting HTTP/1.x proxy for sync tests: sits between the client and Radicale.

    faultproxy.py UPSTREAM_PORT CONTROL_FILE

Listens on a free loopback port and writes it to CONTROL_FILE + ".port" (atomically, once it
listens), and prints it on standard output.
For every connection it reads CONTROL_FILE (one word; missing or empty = "pass") and:

    pass        forwards the request and the response unchanged
    status500   answers 500 Internal Server Error without asking upstream
    status503   answers 503 Service Unavailable with Retry-After: 1
    truncate    forwards, but sends only the head and half the body (Content-Length kept),
                then closes: the client sees the connection end mid-body
    garble      forwards, but replaces the body by XML cut off mid-element, with a matching
                Content-Length: a complete HTTP response with malformed XML
    stall       reads the request and never answers (until the client gives up)
    trickle     forwards, but sends the body one byte every 0.2 s after the head: never idle,
                yet slower than any deadline
    reset       reads the request and closes the connection without a byte

A word may be prefixed to aim the fault at some requests only; the others pass:

    after:N:MODE      the first N requests pass, every later one gets MODE (a server that dies
                      mid-sync: after:3:reset)
    only:METHOD:MODE  requests with this method get MODE (only:PUT:status500)
    corrupt:TEXT      forwards, but adds a line without a colon after TEXT wherever a response
                      body has it (corrupt:UID:broken-1): a calendar object that is not valid
                      iCalendar, which Radicale itself would never store
    refuse:TEXT       answers 403 Forbidden to a PUT whose body has TEXT, as a read-only calendar
                      does (refuse:SUMMARY:Locked); the other requests pass

Radicale speaks HTTP/1.0 and closes after each response, so the proxy handles exactly one
request per connection. It serves only loopback and stops on SIGTERM. Counts of requests per
mode are appended to CONTROL_FILE + ".log" ("MODE METHOD PATH"), for tests to check.
"""

import os
import signal
import socket
import sys
import threading
import time


def read_request(conn):
    """Reads one request (head + Content-Length body) and returns its bytes, or None."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head + b"\r\n\r\n" + body


def forward(request, upstream_port):
    """Sends the request upstream with Connection: close and returns the whole response."""
    head, _, body = request.partition(b"\r\n\r\n")
    # Uncompressed answers, so that the faults can find what they change in the bodies.
    lines = [l for l in head.split(b"\r\n") if not l.lower().startswith((b"connection:", b"accept-encoding:"))]
    request = b"\r\n".join(lines) + b"\r\nConnection: close\r\n\r\n" + body
    with socket.create_connection(("127.0.0.1", upstream_port), timeout=30) as up:
        up.sendall(request)
        response = b""
        while True:
            chunk = up.recv(65536)
            if not chunk:
                return response
            response += chunk


def with_body(head, body):
    """A response head with its Content-Length set to len(body)."""
    lines = [l for l in head.split(b"\r\n") if not l.lower().startswith(b"content-length:")]
    return b"\r\n".join(lines) + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body


LOG_LOCK = threading.Lock()


def effective_mode(word, earlier, method, request):
    """The mode for this request: `after:N:MODE`, `only:METHOD:MODE` and `refuse:TEXT` aim a
    fault at some requests."""
    if word.startswith("corrupt:"):
        return word
    if word.startswith("refuse:"):
        return "status403" if method == "PUT" and word[len("refuse:"):].encode() in request else "pass"
    parts = word.split(":")
    if len(parts) == 3 and parts[0] == "after":
        return parts[2] if earlier >= int(parts[1]) else "pass"
    if len(parts) == 3 and parts[0] == "only":
        return parts[2] if method == parts[1] else "pass"
    return word


def handle(conn, upstream_port, control):
    with conn:
        conn.settimeout(60)
        try:
            mode = open(control).read().strip() or "pass"
        except FileNotFoundError:
            mode = "pass"
        request = read_request(conn)
        if request is None:
            return
        request_line = request.split(b"\r\n", 1)[0].decode("latin-1")
        with LOG_LOCK:
            try:
                earlier = sum(1 for _ in open(control + ".log"))
            except FileNotFoundError:
                earlier = 0
            mode = effective_mode(mode, earlier, request_line.split(" ")[0], request)
            with open(control + ".log", "a") as log:
                log.write("%s %s\n" % (mode, " ".join(request_line.split(" ")[:2])))
        if mode == "reset":
            return
        if mode == "stall":
            threading.Event().wait(120)
            return
        if mode in ("status403", "status500", "status503"):
            code = mode[-3:]
            reason = {"403": "Forbidden", "500": "Internal Server Error", "503": "Service Unavailable"}[code]
            body = b"Internal error, try again later.\n"
            extra = "Retry-After: 1\r\n" if code == "503" else ""
            conn.sendall(
                ("HTTP/1.1 %s %s\r\nContent-Type: text/plain\r\n%sConnection: close\r\n" % (code, reason, extra)).encode()
                + b"Content-Length: %d\r\n\r\n" % len(body) + body)
            return
        response = forward(request, upstream_port)
        head, _, body = response.partition(b"\r\n\r\n")
        if mode == "truncate":
            conn.sendall(head + b"\r\n\r\n" + body[: len(body) // 2])
            return  # closing now: the Content-Length promised more
        if mode == "trickle":
            try:
                conn.sendall(head + b"\r\n\r\n")
                for index in range(len(body)):
                    conn.sendall(body[index:index + 1])
                    time.sleep(0.2)
            except OSError:
                pass  # the client gave up
            return
        if mode.startswith("corrupt:"):
            text = mode[len("corrupt:"):].encode()
            conn.sendall(with_body(head, body.replace(text, text + b"\r\nTHIS LINE IS NOT ICALENDAR")))
            return
        if mode == "garble":
            cut = body[: max(1, len(body) // 2)]
            conn.sendall(with_body(head, cut))
            return
        conn.sendall(response)


def main():
    upstream_port, control = int(sys.argv[1]), sys.argv[2]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    port = server.getsockname()[1]
    with open(control + ".port.tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(control + ".port.tmp", control + ".port")
    print(port, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    while True:
        conn, _ = server.accept()
        threading.Thread(target=handle, args=(conn, upstream_port, control), daemon=True).start()


if __name__ == "__main__":
    main()
