// swift-format-ignore-file
// (Each `// doc:` block is compared line by line with the Markdown that shows it: kept as the docs show it.)
// doc: formats-imports
import ChainTrace
import ChainTraceTraceLog
// end
import ChainTraceDefinitions
import ChainTraceAnalysis
import ChainTraceGraphviz
import ChainTraceReport
import ChainTraceLogging
import ChainTraceDistributedTracing
import InMemoryTracing
import Logging
import Tracing
import ChainTraceTesting
import ChainTraceTestSupport
import Foundation
import Testing

// Every ```swift block in README.md and Docs/ is copied from this file, and
// `DocumentationSnippetTests` fails when one is not. Keep the blocks between the `// doc:` markers exactly as
// the docs show them.

struct Coin: Codable, Sendable {
    var diameter: Double
    var weight: Double
}

protocol CoinHandler: AnyObject {
    var next: (any CoinHandler)? { get set }
    func handle(_ coin: Coin) -> String?
}

final class Validator: CoinHandler {
    var next: (any CoinHandler)?
    let name: String
    let diameter: Double
    init(_ name: String, diameter: Double) {
        self.name = name
        self.diameter = diameter
    }
    func matches(_ coin: Coin) -> Bool { abs(coin.diameter - diameter) < 0.5 }

    // doc: instrument-sync
    func handle(_ coin: Coin) -> String? {
        traceHop(name, command: coin, chain: "coins") {  // the one added line
            guard matches(coin) else { return next?.handle(coin) }
            return name
        }
    }
    // end
}

struct AuditEntry: Sendable {
    var diameter: Double
    init(_ coin: Coin) { diameter = coin.diameter }
}

/// The audit log a validator writes to while it handles a coin: a chain of its own (one handler here).
final class AuditLog: Sendable {
    @discardableResult
    func handle(_ entry: AuditEntry) -> Bool {
        traceHop("AuditLog", command: entry, chain: "audit") { true }
    }
}

/// A validator that writes to the audit log first: a side call into another chain.
final class AuditedValidator: CoinHandler {
    var next: (any CoinHandler)?
    let name: String
    let diameter: Double
    let audit = AuditLog()
    init(_ name: String, diameter: Double) {
        self.name = name
        self.diameter = diameter
    }
    func matches(_ coin: Coin) -> Bool { abs(coin.diameter - diameter) < 0.5 }

    func handle(_ coin: Coin) -> String? {
        // doc: side-call
        traceHop(name, command: coin, chain: "coins") {
            audit.handle(AuditEntry(coin))          // a trace of "audit", not hops of this one
            guard matches(coin) else { return next?.handle(coin) }
            return name
        }
        // end
    }
}

/// An action sent up a responder chain, and a responder of it.
struct Action: Codable, Sendable {
    var name: String
}

protocol Responder: AnyObject {
    func handle(_ action: Action) -> Bool
}

/// A screen: takes the actions it knows.
final class Screen: Responder {
    let name: String
    let actions: Set<String>
    init(_ name: String, actions: Set<String>) {
        self.name = name
        self.actions = actions
    }
    func handle(_ action: Action) -> Bool {
        // `false`: not this screen's action, which goes on to the next.
        traceHop(name, command: action, chain: "editor", decide: { $0 ? nil : .passed }) { actions.contains(action.name) }
    }
}

/// A registry of late responders up the chain: the screens registered by weight, asked before the command goes on.
final class ScreenRegistry: Responder {
    var screens: [Screen] = []  // highest weight first
    var next: (any Responder)?

    // doc: registry-members
    func handle(_ action: Action) -> Bool {
        traceHop("Screens", command: action, chain: "editor") {
            let taken = traceRegistryMembers { screens.contains { $0.handle(action) } }  // members, by weight
            return taken || (next?.handle(action) ?? false)                             // not a member
        }
    }
    // end
}

