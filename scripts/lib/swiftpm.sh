# Sourced before any `swift build` or `swift test`. SwiftPM stops at an empty XDG_CONFIG_HOME
# ("error: invalid absolute path ''"), where the XDG Base Directory spec reads an empty value as
# unset: so it is unset.
if [ -n "${XDG_CONFIG_HOME+set}" ] && [ -z "$XDG_CONFIG_HOME" ]; then unset XDG_CONFIG_HOME; fi
