import ChainTraceTestSupport
import Foundation
import Testing

/// The `ChainTrace` module's folders are layers, each using only those below it:
/// Clock ← Model ← Recording ← Chains, Instrumentation (the top two are siblings and do not use each other).
/// Read from the sources: a type declared in a folder may be named only in its own folder and the folders above.
@Suite("The core's folders are layers")
struct LayeringTests {
    static let layers: [(folder: String, mayUse: Set<String>)] = [
        ("Clock", []),
        ("Model", ["Clock"]),
        ("Recording", ["Clock", "Model"]),
        ("Chains", ["Clock", "Model", "Recording"]),
        ("Instrumentation", ["Clock", "Model", "Recording"]),
    ]

    static let root = BuiltProduct.packageRoot.appendingPathComponent("Sources/ChainTrace")

    /// The Swift files of `folder`, with their text less comments and string literals.
    static func sources(of folder: String) throws -> [(name: String, code: String)] {
        let directory = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { name in
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                let code =
                    text
                    .replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: #""(?:[^"\\\n]|\\.)*""#, with: "\"\"", options: .regularExpression)
                return (name, code)
            }
    }

    /// The types, type aliases, protocols and top-level functions a folder declares.
    static func declarations(in folder: String) throws -> Set<String> {
        var names: Set<String> = []
        for (_, code) in try sources(of: folder) {
            for match in code.matches(of: #/\b(?:class|struct|enum|protocol|typealias|actor)\s+([A-Z]\w*)/#) {
                names.insert(String(match.1))
            }
            for match in code.matches(of: #/(?m)^(?:(?:public|package|internal)\s+)?func\s+(\w+)/#) {
                names.insert(String(match.1))
            }
        }
        return names
    }

    @Test func everyFolderIsALayer() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .filter { !$0.hasSuffix(".docc") && !$0.hasPrefix(".") }
        #expect(
            Set(folders) == Set(Self.layers.map(\.folder)),
            "a folder that is not a layer: add it to the list above"
        )
    }

    @Test(arguments: layers.map(\.folder))
    func usesOnlyTheLayersBelow(folder: String) throws {
        let own = try Self.declarations(in: folder)
        let allowed = Self.layers.first { $0.folder == folder }!.mayUse
        var forbidden: [String: String] = [:]  // name → the folder declaring it
        for other in Self.layers.map(\.folder) where other != folder && !allowed.contains(other) {
            for name in try Self.declarations(in: other) where !own.contains(name) { forbidden[name] = other }
        }
        #expect(!forbidden.isEmpty, "the check found nothing to check")
        for (file, code) in try Self.sources(of: folder) {
            for (name, home) in forbidden.sorted(by: { $0.key < $1.key })
            where code.contains(try Regex("\\b\(name)\\b")) {
                Issue.record("\(folder)/\(file) names \(name), declared in \(home), a layer it may not use")
            }
        }
    }
}
