import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// The address the server listens on has no IPv4 form.
struct NotListeningOnIPv4: Error, CustomStringConvertible {
    let address: String
    var description: String { "the server listens on \(address), not an IPv4 address" }
}

extension GRPCService {
    /// Serves orders.Orders over HTTP/2 on 127.0.0.1 (a port the system picks) and makes the calls over a real
    /// connection to it: how many were answered.
    static func serveOverHTTP2(_ arguments: Arguments) async throws -> Int {
        try await serveAndCall(
            arguments,
            server: HTTP2ServerTransport.Posix(
                address: .ipv4(host: "127.0.0.1", port: 0),
                transportSecurity: .plaintext
            )
        ) { server -> HTTP2ClientTransport.Posix in
            let address = try await server.transport.listeningAddress
            guard let ipv4 = address.ipv4 else { throw NotListeningOnIPv4(address: "\(address)") }
            return try HTTP2ClientTransport.Posix(
                target: .ipv4(address: ipv4.host, port: ipv4.port),
                transportSecurity: .plaintext
            )
        }
    }
}
