@_exported import struct ChainTraceFiles.TornTail
// Types this module's API throws and returns, declared in the lower modules every format shares: a user of trace
// logs catches `FormatError` and reads `TornTail` with `import ChainTraceTraceLog` alone.
@_exported import struct ChainTraceJSON.FormatError
