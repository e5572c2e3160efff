import Foundation

/// libFuzzer's entry point: the first byte picks a zone, the next four a now, the rest is the text
/// read as WHEN (due and reminder) and as --now. A problem is a crash, so that libFuzzer keeps it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWhen(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let problem = FuzzOracle.whenProblem(Data(bytes: bytes, count: count)) {
        fatalError("when: \(problem)")
    }
    return 0
}
