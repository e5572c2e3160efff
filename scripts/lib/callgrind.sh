# Counting instructions with callgrind, for scripts/compare.sh and scripts/bench/instruction_budget.sh.
# Sourced. valgrind 3.19 cannot read the DWARF of Swift 6.3: count stripped copies of our programs.

# callgrind_instructions WORK_DIR COMMAND [ARGUMENTS…]: prints how many instructions COMMAND and
# the processes it starts executed in all. Its output is dropped; valgrind's messages go to
# WORK_DIR/callgrind-N.log and are shown when it fails.
callgrind_instructions() {
  local work=$1 out
  shift
  out=$(mktemp -d "$work/callgrind-XXXXXX")
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out/%p" "$@" >/dev/null 2>"$out.log" ||
    { cat "$out.log" >&2; return 1; }
  cat "$out"/* | awk '/^totals:/ { total += $2 } END { printf "%d\n", total }'
}
