import ChainTrace
import ChainTraceHummingbird

// Compiles with or without the trait: the product is there either way, empty without it.
print(Recorder.off.isOn)
