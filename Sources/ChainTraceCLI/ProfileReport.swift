import ChainTrace
import ChainTraceAnalysis
import ChainTraceDefinitions
import ChainTraceJSON

/// The per-handler table of `replay` and `stats`, in text and JSON.
struct ProfileReport {
    var profile: ChainProfile
    var rule: SlowHandlerRule

    var flags: [SlowHandlerFlag] { rule.flags(in: profile) }

    func text(style: Style) -> String {
        let flagged = Dictionary(flags.map { ($0.handler, $0) }, uniquingKeysWith: { first, _ in first })
        var table = TextTable([
            ("handler", .left), ("seen", .right), ("accepted", .right), ("passed", .right), ("continued", .right),
            ("failed", .right), ("self p50", .right), ("p95", .right), ("p99", .right), ("", .left),
        ])
        let slowStyle: (String) -> String = style.yellow
        let coldStyle: (String) -> String = style.dim
        for handler in profile.handlers {
            let reached = handler.seen > 0
            let rowStyle: ((String) -> String)? = flagged[handler.handler] != nil ? slowStyle : (reached ? nil : coldStyle)
            let shownName = HandlerNameText.of(handler.handler)
            let name = handler.registry.map { "  \(shownName) (in \($0))" } ?? shownName
            table.add(
                [
                    name, "\(handler.seen)", "\(handler.accepted)", "\(handler.passed)", "\(handler.continued)",
                    "\(handler.failed)",
                    reached ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 50))) : "-",
                    reached ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 95))) : "-",
                    reached ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 99))) : "-",
                    flagged[handler.handler] != nil ? "SLOW" : "",
                ],
                style: rowStyle)
        }
        var output = table.render(style: style)
        output += "\n  \(TerminalText.counted(profile.commands, "command")): \(profile.accepted) accepted, \(profile.fellOffTheEnd) fell off the end, \(profile.failed) failed\n"
        if flags.isEmpty {
            output += "  No slow handlers (\(rule)).\n"
        } else {
            output += "  " + style.yellow("Slow handlers") + " (\(rule)):\n"
            for flag in flags { output += "    \(TerminalText.shown(HandlerNameText.of(flag.handler))): \(flag.reasons.joined(separator: "; "))\n" }
        }
        return output
    }

    func json() throws -> JSONValue {
        try JSONValue(encoding: ProfileSummary(profile: profile, rule: rule))
    }
}

extension JSONValue {
    /// The value as one line of JSON with sorted keys, and a newline.
    var printed: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self) + "\n"
    }

    /// Adds `members` to an object.
    func merging(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(var existing) = self else { return self }
        existing.merge(members) { _, new in new }
        return .object(existing)
    }
}

extension Divergence {
    func text(style: Style) -> String {
        var output = "  " + style.red(kind.rawValue) + "  \(TerminalText.shown(command)) (\(TerminalText.shown(commandKind)))\n"
        if let expected { output += "    expected\(expected.place.map { " (\(TerminalText.shown($0)))" } ?? ""): \(TerminalText.shown("\(expected)"))\n" }
        if let actual { output += "    actual\(actual.place.map { " (\(TerminalText.shown($0)))" } ?? ""):   \(TerminalText.shown("\(actual)"))\n" }
        return output
    }
}

/// The divergence part of `replay --expect` and `diff`, in text and JSON.
struct DivergenceReport {
    var matcher: TraceMatcher
    var shown: Int

    func text(style: Style) -> String {
        guard matcher.total > 0 else { return matcher.compared == 1 ? "  No divergences: the one command took the same path.\n" : "  No divergences: all \(matcher.compared) commands took the same path.\n" }
        // A command in one run only is a divergence too, but not one of those compared.
        let unpaired = (matcher.counts[.missing] ?? 0) + (matcher.counts[.unexpected] ?? 0)
        var output = "  " + style.red(TerminalText.counted(matcher.total, "divergence")) + " in \(TerminalText.counted(matcher.compared, "command")) compared"
        output += unpaired == 0 ? ": " : " and \(unpaired) in one run only: "
        output += Divergence.Kind.allCases.compactMap { kind in matcher.counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ") + "\n"
        for divergence in matcher.divergences.prefix(shown) { output += divergence.text(style: style) }
        if matcher.total > shown { output += "  … and \(matcher.total - shown) more (--divergences N shows more).\n" }
        return output
    }

    /// What to warn of when commands without ids that ran at once were paired by the order they started in.
    static func uncertainPlacesWarning(_ matcher: TraceMatcher) -> String? {
        guard matcher.uncertainPlaces > 0 else { return nil }
        return "\(TerminalText.counted(matcher.uncertainPlaces, "command")) without an id ran at once with another: "
            + "matched by the order they started in, which the scheduler decides, some commands may be compared with "
            + "others. Give the commands ids (TracedCommand.commandID) to compare them one by one."
    }

    func json() throws -> JSONValue {
        [
            "compared": .integer(Int64(clamping: matcher.compared)),
            "total": .integer(Int64(clamping: matcher.total)),
            "counts": .object(Dictionary(uniqueKeysWithValues: matcher.counts.map { ($0.key.rawValue, JSONValue.integer(Int64($0.value))) })),
            "divergences": try JSONValue(encoding: Array(matcher.divergences.prefix(shown))),
        ]
    }
}
