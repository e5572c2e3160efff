/// Secret comparison whose running time does not depend on where two byte strings first differ.
///
/// A plain `==` on `String` or `[UInt8]` returns at the first differing byte, so the time it takes
/// tells an attacker how long a prefix of the token they have guessed right (a timing oracle). This
/// loop always walks the whole *secret*, ORs the XOR of every byte pair into one accumulator and
/// branches only once, at the end. The candidate's length is folded into the same accumulator; the
/// loop's length depends on the secret's length only (which is not secret: tokens have a fixed
/// documented length).
///
/// ```swift
/// ConstantTime.equals(Array("s3cret".utf8), Array(presented.utf8))  // true only for "s3cret"
/// ```
public enum ConstantTime {
    /// Whether `candidate` equals `secret`, in time that depends on `secret.count` only.
    @inline(never)
    public static func equals(_ secret: some Collection<UInt8>, _ candidate: some Collection<UInt8>) -> Bool {
        let secretBytes = Array(secret)
        let candidateBytes = Array(candidate)
        // Lengths differ → non-zero; still walk the whole secret.
        var difference = UInt64(truncatingIfNeeded: secretBytes.count ^ candidateBytes.count)
        candidateBytes.withUnsafeBufferPointer { given in
            secretBytes.withUnsafeBufferPointer { expected in
                for index in 0..<expected.count {
                    // The branch depends on the attacker's own input (its length), never on the secret.
                    let other: UInt8 = index < given.count ? given[index] : 0
                    difference |= UInt64(expected[index] ^ other)
                }
            }
        }
        return difference == 0
    }

    /// Whether `candidate` equals any of `secrets`; every secret is compared, with no early exit.
    public static func equalsAny(_ secrets: [[UInt8]], _ candidate: some Collection<UInt8>) -> Bool {
        let candidateBytes = Array(candidate)
        var found: UInt8 = 0
        for secret in secrets {
            // No `||` and no early return: the number of comparisons is fixed.
            found |= equals(secret, candidateBytes) ? 1 : 0
        }
        return found != 0
    }
}
