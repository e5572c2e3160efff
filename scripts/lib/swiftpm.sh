# Sourced before any `swift build` or `swift test`. The XDG Base Directory spec reads an empty
# variable as unset, and so are these: SwiftPM stops at an empty XDG_CONFIG_HOME ("error: invalid
# absolute path ''"), and the compiler's Clang puts its module cache in the working directory (the
# repository) under an empty XDG_CACHE_HOME, as a folder `clang/ModuleCache`.
for variable in XDG_CONFIG_HOME XDG_CACHE_HOME; do
  if [ -n "${!variable+set}" ] && [ -z "${!variable}" ]; then unset "$variable"; fi
done
unset variable
