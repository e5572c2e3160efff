# The release build of taskwidget's programs, for setup.sh, install.sh, compare.sh and the
# instruction budget. Sourced; run from the package's folder.
#
# The programs link the Swift runtime and Foundation statically (--static-swift-stdlib). The
# runtime is C++, and the toolchain's static-stdlib-args.lnk links it with `-lstdc++`, which the
# linker takes as the shared libstdc++.so. Loading that library and binding its symbols cost every
# start about a millisecond (an empty C program that loads it and libgcc_s: 1.6 M instructions
# more; `status` at 10k tasks: 41.4 → 39.5 M instructions). The linker takes the first libstdc++
# it finds on its search path, so a folder that holds only libstdc++.a, searched first, links it
# statically. All the C++ in a program (the Swift runtime, Foundation's ICU, TOMLKit's toml++) then
# uses that one copy, and no shared library the programs load uses C++ (Cairo, Pango and HarfBuzz
# do not load libstdc++), so a process has one copy.
#
# Every module, the dependencies' too, is compiled to reach the metadata of a generic type through
# its accessor, with the conformances its requirements need passed in, instead of by its mangled
# name (-disable-concrete-type-metadata-mangled-name-accessors). By name, the runtime looks each
# of those conformances up, and the first look-up of a type's conformance walks all of the
# program's conformance records (about 6 800 in taskwidget, about 230 k instructions): every new
# Dictionary or Set key type (ArgumentParser's, GRDB's, ours) and every option group's CodingKeys
# paid one. `status` at 10k tasks: 67 → 52 such look-ups, 39.5 → 33.3 M instructions, 8.0 → 6.9 ms.
# The binaries grow by 0.15 %.
metadata_access_flags=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)

# build_release PRODUCT [SWIFT-BUILD-ARGUMENTS…]: builds PRODUCT into .build/release.
# taskwidget-sync keeps the shared libstdc++: it loads it anyway (libxml2 → the system's ICU), and
# one copy in a process is simpler than two. taskwidget itself is linked as one static executable,
# the C library and SQLite too (-static-executable in Package.swift, where its cost is measured).
# For that link, the linker warns that the toolchain's Foundation and SQLite have calls (dlopen,
# getpwuid_r, getaddrinfo, …) that a static program can only make with this machine's C library;
# taskwidget makes none of them, so those warnings are left out of the build's output.
build_release() {
  local product=$1 flags=("${static_libstdcxx_flags[@]}")
  shift
  [ "$product" = taskwidget-sync ] && flags=()
  swift build -c release --static-swift-stdlib "${metadata_access_flags[@]}" "${flags[@]}" --product "$product" "$@" |
    { grep -v "warning: Using '[a-z_]*' in statically linked applications requires at runtime" || true; }
  return "${PIPESTATUS[0]}"
}

# Sets static_libstdcxx_flags to the linker flags that link libstdc++.a, or to none (with a
# warning) when the toolchain's C compiler does not know that file.
static_libstdcxx_flags=()
_static_libstdcxx_folder=.build/static-libstdc++
_static_libstdcxx=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
if [[ $_static_libstdcxx == /* && -f $_static_libstdcxx ]]; then
  mkdir -p "$_static_libstdcxx_folder"
  ln -sfn "$_static_libstdcxx" "$_static_libstdcxx_folder/libstdc++.a"
  static_libstdcxx_flags=(-Xlinker -L"$PWD/$_static_libstdcxx_folder")
else
  echo "taskwidget: libstdc++.a not found (install libstdc++-12-dev): linking the shared libstdc++, which starts slower" >&2
fi
unset _static_libstdcxx _static_libstdcxx_folder
