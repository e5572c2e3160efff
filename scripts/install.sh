#!/usr/bin/env bash
# Installs taskwidget for one user (or, with a system prefix, for all): the static programs, their
# man pages, bash/zsh/fish completions and systemd user units; --uninstall removes them again.
# Everything it writes is listed in PREFIX/share/taskwidget/install-manifest, so that an uninstall
# removes exactly that (and the folders it made), never a store, a config or a unit of the user's.
set -Eeuo pipefail
shopt -s nullglob

usage() {
  cat <<'EOF'
Usage: scripts/install.sh [--prefix DIR] [--binaries DIR] [--uninstall]

Builds taskwidget's static programs (taskwidget, taskwidget-render, taskwidget-serve,
taskwidget-notify and every other executable in Package.swift) and installs them with man pages,
bash, zsh and fish completions and systemd user units. Run it again to update: files that did not
change are left alone. --uninstall removes what the install put there and the folders it made;
your tasks, config and state are never touched.

Options:
  --prefix DIR     where to install (default ~/.local):
                     DIR/bin                                 the programs
                     DIR/share/man/man1                      man pages
                     DIR/share/bash-completion/completions   bash completion
                     DIR/share/zsh/site-functions            zsh completion
                     DIR/share/fish/vendor_completions.d     fish completion
                     DIR/share/systemd/user                  systemd user units
                     DIR/share/taskwidget/install-manifest   what was installed
  --binaries DIR   install the programs already built in DIR (taskwidget and each
                   taskwidget-NAME there, e.g. .build/release) instead of building them
  --uninstall      remove what an earlier install put into the prefix
  -h, --help       show this help

Examples:
  scripts/install.sh                             # builds, then installs into ~/.local
  scripts/install.sh --prefix /usr/local         # for every user (as root)
  scripts/install.sh --binaries .build/release   # the programs are built already
  scripts/install.sh --uninstall                 # removes the ~/.local install

Exit status: 0 done, 64 bad usage, 1 a failure (its line says what failed), 130 interrupted.
EOF
}

fail() { # STATUS MESSAGE: one line on stderr, then exit
  echo "install.sh: $2" >&2
  exit "$1"
}
trap 'fail 1 "failed (status $?): $BASH_COMMAND"' ERR
step() { echo "==> $*"; }

prefix=${HOME:+$HOME/.local}
binaries=
uninstall=false
while [ $# -gt 0 ]; do
  case $1 in
    --prefix | --binaries)
      [ $# -ge 2 ] && [ -n "$2" ] || fail 64 "$1 needs a folder (see --help)"
      if [ "$1" = --prefix ]; then prefix=$2; else binaries=$2; fi
      shift 2 ;;
    --prefix=* | --binaries=*)
      [ -n "${1#*=}" ] || fail 64 "${1%%=*} needs a folder (see --help)"
      if [[ $1 == --prefix=* ]]; then prefix=${1#*=}; else binaries=${1#*=}; fi
      shift ;;
    --uninstall) uninstall=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) fail 64 "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$prefix" ] || fail 64 "HOME is not set: give --prefix"
[[ $prefix == "~" ]] && prefix=$HOME
[[ $prefix == "~/"* ]] && prefix=$HOME/${prefix:2}
prefix=$(realpath -ms -- "$prefix")
# The prefix goes into the units' command lines (where systemd reads `$` and `%`, and `$$` in a
# program's path is not undone), PATH and MANPATH (split at `:`) and the shell lines the notes
# print: keep it plain (helper-121). Letters outside ASCII (a home named josé or 山田) are plain
# to all of them (helper-140).
# (The x keeps a line break, which $(…) would drop at the end, helper-141.)
if [ "$(printf '%s' "$prefix" | LC_ALL=C tr -d 'A-Za-z0-9._/+@,=\200-\377-'; echo x)" != x ]; then
  fail 64 "the prefix ${prefix@Q} has a character that unit files, PATH or a shell line would read otherwise (a space, a quote, a line break, \$, :, ;, …): choose a path of letters, digits and . _ - + @ , ="
