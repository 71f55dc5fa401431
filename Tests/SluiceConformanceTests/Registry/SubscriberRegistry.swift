@_spi(Internals) import Sluice
import SluiceTesting
import Testing

/// A publisher that hands whoever subscribes two subscriptions, one from each of two
/// controllable publishers: the misuse Reactive Streams rule 2.5 guards against.
final class TwiceSubscribing<Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked Sendable: both controllable publishers keep their state behind a lock.
    typealias Output = Int
    let first = ControllablePublisher<Int, Failure>()
    let second = ControllablePublisher<Int, Failure>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        first.receive(subscriber: subscriber)
        second.receive(subscriber: subscriber)
    }
}

/// Every one-shot subscriber of the package: each entry attaches one to a publisher and
/// returns what keeps it alive (and, for the awaiters, the task to cancel at the end).
struct SubscriberEntry: Sendable, CustomTestStringConvertible {
    /// How many times each of the two subscriptions was cancelled.
    struct Outcome: Equatable {
        var first: Int
        var second: Int
    }

    /// After cancelling twice: how many cancels the upstream got, and how many values sent
    /// after the cancel reached the subscriber's code.
    struct CancelOutcome: Equatable {
        var upstreamCancels: Int
        var valuesAfterCancel: Int
    }

    let name: String
    /// Rule 2.5: attach to a publisher that subscribes twice.
    let run: @Sendable () async -> Outcome
    /// Rule 3.5/3.13 for subscribers: attach, cancel twice, then send a value.
    let cancelRun: @Sendable () async -> CancelOutcome

    var testDescription: String { name }

    init(name: String, run: @escaping @Sendable () async -> Outcome,
         cancelRun: @escaping @Sendable () async -> CancelOutcome) {
        self.name = name
        self.run = run
        self.cancelRun = cancelRun
    }

    /// Attaches a subscriber with `attach`, waits (yielding, bounded) until the second
    /// subscription has been dealt with, and reports the cancels.
    static func check<F: Error>(
        _ failure: F.Type, _ attach: @escaping @Sendable (TwiceSubscribing<F>) async -> Unchecked<Any>
    ) -> @Sendable () async -> Outcome {
        return {
            let publisher = TwiceSubscribing<F>()
            let kept = await attach(publisher)
            _ = await eventually { (publisher.second.subscriptions.first?.cancelCount ?? 0) > 0 }
            let outcome = Outcome(
                first: publisher.first.subscriptions.first?.cancelCount ?? -1,
                second: publisher.second.subscriptions.first?.cancelCount ?? -1)
            if let task = kept.value as? Task<Void, Never> { task.cancel() }
            withExtendedLifetime(kept) {}
            return outcome
        }
    }
}

extension SubscriberEntry {
    /// Attaches a subscriber with `attach` (given a counter its code bumps for each value; it
    /// returns how to cancel it), cancels twice, sends a value, and reports what happened.
    static func cancelling<F: Error>(
        _ failure: F.Type,
        _ attach: @escaping @Sendable (ControllablePublisher<Int, F>, ValueCounter) async -> @Sendable () -> Void
    ) -> @Sendable () async -> CancelOutcome {
        return {
            let publisher = ControllablePublisher<Int, F>()
            let counter = ValueCounter()
            let cancel = await attach(publisher, counter)
            _ = await eventually { !publisher.subscriptions.isEmpty }  // awaiters subscribe in a task
            guard let subscription = publisher.subscriptions.first else { return CancelOutcome(upstreamCancels: -1, valuesAfterCancel: -1) }
            cancel()
            cancel()
            _ = await eventually { subscription.cancelCount > 0 }
            let before = counter.count
            subscription.send(1)
            await Task.yield()
            return CancelOutcome(upstreamCancels: subscription.cancelCount, valuesAfterCancel: counter.count - before)
        }
    }
}

/// Counts the values a subscriber's code saw.
final class ValueCounter: Sendable {
    private let state = Locked(0)
    var count: Int { state.withLock { $0 } }
    func bump() { state.withLock { $0 += 1 } }
}

