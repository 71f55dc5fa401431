import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("prefix(while:behavior:) (CombineExt)")
struct PrefixWhileBehaviorTests {
    @Test("inclusive delivers the first failing value, then cancels the upstream and finishes; exclusive finishes before it",
          arguments: [(PrefixWhileBehavior.inclusive, [1, 2, 5]), (.exclusive, [1, 2])])
    func behaviors(behavior: PrefixWhileBehavior, expected: [Int]) {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.prefix(while: { $0 < 3 }, behavior: behavior).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        for value in [1, 2, 5] { _ = subscription.send(value) }
        #expect(recorder.values == expected)
        #expect(recorder.completion == .finished)
        #expect(subscription.cancelCount == 1)
    }

    @Test("demand passes through one for one, and an upstream failure before the end passes through")
    func demandAndFailure() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(2))
        upstream.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requestedDemand == .max(2))
        recorder.request(.max(1))
        #expect(subscription.requestedDemand == .max(3))
        _ = subscription.send(1)
        subscription.send(completion: .failure(Oops()))
        #expect(recorder.values == [1])
        #expect(recorder.completion == .failure(Oops()))
    }

    @Test("a call without behavior is Sluice's own prefix(while:)")
    func withoutBehavior() {
        let recorder = RecordingSubscriber<Int, Never>()
        let publisher: Publishers.PrefixWhile<Publishers.Sequence<[Int], Never>> =
            Publishers.Sequence(sequence: [1, 5, 2]).prefix(while: { $0 < 3 })
        publisher.subscribe(recorder)
        #expect(recorder.values == [1])
    }
}
