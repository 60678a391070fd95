import ChainTraceTestSupport
import Foundation
import Testing

@Suite("chaintrace render")
struct RenderCommandTests {
    static let graphvizFixtures = "Docs/examples"
    static let definition = "\(graphvizFixtures)/editor.chain.json"
    static let before = "\(graphvizFixtures)/editor-before.traces.jsonl"
    static let after = "\(graphvizFixtures)/editor-after.traces.jsonl"

    @Test func withoutOutputFileDOTGoesToStandardOutput() throws {
        let output = try CLI.run("render", Self.definition)
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("digraph chaintrace {"))
        #expect(output.standardOutput.contains("<b>Chain editor</b>"))
        #expect(output.standardError.isEmpty)
    }

    @Test func theFileExtensionChoosesTheFormat() throws {
        let directory = try CLI.temporaryDirectory()
        for (name, signature) in [
            ("chain.svg", Array("<?xml".utf8)), ("chain.png", [0x89, 0x50, 0x4E, 0x47]),
            ("chain.pdf", Array("%PDF-".utf8)),
        ] {
            let file = directory.appendingPathComponent(name).path
            let output = try CLI.run("render", Self.definition, "--trace", Self.before, "-o", file)
            #expect(output.status == 0, "\(output.standardError)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(Array(bytes.prefix(signature.count)) == signature)
        }
    }

    /// Every kind of diagram written to a file says what it drew, on standard error; to standard output, nothing.
    @Test func aDiagramWrittenToAFileSaysWhatItDrew() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("drawn.dot").path
        let drawings: [([String], String)] = [
            ([Self.definition], "the structure of editor, 9 handlers"),
            ([Self.definition, "--trace", Self.after, "--command", "e7"], "the path of command e7, "),
            (["--trace", Self.after, "--command", "1"], "the path of command "),
            ([Self.definition, "--trace", Self.after], "traces from 1 file"),
            ([Self.definition, "--trace", Self.before, "--diff", Self.after], "traces from 1 file → "),
        ]
        for (arguments, said) in drawings {
            let written = try CLI.run(["render"] + arguments + ["-o", file])
            let line = written.standardError
            #expect(
                written.status == 0 && line.hasPrefix("Wrote \(file): ") && line.contains(said),
                "\(arguments): \(line)"
            )
            let printed = try CLI.run(["render"] + arguments)
            #expect(printed.status == 0 && printed.standardError.isEmpty, "\(arguments): \(printed.standardError)")
        }
    }

    @Test func commandPathByIdOrNumberAndProfileAndDiffAreDrawn() throws {
        let path = try CLI.run("render", Self.definition, "--trace", Self.after, "--command", "e7")
        #expect(path.status == 0)
        #expect(path.standardOutput.contains("error: window is gone"))
        let byNumber = try CLI.run("render", Self.definition, "--trace", Self.after, "--command", "7")
        #expect(byNumber.standardOutput == path.standardOutput)
        let profile = try CLI.run("render", "--trace", Self.before, "--slow", "share>40%")
        #expect(profile.status == 0)
        #expect(profile.standardOutput.contains("slow when share of chain time &gt; 40%"))
        let diff = try CLI.run(
            "render",
            Self.definition,
            "--trace",
            Self.before,
            "--diff",
            Self.after,
            "--format",
            "dot"
        )
        #expect(diff.status == 0)
        #expect(diff.standardOutput.contains("<b>Difference in editor</b>"))
        #expect(diff.standardOutput.contains("<i>slower</i>"))
    }

    @Test func withoutGraphvizsPluginConfigurationTheStandardPluginsAreLoadedDirectly() throws {
        // GVBINDIR pointing at an empty directory hides the plugin configuration, as on a machine where the
        // package's configuration step never ran; libgvc alone would fail with `Layout type: "dot" not recognized`.
        let empty = try CLI.temporaryDirectory()
        let hidden = try CLI.binary.run(
            ["render", Self.definition, "--format", "svg"],
            extraEnvironment: ["GVBINDIR": empty.path]
        )
        #expect(hidden.status == 0, "\(hidden.standardError)")
        let normal = try CLI.run("render", Self.definition, "--format", "svg")
        #expect(hidden.standardOutput == normal.standardOutput)
    }

    @Test func focusAndIgnoreCutTheDiagram() throws {
        let output = try CLI.run("render", Self.definition, "--focus", "Window", "--ignore", "AppDelegate")
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("<b>Search</b>"))
        #expect(!output.standardOutput.contains("<b>Cell</b>"))
        #expect(!output.standardOutput.contains("<b>AppDelegate</b>"))
    }

    /// A handler whose name has commas in it is focused or left out by its whole name; other values are lists.
    @Test func aNameWithCommasIsTakenWholeAndOthersAsLists() throws {
        let directory = try CLI.temporaryDirectory()
        let definition = try CLI.write(
            Array(
                #"{"chain":"c","handlers":[{"name":"Cart, Checkout","accepts":{"kind":"Buy"},"next":"Pay"},{"name":"Pay","accepts":{"kind":"Pay"},"next":"Ship"},{"name":"Ship","accepts":{"kind":"Ship"}}]}"#
                    .utf8
            ),
            named: "commas.chain.json",
            in: directory
        )
        let whole = try CLI.run("render", definition, "--ignore", "Cart, Checkout")
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(!whole.standardOutput.contains("Cart, Checkout") && whole.standardOutput.contains("<b>Pay</b>"))
        let list = try CLI.run("render", definition, "--ignore", "Pay, Ship")
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("<b>Cart, Checkout</b>") && !list.standardOutput.contains("<b>Ship</b>"))
        let focused = try CLI.run("render", definition, "--focus", "Cart, Checkout", "--focus", "Ship")
        #expect(focused.status == 0, "\(focused.standardError)")
        let half = try CLI.run("render", definition, "--ignore", "Cart")
        #expect(half.status == 2)
        #expect(half.standardError.contains("--ignore: no handler named \"Cart\""), "\(half.standardError)")
    }

    @Test func badInputsExitWithTwoAndAMessageAndLeaveNoFile() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("out.svg").path
        let unknownCommand = try CLI.run(
            "render",
            Self.definition,
            "--trace",
            Self.after,
            "--command",
            "nope",
            "-o",
            file
        )
        #expect(unknownCommand.status == 2)
        #expect(unknownCommand.standardError.contains("no command with id \"nope\""))
        let unknownFocus = try CLI.run("render", Self.definition, "--focus", "Windw", "-o", file)
        #expect(unknownFocus.status == 2)
        #expect(unknownFocus.standardError.contains("--focus: no handler named \"Windw\""))
        let badDefinition = try CLI.run("render", CLI.fixture("unknown-names.chain.json"), "-o", file)
        #expect(badDefinition.status == 2)
        #expect(badDefinition.standardError.contains("unknown-names.chain.json:"))
        let badExtension = try CLI.run(
            "render",
            Self.definition,
            "-o",
            directory.appendingPathComponent("out.jpeg").path
        )
        #expect(badExtension.status == 2)
        #expect(badExtension.standardError.contains("name it .dot, .svg, .png or .pdf"))
        let nothing = try CLI.run("render")
        #expect(nothing.status == 2)
        #expect(nothing.standardError.contains("give a chain definition, a trace log (--trace), or both"))
        let badRule = try CLI.run("render", Self.definition, "--trace", Self.before, "--slow", "p95>fast")
        #expect(badRule.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
