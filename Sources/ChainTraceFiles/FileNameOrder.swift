import ChainTraceJSON

/// The order the files of a log are read in when a directory or a pattern names them: by name, with each run of
/// decimal digits compared by its value — `traces-9999.jsonl` before `traces-10000.jsonl`, which a rotating
/// `TraceLogSink` writes after it (its numbers have four digits up to 9 999, then as many as they need). Plain
/// name order read that file first, putting a long-running log's newest traces before its oldest.
///
/// A total order: names equal but for leading zeros (`a-01`, `a-1`) or anything else fall back to byte order.
package enum FileNameOrder {
    /// `names` in this order.
    package static func sorted(_ names: [String]) -> [String] {
        names.sorted(by: precedes)
    }

    /// Whether `a` comes before `b`.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var i = 0
        var j = 0
        while i < left.count, j < right.count {
            if isDigit(left[i]), isDigit(right[j]) {
                let leftRun = digitRun(left, from: i)
                let rightRun = digitRun(right, from: j)
                if let order = compareValues(
                    left[leftRun.significant..<leftRun.end],
                    right[rightRun.significant..<rightRun.end]
                ) {
                    return order
                }
                i = leftRun.end
                j = rightRun.end
            } else {
                if left[i] != right[j] { return left[i] < right[j] }
                i += 1
                j += 1
            }
        }
        if i < left.count || j < right.count { return j < right.count }
        // Equal by value everywhere (leading zeros aside): byte order decides.
        return left.lexicographicallyPrecedes(right)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Where the run of digits from `start` ends, and where its first digit other than a leading zero is (its
    /// end when the run is all zeros).
    private static func digitRun(_ bytes: [UInt8], from start: Int) -> (significant: Int, end: Int) {
        var end = start
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        var significant = start
        while significant < end, bytes[significant] == UInt8(ascii: "0") { significant += 1 }
        return (significant, end)
    }

    /// Whether the number written by `a` is below `b`'s (digits without leading zeros, of any length — no
    /// overflow); `nil` when they are equal.
    private static func compareValues(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool? {
        if a.count != b.count { return a.count < b.count }
        for (x, y) in zip(a, b) where x != y { return x < y }
        return nil
    }
}
