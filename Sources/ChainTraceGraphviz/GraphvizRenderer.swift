internal import CGraphviz
import ChainTrace
import ChainTraceFastPath

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Lays out DOT text and draws it as SVG, PNG or PDF through libgvc, in-process.
///
/// libgvc is not thread-safe, so every call holds one process-wide lock; call it from any thread.
/// Graphviz's messages are captured through cgraph's error hook and returned as ``GraphvizError`` or
/// ``GraphvizOutput/warnings``. The few Graphviz writes straight to standard error (cairo's scaling notice, some
/// plugin messages) are captured too when `capturingStandardError` is set: the process's file descriptor 2 then
/// points at a scratch file for the length of the call, which also catches what other threads write meanwhile —
/// right for a command-line tool, wrong for a server, so it is off by default.
///
/// ```swift
/// let svg = try GraphvizRenderer.render(diagram.dot, as: .svg).bytes
/// ```
public enum GraphvizRenderer {
    /// The largest side, in pixels, of a PNG: cairo scales anything bigger down to fit.
    public static let maximumPNGSide = 32_767

    /// Renders `dot` in `format`. `.dot` returns the text unchanged, without touching libgvc.
    ///
    /// - Throws: ``GraphvizError`` when the text does not parse, a plugin is missing, layout or drawing fails, or a
    ///   PNG would exceed ``maximumPNGSide`` pixels on a side.
    public static func render(
        _ dot: String,
        as format: GraphvizFormat,
        capturingStandardError: Bool = false
    ) throws(GraphvizError) -> GraphvizOutput {
        if format == .dot { return GraphvizOutput(bytes: Array(dot.utf8), warnings: []) }
        return try session.withLock { (session: inout GraphvizSession) throws(GraphvizError) -> GraphvizOutput in
            try session.render(
                dot,
                format: format.rawValue,
                pixelLimit: format == .png ? maximumPNGSide : nil,
                capturingStandardError: capturingStandardError
            )
        }
    }

    /// Runs `body` holding the one lock every Graphviz call in this process takes, for code of this package that
    /// calls libcgraph directly (the tests that read DOT back with `agmemread`): libgvc and libcgraph keep global
    /// state and are not thread-safe.
    package static func withGraphvizLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try session.withLock { (_: inout GraphvizSession) throws(Failure) -> T in try body() }
    }

    private static let session = LockedValue(GraphvizSession())
}

/// A rendered diagram and the warnings Graphviz gave while making it.
public struct GraphvizOutput: Sendable, Hashable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Graphviz's warnings (for example about a font it replaced), one per message.
    public var warnings: [String]
}

/// Messages cgraph reports while the session's lock is held. Only touched under ``GraphvizRenderer``'s lock.
nonisolated(unsafe) private var capturedMessages: [String] = []

/// The libgvc context and the steps of one render. Used only under ``GraphvizRenderer``'s lock.
struct GraphvizSession: @unchecked Sendable {  // Sendable: reached only through the renderer's lock.
    private var context: OpaquePointer?

    mutating func render(
        _ dot: String,
        format: String,
        pixelLimit: Int?,
        capturingStandardError: Bool
    ) throws(GraphvizError) -> GraphvizOutput {
        let capture = capturingStandardError ? StandardErrorCapture() : nil
        capturedMessages = []
        _ = agseterr(AGWARN)
        let previousHandler = agseterrf { message in
            if let message { capturedMessages.append(String(cString: message)) }
            return 0
        }
        defer { _ = agseterrf(previousHandler) }
        var result: Result<GraphvizOutput, GraphvizError>
        do throws(GraphvizError) {
            let context = try self.preparedContext(format: format)
            result = .success(try Self.draw(dot, format: format, context: context, pixelLimit: pixelLimit))
        } catch {
            result = .failure(error)
        }
        // cgraph hands a message over in pieces ("Error", ": ", "syntax error …\n"): join, then split at line ends.
        let messages = Self.lines([capturedMessages.joined()]) + Self.lines([capture?.finish() ?? ""])
        capturedMessages = []
        switch result {
        case .success(var output):
            output.warnings = messages
            return output
        case .failure(var error):
            error.messages += messages
            throw error
        }
    }

