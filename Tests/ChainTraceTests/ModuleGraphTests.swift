import ChainTraceTestSupport
import Foundation
import Testing

/// The package's modules are layers too, data flowing one way: each module imports only the modules below it,
/// read from its sources' import lines (`@_exported` and `@_spi` imports included). A new module, or a new import
/// across the layers, fails here until this map says where it stands.
@Suite("Modules import only the layers below them")
struct ModuleGraphTests {
    /// System modules any layer may use (`Swift`: the standard library, imported by name for its reflection SPI).
    static let system: Set<String> = ["Swift", "Darwin", "Glibc", "Musl", "Dispatch", "Synchronization"]

    /// What each module may import besides `system`.
    static let allowed: [String: Set<String>] = [
        "CChainTraceSupport": [],
        "CGraphviz": [],
        "CZlib": [],
        "ChainTraceFastPath": ["CChainTraceSupport"],
        "ChainTraceJSON": ["CChainTraceSupport", "ChainTraceFastPath"],
        "ChainTraceFiles": ["CChainTraceSupport", "CZlib", "ChainTraceFastPath", "ChainTraceJSON"],
        // The core: failure texts read `LocalizedError` (Foundation's essentials where there are only those).
        "ChainTrace": [
            "CChainTraceSupport", "ChainTraceFastPath", "ChainTraceJSON", "Foundation", "FoundationEssentials",
        ],
        "ChainTraceTraceLog": ["ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles"],
        "ChainTraceDefinitions": ["ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles"],
        "ChainTraceAnalysis": [
            "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
            "ChainTraceDefinitions", "Histogram",
        ],
        "ChainTraceReplay": [
            "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
            "ChainTraceDefinitions", "ChainTraceAnalysis",
        ],
        // Light enough for any test target: no histogram, no trace logs, no replay.
        "ChainTraceTesting": ["ChainTrace", "ChainTraceJSON", "ChainTraceDefinitions", "Testing", "XCTest"],
        "ChainTraceTestGeneration": ["ChainTrace", "ChainTraceJSON"],
        "ChainTraceDistributedTracing": ["ChainTrace", "ChainTraceFastPath", "Tracing"],
        "ChainTraceLogging": ["ChainTrace", "ChainTraceJSON", "Logging"],
        // Framework integrations: the core and their framework (built only with the framework's trait).
        "ChainTraceHummingbird": [
            "ChainTrace", "Hummingbird", "HummingbirdRouter", "HTTPTypes", "Logging", "Tracing",
            "ChainTraceDistributedTracing",
        ],
        "ChainTraceVapor": [
            "ChainTrace", "Vapor", "NIOConcurrencyHelpers", "NIOCore", "Tracing", "ChainTraceDistributedTracing",
        ],
        "ChainTraceGRPC": [
            "ChainTrace", "ChainTraceFastPath", "GRPCCore", "Tracing", "ChainTraceDistributedTracing",
        ],
        "ChainTraceNIO": ["ChainTrace", "ChainTraceFastPath", "NIOCore"],
        "ChainTraceGraphviz": [
            "CGraphviz", "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog",
            "ChainTraceDefinitions", "ChainTraceAnalysis",
        ],
        "ChainTraceReport": [
            "ChainTrace", "ChainTraceJSON", "ChainTraceFiles", "ChainTraceTraceLog", "ChainTraceAnalysis",
            "ChainTraceGraphviz",
        ],
        // The command line: every library, and the argument parser.
        "ChainTraceCLI": [
            "ArgumentParser", "CChainTraceSupport", "ChainTrace", "ChainTraceFastPath", "ChainTraceJSON",
            "ChainTraceFiles",
            "ChainTraceTraceLog", "ChainTraceDefinitions", "ChainTraceAnalysis", "ChainTraceReplay",
            "ChainTraceGraphviz",
            "ChainTraceReport", "ChainTraceTestGeneration",
        ],
        "chaintrace": ["ChainTraceCLI"],
    ]

    static let sources = BuiltProduct.packageRoot.appendingPathComponent("Sources")

