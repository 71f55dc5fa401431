#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Sluice

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
/// A small HTTP/1.1 server on the loopback interface, for tests and examples of network publishers that must
/// talk to a real server without leaving the machine.
///
/// It listens on `127.0.0.1` on a port the system picks, answers each `GET` by its path from a fixed table
/// (404 for a path it does not know), one request per connection (`Connection: close`), and can be told to
/// never answer a path, to test cancellation (``closedUnanswered`` counts the client's closes). Each
/// connection is served on a thread of its own; ``stop()`` closes the listening socket and every connection.
///
/// <!-- snippet: LoopbackHTTPServerGreeting -->
/// ```swift
/// let server = try LoopbackHTTPServer(routes: ["/greeting": .respond(.init(status: 200, body: "hello"))])
/// defer { server.stop() }
/// let url = server.url(for: "/greeting")   // "http://127.0.0.1:<port>/greeting"
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// What the server answers on one path.
    public enum Route: Sendable {
        /// Answers with this response.
        case respond(Response)
        /// Never answers; keeps the connection open until the client (or ``stop()``) closes it.
        case neverAnswer
    }

    /// An HTTP response.
    public struct Response: Sendable {
        /// The status code (200, 404, 500, …).
        public var status: Int
        /// The `Content-Type` header.
        public var contentType: String
        /// The body's bytes.
        public var body: [UInt8]

        /// A response with `status` and a UTF-8 `body`.
        public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: String) {
            self.status = status
            self.contentType = contentType
            self.body = Array(body.utf8)
        }
    }

    private struct State: Sendable {
        var open: Set<Int32> = []
        var stopped = false
    }

    private let routes: [String: Route]
    private let listener: Int32
    private let state = Locked(State())
    private let events = EventLog<String>()

    /// The port the server listens on.
    public let port: Int

    /// Starts listening at once; throws the socket call's `errno` if that fails.
    public init(routes: [String: Route]) throws(LoopbackHTTPServerError) {
        self.routes = routes
        let socket = try Self.check(Self.makeSocket(), "socket")
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            close(socket)
            throw LoopbackHTTPServerError(call: "bind/listen", errno: errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        listener = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        startThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(for path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// How many requests the server has read so far (answered or not).
    public var requestCount: Int { events.events.count { $0.hasPrefix("request ") } }

    /// How many connections to a ``Route/neverAnswer`` path the client has closed.
    public var closedUnanswered: Int { events.events.count { $0 == "closed unanswered" } }

    /// Suspends until the client has closed `count` connections to ``Route/neverAnswer`` paths (or the awaiting
    /// task is cancelled).
    public func waitForClosedUnanswered(count: Int) async {
        await events.wait { events in events.count { $0 == "closed unanswered" } >= count }
    }

    /// Suspends until the server has read `count` requests (or the awaiting task is cancelled).
    public func waitForRequests(count: Int) async {
        await events.wait { events in events.count { $0.hasPrefix("request ") } >= count }
    }

    /// Stops listening and closes every open connection. Only shuts the sockets down: each is closed by the
    /// thread that uses it, so that no descriptor number is closed after the system reused it for another socket.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            // Under the lock: a connection leaves `open` under it before its thread closes it.
            for connection in state.open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: Serving

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.open.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            // A connection blocks its thread, which would starve Dispatch's small pool.
            startThread { [self] in
                serve(connection)
                state.withLock { _ = $0.open.remove(connection) }
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        guard let path = readRequestPath(connection) else { return }
        events.append("request \(path)")
        switch routes[path] ?? .respond(Response(status: 404, body: "not found")) {
        case .respond(let response):
            write(response, to: connection)
        case .neverAnswer:
            // Wait for the client to close (read returns 0) or the server to stop.
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
            events.append("closed unanswered")
        }
    }

    private func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            if received.count > 64 * 1024 { return nil }
        }
        let requestLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return String(parts[1])
    }

    private func write(_ response: Response, to connection: Int32) {
        let head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
            + "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
            + "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + response.body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Self.sendFlags) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    #if canImport(Darwin)
    private static let sendFlags: Int32 = 0
    private static func makeSocket() -> Int32 { socket(AF_INET, SOCK_STREAM, 0) }
    #else
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static func makeSocket() -> Int32 { socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
    #endif

    private static func check(_ result: Int32, _ call: String) throws(LoopbackHTTPServerError) -> Int32 {
        guard result >= 0 else { throw LoopbackHTTPServerError(call: call, errno: errno) }
        return result
    }
}

/// A socket call of ``LoopbackHTTPServer`` failed.
public struct LoopbackHTTPServerError: Error, Sendable {
    /// The call that failed.
    public let call: String
    /// Its `errno`.
    public let errno: Int32
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
#endif
