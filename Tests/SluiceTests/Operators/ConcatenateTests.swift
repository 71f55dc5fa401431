import Testing
import Sluice
import SluiceTesting

// Each recorder is cancelled on leaving its test (`defer`): an operator's subscription keeps
// its subscriber until it ends, and the recorder keeps its subscription, so a test that left
// one open would leave the pair alive (the leak checker reports it).

@Suite("append, prepend (Publishers.Concatenate)")
struct ConcatenateTests {
    @Test("the prefix and the suffix are subscribed through subscribers of two types, both with the downstream subscription's identifier, as in Combine")
    func prefixAndSuffixSubscribersDiffer() throws {
        let prefix = HandingPublisher<Int, Never>()
        let suffix = HandingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        prefix.append(suffix).subscribe(recorder)
        try #require(prefix.subscriber).receive(subscription: LoggingSubscription())
        let downstreamSubscription = try #require(recorder.subscription)
        try #require(prefix.subscriber).receive(completion: .finished)
        let (first, second) = (try #require(prefix.raw), try #require(suffix.raw))
        #expect(type(of: first) != type(of: second))
        #expect((first as? any CustomCombineIdentifierConvertible)?.combineIdentifier == downstreamSubscription.combineIdentifier)
        #expect((second as? any CustomCombineIdentifierConvertible)?.combineIdentifier == downstreamSubscription.combineIdentifier)
        // The suffix held its subscriber, whose relay holds the suffix: let go here.
        (prefix.subscriber, prefix.raw, suffix.subscriber, suffix.raw) = (nil, nil, nil, nil)
    }

    @Test("every overload publishes in order, and returns Combine's type")
    func overloads() {
        let numbers = [2, 3].publisher
        let variadicPrefix: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Sequence<[Int], Never>> =
            numbers.prepend(0, 1)
        let sequencePrefix: Publishers.Concatenate<Publishers.Sequence<ClosedRange<Int>, Never>, Publishers.Sequence<[Int], Never>> =
            numbers.prepend(0...1)
        let publisherPrefix: Publishers.Concatenate<Just<Int>, Publishers.Sequence<[Int], Never>> = numbers.prepend(Just(1))
        let variadicSuffix: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Sequence<[Int], Never>> =
            numbers.append(4, 5)
        let sequenceSuffix: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Sequence<Range<Int>, Never>> =
            numbers.append(4..<6)
        let publisherSuffix: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Just<Int>> = numbers.append(Just(4))
        func values<P: Publisher>(_ publisher: P) -> [Int] where P.Output == Int, P.Failure == Never {
            let recorder = RecordingSubscriber<Int, Never>()
            defer { recorder.cancel() }
            publisher.subscribe(recorder)
            #expect(recorder.completion == .finished)
            return recorder.values
        }
        #expect(values(variadicPrefix) == [0, 1, 2, 3])
        #expect(values(sequencePrefix) == [0, 1, 2, 3])
        #expect(values(publisherPrefix) == [1, 2, 3])
        #expect(values(variadicSuffix) == [2, 3, 4, 5])
        #expect(values(sequenceSuffix) == [2, 3, 4, 5])
        #expect(values(publisherSuffix) == [2, 3, 4])
        #expect(values(numbers.append().prepend()) == [2, 3])
        #expect(variadicSuffix == numbers.append([4, 5]))   // Equatable where both parts are
    }

    @Test("the suffix is subscribed only once the prefix finishes, and asked at once for the demand still outstanding")
    func suffixGetsOutstandingDemand() {
        let prefix = ControllablePublisher<Int, TestError>()
        let suffix = ControllablePublisher<Int, TestError>()
        defer { prefix.detachAll(); suffix.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(1))
        defer { recorder.cancel() }
        prefix.append(suffix).subscribe(recorder)
        #expect(prefix.subscriptions[0].requests == [.max(3)])
        #expect(prefix.subscriptions[0].send(1) == .max(1))
        #expect(prefix.subscriptions[0].send(2) == .max(1))
        #expect(suffix.subscriptions.isEmpty)
        prefix.subscriptions[0].send(completion: .finished)
        #expect(suffix.subscriptions[0].requests == [.max(3)])
        recorder.request(.max(2))
        #expect(suffix.subscriptions[0].requests == [.max(3), .max(2)])
        #expect(prefix.subscriptions[0].requests == [.max(3)])
        suffix.subscriptions[0].send(3)
        suffix.subscriptions[0].send(completion: .finished)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == .finished)
        #expect(recorder.events.count == 5)
        #expect(recorder.subscription.map { "\($0)" } == "Concatenate")
        #expect(recorder.violations.isEmpty)
    }