/// A registry whose internal chain is linked: it hands the action to its first late responder, each of which
/// calls the next, the last handing it back for the registry's own next.
final class LinkedScreenRegistry: Responder {
    let name = "Screens"
    var first: (any Responder)?
    var next: (any Responder)?
    func handle(_ action: Action) -> Bool {
        traceHop(name, command: action, chain: "editor", decide: { $0 ? nil : .passed }) {
            (first?.handle(action) ?? false) || (next?.handle(action) ?? false)
        }
    }
}

/// A late responder that knows its registry (not owning it: the registry holds its members), linked to the next one.
final class LateScreen: Responder {
    let name: String
    let actions: Set<String>
    unowned let registry: LinkedScreenRegistry
    var next: (any Responder)?
    init(_ name: String, actions: Set<String>, registry: LinkedScreenRegistry) {
        (self.name, self.actions, self.registry) = (name, actions, registry)
    }

    // doc: registry-mark-member
    func handle(_ action: Action) -> Bool {
        traceHop(name, command: action, chain: "editor", decide: { $0 ? nil : .passed }) {
            ChainTracing.markMember(of: registry.name)
            return actions.contains(action.name) || (next?.handle(action) ?? false)
        }
    }
    // end
}

struct SignUp: Codable, Sendable {
    var username: String
}

enum SignUpError: Error, Equatable {
    case taken
}

protocol SignUpStage: AnyObject, Sendable {
    var next: (any SignUpStage)? { get }
    func handle(_ form: SignUp) async -> SignUpError?
}

final class CheckUsername: SignUpStage {
    let next: (any SignUpStage)?
    init(next: (any SignUpStage)?) { self.next = next }
    func isTaken(_ name: String) async -> Bool { name == "taken" }

    // doc: instrument-async
    func handle(_ form: SignUp) async -> SignUpError? {
        await traceHop("CheckUsername", command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            if await isTaken(form.username) { return .taken }
            return await next?.handle(form)
        }
    }
    // end
}

final class SaveProfile: SignUpStage {
    let next: (any SignUpStage)? = nil
    func handle(_ form: SignUp) async -> SignUpError? {
        await traceHop("SaveProfile", command: form, chain: "sign-up", decide: { $0 == nil ? .accepted : .failed }) {
            await Task.yield()
            return nil
        }
    }
}

@Suite("The examples the docs show", .tags(.concurrent))
struct DocumentationExamples {
    @Test func sideCallsAreTracesOfTheirOwn() {
        let penny = AuditedValidator("Penny", diameter: 19.05)
        penny.next = AuditedValidator("Dime", diameter: 17.91)
        let traces = captureTraces { _ = penny.handle(Coin(diameter: 17.91, weight: 2.268)) }
        let coins = traces.filter { $0.chain == "coins" }
        #expect(coins.count == 1 && coins.first?.path == ["Penny", "Dime"] && coins.first?.outcome == .accepted(by: "Dime"))
        #expect(traces.filter { $0.chain == "audit" }.map(\.path) == [["AuditLog"], ["AuditLog"]])
    }

    @Test func registryMembersAreRecordedAsTheRegistrys() throws {
        let registry = ScreenRegistry()
        registry.screens = [Screen("Detail", actions: ["edit"]), Screen("Search", actions: ["find"])]
        registry.next = Screen("Window", actions: ["close"])
        let traces = captureTraces {
            _ = registry.handle(Action(name: "find"))
            _ = registry.handle(Action(name: "close"))
        }
        try #require(traces.count == 2)
        expectPath(traces[0], ["Screens", "Detail", "Search"])
        #expect(traces[0].hops.map(\.registry) == [nil, "Screens", "Screens"])
        expectHandled(traces[0], by: "Search")
        expectPath(traces[1], ["Screens", "Detail", "Search", "Window"])
        #expect(traces[1].hops.map(\.registry) == [nil, "Screens", "Screens", nil])
        #expect(traces[1].hops.map(\.decision) == [.passed, .passed, .passed, .accepted])
        expectHandled(traces[1], by: "Window")
    }

