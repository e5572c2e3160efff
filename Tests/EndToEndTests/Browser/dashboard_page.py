#!/usr/bin/python3
"""Drive headless Chromium over the DevTools protocol and measure how fast a page updates itself.

Opens URL (taskwidget serve's dashboard page), waits until its event stream is open and its images
are loaded, optionally saves a screenshot, runs TRIGGER (a shell command that changes the store),
and waits until the text of SELECTOR changes *without a reload*. Prints one JSON line:
{"before": ..., "after": ..., "ms": ..., "reloaded": false, "image_widths": [...], "image_sources":
[...]} (the URLs the images were loaded from, before and after) and exits 0
when the change came within --timeout seconds, 1 otherwise, 2 on a setup error.

Transport: --remote-debugging-pipe (Chromium reads CDP commands on fd 3 and writes answers on
fd 4, each JSON message ended by a NUL byte), so only the standard library is needed: no
websocket module, no port to pick. Runs as root only with --no-sandbox.

With --hold-streams N, the script first opens N event streams of its own (the server's limit),
so that the page's stream is refused (503); once the page shows it is not live, it closes them
and the page must follow again by itself ("refused": true, "reconnect_ms": from closing them to
the page being live; "notice_refused", "notice_live": the text of its #notice then, null when hidden).

With --without NAME (a global such as EventSource), the page is loaded as by a browser that lacks
it, and the script waits --timeout seconds for the page to reload by itself: it prints
{"before": ..., "reloaded_ms": ... or null, "after": the text after the reload} and exits 0 when it
reloaded, 1 otherwise.

Usage: dashboard_page.py URL [--selector '#status'] [--trigger 'cmd'] [--timeout 5]
                        [--screenshot out.png] [--window 800x600] [--color-scheme dark]
                        [--hold-streams 64] [--without EventSource] [--chromium /usr/bin/chromium]
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse


class CDP:
    """A minimal CDP client over Chromium's pipe transport (fd 3 = commands, fd 4 = answers)."""

    def __init__(self, chromium, window):
        self.profile = tempfile.mkdtemp(prefix="cdp-profile-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "--window-size=" + window.replace("x", ","),
                "about:blank"]

        def child_fds():  # Chromium expects the pipe on exactly fds 3 and 4
            # Move both above 10 first, so that neither dup2 can overwrite the other end.
            read_end = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            write_end = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(args, preexec_fn=child_fds, pass_fds=(3, 4),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=10):
        """Sends a command and returns its result; events that arrive meanwhile are queued."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply is None:
                raise TimeoutError(method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(index)
            event = self._read(deadline)
            if event is None:
                raise TimeoutError(method)
            self.events.append(event)

    def _read(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.from_browser], [], [], remaining)[0]:
                return None
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise EOFError("chromium exited")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        try:
            self.send("Browser.close", timeout=3)
        except Exception:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def open_event_streams(url, count):
    """Opens `count` streams on the /events of the page at `url`; each must be answered with 200."""
    page = urllib.parse.urlsplit(url)
    path = "/events" + ("?" + page.query if page.query else "")
    streams = []
    for _ in range(count):
        stream = socket.create_connection((page.hostname, page.port), timeout=10)
        stream.sendall(f"GET {path} HTTP/1.1\r\nHost: {page.netloc}\r\n\r\n".encode())
        status = stream.makefile("rb").readline()
        if b" 200 " not in status:
            raise RuntimeError(f"event stream {len(streams) + 1}: {status!r}")
        streams.append(stream)
    return streams


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--selector", default="#status")
    parser.add_argument("--trigger", help="shell command that changes the data")
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--screenshot")
    parser.add_argument("--window", default="800x600")
    parser.add_argument("--color-scheme", choices=["light", "dark"], help="the prefers-color-scheme to emulate")
    parser.add_argument("--hold-streams", type=int, default=0, help="event streams to hold while the page opens")
    parser.add_argument("--without", help="a global the browser lacks: the page must reload by itself")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    options = parser.parse_args()

    cdp = CDP(options.chromium, options.window)
    try:
        target = next(t for t in cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "page")
        session = cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        width, height = (int(side) for side in options.window.split("x"))
        # --window-size sizes the window, not the viewport: pin the viewport for exact screenshots
        cdp.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        if options.color_scheme:
            cdp.send("Emulation.setEmulatedMedia",
                     {"features": [{"name": "prefers-color-scheme", "value": options.color_scheme}]}, session=session)
        cdp.send("Page.enable", session=session)
        cdp.send("Runtime.enable", session=session)
        if options.without:
            cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": f"delete window.{options.without};"}, session=session)
        held = open_event_streams(options.url, options.hold_streams)
        cdp.send("Page.navigate", {"url": options.url}, session=session)
        cdp.wait_event("Page.loadEventFired", timeout=10)

        def evaluate(expression, await_promise=False, timeout=10):
            result = cdp.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                   "awaitPromise": await_promise}, session=session,
                              timeout=timeout)
            if "exceptionDetails" in result:
                raise RuntimeError(result["exceptionDetails"].get("text", "exception"))
            return result["result"].get("value")

        def wait_until_live(value):
            evaluate(f"""new Promise(resolve => {{
                  const reached = () => document.body.dataset.live === {json.dumps(value)};
                  if (reached()) return resolve(1);
                  new MutationObserver((_, observer) => {{ if (reached()) {{ observer.disconnect(); resolve(1); }} }})
                    .observe(document.body, {{attributes: true}});
                }})""", await_promise=True, timeout=options.timeout + 5)

        if options.without:
            before = evaluate(f"document.querySelector({json.dumps(options.selector)}).textContent")
            start = time.monotonic()
            try:
                cdp.wait_event("Page.loadEventFired", timeout=options.timeout)
                reloaded_ms = round((time.monotonic() - start) * 1000, 1)
            except TimeoutError:
                reloaded_ms = None
            after = evaluate(f"document.querySelector({json.dumps(options.selector)}).textContent")
            print(json.dumps({"before": before, "reloaded_ms": reloaded_ms, "after": after}))
            return 0 if reloaded_ms is not None else 1

        report = {}
        notice = "(n => n.hidden ? null : n.textContent)(document.getElementById('notice'))"
        if held:
            wait_until_live("no")
            notice_refused = evaluate(notice)
            released = time.monotonic()
            for stream in held:
                stream.close()
            wait_until_live("yes")
            report = {"refused": True, "reconnect_ms": round((time.monotonic() - released) * 1000, 1),
                      "notice_refused": notice_refused, "notice_live": evaluate(notice)}

        selector = json.dumps(options.selector)
        # Wait until the page's EventSource is open (the page marks <body data-live="yes">), so that
        # the trigger cannot beat it, and until its images are loaded, for the screenshot.
        wait_until_live("yes")
        images_loaded = """Promise.all([...document.images].map(i => i.complete ? i :
            new Promise(r => { i.onload = i.onerror = () => r(i); })))
            .then(all => all.map(i => i.naturalWidth))"""
        evaluate(images_loaded, await_promise=True)
        image_sources = "[...document.images].map(i => i.currentSrc)"
        sources_before = evaluate(image_sources)
        before = evaluate(f"document.querySelector({selector}).textContent")
        # What the screenshot shows: each image and the selected element, whole, inside the viewport.
        visible = evaluate(f"""[...document.images, document.querySelector({selector})].map(e => {{
              const r = e.getBoundingClientRect();
              return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
            }})""")
        if options.screenshot:
            shot = cdp.send("Page.captureScreenshot", {"format": "png"}, session=session)
            with open(options.screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        if not options.trigger:
            print(json.dumps({**report, "before": before, "visible": visible, "sources_before": sources_before}))
            return 0

        # A marker that a reload would wipe, and a promise that resolves at the first mutation of
        # the element's text (timestamped in the page), set up before the trigger.
        evaluate(f"""window.__marker = 42;
            window.__changed = new Promise(resolve => {{
              const element = document.querySelector({selector});
              const start = element.textContent;
              new MutationObserver(() => {{ if (element.textContent !== start) resolve(element.textContent); }})
                .observe(element, {{childList: true, characterData: true, subtree: true}});
            }});""")
        start = time.monotonic()
        subprocess.run(options.trigger, shell=True, check=True, stdout=subprocess.DEVNULL)
        try:
            after = evaluate(f"Promise.race([window.__changed, new Promise(r => setTimeout(() => r(null), "
                             f"{int(options.timeout * 1000)}))])", await_promise=True, timeout=options.timeout + 5)
        except TimeoutError:
            after = None
        elapsed_ms = round((time.monotonic() - start) * 1000, 1)
        reloaded = evaluate("window.__marker") != 42
        # Every <img> loaded (a 401 or 404 would leave naturalWidth 0): checks that the page's token
        # and cache-busting URLs work too.
        images = evaluate(images_loaded, await_promise=True)
        print(json.dumps({**report, "before": before, "after": after, "ms": elapsed_ms, "reloaded": reloaded,
                          "image_widths": images, "visible": visible, "sources_before": sources_before,
                          "image_sources": evaluate(image_sources)}))
        changed = after is not None and after != before and not reloaded
        return 0 if changed and all(width > 0 for width in images) else 1
    except Exception as error:  # setup failed: say why, distinctly from "no change"
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        return 2
    finally:
        cdp.close()


if __name__ == "__main__":
    sys.exit(main())
