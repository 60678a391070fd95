#if GRPC
    @testable import ChainTraceGRPC
    import ChainTraceTestSupport
    import GRPCCore
    import Testing

    @Suite("A thread's kept method names are the names made anew, for any order of methods", .tags(.concurrent))
    struct MethodNameCacheTests {
        /// Descriptors of `count` methods of a few services, each made of strings built at run time (not literals), so
        /// that equal ones do not share storage; many share their service or their method's name, a few differ only in
        /// their RPC type.
        static func descriptors(_ count: Int, _ random: inout SeededGenerator) -> [MethodDescriptor] {
            (0..<count).map { index in
                let service = "pkg\(random.next() % 2).Service\(random.next() % 3)"
                let method = index % 5 == 4 ? "M" : "Method\(random.next() % 7)é"
                let type = MethodDescriptor.RPCType.allCases.randomElement(using: &random)
                return MethodDescriptor(
                    fullyQualifiedService: String(service.utf8.map { Character(UnicodeScalar($0)) }),
                    method: method,
                    type: random.next() % 4 == 0 ? nil : type
                )
            }
        }

        @Test(arguments: SeededGenerator.seeds(30))
        func keptNamesAreTheNamesMadeAnew(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            // Fewer methods than the cache keeps, or more: then they replace each other in turn.
            let pool = Self.descriptors(Int.random(in: 1...(MethodNameCache.capacity * 3), using: &random), &random)
            let cache = MethodNameCache()
            for _ in 0..<400 {
                let descriptor = pool.randomElement(using: &random)!
                let kept = cache.names(of: descriptor)
                #expect(kept.method == descriptor.fullyQualifiedMethod)
                #expect(kept.call == descriptor.fullyQualifiedMethod + " (call)")
                #expect(kept.stream == descriptor.fullyQualifiedMethod + " stream")
            }
        }

        @Test("Each thread keeps its own names, and every thread's are right")
        func threadsKeepTheirOwn() async {
            var random = SeededGenerator(seed: 7)
            let pool = Self.descriptors(MethodNameCache.capacity + 5, &random)
            await withTaskGroup(of: Bool.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        (0..<2_000).allSatisfy { step in
                            let descriptor = pool[(worker * 7 + step * (worker + 1)) % pool.count]
                            return MethodNames.of(descriptor).method == descriptor.fullyQualifiedMethod
                        }
                    }
                }
                for await allRight in group { #expect(allRight) }
            }
        }
    }
#endif
