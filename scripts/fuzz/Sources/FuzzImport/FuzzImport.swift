import Foundation

/// libFuzzer's entry point: one input, any bytes, as an export file. A problem is a crash, so that
/// libFuzzer keeps the input (crash-…) and stops.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let problem = FuzzOracle.importProblem(Data(bytes: bytes, count: count)) {
        fatalError("import: \(problem)")
    }
    return 0
}
