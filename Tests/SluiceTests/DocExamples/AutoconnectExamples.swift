import Sluice
import Testing

// The doc comments' examples in Autoconnect.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct AutoconnectExamples {
    @Test func theFirstSubscriberConnects() {
        var received: [Int] = []
        // snippet AutoconnectFirstSubscriber begin
        let shared = [1, 2, 3].publisher.makeConnectable().autoconnect()
        let cancellable = shared.sink { received.append($0) }   // connects: received == [1, 2, 3]
        // snippet AutoconnectFirstSubscriber end
        #expect(received == [1, 2, 3])
        cancellable.cancel()
    }
}
