import Sluice
import SluiceTesting
import Testing

private struct Oops: Error, Equatable {}

/// The publisher the table's operators are built on.
private typealias Handing = HandingPublisher<Int, Oops>

/// The operators whose Combine implementation wraps the upstream subscription, built on
/// `GuardedOperatorSubscriber`, with what each does with a signal before its subscription.
private let guardedOperators: [(name: String, early: String, make: @Sendable (Handing) -> AnyPublisher<Int, any Error>)] = [
    ("TryMap", "passValues", { $0.tryMap { $0 }.eraseToAnyPublisher() }),
    ("TryScan", "passValues", { $0.tryScan(0) { $1 }.eraseToAnyPublisher() }),
    ("Output", "passValues", { $0.output(in: 0..<10).mapError { $0 as any Error }.eraseToAnyPublisher() }),
    ("TryFilter", "trap", { $0.tryFilter { _ in true }.eraseToAnyPublisher() }),
    ("TryCompactMap", "trap", { $0.tryCompactMap { $0 }.eraseToAnyPublisher() }),
    ("RemoveDuplicates", "trap", { $0.removeDuplicates().mapError { $0 as any Error }.eraseToAnyPublisher() }),
    ("TryRemoveDuplicates", "trap", { $0.tryRemoveDuplicates { _, _ in false }.eraseToAnyPublisher() }),
    ("PrefixWhile", "trap", { $0.prefix { _ in true }.mapError { $0 as any Error }.eraseToAnyPublisher() }),
    ("TryPrefixWhile", "trap", { $0.tryPrefix { _ in true }.eraseToAnyPublisher() }),
    ("DropWhile", "ignore", { $0.drop { _ in false }.mapError { $0 as any Error }.eraseToAnyPublisher() }),
    ("TryDropWhile", "ignore", { $0.tryDrop { _ in false }.eraseToAnyPublisher() }),
    // `map` hands the coder's subscription on unchanged.
    ("Encode", "passValuesAndCompletions", { $0.encode(encoder: TextEncoder()).map { Int($0)! }.eraseToAnyPublisher() }),
    ("Decode", "passValuesAndCompletions", { $0.map(String.init).decode(type: Int.self, decoder: TextDecoder()).eraseToAnyPublisher() }),
]

