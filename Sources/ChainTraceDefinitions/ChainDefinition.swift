import ChainTrace
import ChainTraceFiles
import ChainTraceJSON

/// A chain described in JSON: its handlers, their rules and links. See `Docs/ChainDefinitionFormat.md`.
///
/// ```swift
/// let definition = try ChainDefinition.load(path: "vending-machine.chain.json")
/// let chain = try definition.makeChain()
/// let result = try chain.send(JSONCommand(kind: "Coin", fields: ["weight": 5.0]))
/// ```
public struct ChainDefinition: Sendable {
    /// The chain's name, as traces record it.
    public var name: String
    /// Every handler and registry, in the order written.
    public var handlers: [HandlerDefinition]
    /// The entries as written, or `nil` when the file leaves them out (see ``entries``).
    public var declaredEntries: [String]?
    /// The file it was read from, for positions in errors; `nil` for one made in code.
    package let document: JSONDocument?

    /// Creates a definition in code.
    public init(name: String, handlers: [HandlerDefinition], entries: [String]? = nil) {
        self.name = name
        self.handlers = handlers
        self.declaredEntries = entries
        self.document = nil
    }

    init(name: String, handlers: [HandlerDefinition], entries: [String]?, document: JSONDocument) {
        self.name = name
        self.handlers = handlers
        self.declaredEntries = entries
        self.document = document
    }

    /// Where commands may enter: the declared entries, else every top-level handler no other one forwards to
    /// (in the order written), else the first handler. The first is the default entry.
    public var entries: [String] {
        if let declaredEntries { return declaredEntries }
        let targets = Set(handlers.compactMap(\.next))
        let roots = handlers.map(\.name).filter { !targets.contains($0) }
        if !roots.isEmpty { return roots }
        return handlers.first.map { [$0.name] } ?? []
    }

    /// The handler or registry with this name, registry members included.
    public func handler(named name: String) -> HandlerDefinition? {
        for handler in handlers {
            if handler.name == name { return handler }
            if let member = handler.members?.first(where: { $0.name == name }) { return member }
        }
        return nil
    }

    /// Reads the definition at `path`.
    ///
    /// - Throws: `FormatError` for the first problem that stops it from making a chain — bad JSON, a wrong
    ///   field, an invalid rule, an unknown or duplicate name — with its line and column. Warnings (unreachable
    ///   or shadowed handlers) do not stop it; ``ChainDefinitionLinter`` reports them.
    public static func load(path: String) throws(FormatError) -> ChainDefinition {
        try load(bytes: FileBytes.read(path), file: path)
    }

    /// Reads a definition from JSON text; `file` names it in errors.
    public static func load(bytes: [UInt8], file: String = "<memory>") throws(FormatError) -> ChainDefinition {
        try load(document: document(bytes, file: file))
    }

    /// `bytes` parsed as one JSON document — or, when they are a trace log (or gzip-compressed) given in a
    /// definition's place, an error that says so.
    static func document(_ bytes: [UInt8], file: String) throws(FormatError) -> JSONDocument {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes, file: file)
        } catch {
            throw OtherFileGivenAsDefinition.error(bytes, file: file) ?? error
        }
        // A log of no traces is one JSON document: its header, which no definition has a `format` member like.
        if document.root["format"] != nil, let error = OtherFileGivenAsDefinition.error(bytes, file: file) {
            throw error
        }
        return document
    }

    static func load(document: JSONDocument) throws(FormatError) -> ChainDefinition {
        var decoder = ChainDefinitionDecoder(document: document)
        let definition = decoder.decode()
        if let first = decoder.findings.first(where: { $0.severity == .error }) { throw first.error }
        let linter = ChainDefinitionLinter(definition: definition)
        if let first = linter.structuralFindings().first(where: { $0.severity == .error }) { throw first.error }
        return definition
    }

    /// An error about the value at `path` of the file, or with no position for a definition made in code.
    func error(at path: String, expected: String, found: String) -> FormatError {
        document?.error(at: path, expected: expected, found: found)
            ?? FormatError(file: name, line: 0, column: 0, expected: expected, found: found)
    }
}
