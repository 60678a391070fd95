import ChainTraceDefinitions

/// The lint's findings for the chain definition at `path` as a message, or `nil` when it is clean.
///
/// - Parameters:
///   - path: The chain definition file.
///   - allowingWarnings: Pass warnings (unreachable, shadowed, …) and fail on errors only.
public func verifyLintClean(definitionAt path: String, allowingWarnings: Bool = false) -> String? {
    let findings: [LintFinding]
    do {
        findings = try ChainDefinitionLinter.lint(path: path)
    } catch {
        return "Could not read the chain definition: \(error)"
    }
    let failing = findings.filter { $0.severity == .error || !allowingWarnings }
    guard !failing.isEmpty else { return nil }
    return "Expected \(path) to lint clean; \(failing.count) finding\(failing.count == 1 ? "" : "s"):\n"
        + failing.map { "  \($0)\n" }.joined()
}

/// Expects the chain definition at `path` to lint clean.
public func expectLintClean(
    definitionAt path: String,
    allowingWarnings: Bool = false,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    verifyLintClean(definitionAt: path, allowingWarnings: allowingWarnings).map {
        reportFailure($0, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