fi
repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repository/scripts/lib/swiftpm.sh"
manifest=$prefix/share/taskwidget/install-manifest
unit_dir=share/systemd/user
config_home=${XDG_CONFIG_HOME:-${HOME:-/nonexistent}/.config}

# MARK: The manifest: `file PATH` and `dir PATH` lines, PATH relative to the prefix ("." is the
# prefix itself); dirs are the folders an install made, deepest first.

declare -A made_dirs=()
previous_files=()
if [ -f "$manifest" ]; then
  while read -r kind path; do
    case $path in '' | /* | *..*) continue ;; esac # only paths below the prefix
    case $kind in
      file) previous_files+=("$path") ;;
      dir) made_dirs[$path]=1 ;;
    esac
  done <"$manifest"
fi

# Sorts folder paths so that each comes before its parent (the prefix, ".", last).
deepest_first() { awk -F/ '{ print ($0 == "." ? 0 : NF) "\t" $0 }' | sort -k1,1nr -k2 | cut -f2-; }

# Makes the folder PREFIX/RELATIVE and records each level it had to make. share/taskwidget is
# also where taskwidget keeps the user's store under ~/.local (XDG_DATA_HOME): made here, it is
# private, as taskwidget makes it (helper-121: every user could read the tasks).
make_dir() {
  local path= part mode
  local IFS=/
  for part in $1; do
    path=${path:+$path/}$part
    [ -d "$prefix/$path" ] && continue
    mode=0755
    [ "$path" = share/taskwidget ] && mode=0700
    mkdir -m "$mode" -- "$prefix/$path" 2>/dev/null || fail 1 "cannot make the folder $prefix/$path"
    made_dirs[$path]=1
  done
}

# The unit names of the unit files in ARGUMENTS, template instances as globs (taskwidget-watch@*).
unit_patterns() {
  local name
  for name in "$@"; do
    name=${name##*/}
    if [[ $name == *@.* ]]; then echo "${name%%@.*}@*.${name##*.}"; else echo "$name"; fi
  done
}

# Whether a systemd user manager is running and reads the prefix's units, so that reloading it and
# restarting or stopping units concerns this install (never another prefix's, nor a test's).
user_manager_sees_units() {
  command -v systemctl >/dev/null 2>&1 || return 1
  local paths
  paths=$(timeout 10 systemctl --user show --property=UnitPath --value 2>/dev/null) || return 1
  [[ " $paths " == *" $prefix/$unit_dir "* ]]
}

# MARK: Uninstall

