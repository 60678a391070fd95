#if !Hummingbird
    import Testing

    /// Without the `Hummingbird` trait this target holds no Hummingbird tests: `Scripts/test-integrations.sh` runs
    /// them with the trait enabled.
    @Suite("Hummingbird integration without its trait")
    struct HummingbirdTraitTests {
        @Test("the integration's tests run only with the trait")
        func integrationNeedsTheTrait() {
            #expect(Bool(true), "enable the Hummingbird trait to build ChainTraceHummingbird")
        }
    }
#endif
