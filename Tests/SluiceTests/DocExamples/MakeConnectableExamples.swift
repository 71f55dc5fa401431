import Sluice
import Testing

// The doc comments' examples in MakeConnectable.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct MakeConnectableExamples {
    @Test func nothingFlowsUntilConnectThenEverySubscriberReceivesAll() {
        var received: [String] = []
        // snippet MakeConnectableTwoSubscribers begin
        let connectable = [1, 2].publisher.makeConnectable()
        let first = connectable.sink { received.append("first \($0)") }
        let second = connectable.sink { received.append("second \($0)") }   // nothing yet
        #expect(received.isEmpty)
        let connection = connectable.connect()   // both receive 1 and 2
        // snippet MakeConnectableTwoSubscribers end
        #expect(received == ["first 1", "second 1", "first 2", "second 2"])
        for cancellable in [first, second, connection] as [any Cancellable] { cancellable.cancel() }
    }
}
