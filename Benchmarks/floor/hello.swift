// The floor of a Swift program's start-up with Foundation, for scripts/compare.sh: built once with
// the Swift runtime and Foundation linked in (-static-stdlib), as taskwidget is, and once against
// the shared libraries.
import Foundation

print("Hello from \(ProcessInfo.processInfo.processName)")
