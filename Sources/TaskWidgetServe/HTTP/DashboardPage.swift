import Foundation
import TaskWidgetCore

/// The dashboard page (`GET /`): the large widget, the status line and its next changes.
///
/// With JavaScript it follows `/events` (EventSource) and swaps the text and the image in place; the
/// image URL carries `?v=VERSION` so that the browser fetches the new bytes, and `<body
/// data-live>` says whether the stream is open. A browser in dark mode gets the page and the
/// widget dark (`theme=dark`, through `<picture>`). A stream the server refuses (503 when too many
/// are open) is opened again after 1, 2, 4 … 60 s, as `EventSource` gives up on an HTTP error.
/// While the stream is not open, `#notice` says since when the page has not been updating (or,
/// refused for want of a token, how to give one): the page looked live with old tasks (helper-131).
/// Without JavaScript the `<noscript>` refresh reloads the page when the line next changes, and so
/// does a timer in a first, tiny script that the page's script stops once it follows the
/// stream: a browser that runs scripts but lacks what the page needs (an old Kindle's has no
/// `EventSource`) stayed on its first status for good (helper-164). The script itself is
/// ES5 and uses DOM level 1 only. A
/// `?token=` in the page's own URL (`token`) is passed on to the image, in the page itself so that
/// it shows without JavaScript too, and to `/events` (an `EventSource` and an `<img>` cannot set
/// headers).
enum DashboardPage {
    static func html(published: DashboardCache.Published, refreshSeconds: Int, token: String? = nil) -> String {
        let version = published.version
        var queryValue = CharacterSet.urlQueryAllowed
        queryValue.remove(charactersIn: "&+=#;")
        let tokenParameter = token.flatMap { $0.addingPercentEncoding(withAllowedCharacters: queryValue) }.map { "&amp;token=" + escape($0) } ?? ""
        let image = "widget/large.png?scale=2&amp;v=\(version)\(tokenParameter)"
        let rows = published.upcoming.map { "<tr><th>\(escape($0.time))</th><td>\(escape($0.status))</td></tr>" }.joined()
        let refresh = max(5, refreshSeconds)
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>taskwidget</title>
            <noscript><meta http-equiv="refresh" content="\(refresh)"></noscript>
            <script>var reloadUnlessFollowing = setTimeout(function () { location.reload(); }, \(refresh * 1000));</script>
            <style>
            body{font:16px/1.4 system-ui,sans-serif;margin:24px;background:#f2f2f7;color:#1c1c1e}
            main{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
            picture{display:block;max-width:100%}
            #widget{display:block;width:364px;max-width:100%;height:auto;border-radius:22px;box-shadow:0 2px 12px rgba(0,0,0,.12)}
            section{flex:1;min-width:min(300px,100%)}#status{font-size:1.25em;font-weight:600;margin:0 0 12px}
            table{border-collapse:collapse}th{text-align:left;font-weight:500;color:#6c6c70;padding:2px 12px 2px 0;white-space:nowrap}
            h2{font-size:.85em;text-transform:uppercase;letter-spacing:.05em;color:#6c6c70;margin:0 0 4px}
            #notice{background:#ffcc00;color:#1c1c1e;padding:8px 12px;border-radius:8px;margin:0 0 16px}
            @media (prefers-color-scheme: dark){body{background:#000;color:#fff}th,h2{color:#aeaeb2}}
            </style>
            </head><body data-version="\(version)">
            <p id="notice" role="status" hidden></p>
            <main>
            <picture><source id="widget-dark" media="(prefers-color-scheme: dark)" srcset="\(image)&amp;theme=dark">
            <img id="widget" alt="The tasks widget" width="364" height="382" src="\(image)"></picture>
            <section>
            <p id="status">\(escape(published.statusText))</p>
            <h2 id="upcoming-heading"\(rows.isEmpty ? " hidden" : "")>Next changes</h2>
            <table><tbody id="upcoming">\(rows)</tbody></table>
            </section>
            </main>
            <script>
            (function () {
              if (!window.EventSource || !window.JSON) return;
              var match = /[?&]token=([^&]*)/.exec(location.search);
              var token = match ? decodeURIComponent(match[1].replace(/\\+/g, " ")) : null;
              var suffix = token ? "&token=" + encodeURIComponent(token) : "";
              var img = document.getElementById("widget"), dark = document.getElementById("widget-dark");
              var retryDelay = 1000, notice = document.getElementById("notice"), since = null;
              var stream = "events" + (token ? "?token=" + encodeURIComponent(token) : "");
              function follow() {
                var events = new EventSource(stream);
                events.onopen = function () {
                  retryDelay = 1000; since = null; notice.hidden = true; document.body.dataset.live = "yes";
                };
                events.onerror = function () {
                  document.body.dataset.live = "no";
                  since = since || new Date();
                  notice.textContent = "Not updating since " + ("0" + since.getHours()).slice(-2) + ":" + ("0" + since.getMinutes()).slice(-2)
                    + ": the server cannot be reached; trying again.";
                  notice.hidden = false;
                  // A stream refused with an HTTP status (503 when too many are open) is closed for
                  // good; a dropped one retries by itself.
                  if (events.readyState === EventSource.CLOSED) {
                    if (window.fetch && window.AbortController) {
                      var asked = new AbortController();
                      fetch(stream, {signal: asked.signal, cache: "no-store"}).then(function (response) {
                        asked.abort();
                        if (response.status !== 401) return;
                        notice.textContent = token
                          ? "Not updating: the server does not take this page's token. Open this page with the token of the --token-file "
                            + "serve runs with (`taskwidget serve token` prints the default one)."
                          : "Not updating: the server asks for its token. Open this page as "
                            + location.origin + location.pathname + "?token=TOKEN (`taskwidget serve token` prints it).";
                      }).catch(function () {});
                    }
                    setTimeout(follow, retryDelay);
                    retryDelay = Math.min(retryDelay * 2, 60000);
                  }
                };
                events.addEventListener("change", show);
              }
              function show(message) {
                var data = JSON.parse(message.data);
                document.body.dataset.version = data.version;
                document.getElementById("status").textContent = data.error || data.status;
                var rows = document.getElementById("upcoming"), upcoming = data.upcoming || [];
                document.getElementById("upcoming-heading").hidden = !upcoming.length;
                while (rows.firstChild) rows.removeChild(rows.firstChild);
                for (var index = 0; index < upcoming.length; index++) {
                  var row = document.createElement("tr"), time = document.createElement("th"), line = document.createElement("td");
                  time.textContent = upcoming[index].time; line.textContent = upcoming[index].status;
                  row.appendChild(time); row.appendChild(line); rows.appendChild(row);
                }
                var image = "widget/large.png?scale=2&v=" + data.version + suffix;
                dark.srcset = image + "&theme=dark";
                img.src = image;
              }
              follow();
              clearTimeout(reloadUnlessFollowing);
            })();
            </script>
            </body></html>

            """
    }

    /// HTML text escaping: `&`, `<`, `>`, and both quotes (safe in attributes too).
    static func escape(_ text: String) -> String { text.markupEscaped() }
}