@Suite("Operators that hand down a subscription of their own, as Combine's do")
struct GuardedOperatorTests {
    @Test("the downstream gets the operator's own subscription; a second upstream subscription is cancelled",
          arguments: guardedOperators.map(\.name))
    func ownSubscriptionAndSecondOneCancelled(name: String) throws {
        let entry = try #require(guardedOperators.first { $0.name == name })
        let handing = Handing()
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(2))
        entry.make(handing).subscribe(recorder)
        let first = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: first)
        #expect(String(describing: try #require(recorder.subscription)) == name)
        #expect(first.requests == [.max(2)])
        let second = LoggingSubscription()
        try #require(handing.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1 && second.requests.isEmpty)
        recorder.cancel()
        #expect(first.cancelCount == 1)
        recorder.cancel()
        #expect(first.cancelCount == 1, "a second cancel reaches nobody")
    }

    @Test("after the operator fails, neither the downstream's requests nor its cancel reach the upstream")
    func nothingReachesTheUpstreamAfterAFailure() throws {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(1))
        upstream.tryMap { _ -> Int in throw Oops() }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .none)
        #expect(recorder.completion.map { if case .failure = $0 { true } else { false } } == true)
        #expect(subscription.history == [.request(.max(1)), .cancel])
        recorder.subscription?.request(.max(5))
        recorder.subscription?.cancel()
        #expect(subscription.history == [.request(.max(1)), .cancel], "nothing after the failure's cancel")
        #expect(recorder.violations.isEmpty)
    }

    @Test("a cancel lets go of the downstream and of the upstream subscription")
    func cancelReleasesBothSides() throws {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        weak var weakRecorder: RecordingSubscriber<Int, any Error>?
        let subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(1))
            weakRecorder = recorder
            upstream.tryFilter { _ in true }.subscribe(recorder)
            subscription = recorder.subscription
            recorder.cancel()
        }
        #expect(weakRecorder == nil, "the operator's subscription still held its downstream")
        #expect(upstream.subscriptions[0].cancelCount == 1)
        _ = subscription
    }

    @Test("""
        before the subscription: tryMap, tryScan and output(in:) pass a value through and ignore a completion, a request and a cancel; \
        drop(while:) ignores all four; encode and decode pass the value and the completion, and then cancel the subscription that comes
        """,
          arguments: guardedOperators.filter { $0.early != "trap" }.map(\.name))
    func earlySignalsPassedOrIgnored(name: String) throws {
        let entry = try #require(guardedOperators.first { $0.name == name })
        let handing = Handing()
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .none)
        entry.make(handing).subscribe(recorder)
        let subscriber = try #require(handing.subscriber)
        _ = subscriber.receive(7)
        subscriber.receive(completion: .finished)
        let upstream = LoggingSubscription()
        subscriber.receive(subscription: upstream)
        #expect(recorder.values == (entry.early == "ignore" ? [] : [7]))
        if entry.early == "passValuesAndCompletions" {
            #expect(recorder.completion.map { if case .finished = $0 { true } else { false } } == true)
            #expect(recorder.subscription == nil && upstream.cancelCount == 1, "the subscription after the completion is cancelled")
            return
        }
        #expect(recorder.completion == nil)
        #expect(upstream.cancelCount == 0, "a cancel before the subscription is ignored, so this one is taken")
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test("""
        before the subscription, the end of output(in:)'s range and tryMap's error end nothing: values past the range are \
        dropped, and the upstream's completion goes down once its subscription has come
        """)
    func stepEndsBeforeTheSubscriptionAreIgnored() throws {
        let handing = Handing()
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none, demandPerValue: .max(42))
        handing.output(in: 1..<3).subscribe(recorder)
        let subscriber = try #require(handing.subscriber)
        #expect(subscriber.receive(1) == .max(1))
        #expect(subscriber.receive(2) == .max(42))
        #expect(subscriber.receive(3) == .max(42), "the last of the range is answered with the downstream's demand")
        #expect(subscriber.receive(4) == .none)
        #expect(recorder.values == [2, 3] && recorder.completion == nil, "the range's end before the subscription finished")
        let upstream = LoggingSubscription()
        subscriber.receive(subscription: upstream)
        #expect(recorder.subscription != nil && upstream.cancelCount == 0)
        subscriber.receive(completion: .finished)
        #expect(recorder.completion == .finished)

        let throwing = Handing()
        let failures = RecordingSubscriber<Int, any Error>(initialDemand: .none)
        throwing.tryMap { value -> Int in if value == 1 { throw Oops() }; return value }.subscribe(failures)
        let tryMapSubscriber = try #require(throwing.subscriber)
        #expect(tryMapSubscriber.receive(1) == .none)
        _ = tryMapSubscriber.receive(2)
        #expect(failures.values == [2] && failures.completion == nil, "the error before the subscription failed the stream")
    }

    @Test("""
        an operator's subscriber mirrors what Combine's shows: nothing for map, filter, tryMap, drop, output(in:); \
        the downstream for tryFilter and prefix(while:); encode adds whether it finished and the upstream subscription; \
        map over key paths shows them, assertNoFailure where it was made
        """)
    func mirrorsShowCombinesChildren() throws {
        let cases: [(name: String, make: (Handing) -> AnyPublisher<Int, any Error>, labels: [String])] = [
            ("map", { $0.map { $0 }.mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("filter", { $0.filter { _ in true }.mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("compactMap", { $0.compactMap { $0 }.mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("setFailureType", { $0.mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("tryMap", { $0.tryMap { $0 }.eraseToAnyPublisher() }, []),
            ("dropFirst", { $0.dropFirst().mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("drop(while:)", { $0.drop { _ in false }.mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("output(in:)", { $0.output(in: 0..<3).mapError { $0 as any Error }.eraseToAnyPublisher() }, []),
            ("tryFilter", { $0.tryFilter { _ in true }.eraseToAnyPublisher() }, ["downstream"]),
            ("prefix(while:)", { $0.prefix { _ in true }.mapError { $0 as any Error }.eraseToAnyPublisher() }, ["downstream"]),
            ("encode", { $0.encode(encoder: TextEncoder()).map { Int($0)! }.eraseToAnyPublisher() },
             ["downstream", "finished", "upstreamSubscription"]),
            ("map(\\.self)", { $0.map(\.self).mapError { $0 as any Error }.eraseToAnyPublisher() }, ["keyPath"]),
            ("map(\\.self, \\.bitWidth)", { $0.map(\.self, \.bitWidth).map(\.0).mapError { $0 as any Error }.eraseToAnyPublisher() },
             ["keyPath0", "keyPath1"]),
            ("assertNoFailure", { $0.assertNoFailure("P").setFailureType(to: (any Error).self).eraseToAnyPublisher() },
             ["file", "line", "prefix"]),
        ]
        for entry in cases {
            let handing = Handing()
            let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .none)
            entry.make(handing).subscribe(recorder)
            let raw = try #require(handing.raw, "\(entry.name)")
            let subscriber = try #require(raw as? any CustomReflectable, "\(entry.name)")
            #expect(subscriber.customMirror.children.map { $0.label ?? "" } == entry.labels, "\(entry.name)")
            // The operator and the recorder hold each other (dropFirst hands its subscription
            // down at once) until a cancel, which an operator ignores before its upstream's subscription.
            try #require(handing.subscriber).receive(subscription: LoggingSubscription())
            recorder.cancel()
        }
        let keyPaths = Handing()
        keyPaths.map(\.self).subscribe(RecordingSubscriber<Int, Oops>(initialDemand: .none))
        #expect(String(describing: try #require(keyPaths.raw)) == "ValueForKey", "Combine's name for map over a key path")
        // encode's children change with the stream.
        let handing = Handing()
        let recorder = RecordingSubscriber<String, any Error>(initialDemand: .none)
        handing.encode(encoder: TextEncoder()).subscribe(recorder)
        let raw = try #require(handing.raw)
        let coder = try #require(raw as? any CustomReflectable)
        func value(_ label: String) -> String {
            String(describing: coder.customMirror.children.first { $0.label == label }?.value ?? "absent")
        }
        #expect(value("finished") == "false" && value("upstreamSubscription") == "nil")
        try #require(handing.subscriber).receive(subscription: LoggingSubscription())
        #expect(value("upstreamSubscription").contains("LoggingSubscription"))
        try #require(handing.subscriber).receive(completion: .finished)
        #expect(value("finished") == "true" && value("downstream") == "nil")
    }

    @Test("tryFilter traps on a value before its subscription, naming rule 1", .exitTest)
    func trapOnEarlyValue() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let handing = Handing()
            handing.tryFilter { _ in true }.subscribe(RecordingSubscriber<Int, any Error>())
            _ = handing.subscriber?.receive(1)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("TryFilter received a signal before its subscription (rule 1)"))
        }
    }

    @Test("drop(while:) traps on a request of .none, as Combine's does; tryMap passes it on", .exitTest)
    func zeroDemand() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            upstream.drop { _ in true }.subscribe(recorder)
            recorder.subscription?.request(.none)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("request(.max(0))"))
        }
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.tryMap { $0 }.subscribe(recorder)
        recorder.subscription?.request(.none)
        #expect(upstream.subscriptions[0].requests == [.none])
    }

    @Test("removeDuplicates traps on a request before its subscription, naming rule 1", .exitTest)
    func trapOnEarlyRequest() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let handing = Handing()
            handing.removeDuplicates().subscribe(RecordingSubscriber<Int, Oops>(initialDemand: .none))
            // The operator's subscriber is also the subscription it hands down (Combine's shape).
            (handing.raw as? any Subscription)?.request(.max(1))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("RemoveDuplicates was asked for demand before it received its upstream subscription (rule 1)"))
        }
    }
}
