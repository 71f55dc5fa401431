import Sluice
import Testing

// The doc comments' examples in Share.swift, compiled and run; `.ci/check-snippets.sh` checks
// that each comment shows exactly the lines between the snippet's markers.

@Suite struct ShareExamples {
    @Test func bothSubscribersReceiveEachMappedValue() {
        var received: [String] = []
        // snippet ShareOneUpstream begin
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.map { $0 * 10 }.share()   // the map runs once per value
        let first = shared.sink { received.append("first \($0)") }
        let second = shared.sink { received.append("second \($0)") }
        subject.send(1)   // received == ["first 10", "second 10"]
        // snippet ShareOneUpstream end
        #expect(received == ["first 10", "second 10"])
        first.cancel()
        second.cancel()
    }
}
