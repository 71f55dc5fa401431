import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in ControllablePublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite struct ControllablePublisherExamples {
    @Test func theTestSeesTheRequestsAndSendsWithinThem() {
        // snippet ControllablePublisherDriven begin
        let publisher = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        publisher.subscribe(recorder)
        let subscription = publisher.subscriptions[0]
        #expect(subscription.requests == [.max(1)])
        _ = subscription.send(1)
        subscription.send(completion: .finished)
        // snippet ControllablePublisherDriven end
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        publisher.detachAll()
    }
}
