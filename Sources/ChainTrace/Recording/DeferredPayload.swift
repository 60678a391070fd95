import ChainTraceJSON

/// A `Sendable` command kept as it was sent, encoded only when its text or value is asked for — by a trace log's
/// writer, on its own thread, straight into the line it writes.
///
/// A trace log takes payloads as JSON text. Encoding a command with its `Encodable` conformance costs a few
/// hundred nanoseconds even for a one-field struct (the protocol's containers are boxed and looked up by type at
/// run time), and on the recording thread that was most of what capturing payloads cost
/// (`chaintrace-benchmarks`, "trace log, drop, + payloads as text" row). A `Sendable` value
/// may be read from another thread, so the recording thread only copies it in here; a trace the log drops for
/// being behind is never encoded at all.
///
/// Nothing is cached, so there is nothing to share between threads: each reader encodes the command itself (the
/// writer reads the text once). Its `encode(to:)` therefore runs after the hop, on another thread: a command
/// that encodes something other than its own value (the time, a shared counter) is logged as it encodes then.
/// Commands of a type the chain or hop cannot prove `Sendable` are encoded on the recording thread, as they are
/// sent.
final class DeferredPayload<Command: Sendable>: EncodedPayload {
    let command: Command
    let reader: any EncodableCommandReading
    let encoder: any PayloadTextEncoder

    init(command: Command, reader: any EncodableCommandReading, encoder: any PayloadTextEncoder) {
        self.command = command
        self.reader = reader
        self.encoder = encoder
    }

    var text: [UInt8]? { reader.textBytes(of: command, encoder: encoder) }

    var value: JSONValue? { reader.value(of: command) }
}

/// Makes the ``DeferredPayload`` of a command of one type: what knowing the type is `Sendable` allows.
@usableFromInline
protocol PayloadDeferring: AnyObject, Sendable {
    /// `command`, which is of the deferrer's type, kept for encoding later.
    func payload<Command>(
        of command: Command,
        reader: any EncodableCommandReading,
        encoder: any PayloadTextEncoder
    ) -> any EncodedPayload
}

/// The ``PayloadDeferring`` of `Sent`: made only where `Sent: Sendable` is known at compile time (the chains'
/// initialisers for `Sendable` commands), since Swift cannot ask it at run time.
@usableFromInline
final class SendablePayloads<Sent: Sendable>: PayloadDeferring {
    @usableFromInline init() {}

    @usableFromInline
    func payload<Command>(
        of command: Command,
        reader: any EncodableCommandReading,
        encoder: any PayloadTextEncoder
    ) -> any EncodedPayload {
        // `Command` is `Sent` (the type this deferrer was made for): a cast between equal types, no lookup.
        DeferredPayload(command: command as! Sent, reader: reader, encoder: encoder)
    }
}
