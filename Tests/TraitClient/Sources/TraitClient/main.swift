import ChainTrace
import ChainTraceGRPC
import ChainTraceHummingbird
import ChainTraceNIO
import ChainTraceVapor

// Compiles with or without the traits: the products are there either way, empty without them.
print(Recorder.off.isOn)
