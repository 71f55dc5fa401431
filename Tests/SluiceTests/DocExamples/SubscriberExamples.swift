import Sluice
import Testing

// The examples in the doc comments of Core/Subscriber.swift, compiled and run.

@Suite struct SubscriberExamples {
    @Test func receivesOnlyWhatItRequested() {
        // snippet SubscriberFirstThree begin
        final class FirstThree: Subscriber {
            private(set) var received: [Int] = []
            private(set) var finished = false
            func receive(subscription: any Subscription) { subscription.request(.max(3)) }
            func receive(_ input: Int) -> Subscribers.Demand { received.append(input); return .none }
            func receive(completion: Subscribers.Completion<Never>) { finished = true }
        }
        let firstThree = FirstThree()
        (1...5).publisher.subscribe(firstThree)
        // received == [1, 2, 3], and no completion: it asked for three values of five
        #expect(firstThree.received == [1, 2, 3])
        #expect(!firstThree.finished)
        // snippet SubscriberFirstThree end
    }
}
