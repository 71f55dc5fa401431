import Sluice
import Testing

// The examples in the doc comments of Subscribers/AnySubscriber.swift, compiled and run.

@Suite struct AnySubscriberExamples {
    @Test func closuresRequestOneMoreAtATime() {
        // snippet AnySubscriberClosures begin
        var received: [Int] = []
        let firstTwo = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { received.append($0); return received.count < 2 ? .max(1) : .none })
        (1...5).publisher.subscribe(firstTwo)   // received == [1, 2]
        #expect(received == [1, 2])
        // snippet AnySubscriberClosures end
    }
}
