/// Arithmetic on numbers read from files: it saturates at the type's bounds instead of trapping.
///
/// Trace logs and definitions are data: a hop may claim `"selfNs": 9223372036854775807`, and a sum or a
/// conversion of such numbers must give the nearest representable value, never stop the process. Every reader,
/// analysis, export and renderer goes through these helpers where a value from a file meets arithmetic.
extension Int64 {
    /// `value` rounded to the nearest integer, clamped to `Int64`'s range; NaN is 0.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value.rounded())
        }
    }

    /// `value`, or `Int64.max` when it is larger.
    @inlinable
    package init(saturating value: UInt64) {
        self = value > UInt64(Int64.max) ? .max : Int64(value)
    }

    /// `self + other`, clamped to `Int64`'s range.
    @inlinable
    package func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to `Int64`'s range.
    @inlinable
    package func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}

extension UInt64 {
    /// `self + other`, or `UInt64.max` when the sum does not fit.
    @inlinable
    package func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// `self - other`, or 0 when `other` is larger.
    @inlinable
    package func saturatingSubtract(_ other: UInt64) -> UInt64 {
        other > self ? 0 : self - other
    }

    /// `value` rounded, clamped to `UInt64`'s range; NaN and negatives are 0.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN || value <= 0 {
            self = 0
        } else if value >= 18_446_744_073_709_551_615.0 {
            self = .max
        } else {
            self = UInt64(value.rounded())
        }
    }
}

extension Int {
    /// `value`, or `Int.max` when it is larger.
    @inlinable
    package init(saturating value: UInt64) {
        self = value > UInt64(Int.max) ? .max : Int(value)
    }

    /// `value` rounded, clamped to `Int`'s range; NaN is 0.
    @inlinable
    package init(saturating value: Double) {
        self = Int(truncatingIfNeeded: Int64(saturating: value))
    }
}

extension Int {
    /// `self + other`, clamped to `Int`'s range (counts of traces, drops and hops read from files).
    @inlinable
    package func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }
}