if $uninstall; then
  [ -f "$manifest" ] || fail 1 "nothing to uninstall: $manifest is missing (was taskwidget installed with --prefix $prefix?)"
  step "Uninstalling taskwidget from $prefix"
  units=()
  for relative in "${previous_files[@]}"; do
    [[ $relative == "$unit_dir"/* ]] && units+=("$relative")
  done
  manager=false
  if [ ${#units[@]} -gt 0 ] && user_manager_sees_units; then
    manager=true
    mapfile -t patterns < <(unit_patterns "${units[@]}")
    timeout 60 systemctl --user stop "${patterns[@]}" || true
    echo "  stopped    ${patterns[*]}"
  fi
  # `systemctl --user enable` and `link` linked the units from ~/.config: those links would
  # dangle, and a dangling `link` hid the same unit of another install (helper-121).
  for relative in "${units[@]}"; do
    for link in "$config_home"/systemd/user/*.wants/* "$config_home"/systemd/user/*.requires/*; do
      [ -L "$link" ] && [ "$(readlink -- "$link")" = "$prefix/$relative" ] || continue
      rm -f -- "$link"
      echo "  disabled   ${link#"$config_home"/systemd/user/}"
      rmdir -- "${link%/*}" 2>/dev/null || true
    done
    # `link` made one under the unit's name, and `enable` of a linked template's instance one
    # under the instance's (taskwidget-watch@tmux.service), which blocked the next install's
    # (helper-160).
    for link in "$config_home"/systemd/user/*; do
      [ -L "$link" ] && [ "$(readlink -- "$link")" = "$prefix/$relative" ] || continue
      rm -f -- "$link"
      echo "  unlinked   ${link#"$config_home"/systemd/user/}"
    done
  done
  for relative in "${previous_files[@]}"; do
    [ -e "$prefix/$relative" ] || [ -L "$prefix/$relative" ] || continue
    rm -f -- "$prefix/$relative" 2>/dev/null || fail 1 "cannot remove $prefix/$relative"
    echo "  removed    $relative"
  done
  rm -f -- "$manifest"
  # A folder that holds anything else (your store, another program's files) stays.
  while read -r dir; do
    [ -n "$dir" ] || continue
    if [ "$dir" = . ]; then folder=$prefix; else folder=$prefix/$dir; fi
    if rmdir -- "$folder" 2>/dev/null; then echo "  removed    ${folder#"$prefix"/}/"; fi
  done < <(printf '%s\n' "${!made_dirs[@]}" | deepest_first)
  if $manager; then
    systemctl --user daemon-reload && echo "  reloaded   systemctl --user daemon-reload"
  fi
  step "Uninstalled. Tasks, config and state (~/.local/share/taskwidget, ~/.config/taskwidget, ~/.local/state/taskwidget) are kept."
  exit 0
fi

# MARK: The programs

if [ -z "$binaries" ]; then
  cd "$repository"
  source scripts/lib/dependencies.sh
  ensure_dependencies || fail 1 "cannot install the Debian packages taskwidget needs (scripts/lib/dependencies.sh)"
  source scripts/lib/release_build.sh
  # Every executable product, so that a new program (taskwidget-sync) needs no change here.
  mapfile -t products < <(swift package describe --type json |
    python3 -c 'import json, sys; print("\n".join(p["name"] for p in json.load(sys.stdin)["products"] if "executable" in p["type"]))')
  [ ${#products[@]} -gt 0 ] || fail 1 "swift package describe lists no executable product"
  for index in "${!products[@]}"; do
    step "Building ${products[index]} ($((index + 1))/${#products[@]}): swift build -c release --static-swift-stdlib (scripts/lib/release_build.sh)"
    build_release "${products[index]}" ||
      fail 1 "building ${products[index]} failed (the compiler's messages are above)"
  done
  binaries=$repository/.build/release
else
  [ -d "$binaries" ] || fail 64 "--binaries $binaries is not a folder"
  binaries=$(realpath -- "$binaries")
  products=()
  for file in "$binaries"/taskwidget "$binaries"/taskwidget-*; do
    name=${file##*/}
    if [[ $name =~ ^taskwidget(-[a-z]+)?$ ]] && [ -f "$file" ] && [ -x "$file" ]; then products+=("$name"); fi
  done
  [ -x "$binaries/taskwidget" ] || fail 1 "$binaries has no taskwidget program"
  # taskwidget starts the others from its own folder: an install without one of them would fail
  # later, at its first `render`, `serve`, `notify` or `sync` (and a reinstall would remove it).
  missing=()
  while read -r product; do
    [[ " ${products[*]} " == *" $product "* ]] || missing+=("$product")
  done < <(sed -n 's/.*\.executable(name: "\([^"]*\)".*/\1/p' "$repository/Package.swift")
  missing=$(printf '%s, ' "${missing[@]}")
  [ "$missing" = ", " ] ||
    fail 1 "$binaries lacks ${missing%, }: build every program there (swift build -c release) or leave --binaries out"
fi
for product in "${products[@]}"; do
  [ -x "$binaries/$product" ] || fail 1 "$binaries/$product is missing"
done

staging=$(mktemp -d "${TMPDIR:-/tmp}/taskwidget-install.XXXXXX")
# A file being written when the install is stopped (Ctrl-C) is removed: it was left beside the
# file it would replace, where --uninstall does not look (helper-160).
pending=
trap 'rm -rf -- "$staging"; [ -z "$pending" ] || rm -f -- "$pending"' EXIT
# To the stderr saved here: the trap runs inside the command it stops, whose own stderr may be
# /dev/null (a copy in `put`), and the line was lost (helper-162).
exec 3>&2
trap 'echo "install.sh: interrupted: run it again to finish, or with --uninstall to remove what it put" >&3; exit 130' INT TERM
mkdir -p "$staging/man" "$staging/units"

# MARK: Man pages: argument-parser's generate-manual, the tool its generate-manual plugin runs. The
# plugin (`swift package generate-manual`) first builds every product again, in .build and without
# --static-swift-stdlib, then runs the tool on each; the tool alone only needs the programs (it
# reads their --experimental-dump-help). It is built from the package's own argument-parser
# checkout with a scratch folder of its own, so that it never waits for the package's build lock
# (held by `swift test` while the install test runs this script).

step "Making man pages with swift-argument-parser's generate-manual"
checkout=$repository/.build/checkouts/swift-argument-parser
man_made=true
if ! command -v swift >/dev/null 2>&1 || [ ! -f "$checkout/Package.swift" ]; then
  echo "  (none: they need swift and $checkout, which \`swift package resolve\` makes; an earlier install's stay)"
  products_with_pages=()
  man_made=false
else
  scratch=$repository/.build/install-tools
  # Built again only when the checkout moved (SwiftPM writes into ~/.cache and ~/.local/share/bin
  # each time it runs).
  source_commit=$(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo unknown)
  if [ ! -x "$scratch/debug/generate-manual" ] || [ "$(cat "$scratch/generate-manual.commit" 2>/dev/null)" != "$source_commit" ]; then
    swift build --package-path "$checkout" --scratch-path "$scratch" --product generate-manual ||
      fail 1 "building argument-parser's generate-manual failed (its messages are above)"
    echo "$source_commit" >"$scratch/generate-manual.commit"
  fi
  products_with_pages=("${products[@]}")
fi
# The date of the sources, so that installing the same sources again changes nothing.
date=$(git -C "$repository" log -1 --format=%cs 2>/dev/null || date +%F)
for product in "${products_with_pages[@]}"; do
  # Only the programs of argument-parser answer (taskwidget-render is a helper without options).
  timeout 10 "$binaries/$product" --experimental-dump-help </dev/null >/dev/null 2>&1 || continue
  output=$staging/manual-$product
  mkdir "$output"
  "$scratch/debug/generate-manual" "$binaries/$product" --date "$date" --output-directory "$output" ||
    fail 1 "generate-manual failed for $product"
  pages=("$output"/*.1)
  [ ${#pages[@]} -eq 1 ] || fail 1 "generate-manual made ${#pages[@]} pages for $product, not one"
  # Named after the program (the page of `taskwidget serve` is taskwidget-serve.1, as git's are);
  # the empty lines of the help's paragraphs become mdoc paragraphs, which groff does not warn about.
  sed 's/^$/.Pp/' "${pages[0]}" >"$staging/man/$product.1"
done
# Each page names the others (`man taskwidget` left serve, sync and notify to their --help), and
# says the exit statuses instead of "exits >0 if an error occurs"; with no hyphenation, names such
# as TASKWIDGET_LOG are not cut where a reader copies them (helper-140). groff's mdoc turns it on
# again at each section from doc-hyphen-flags, which `.nh` alone left on (helper-148).
for page in "$staging"/man/*.1; do
  see_also=()
  for other in "$staging"/man/*.1; do
    [ "$other" = "$page" ] || see_also+=("$(basename "$other" .1)")
  done
  {
    sed -e 's/^\.Os$/.Os\n.nr doc-hyphen-flags 0\n.nh/' \
      -e 's/^\.Ex -std$/Exits 0 on success, 64 for bad usage or input, 65 for bad data, 69 for a service that cannot be reached, 74 for I\/O and 75 for a failure a later try may fix./' "$page"
    # generate-manual ends its page without a line break.
    [ -z "$(tail -c1 "$page")" ] || echo
    if [ ${#see_also[@]} -gt 0 ]; then
      echo '.Sh "SEE ALSO"'
      for index in "${!see_also[@]}"; do
        [ "$index" -lt $((${#see_also[@]} - 1)) ] && echo ".Xr ${see_also[$index]} 1 ," || echo ".Xr ${see_also[$index]} 1"
      done
    fi
  } >"$page.new"
  mv "$page.new" "$page"
done

# MARK: Completions, from the program itself

step "Making bash, zsh and fish completions (taskwidget --generate-completion-script)"
for shell in bash zsh fish; do
  "$binaries/taskwidget" --generate-completion-script "$shell" >"$staging/taskwidget.$shell" ||
    fail 1 "taskwidget --generate-completion-script $shell failed"
done

# MARK: systemd user units: dist/systemd names the programs as %h/.local/bin/PROGRAM; each gets
# the prefix's bin folder instead (an absolute path, plain: see the prefix's check).

bin_for_units=$prefix/bin
units=()
for unit in "$repository"/dist/systemd/*.service "$repository"/dist/systemd/*.timer "$repository"/dist/systemd/*.socket "$repository"/dist/systemd/*.path; do
  text=$(<"$unit")
  printf '%s\n' "${text//"%h/.local/bin/"/"$bin_for_units/"}" >"$staging/units/${unit##*/}"
  units+=("${unit##*/}")
done

# MARK: Install

step "Installing into $prefix"
if [ ! -d "$prefix" ]; then
  [ -d "$(dirname "$prefix")" ] || fail 1 "cannot install into $prefix: its folder $(dirname "$prefix") does not exist"
  mkdir -- "$prefix" 2>/dev/null || fail 1 "cannot make the folder $prefix"
  made_dirs[.]=1
fi
[ -w "$prefix" ] || fail 1 "cannot write into $prefix (install with a prefix of yours, or as its owner)"

# Writes the manifest: the files in ARGUMENTS and the folders made. It is written after each file,
# with the earlier install's files too, so that an install cut short can still be uninstalled.
write_manifest() {
  make_dir share/taskwidget
  # Made 0755 by an install before this one (helper-127).
  [ -O "$prefix/share/taskwidget" ] && chmod 0700 "$prefix/share/taskwidget"
  pending=$manifest.install-tmp
  {
    echo "# What scripts/install.sh put into $prefix, for \`scripts/install.sh --prefix $prefix --uninstall\`."
    printf '%s\n' "$@" | sort -u | sed '/^$/d; s/^/file /'
    printf '%s\n' "${!made_dirs[@]}" | deepest_first | sed '/^$/d; s/^/dir /'
  } >"$pending" && mv -f -- "$pending" "$manifest" || fail 1 "cannot write $manifest"
  pending=
}

installed_files=()
changed=0
# Puts the bytes of SOURCE at PREFIX/RELATIVE with MODE through a rename, so that a running program
# or a reading shell never sees half a file; an identical file is left as it is.
put() {
  local source=$1 relative=$2 mode=$3 target=$prefix/$2 state=installed
  make_dir "${relative%/*}"
  if [ -f "$target" ]; then
    if cmp -s -- "$source" "$target" && [ "$(stat -c %a -- "$target")" = "${mode#0}" ]; then state=unchanged; else state=updated; fi
  fi
  if [ $state != unchanged ]; then
    pending=$target.install-tmp
    { cp -- "$source" "$pending" && chmod "$mode" "$pending" && mv -f -- "$pending" "$target"; } 2>/dev/null || fail 1 "cannot write $target"
    pending=
    changed=$((changed + 1))
  fi
  installed_files+=("$relative")
  write_manifest "${previous_files[@]}" "${installed_files[@]}"
  printf '  %-9s  %s\n' "$state" "$relative"
}

for product in "${products[@]}"; do put "$binaries/$product" "bin/$product" 0755; done
for page in "$staging"/man/*.1; do put "$page" "share/man/man1/${page##*/}" 0644; done
put "$staging/taskwidget.bash" share/bash-completion/completions/taskwidget 0644
put "$staging/taskwidget.zsh" share/zsh/site-functions/_taskwidget 0644
put "$staging/taskwidget.fish" share/fish/vendor_completions.d/taskwidget.fish 0644
for unit in "${units[@]}"; do put "$staging/units/$unit" "$unit_dir/$unit" 0644; done

