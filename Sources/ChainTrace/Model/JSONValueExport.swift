// `JSONValue` is how traces carry command payloads (`Trace.payload`, `TracedCommand.commandPayload`): users of
// `ChainTrace` get it with the module, as they get `Trace`, without a product of its own.
@_exported import enum ChainTraceJSON.JSONValue
