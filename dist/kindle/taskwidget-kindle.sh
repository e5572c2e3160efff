#!/bin/sh
# Shows a widget from `taskwidget serve` on a Kindle (or any e-ink device with a shell and curl),
# in the manner of kindle-dash: it asks with the ETag of what it shows, redraws only on a new
# image, and sleeps until the server says the image next changes (its max-age).
#
# Usage: taskwidget-kindle.sh URL [--once]
#   URL    e.g. 'http://192.168.1.10:8787/widget/800x600.png?theme=mono&depth=8&rotate=90&token=TOKEN'
#          (rotate=90 turns the landscape widget into a portrait 600 × 800 image)
#   --once ask once and exit (for cron, or to try it): 1 when the server did not answer with an
#          image or 304, so cron says so
# Environment:
#   SHOW    the command that shows an image file (default: eips -g, the Kindle's own)
#   FOLDER  where the image and its ETag are kept: a folder of yours that only you may write
#           (default: /tmp/taskwidget-UID, made for you)
#   TIMEOUT the seconds a question may take before it is given up (default: 60), so that a
#           server or network that goes silent does not hold the script (and cron's copies) for good
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# = 2 ] && [ "$2" != --once ]; }; then
  echo "usage: taskwidget-kindle.sh URL [--once]   (URL: taskwidget serve's image, e.g. 'http://192.168.1.10:8787/widget/800x600.png?theme=mono&depth=8&rotate=90&token=TOKEN')" >&2
  exit 64
fi
url=$1
once=${2:-}
folder=${FOLDER:-/tmp/taskwidget-$(id -u)}
show=${SHOW:-eips -g}
timeout=${TIMEOUT:-60}
# curl takes 0 as no limit at all, and says nothing of TIMEOUT for a word.
if ! expr "$timeout" : '[0-9]*\.\{0,1\}[0-9]*$' > /dev/null || ! expr "$timeout" : '.*[1-9]' > /dev/null; then
  echo "taskwidget-kindle: TIMEOUT must be a number of seconds above 0, such as 60 (it is '$timeout')" >&2
  exit 64
fi
# Private files, in a folder nobody else can put a link into: in a shared /tmp, another user's
# new.png linked to one of yours had curl write the image over it (helper-153).
umask 077
[ -e "$folder" ] || [ -L "$folder" ] || mkdir -p "$folder"
case $(ls -ld "$folder" 2> /dev/null) in
  d????w????*|d???????w?*) writable_by_others=1 ;;
  *) writable_by_others=0 ;;
esac
if [ -L "$folder" ] || [ ! -d "$folder" ] || [ ! -O "$folder" ] || [ "$writable_by_others" = 1 ]; then
  echo "taskwidget-kindle: $folder is not a folder of yours that only you may write: set FOLDER to one (the images are kept there)" >&2
  exit 73
fi
# Shows the image; a show that fails says so, and the next question asks for the image again
# (without the ETag), so the screen is not left on an older one.
show_image() {
  $show "$folder/image.png" && return 0
  echo "taskwidget-kindle: \`$show $folder/image.png\` failed with exit status $?: the image is fetched and shown again at the next question" >&2
  status=1
  return 1
}
while :; do
  failed=0
  if [ -s "$folder/etag" ]; then
    code=$(curl -sS --connect-timeout 15 --max-time "$timeout" -o "$folder/new.png" -D "$folder/headers" -w '%{http_code}' -H "If-None-Match: $(cat "$folder/etag")" "$url") || failed=$?
  else
    code=$(curl -sS --connect-timeout 15 --max-time "$timeout" -o "$folder/new.png" -D "$folder/headers" -w '%{http_code}' "$url") || failed=$?
  fi
  [ "$failed" = 0 ] || code=000
  case $code in
    200)  # a new image: show it, and keep its ETag for the next question once it is shown
      mv "$folder/new.png" "$folder/image.png"
      : > "$folder/etag"
      if show_image; then
        sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^[:space:]]*\).*/\1/p' "$folder/headers" > "$folder/etag"
      fi ;;
    304) ;;  # unchanged: the screen stays as it is
    503)  # the store cannot be read: the body is an image that says why
      mv "$folder/new.png" "$folder/image.png"
      : > "$folder/etag"
      show_image || : ;;
    *)  # the URL without its query, which may hold the token (cron mails stderr)
      status=1
      if [ "$failed" = 6 ] || [ "$failed" = 7 ]; then
        echo "taskwidget-kindle: ${url%%\?*} cannot be reached: is taskwidget serve running there?" >&2
      elif [ "$failed" = 28 ] && [ -s "$folder/headers" ]; then
        echo "taskwidget-kindle: ${url%%\?*} did not finish its answer within $timeout s: is the server or the network stuck?" >&2
      elif [ "$failed" = 18 ] || [ "$failed" = 56 ]; then
        echo "taskwidget-kindle: ${url%%\?*} did not finish its answer (the connection ended): is the server or the network stuck?" >&2
      elif [ "$failed" = 28 ]; then
        echo "taskwidget-kindle: ${url%%\?*} did not answer within $timeout s: is the server or the network stuck?" >&2
      elif [ "$failed" != 0 ]; then
        echo "taskwidget-kindle: curl failed with exit status $failed for ${url%%\?*} (man curl lists them)" >&2
      else  # with serve's one-line reason (`{"error":"bad parameter depth: …"}`), which holds no token
        reason=$(head -c 300 "$folder/new.png" 2>/dev/null | tr -d '\000-\037')
        echo "taskwidget-kindle: ${url%%\?*} answered HTTP $code${reason:+: $reason}" >&2
      fi ;;
  esac
  [ "$once" = "--once" ] && exit "${status:-0}"
  # The max-age of an answer that came whole; after a failed question, the next comes in 30 s.
  age=
  [ "${status:-0}" != 0 ] || age=$(sed -n 's/^[Cc]ache-[Cc]ontrol: *max-age=\([0-9]*\).*/\1/p' "$folder/headers" 2>/dev/null)
  [ "${age:-0}" -ge 30 ] || age=30
  status=0
  sleep "$age"
done
