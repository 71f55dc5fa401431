import SluiceTesting
import Testing

// The doc comments' examples in LoopbackHTTPServer.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct LoopbackHTTPServerExamples {
    @Test func theServerListensOnALoopbackPortItPicked() throws {
        // snippet LoopbackHTTPServerGreeting begin
        let server = try LoopbackHTTPServer(routes: ["/greeting": .respond(.init(status: 200, body: "hello"))])
        defer { server.stop() }
        let url = server.url(for: "/greeting")   // "http://127.0.0.1:<port>/greeting"
        // snippet LoopbackHTTPServerGreeting end
        #expect(server.port > 0)
        #expect(url == "http://127.0.0.1:\(server.port)/greeting")
    }
}