    @Test("a failure of the prefix ends the stream; the suffix is never subscribed")
    func prefixFailure() {
        let suffix = ControllablePublisher<Int, TestError>()
        defer { suffix.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        Fail<Int, TestError>(error: TestError(code: 1)).append(suffix).subscribe(recorder)
        #expect(recorder.completion == .failure(TestError(code: 1)))
        #expect(suffix.subscriptions.isEmpty)
    }

    @Test("a cancel before the switch reaches the prefix, and a later .finished of it subscribes no suffix")
    func cancelBeforeSwitch() {
        let prefix = ControllablePublisher<Int, Never>()
        let suffix = ControllablePublisher<Int, Never>()
        defer { prefix.detachAll(); suffix.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        prefix.append(suffix).subscribe(recorder)
        recorder.cancel()
        #expect(prefix.subscriptions[0].cancelCount == 1)
        prefix.subscriptions[0].send(completion: .finished)
        #expect(suffix.subscriptions.isEmpty)
        #expect(recorder.completion == nil)
    }

    @Test("a cancel after the switch reaches the suffix, not the finished prefix")
    func cancelAfterSwitch() {
        let prefix = ControllablePublisher<Int, Never>()
        let suffix = ControllablePublisher<Int, Never>()
        defer { prefix.detachAll(); suffix.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        prefix.append(suffix).subscribe(recorder)
        prefix.subscriptions[0].send(completion: .finished)
        recorder.cancel()
        #expect(suffix.subscriptions[0].cancelCount == 1)
        #expect(prefix.subscriptions[0].cancelCount == 0)
    }

    @Test("between prefix and suffix, requests are kept for the suffix and a cancel reaches it when it arrives")
    func gapBetweenPrefixAndSuffix() {
        let late = LatePublisher<Int, Never>()
        defer { late.inner.detachAll() }
        for cancelling in [false, true] {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
            defer { recorder.cancel() }
            Just(1).append(late).subscribe(recorder)
            #expect(recorder.values == [1])
            recorder.request(.max(5))
            if cancelling { recorder.cancel() }
            late.release()
            let subscription = late.inner.subscriptions.last!
            #expect(subscription.history == (cancelling ? [.cancel] : [.request(.max(6))]))
        }
    }

    @Test("each subscription subscribes its own suffix")
    func suffixPerSubscription() {
        let suffix = ControllablePublisher<Int, Never>()
        defer { suffix.detachAll() }
        let concatenated = Empty<Int, Never>().append(suffix)
        let first = RecordingSubscriber<Int, Never>()
        defer { first.cancel() }
        let second = RecordingSubscriber<Int, Never>()
        defer { second.cancel() }
        concatenated.subscribe(first)
        concatenated.subscribe(second)
        #expect(suffix.subscriptions.count == 2)
        suffix.subscriptions[1].send(9)
        #expect(first.values.isEmpty)
        #expect(second.values == [9])
    }

    @Test("a cancel lets go of the suffix, even while the prefix keeps its subscriber, as Combine's does")
    func cancelReleasesSuffix() {
        let prefix = HandingPublisher<Int, Never>()
        weak var weakSuffix: HandingPublisher<Int, Never>?
        let recorder = RecordingSubscriber<Int, Never>()
        do {
            let suffix = HandingPublisher<Int, Never>()
            weakSuffix = suffix
            prefix.append(suffix).subscribe(recorder)
        }
        prefix.subscriber?.receive(subscription: LoggingSubscription())
        #expect(weakSuffix != nil, "kept while the prefix runs")
        recorder.cancel()
        #expect(weakSuffix == nil)
    }
}