    private static func draw(_ dot: String, format: String, context: OpaquePointer, pixelLimit: Int?)
        throws(GraphvizError) -> GraphvizOutput
    {
        _ = agreseterrors()
        guard let graph = dot.withCString({ agmemread($0) }) else { throw GraphvizError(kind: .syntax, messages: []) }
        defer { _ = agclose(graph) }
        guard gvLayout(context, graph, "dot") == 0 else { throw GraphvizError(kind: .layout, messages: []) }
        defer { _ = gvFreeLayout(context, graph) }
        if let pixelLimit, let size = pixelSize(of: graph), size.width > pixelLimit || size.height > pixelLimit {
            throw GraphvizError(
                kind: .tooLarge(widthPixels: size.width, heightPixels: size.height, limit: pixelLimit),
                messages: []
            )
        }
        var data: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        guard gvRenderData(context, graph, format, &data, &length) == 0, let data else {
            throw GraphvizError(kind: .render, messages: [])
        }
        defer { gvFreeRenderData(data) }
        // Graphviz reports some errors (a label it cannot read, say) and draws on with a substitute: an error is an
        // error, never a silently different picture.
        if agerrors() >= Int32(bitPattern: AGERR.rawValue) { throw GraphvizError(kind: .render, messages: []) }
        let bytes = data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
        return GraphvizOutput(bytes: bytes, warnings: [])
    }

    /// The laid-out size in pixels at 96 dpi (Graphviz's raster default), from the `bb` attribute layout sets.
    private static func pixelSize(of graph: UnsafeMutablePointer<Agraph_t>) -> (width: Int, height: Int)? {
        guard let box = "bb".withCString({ agget(graph, UnsafeMutablePointer(mutating: $0)) }) else { return nil }
        // "llx,lly,urx,ury" in the DOT output; libgvc's layout writes it with spaces.
        let numbers = String(cString: box).split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        let scale = 96.0 / 72.0
        return (
            Int(((numbers[2] - numbers[0]) * scale).rounded(.up)) + 8,
            Int(((numbers[3] - numbers[1]) * scale).rounded(.up)) + 8
        )
    }

    /// The context, made once, with the dot layout and the format's renderer checked.
    private mutating func preparedContext(format: String) throws(GraphvizError) -> OpaquePointer {
        if context == nil {
            context = gvContext()
            if let context, !Self.hasPlugin(context, kind: "layout", named: "dot") {
                Self.loadPluginsDirectly(into: context)
            }
        }
        guard let context else { throw GraphvizError(kind: .pluginMissing("layout"), messages: ["gvContext() failed"]) }
        guard Self.hasPlugin(context, kind: "layout", named: "dot") else {
            throw GraphvizError(kind: .pluginMissing("\"dot\" layout"), messages: [])
        }
        guard Self.hasPlugin(context, kind: "device", named: format) else {
            throw GraphvizError(kind: .pluginMissing("\"\(format)\" output"), messages: [])
        }
        return context
    }

    private static func hasPlugin(_ context: OpaquePointer, kind: String, named name: String) -> Bool {
        var count: Int32 = 0
        guard let list = gvPluginList(context, kind, &count, nil) else { return false }
        defer {
            for index in 0..<Int(count) { free(list[index]) }
            free(list)
        }
        return (0..<Int(count)).contains { index in
            guard let entry = list[index] else { return false }
            return String(cString: entry).split(separator: ":").first.map(String.init) == name
        }
    }

    /// Without its configuration file libgvc knows no plugins; load the standard ones from the directory beside
    /// the loaded `libgvc` (`…/graphviz/libgvplugin_*.so.6`), or from `GVBINDIR`, instead.
    private static func loadPluginsDirectly(into context: OpaquePointer) {
        #if canImport(Darwin)
            let suffix = ".6.dylib"
        #else
            let suffix = ".so.6"
        #endif
        var directories: [String] = []
        if let configured = getenv("GVBINDIR") { directories.append(String(cString: configured) + "/") }
        directories += pluginDirectoriesOfLoadedLibrary()
        for plugin in ["core", "dot_layout", "pango"] {
            for directory in directories {
                guard let handle = dlopen(directory + "libgvplugin_\(plugin)" + suffix, RTLD_NOW | RTLD_LOCAL) else {
                    continue
                }
                if let symbol = dlsym(handle, "gvplugin_\(plugin)_LTX_library") {
                    gvAddLibrary(context, symbol.assumingMemoryBound(to: gvplugin_library_t.self))
                }
                break
            }
        }
        _ = gvtextlayout_select(context)
        _ = textfont_dict_open(context)
    }

    /// `…/graphviz/` beside each `libgvc` this process mapped, from `/proc/self/maps` (Linux).
    private static func pluginDirectoriesOfLoadedLibrary() -> [String] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var directories: [String] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard let slash = text.firstIndex(of: "/"), text.split(separator: "/").last?.hasPrefix("libgvc.") == true
            else { continue }
            let path = text[slash...].trimmingCharacters()
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/graphviz/"
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }

    private static func lines(_ texts: [String]) -> [String] {
        texts.flatMap { $0.split(separator: "\n") }.map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
