// The clock shim is header-only; this file gives SwiftPM a C source to build.
