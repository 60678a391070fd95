import Testing
import XCTest

/// Reports an assertion failure where the caller's test framework expects it: an issue at the caller's source
/// location under Swift Testing, an `XCTFail` at the caller's file and line under XCTest. Every assertion of
/// this module goes through here, so both frameworks get the same messages from one implementation.
func reportFailure(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: String(describing: fileID),
                filePath: String(describing: filePath),
                line: Int(line),
                column: Int(column)
            )
        )
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