    @Test func linkedLateRespondersMarkThemselves() throws {
        let registry = LinkedScreenRegistry()
        let detail = LateScreen("Detail", actions: ["edit"], registry: registry)
        detail.next = LateScreen("Search", actions: ["find"], registry: registry)
        registry.first = detail
        registry.next = Screen("Window", actions: ["close"])
        let traces = captureTraces { _ = registry.handle(Action(name: "close")) }
        try #require(traces.count == 1)
        expectPath(traces[0], ["Screens", "Detail", "Search", "Window"])
        #expect(traces[0].hops.map(\.registry) == [nil, "Screens", "Screens", nil])
        #expect(traces[0].hops.map(\.decision) == [.passed, .passed, .passed, .accepted])
    }

    @Test func quickTour() throws {
        // doc: quick-tour
        let sink = InMemoryTraceSink()
        let chain = try Chain<Coin, String>(
            "coins",
            handlers: [
                Handler("Penny") { $0.diameter == 19.05 ? .accept("penny") : .pass },
                Handler("Dime") { $0.diameter == 17.91 ? .accept("dime") : .pass(because: "not 17.91 mm") },
            ],
            recorder: Recorder(sink: sink)
        )
        let coin = try chain.send(Coin(diameter: 17.91, weight: 2.268))  // String?: nil when nobody took it
        let trace = sink.traces[0]
        // coin == "dime"; trace.path == ["Penny", "Dime"]; trace.outcome == .accepted(by: "Dime")
        // end
        #expect(coin == "dime")
        expectPath(trace, ["Penny", "Dime"])
        expectHandled(trace, by: "Dime")
        try readingTheModelAndTheSlowRule(sink)
    }

    func readingTheModelAndTheSlowRule(_ sink: InMemoryTraceSink) throws {
        var lines: [String] = []
        // doc: trace-model
        let trace = sink.traces[0]
        for hop in trace.hops {
            // hop.handler: "Penny"; hop.decision: .passed; hop.reason: nil (a plain .pass)
            // hop.startOffset, hop.selfDuration, hop.inclusiveDuration: nanoseconds (UInt64)
            lines.append("\(hop.position). \(hop.handler) \(hop.decision) self \(hop.selfDuration) ns")
        }
        switch trace.outcome {
        case .accepted(let handler): lines.append("accepted by \(handler)")
        case .fellOffTheEnd: lines.append("nobody took it")
        case .failed(let handler, let error): lines.append("failed at \(handler): \(error)")
        }
        // end
        #expect(lines.count == 3 && lines[0].hasPrefix("0. Penny passed self ") && lines[2] == "accepted by Dime")
        #expect(trace.hops[0].reason == nil)
        // doc: slow-rule-swift
        let rule = try SlowHandlerRule.parse("p95>1ms,share>30%")
        let profile = ChainProfile(sink.traces)
        for flag in rule.flags(in: profile) {
            print("\(flag.handler) is slow: \(flag.reasons.joined(separator: "; "))")
        }
        // end
        // Of two handlers, the one with the larger share of self time is over 30%.
        #expect(rule.flags(in: profile).contains { $0.reasons.contains { $0.contains("of chain time > 30%") } })
    }

    @Test func observersTreesRegistriesAndDryRuns() throws {
        let sink = InMemoryTraceSink()
        // doc: tree
        let responders = try Chain<String, String>("responders", recorder: Recorder(sink: sink))
        try responders.add(Handler("App") { $0 == "quit" ? .accept("App quits") : .pass }, next: nil)
        try responders.add(Handler("Window") { $0 == "close" ? .accept("Window closes") : .pass }, next: "App")
        try responders.add(Handler("List", canHandle: { $0 == "delete" }) { $0 == "delete" ? .accept("List deletes") : .pass }, next: "Window")
        try responders.add(.observer("Analytics") { action in print("saw \(action)") }, next: "List")

        let lateResponders = try responders.addRegistry("LateResponders", at: .before("App"))
        try lateResponders.register(Handler("Search") { $0 == "find" ? .accept("Search finds") : .pass }, weight: 10)

        let result = try responders.send("find", from: "Analytics")   // "Search finds"
        let answer = try responders.whoWouldHandle("delete", from: "Analytics")
        // answer.handler == "List"; answer.path == ["Analytics", "List"]; nothing ran
        // end
        #expect(result == "Search finds")
        expectPath(sink.traces[0], ["Analytics", "List", "Window", "LateResponders", "Search"])
        #expect(answer.handler == "List")
        #expect(answer.path == ["Analytics", "List"])
    }

