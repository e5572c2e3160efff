# Installs the Debian packages taskwidget needs when any is missing. Sourced by setup.sh,
# install.sh and test.sh. The Swift toolchain itself is expected on PATH (swift.org's Debian 12
# release). TASKWIDGET_PACKAGES is what building and using taskwidget needs (setup.sh, install.sh);
# the scripts that run tests add TASKWIDGET_TEST_PACKAGES, so that an install never asks for a
# browser, a CalDAV server or a compositor (helper-121).

# The store: GRDB links the system SQLite through pkg-config. PNG widgets: Cairo + Pango draw them
# and libpng encodes them (all through pkg-config); the fonts cover Latin (Inter), Arabic and the
# rest (Noto), CJK and color emoji, and are the ones the golden images are drawn with. Reminders:
# `taskwidget notify` speaks D-Bus through GLib's GIO (libglib2.0-dev). Sync: AsyncHTTPClient
# brings its own TLS (BoringSSL) and decompresses with the system's zlib; FoundationXML is
# libxml2, which a static taskwidget-sync links against (and loads at run time: libxml2); HTTPS
# trusts the system's CA store (ca-certificates).
TASKWIDGET_PACKAGES=(pkg-config libsqlite3-dev libcairo2-dev libpango1.0-dev libpng-dev
  fonts-inter fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libglib2.0-dev zlib1g-dev libxml2-dev
  ca-certificates)

# Install: `man` (man-db) reads the pages scripts/install.sh installs and bash-completion loads its
# bash completion on the first <TAB>.
TASKWIDGET_PACKAGES+=(man-db bash-completion)

# A release taskwidget is one static executable (Package.swift): its link takes the static C and
# C++ libraries (libsqlite3-dev above brings SQLite's). swift.org's Debian 12 toolchain asks for
# both already; a machine that lacks them would fail at that link.
TASKWIDGET_PACKAGES+=(libc6-dev libstdc++-12-dev)

# The tests validate the timeline JSON with the system Python's jsonschema, parse the waybar/i3bar
# Pango markup with the system Python's Pango (python3-gi, gir1.2-pango-1.0), and read
# `status --format tmux` back from a real tmux. Dashboards: `taskwidget serve`'s page is tested in
# a real browser (Debian's chromium, headless), and the Kindle recipe runs with curl. notify's
# end-to-end tests run a real notification server, dunst, on an X display of their own (xvfb) and a
# session bus of their own (dbus-daemon); dunstctl needs dbus-send (dbus-bin) and busctl (systemd),
# and the tests send a forged signal with gdbus (libglib2.0-bin). The sync tests run a private
# Radicale (htpasswd from apache2-utils, a self-signed certificate from openssl) and Python's caldav
# library as another client, all under Debian's /usr/bin/python3.
TASKWIDGET_TEST_PACKAGES=(python3-jsonschema python3-gi gir1.2-pango-1.0 tmux chromium curl libglib2.0-bin
  dunst xvfb dbus-daemon dbus-bin systemd radicale python3-caldav apache2-utils openssl)

# The instruction budget of `status` (scripts/bench/instruction_budget.sh) counts with callgrind.
TASKWIDGET_TEST_PACKAGES+=(valgrind)

# The waybar click test (WaybarClickTests) runs waybar on a headless sway (swaymsg clicks), with
# wayvnc for a pointer: its virtual pointer lets sway's cursor click (headless has no input device).
TASKWIDGET_TEST_PACKAGES+=(sway waybar wayvnc)

# A watch test holds a writer's syncs with strace's fault injection (a slow disk, on purpose).
TASKWIDGET_TEST_PACKAGES+=(strace)

# The e-ink PNG test has pngcheck read every depth's file.
TASKWIDGET_TEST_PACKAGES+=(pngcheck)

ensure_dependencies() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "taskwidget: the Swift toolchain is not on PATH: install Swift 6 from swift.org first" >&2
    return 1
  fi
  local missing=()
  for package in "${TASKWIDGET_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "taskwidget: cannot install them without sudo: as root, run: apt-get install ${missing[*]}" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
