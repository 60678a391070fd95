// The error this module's API throws, declared in the JSON module every format shares: a user of chain
// definitions catches `FormatError` with `import ChainTraceDefinitions` alone.
@_exported import struct ChainTraceJSON.FormatError