    @Test func recordingChoices() throws {
        let chain = try Chain<Coin, String>("coins", handlers: [Handler("Any") { _ in .accept("coin") }])
        let path = TestFiles.directory.appendingPathComponent("docs-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // doc: recording
        let ring = InMemoryTraceSink(limit: 1_000)                        // keep the newest 1 000 traces
        let log = try TraceLogSink(path: path)                            // stream to a JSON-Lines trace log
        chain.recorder = Recorder(
            sink: FanOutTraceSink([ring, log]),
            sampling: .oneIn(10),                                         // every 10th command per thread (async: of all tasks)
            payloads: .captured,                                          // each coin as JSON, so the log replays
            filter: { (coin: Coin) in coin.weight > 2 }                   // only heavy coins
        )
        // … send commands …
        chain.recorder = .off                                             // stop recording: one branch per command
        try log.close()
        // end
        _ = try chain.send(Coin(diameter: 1, weight: 3))
        #expect(try TraceLogReader.readAll(path: path).traces.isEmpty)
    }

    @Test func readingALog() throws {
        let path = TestFiles.directory.appendingPathComponent("docs-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chain = try Chain<Coin, String>("coins", handlers: [Handler("Any") { _ in .accept("coin") }])
        // doc: write-log
        let log = try TraceLogSink(path: path)
        chain.recorder = Recorder(sink: log)
        try chain.send(Coin(diameter: 19.05, weight: 2.5))
        try log.close()
        // end
        var seen: [String] = []
        // doc: read-log
        let reader = try TraceLogReader(path: path)
        while let trace = try reader.next() {
            seen.append("\(trace.commandKind): \(trace.path.joined(separator: " → ")) — \(trace.outcome)")
        }
        if let torn = reader.tornTail { print(torn) }   // a writer that died mid-line is reported, not fatal
        // end
        #expect(seen == ["Coin: Any — accepted by Any"])
    }

    @Test func logOptions() throws {
        let logs = TestFiles.directory.appendingPathComponent("logs-\(UUID())")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let directory = logs.path
        // doc: log-options
        var options = TraceLogSink.Options()
        options.whenBehind = .block          // or .drop (the default): counted in droppedCount and written into the log
        options.rotationBytes = 64 << 20     // traces-0001.jsonl, traces-0002.jsonl, … in the directory
        options.maximumFiles = 16            // the newest 16 files kept: about 1 GB of the newest traces
        options.format = .jsonLines          // version 1, one self-describing object a trace
        let log = try TraceLogSink(path: "\(directory)/traces.jsonl", options: options)
        // end
        try log.close()
        #expect(log.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["traces-0001.jsonl"])
    }

    @Test func instrumentedChainsUnderAScopedRecorder() async throws {
        let validators = Validator("Penny", diameter: 19.05)
        validators.next = Validator("Dime", diameter: 17.91)
        let stages = CheckUsername(next: SaveProfile())
        // doc: scoped-recorder
        let sink = InMemoryTraceSink()
        let dime = ChainTracing.withRecorder(Recorder(sink: sink)) {
            validators.handle(Coin(diameter: 17.91, weight: 2.268))
        }
        let failure = await ChainTracing.withRecorder(Recorder(sink: sink)) {
            await stages.handle(SignUp(username: "taken"))
        }
        // sink.traces[0].hops.map(\.decision) == [.passed, .accepted]
        // sink.traces[1].outcome == .failed(at: "CheckUsername", error: "SignUpError.taken")
        // end
        #expect(dime == "Dime")
        #expect(failure == .taken)
        #expect(sink.traces[0].hops.map(\.decision) == [.passed, .accepted])
        #expect(sink.traces[1].outcome == .failed(at: "CheckUsername", error: "SignUpError.taken"))
        #expect(sink.traces[1].chain == "sign-up")
        let ok = await ChainTracing.withRecorder(Recorder(sink: sink)) { await stages.handle(SignUp(username: "ada")) }
        #expect(ok == nil)
        expectHandled(sink.traces[2], by: "SaveProfile")
    }

    @Test func diagramsFromSwift() throws {
        let path = PackageRoot.path + "/Docs/examples/editor.chain.json"
        // doc: render-from-swift
        let graph = ChainGraph(definition: try ChainDefinition.load(path: path))
        let dot = ChainDiagram.structure(graph, options: DiagramOptions(rowLength: 8)).text
        let svg = try GraphvizRenderer.render(dot, as: .svg).bytes
        // end
        #expect(dot.contains("<b>DetailScreen</b>"))
        #expect(String(decoding: svg, as: UTF8.self).contains("DetailScreen"))
    }

    @Test func handlerTypesAssembleAChainFromADefinitionFile() throws {
        let analyticsLog = KindLog()
        let path = TestFiles.directory.appendingPathComponent("app-\(UUID().uuidString).chain.json").path
        let definition = """
            {"chain": "app", "handlers": [
              {"name": "Analytics", "type": "Analytics", "next": "Detail"},
              {"name": "Detail", "accepts": {"field": "action", "equals": "share"}}]}
            """
        try definition.write(toFile: path, atomically: true, encoding: .utf8)
        // doc: handler-types
        var types = HandlerTypes()
        types.register("Analytics") { definition in
            .observer(definition.name) { command in analyticsLog.record(command.kind) }
        }
        let chain = try ChainDefinition.load(path: path).makeChain(types: types)
        let result = try chain.send(JSONCommand(kind: "Tap", fields: ["action": "share"]))
        // end
        #expect(result == "Detail")
        #expect(analyticsLog.kinds == ["Tap"])
        #expect(throws: FormatError.self) { try ChainDefinition.load(path: path).makeChain() }
    }

    @Test func assertionsOnTraces() throws {
        let chain = try Chain<Coin, String>(
            "coins",
            handlers: [
                Handler("Penny") { $0.diameter == 19.05 ? .accept("penny") : .pass },
                Handler("Dime") { $0.diameter == 17.91 ? .accept("dime") : .pass(because: "not 17.91 mm") },
            ])
        // doc: testing-capture
        let traces = try captureTraces {
            _ = try chain.send(Coin(diameter: 17.91, weight: 2.268))
            _ = try chain.send(Coin(diameter: 30, weight: 9))
        }
        expectPath(traces[0], ["Penny", "Dime"])
        expectHandled(traces[0], by: "Dime")
        expectDecision(traces[0], "Penny", .passed)
        expectUnhandled(traces[1])
        expectNoHandlerSlower(than: .milliseconds(5), in: traces, percentile: 95)
        // end
        let root = PackageRoot.path
        // doc: testing-lint
        expectLintClean(definitionAt: "\(root)/Samples/VendingMachine/vending-machine.chain.json")
        // end
        let message = verifyPath(traces[0], ["Dime"])
        #expect(message?.hasPrefix("Path differs:\n  expected: Dime\n  actual:   Penny → Dime\n") == true)
    }

    @Test func capturingTracesFromOtherThreads() throws {
        // A chain no other test sends through, so no parallel capture involves it.
        let chain = try Chain<Coin, String>("queued-coins", handlers: [Handler("Penny") { _ in .accept("penny") }])
        let penny = Coin(diameter: 19.05, weight: 2.5)
        // doc: capture-other-threads
        let traces = captureTraces(of: [chain.name]) {
            let group = DispatchGroup()
            for _ in 0..<40 { DispatchQueue.global().async(group: group) { _ = try? chain.send(penny) } }
            group.wait()
        }
        #expect(traces.count == 40)
        // end
        let handedOver = captureTraces {
            let group = DispatchGroup()
            // doc: hand-over-recorder
            let recorder = ChainTracing.recorder               // in the test: the capture's recorder
            DispatchQueue.global().async(group: group) {
                ChainTracing.withRecorder(recorder) { _ = try? chain.send(penny) }
            }
            // end
            group.wait()
        }
        #expect(handedOver.count == 1)
    }

    @Test func integrations() throws {
        // doc: span-sink
        let tracer = InMemoryTracer()                                   // in an app: the bootstrapped tracer
        let chain = try Chain<String, String>("vending", recorder: Recorder(sink: SpanTraceSink(tracer: tracer)))
        try chain.append(Handler("Penny") { $0 == "penny" ? .accept("penny") : .pass })
        _ = try chain.send("penny")
        // tracer.finishedSpans: "vending String", and its child "Penny" with chaintrace.decision = "accepted"
        // end
        let names = tracer.finishedSpans.map(\.operationName)
        #expect(names.sorted() == ["Penny", "vending String"])
        #expect(tracer.finishedSpans.first { $0.operationName == "Penny" }?.attributes.get("chaintrace.decision") == .string("accepted"))

        do {
            // doc: span-sink-background
            let tracer = InMemoryTracer()                                   // in an app: the bootstrapped tracer
            let sink = SpanTraceSink(tracer: tracer, delivery: .background())
            let chain = try Chain<String, String>("vending", recorder: Recorder(sink: sink))
            try chain.append(Handler("Penny") { $0 == "penny" ? .accept("penny") : .pass })
            _ = try chain.send("penny")
            sink.flush()                                                    // the spans are made; or close() at shutdown
            // tracer.finishedSpans: "vending String" and "Penny", as on the recording thread
            // end
            #expect(tracer.finishedSpans.map(\.operationName).sorted() == ["Penny", "vending String"])
            #expect(sink.droppedCount == 0)
        }
        // doc: log-sink
        let sink = LogTraceSink(logger: Logger(label: "app.chain"), level: .debug, granularity: .perHop)
        chain.recorder = Recorder(sink: sink)
        // end
        #expect(try chain.send("penny") == "penny")
    }
}


/// The report page, written from a library as `chaintrace report` writes it.
@Suite(.tags(.concurrent)) struct ReportExamples {
    @Test func reportOfALog() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-doc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("traces.jsonl").path
        let sink = try TraceLogSink(path: log)
        let chain = try Chain<String, String>("vending", recorder: Recorder(sink: sink))
        try chain.append(Handler("Penny") { $0 == "penny" ? .accept("penny") : .pass })
        for coin in ["penny", "dime", "penny"] { _ = try chain.send(coin) }
        try sink.close()
        // doc: report-library
        let (read, collected) = try TraceLogProfiler().profile(paths: [log], collecting: { TraceReport.Collector(limit: 10_000) })
        let report = TraceReport(profile: read.profile, collected: collected, sources: read.files, rule: .standard)
        let page: String = try report.html()                // one self-contained HTML file
        // end
        #expect(page.contains(#""commands":3,"#))
        #expect(page.contains("Content-Security-Policy"))
    }
}

/// The package root, for examples that read its files.
enum PackageRoot {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}

/// Collects command kinds from any thread.
final class KindLog: Sendable {
    private let storage = LockedKinds()
    func record(_ kind: String) { storage.append(kind) }
    var kinds: [String] { storage.all }
}

/// A lock-protected list for the example above.
final class LockedKinds: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var values: [String] = []
    func append(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}
