import Sluice
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

    let name: String
    let run: @Sendable () async -> Outcome

    var testDescription: String { name }

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

/// The object `Subscribers.Assign` writes to.
final class IdleObject: @unchecked Sendable {
    // @unchecked Sendable: `value` is only written by Assign in these tests, on one thread.
    var value = 0
}

enum SubscriberRegistry {
    static let all: [SubscriberEntry] = [
        SubscriberEntry(name: "Subscribers.Sink", run: SubscriberEntry.check(TestFailure.self) { publisher in
            Unchecked(publisher.sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
        }),
        SubscriberEntry(name: "Subscribers.Assign", run: SubscriberEntry.check(Never.self) { publisher in
            Unchecked(publisher.assign(to: \.value, on: IdleObject()))
        }),
        SubscriberEntry(name: "subscribe(PassthroughSubject)", run: SubscriberEntry.check(TestFailure.self) { publisher in
            let subject = PassthroughSubject<Int, TestFailure>()
            return Unchecked((subject, publisher.subscribe(subject)))
        }),
    ] + ValuesVariant.allCases.map { variant in
        SubscriberEntry(name: variant.name, run: SubscriberEntry.check(TestFailure.self) { publisher in
            Unchecked(variant.apply(publisher).makeAsyncIterator())
        })
    } + [
        SubscriberEntry(name: "firstValue()", run: SubscriberEntry.check(TestFailure.self) { publisher in
            Unchecked(Task { _ = try? await publisher.firstValue() })
        }),
        SubscriberEntry(name: "lastValue()", run: SubscriberEntry.check(TestFailure.self) { publisher in
            Unchecked(Task { _ = try? await publisher.lastValue() })
        }),
        SubscriberEntry(name: "onlyValue()", run: SubscriberEntry.check(TestFailure.self) { publisher in
            Unchecked(Task { _ = try? await publisher.onlyValue() })
        }),
        SubscriberEntry(name: "sink(isolation:)", run: SubscriberEntry.check(TestFailure.self) { publisher in
            await MainActor.run {
                Unchecked(publisher.sink(isolation: MainActor.shared, receiveCompletion: { _ in }, receiveValue: { _ in }))
            }
        }),
    ]
}
