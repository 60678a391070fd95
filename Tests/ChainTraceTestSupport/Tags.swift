public import Testing

extension Tag {
    /// Suites whose tests record from several threads or tasks at once: `Scripts/test-sanitized.sh` runs them
    /// again under ThreadSanitizer (`swift test --filter tag:concurrent`). `ConcurrentSuitesAreTaggedTests` finds a
    /// suite that starts threads or tasks without the tag.
    @Tag public static var concurrent: Self
}
