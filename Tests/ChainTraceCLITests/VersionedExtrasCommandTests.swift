import ChainTraceTestSupport
import Foundation
import Testing

/// A log whose traces carry a member their version does not define is refused by every command that reads logs,
/// at file:line:column, naming the member.
@Suite("Version 3 members in a version 2 log")
struct VersionedExtrasCommandTests {
    static let log = """
        {"format":"chaintrace-trace-log","version":2}
        {"names":["c","K","A","B"]}
        [1,0,100,0,1,1,2,0,[8,50,0,50,12,50,0,0],{"parents":[0,1]}]

        """

    @Test(arguments: [["stats"], ["export", "--to", "chrome"], ["diff"], ["report", "-o", "/dev/null"]])
    func everyLogCommandRefusesParentsInAVersion2Log(command: [String]) throws {
        let path = TestFiles.directory.appendingPathComponent("v2-parents-\(command[0])-\(getpid()).jsonl").path
        try Self.log.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = command[0] == "diff" ? ["diff", path, path] : [command[0], path] + command.dropFirst()
        let run = try CLI.run(arguments)
        #expect(run.status == 2, "\(command): \(run.standardError)")
        #expect(
            run.standardError.contains("\(path):3:53:") && run.standardError.contains("the member \"parents\""),
            "\(run.standardError)"
        )
    }
}
