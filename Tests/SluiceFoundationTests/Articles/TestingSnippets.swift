import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback server's example of SluiceTesting's Testing.md, compiled and run (it needs
/// SluiceFoundation); `.ci/check-snippets.sh` checks that the article shows these lines.
@Suite(.timeLimit(.minutes(12))) struct TestingSnippets {
    @Test func loopbackServer() async throws {
        // snippet TestingLoopback begin
        let server = try LoopbackHTTPServer(routes: [
            "/greeting": .respond(.init(status: 200, body: "hello")),
        ])
        defer { server.stop() }
        let url = URL(string: server.url(for: "/greeting"))!
        let body = try await URLSession.shared.dataTaskPublisher(for: url)
            .map { String(decoding: $0.data, as: UTF8.self) }
            .firstValue()
        #expect(body == "hello")
        #expect(server.requestCount == 1)
        // snippet TestingLoopback end
    }
}
