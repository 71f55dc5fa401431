import Sluice
import SluiceTesting
import Testing

// The examples in the doc comments of Core/Publisher.swift, compiled and run.

/// A publisher with nothing to send: it hands over a subscription, then finishes.
private struct AlreadyFinished: Publisher {
    typealias Output = Int
    typealias Failure = Never

    // snippet PublisherReceiveSubscriber begin
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
    }
    // snippet PublisherReceiveSubscriber end
}

@Suite struct PublisherExamples {
    @Test func subscriptionComesBeforeTheCompletion() {
        let recorder = RecordingSubscriber<Int, Never>()
        AlreadyFinished().subscribe(recorder)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }
}