    /// The modules `module`'s Swift files import, by file.
    static func imports(of module: String) throws -> [(file: String, module: String)] {
        let folder = sources.appendingPathComponent(module)
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(String, String)] = []
        let line =
            #/(?m)^[ \t]*(?:@_exported\s+|@_spi\(\w+\)\s+|@preconcurrency\s+)*(?:public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)?import\s+(?:struct\s+|enum\s+|class\s+|protocol\s+|func\s+|typealias\s+)?(\w+)/#
        // Imports start their line, indented inside `#if` blocks; those in multi-line string literals (the code
        // `gen-tests` writes) are not the module's: the literals are cut out first.
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let code = text.components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                .joined(separator: "\n")
            for match in code.matches(of: line) { found.append((file, String(match.1))) }
        }
        return found
    }

    @Test func everyModuleIsPlaced() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(
            Set(modules) == Set(Self.allowed.keys),
            "a module this map does not place: add it with what it may import"
        )
    }

    @Test(arguments: allowed.keys.sorted())
    func importsOnlyTheLayersBelow(module: String) throws {
        let allowed = Self.allowed[module]!.union(Self.system)
        for (file, imported) in try Self.imports(of: module) where imported != module && !allowed.contains(imported) {
            Issue.record("\(module)/\(file) imports \(imported), which \(module) may not use")
        }
    }

    /// The map itself flows one way: no two modules may each import the other, directly or through others.
    @Test func theMapHasNoCycle() {
        func reaches(_ from: String, _ target: String, _ seen: inout Set<String>) -> Bool {
            for next in Self.allowed[from] ?? [] where seen.insert(next).inserted {
                if next == target || reaches(next, target, &seen) { return true }
            }
            return false
        }
        for module in Self.allowed.keys {
            var seen: Set<String> = []
            #expect(!reaches(module, module, &seen), "\(module) can reach itself")
        }
    }
}

/// A test target imports only what it depends on in Package.swift: a module reached only because the build happened
/// to make it first (as a plain `swift test` does) is missing from a clean build in another order (the sanitizers').
@Suite("Test targets import only what they depend on")
struct TestTargetImportTests {
    /// What a target may import besides its dependencies.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Darwin", "Musl", "Synchronization", "Testing",
        "XCTest",
    ]

    /// Each target's dependencies (targets and products) and its folder, read from Package.swift.
    static func targets() throws -> [String: (dependencies: Set<String>, path: String)] {
        let manifest = try String(
            contentsOf: BuiltProduct.packageRoot.appendingPathComponent("Package.swift"),
            encoding: .utf8
        )
        var result: [String: (Set<String>, String)] = [:]
        let declarations = manifest.components(separatedBy: "\n        .").dropFirst()
        for declaration in declarations where declaration.hasPrefix("testTarget(") || declaration.hasPrefix("target(") {
            guard let name = declaration.firstMatch(of: #/name: "([^"]+)"/#)?.1 else { continue }
            var dependencies: Set<String> = []
            if let start = declaration.range(of: "dependencies: [") {
                // The list up to its closing bracket: brackets nest (`condition: .when(traits: ["…"])`).
                var depth = 1
                var end = start.upperBound
                while end < declaration.endIndex, depth > 0 {
                    if declaration[end] == "[" { depth += 1 } else if declaration[end] == "]" { depth -= 1 }
                    end = declaration.index(after: end)
                }
                let list = declaration[start.upperBound..<end]
                // A product's name, or a target's; not the traits a dependency is conditioned on.
                let withoutConditions = list.replacing(#/condition: \.when\(traits: \[[^\]]*\]\)/#, with: "")
                dependencies = Set(withoutConditions.matches(of: #/"([^"]+)"/#).map { String($0.1) })
            }
            let kind = declaration.hasPrefix("testTarget(") ? "Tests" : "Sources"
            let path = declaration.firstMatch(of: #/path: "([^"]+)"/#).map { String($0.1) } ?? "\(kind)/\(name)"
            result[String(name)] = (dependencies, path)
        }
        return result
    }

    @Test func everyTestTargetImportsOnlyItsDependencies() throws {
        let targets = try Self.targets()
        let root = BuiltProduct.packageRoot
        var checked = 0
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) where target.path.hasPrefix("Tests/") {
            let folder = root.appendingPathComponent(target.path)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            let allowed = target.dependencies.union(Self.system).union([name])
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let imports = text.matches(of: #/(?m)^(?:@testable |@_spi\(\w+\) |public |package )*import (\w+)/#)
                for imported in imports.map({ String($0.1) }) where !allowed.contains(imported) {
                    Issue.record(
                        "\(target.path)/\(file) imports \(imported), which \(name) does not depend on in Package.swift"
                    )
                }
            }
            checked += 1
        }
        #expect(checked >= 15, "the manifest gave \(checked) test targets")
    }
}
