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
            let rowStyle: ((String) -> String)? =
                flagged[handler.handler] != nil ? slowStyle : (reached ? nil : coldStyle)
            let shownName = HandlerNameText.of(handler.handler)
            let name = handler.registry.map { "  \(shownName) (in \($0))" } ?? shownName
            table.add(
                [
                    name, "\(handler.seen)", "\(handler.accepted)", "\(handler.passed)", "\(handler.continued)",
                    "\(handler.failed)",
                    reached
                        ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 50))) : "-",
                    reached
                        ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 95))) : "-",
                    reached
                        ? DurationText.format(nanoseconds: Int64(clamping: handler.selfTime(atPercentile: 99))) : "-",
                    flagged[handler.handler] != nil ? "SLOW" : "",
                ],
                style: rowStyle
            )
        }
        var output = table.render(style: style)
        output +=
            "\n  \(TerminalText.counted(profile.commands, "command")): \(profile.accepted) accepted, \(profile.fellOffTheEnd) fell off the end, \(profile.failed) failed\n"
        if flags.isEmpty {
            output += "  No slow handlers (\(rule)).\n"
        } else {
            output += "  " + style.yellow("Slow handlers") + " (\(rule)):\n"
            for flag in flags {
                output +=
                    "    \(TerminalText.shown(HandlerNameText.of(flag.handler))): \(flag.reasons.joined(separator: "; "))\n"
            }
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
        var output =
            "  " + style.red(kind.rawValue) + "  \(TerminalText.shown(command)) (\(TerminalText.shown(commandKind)))\n"
        if let expected {
            output +=
                "    expected\(expected.place.map { " (\(TerminalText.shown($0)))" } ?? ""): \(TerminalText.shown("\(expected)"))\n"
        }
        if let actual {
            output +=
                "    actual\(actual.place.map { " (\(TerminalText.shown($0)))" } ?? ""):   \(TerminalText.shown("\(actual)"))\n"
        }
        if let expected, let actual, expected.path == actual.path, expected.outcome == actual.outcome {
            // The same handlers in the same order: what differs is which of them ran at once.
            output += "    ran at once, expected: \(Self.groupsText(expected.groupsAtOnce))\n"
            output += "    ran at once, actual:   \(Self.groupsText(actual.groupsAtOnce))\n"
        }
        return output
    }
}

extension Divergence {
    /// `N3 ‖ N6; N4 ‖ N5`, or `none`.
    static func groupsText(_ groups: [[String]]) -> String {
        guard !groups.isEmpty else { return "none" }
        return groups.map { group in group.map(TerminalText.shown).joined(separator: " ‖ ") }.joined(separator: "; ")
    }
}

/// The divergence part of `replay --expect` and `diff`, in text and JSON.
struct DivergenceReport {
    var matcher: TraceMatcher
    var shown: Int
    /// Whether commands in one run only are left out of the comparison — counted, but no divergence (`diff
    /// --only-common`: logs sampled in production, or of different traffic).
    var onlyCommon = false
    /// Whether the command has `--only-common` (`diff`), to suggest when most commands are in one run only.
    var offersOnlyCommon = false

    /// Commands of the baseline with no partner in the other run, and the other way round.
    var missing: Int { matcher.counts[.missing] ?? 0 }
    var unexpected: Int { matcher.counts[.unexpected] ?? 0 }

    /// The divergences that count: with ``onlyCommon``, those of commands in both runs.
    var total: Int { onlyCommon ? matcher.total - missing - unexpected : matcher.total }

    private func counts(_ kind: Divergence.Kind) -> Int? {
        onlyCommon && (kind == .missing || kind == .unexpected) ? nil : matcher.counts[kind]
    }

    /// The divergences listed, as many as kept.
    private var listed: [Divergence] {
        onlyCommon ? matcher.divergences.filter { $0.kind != .missing && $0.kind != .unexpected } : matcher.divergences
    }

    func text(style: Style) -> String {
        let unpaired = missing + unexpected
        var output = ""
        if total == 0, matcher.compared == 0 {
            output +=
                unpaired == 0
                ? "  No commands to compare.\n" : "  No divergences compared: no command is in both runs.\n"
        } else if total == 0 {
            output +=
                matcher.compared == 1
                ? "  No divergences: the one command took the same path.\n"
                : "  No divergences: all \(matcher.compared) commands took the same path.\n"
        } else {
            let breakdown = Divergence.Kind.allCases.compactMap { kind in counts(kind).map { "\($0) \(kind.rawValue)" }
            }.joined(separator: ", ")
            output += "  " + style.red(TerminalText.counted(total, "divergence"))
            if onlyCommon || unpaired == 0 {
                output += " in \(TerminalText.counted(matcher.compared, "command")) compared: \(breakdown)\n"
            } else {
                // A command in one run only is a divergence too, but not one of those compared.
                output +=
                    " — \(total - unpaired) in \(TerminalText.counted(matcher.compared, "command")) compared, \(unpaired) in one run only: \(breakdown)\n"
            }
            for divergence in listed.prefix(shown) { output += divergence.text(style: style) }
            if total > shown { output += "  … and \(total - shown) more (--divergences N shows more).\n" }
        }
        if onlyCommon, unpaired > 0 {
            output +=
                "  Not compared (--only-common): \(TerminalText.counted(missing, "command")) in the baseline only, \(unexpected) in the other only.\n"
        } else if offersOnlyCommon, unpaired > matcher.compared {
            output +=
                "  Most commands are in one log only — logs sampled in production, or of different traffic? --only-common "
                + "compares the commands both hold and counts the rest.\n"
        }
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
        let counted = Divergence.Kind.allCases.compactMap { kind in
            counts(kind).map { (kind.rawValue, JSONValue.integer(Int64($0))) }
        }
        return [
            "compared": .integer(Int64(clamping: matcher.compared)),
            "total": .integer(Int64(clamping: total)),
            "counts": .object(Dictionary(uniqueKeysWithValues: counted)),
            "inOneRunOnly": [
                "missing": .integer(Int64(clamping: missing)), "unexpected": .integer(Int64(clamping: unexpected)),
            ],
            "divergences": try JSONValue(encoding: Array(listed.prefix(shown))),
        ]
    }
}