/// The object `Subscribers.Assign` writes to.
final class IdleObject: @unchecked Sendable {
    // @unchecked Sendable: `value` is only written by Assign in these tests, on one thread.
    var value = 0
}

enum SubscriberRegistry {
    static let all: [SubscriberEntry] = [
        SubscriberEntry(
            name: "Subscribers.Sink",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                Unchecked(publisher.sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let cancellable = Unchecked(publisher.sink(receiveCompletion: { _ in }, receiveValue: { _ in counter.bump() }))
                return { cancellable.value.cancel() }
            }),
        SubscriberEntry(
            name: "Subscribers.Assign",
            run: SubscriberEntry.check(Never.self) { publisher in
                Unchecked(publisher.assign(to: \.value, on: IdleObject()))
            },
            cancelRun: SubscriberEntry.cancelling(Never.self) { publisher, counter in
                let object = CountingObject(counter)
                let cancellable = Unchecked(publisher.assign(to: \.value, on: object))
                return { cancellable.value.cancel() }
            }),
        SubscriberEntry(
            name: "subscribe(PassthroughSubject)",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                let subject = PassthroughSubject<Int, TestFailure>()
                return Unchecked((subject, publisher.subscribe(subject)))
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let subject = PassthroughSubject<Int, TestFailure>()
                let output = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in counter.bump() })
                let input = Unchecked((publisher.subscribe(subject), output))
                return { input.value.0.cancel() }
            }),
    ] + ValuesVariant.allCases.map { variant in
        SubscriberEntry(
            name: variant.name,
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                Unchecked(variant.apply(publisher).makeAsyncIterator())
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let upstream = Unchecked(publisher)  // its state is behind a lock
                let loop = Task {
                    do {
                        for try await _ in variant.apply(upstream.value) { counter.bump() }
                    } catch {}
                }
                return { loop.cancel() }
            })
    } + [
        SubscriberEntry(
            name: "firstValue()",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                Unchecked(Task { _ = try? await publisher.firstValue() })
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let upstream = Unchecked(publisher)  // its state is behind a lock
                let task = Task { if (try? await upstream.value.firstValue()) != nil { counter.bump() } }
                return { task.cancel() }
            }),
        SubscriberEntry(
            name: "lastValue()",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                Unchecked(Task { _ = try? await publisher.lastValue() })
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let upstream = Unchecked(publisher)  // its state is behind a lock
                let task = Task { if (try? await upstream.value.lastValue()) != nil { counter.bump() } }
                return { task.cancel() }
            }),
        SubscriberEntry(
            name: "onlyValue()",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                Unchecked(Task { _ = try? await publisher.onlyValue() })
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let upstream = Unchecked(publisher)  // its state is behind a lock
                let task = Task { if (try? await upstream.value.onlyValue()) != nil { counter.bump() } }
                return { task.cancel() }
            }),
        SubscriberEntry(
            name: "sink(isolation:)",
            run: SubscriberEntry.check(TestFailure.self) { publisher in
                await MainActor.run {
                    Unchecked(publisher.sink(isolation: MainActor.shared, receiveCompletion: { _ in }, receiveValue: { _ in }))
                }
            },
            cancelRun: SubscriberEntry.cancelling(TestFailure.self) { publisher, counter in
                let upstream = Unchecked(publisher)  // its state is behind a lock
                let cancellable = await MainActor.run {
                    Unchecked(upstream.value.sink(isolation: MainActor.shared, receiveCompletion: { _ in },
                                             receiveValue: { _ in counter.bump() }))
                }
                return { cancellable.value.cancel() }
            }),
    ]
}

/// An object for `Subscribers.Assign` that counts the assignments.
final class CountingObject: @unchecked Sendable {
    // @unchecked Sendable: `value` is written only by Assign, one value at a time (rule 3).
    let counter: ValueCounter
    init(_ counter: ValueCounter) { self.counter = counter }
    var value = 0 { didSet { counter.bump() } }
}
