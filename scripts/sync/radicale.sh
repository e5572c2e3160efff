#!/bin/bash
# A private Radicale for tests and measurements, on a free loopback port, in its own folder.
#
#   scripts/radicale.sh start DIR [USER [PASSWORD]]   prints "URL PID" and returns once it answers
#   scripts/radicale.sh stop DIR                      stops it (SIGTERM, then SIGKILL after 5 s)
#
# DIR gets: config, users (htpasswd, MD5-APR1), collections/ (storage), radicale.log, radicale.pid,
# url. Radicale is Debian's (apt-get install radicale apache2-utils): it must run under
# /usr/bin/python3, whose dist-packages hold it, not under a pyenv python that comes first on PATH.
#
# Environment: RADICALE_FSYNC=0 turns off Radicale's fsync (faster, for bulk tests only);
# RADICALE_START_TIMEOUT (seconds, default 20) bounds the wait for the first answer.
set -euo pipefail

PYTHON=/usr/bin/python3

free_port() {
	# Bind port 0, read the port the kernel chose, close. The tiny race (another process taking it
	# before Radicale binds) is handled by retrying the start with a new port.
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

write_config() { # DIR PORT
	local dir=$1 port=$2
	cat >"$dir/config" <<-EOF
		# Written by scripts/sync/radicale.sh.
		[server]
		hosts = 127.0.0.1:$port
		max_connections = 32
		# seconds a client may take to send its request
		timeout = 30
		[auth]
		type = htpasswd
		htpasswd_filename = $dir/users
		htpasswd_encryption = md5
		# no sleep after a failed login, so that tests of wrong passwords stay fast
		delay = 0
		[rights]
		# each user reads and writes only below /USER/
		type = owner_only
		[storage]
		filesystem_folder = $dir/collections
		[web]
		type = none
		[logging]
		level = warning
		mask_passwords = True
	EOF
}

start() { # DIR [USER [PASSWORD]]
	local dir=$1 user=${2:-alice} password=${3:-secret}
	mkdir -p "$dir/collections"
	dir=$(cd "$dir" && pwd)
	htpasswd -bcm "$dir/users" "$user" "$password" 2>/dev/null
	local timeout=${RADICALE_START_TIMEOUT:-20} attempt
	for attempt in 1 2 3; do
		local port pid url
		port=$(free_port)
		write_config "$dir" "$port"
		if [[ "${RADICALE_FSYNC:-1}" = 0 ]]; then
			# [storage] _filesystem_fsync is an internal option that config files may not set
			"$PYTHON" -c "import os, runpy, sys; os.fsync = lambda fd: None; sys.argv[0] = 'radicale'; runpy.run_module('radicale', run_name='__main__', alter_sys=True)" \
				--config "$dir/config" >>"$dir/radicale.log" 2>&1 &
		else
			"$PYTHON" -m radicale --config "$dir/config" >>"$dir/radicale.log" 2>&1 &
		fi
		pid=$!
		url="http://127.0.0.1:$port/"
		local deadline=$((SECONDS + timeout))
		while ((SECONDS < deadline)); do
			if ! kill -0 "$pid" 2>/dev/null; then
				break # exited: most likely the port was taken meanwhile; try another
			fi
			# Any HTTP answer (Radicale says 401 or 302 to an anonymous GET /) means it is serving.
			if curl -s -o /dev/null --max-time 1 "$url"; then
				echo "$pid" >"$dir/radicale.pid"
				echo "$url" >"$dir/url"
				echo "$url $pid"
				return 0
			fi
			sleep 0.05
		done
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	echo "radicale.sh: Radicale did not answer; see $dir/radicale.log" >&2
	return 1
}

stop() { # DIR
	local dir=$1 pid i
	[[ -f "$dir/radicale.pid" ]] || return 0
	pid=$(cat "$dir/radicale.pid")
	kill "$pid" 2>/dev/null || { rm -f "$dir/radicale.pid"; return 0; }
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$pid" 2>/dev/null || true
	rm -f "$dir/radicale.pid"
}

case "${1:-}" in
start) shift; start "$@" ;;
stop) shift; stop "$@" ;;
*) echo "usage: $0 start DIR [USER [PASSWORD]] | stop DIR" >&2; exit 64 ;;
esac
