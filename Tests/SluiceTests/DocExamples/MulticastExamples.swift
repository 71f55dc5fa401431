import Sluice
import Testing

// The doc comments' examples in Multicast.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct MulticastExamples {
    @Test func oneSubjectFeedsEverySubscriberInTurn() {
        var received: [String] = []
        // snippet MulticastSubject begin
        let shared = [1, 2, 3].publisher.multicast { PassthroughSubject<Int, Never>() }
        let first = shared.sink { received.append("first \($0)") }
        let second = shared.sink { received.append("second \($0)") }
        #expect(received.isEmpty)
        let connection = shared.connect()   // first 1, second 1, first 2, second 2, …
        // snippet MulticastSubject end
        #expect(received == ["first 1", "second 1", "first 2", "second 2", "first 3", "second 3"])
        for cancellable in [first, second, connection] as [any Cancellable] { cancellable.cancel() }
    }
}