# What an earlier install put there and this one does not (a program or unit since removed).
declare -A current=()
for relative in "${installed_files[@]}"; do current[$relative]=1; done
for relative in "${previous_files[@]}"; do
  [ -n "${current[$relative]:-}" ] && continue
  # Pages this install could not make are not retired: they were removed, "no longer
  # installed", by an update from a checkout without swift (helper-160).
  if ! $man_made && [[ $relative == share/man/man1/* ]] && [ -f "$prefix/$relative" ]; then
    installed_files+=("$relative")
    continue
  fi
  rm -f -- "$prefix/$relative" && echo "  removed    $relative (no longer installed)"
  changed=$((changed + 1))
done

write_manifest "${installed_files[@]}"

if [ $changed -gt 0 ] && user_manager_sees_units; then
  mapfile -t patterns < <(unit_patterns "${units[@]}")
  systemctl --user daemon-reload && echo "  reloaded   systemctl --user daemon-reload"
  # Running units go on with the new programs.
  timeout 60 systemctl --user try-restart "${patterns[@]}" && echo "  restarted  the running ones of ${patterns[*]}"
fi

# MARK: Where the shells, man and systemd look

version=$("$prefix/bin/taskwidget" --version)
step "Installed taskwidget $version into $prefix ($changed changed; ${manifest#"$prefix"/} lists what is there)"
notes=()
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *)
    if [ "$prefix" = "${HOME:-}/.local" ]; then
      notes+=("$prefix/bin is not on PATH yet: log in again (Debian's ~/.profile adds ~/.local/bin when it exists), or run: export PATH=\"\$HOME/.local/bin:\$PATH\"")
    else
      notes+=("$prefix/bin is not on PATH: add it, e.g. export PATH=\"$prefix/bin:\$PATH\" in ~/.profile")
    fi ;;
esac
case $prefix in
  "${HOME:-/nonexistent}/.local" | /usr/local | /usr) ;;
  *) notes+=("bash: source $prefix/share/bash-completion/completions/taskwidget from ~/.bashrc (bash-completion reads ~/.local/share and /usr/local/share only)") ;;
esac
case $prefix in
  /usr/local | /usr) ;;
  *) notes+=("zsh: add  fpath=($prefix/share/zsh/site-functions \$fpath)  before compinit in ~/.zshrc") ;;
esac
unit_paths=$(systemd-analyze --user unit-paths 2>/dev/null || true)
# The unit to enable: by name where systemd looks, else by path (enable links it first), which
# the note and the next step then agree on (helper-121).
notify_unit=taskwidget-notify.service
if [ -n "$unit_paths" ] && ! grep -qxF "$prefix/$unit_dir" <<<"$unit_paths"; then
  notify_unit=$prefix/$unit_dir/taskwidget-notify.service
  notes+=("systemd does not look in $prefix/$unit_dir: enable a unit by its path, as below, which links it")
fi
for note in "${notes[@]}"; do echo "Note: $note"; done
# The man page is named only when there is one.
next_steps="taskwidget ls, man taskwidget"
[ -f "$prefix/share/man/man1/taskwidget.1" ] || next_steps="taskwidget ls, taskwidget help add"
cat <<EOF
Next:
  taskwidget add "Try taskwidget" --due tomorrow      # then: $next_steps
  systemctl --user enable --now $notify_unit     # reminders as desktop notifications
Units in $prefix/$unit_dir: ${units[*]}
EOF
