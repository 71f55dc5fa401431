import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in PassthroughRelay.swift and CurrentValueRelay.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct RelayExamples {
    @Test func passthroughRelayAccept() {
        // snippet PassthroughRelayAccept begin
        let relay = PassthroughRelay<String>()
        var received: [String] = []
        let cancellable = relay.sink { received.append($0) }
        relay.accept("a")
        let forwarding = ["b", "c"].publisher.subscribe(relay)   // its finish is not forwarded
        relay.accept("d")                                        // received == ["a", "b", "c", "d"]
        // snippet PassthroughRelayAccept end
        #expect(received == ["a", "b", "c", "d"])
        cancellable.cancel()
        forwarding.cancel()
    }

    @Test func currentValueRelayValue() {
        // snippet CurrentValueRelayValue begin
        let relay = CurrentValueRelay(1)
        var received: [Int] = []
        let cancellable = relay.sink { received.append($0) }   // 1, at once
        relay.accept(2)                                        // received == [1, 2]
        #expect(relay.value == 2)
        // snippet CurrentValueRelayValue end
        #expect(received == [1, 2])
        cancellable.cancel()
    }
}
