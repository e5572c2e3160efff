/// `count` and the noun for that many in English: `1 task`, `0 tasks`, `3 lists`. `noun` is the
/// singular, and takes an `s` for any other count.
public func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
