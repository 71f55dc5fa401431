import Sluice
import SluiceTesting
import Testing

/// Every one-shot subscriber of the package, attached the way users attach it. Each entry is
/// one `attach` closure: it subscribes to the given publisher (counting the values that reach
/// the subscriber's code) and returns how to cancel; the rules in Rules/SubscriberRules.swift
/// run it against test upstreams. Adding a subscriber is adding one `entry(…)` here.
struct SubscriberEntry: Sendable, CustomTestStringConvertible {
    /// Attaches a subscriber to `publisher`; returns how to cancel it (which also keeps it
    /// alive) and how to wait until its code can run no more.
    typealias Attach<F: Error> = @Sendable (Unchecked<AnyPublisher<Int, F>>, ValueCounter) async -> Attached

    /// Rule 2.5: how many times each of two subscriptions was cancelled.
    struct SecondSubscriptionOutcome: Equatable {
        var first: Int
        var second: Int
    }

    /// Rules 3.5/3.12: after cancelling twice, the upstream's cancels and the values sent after
    /// the cancel that reached the subscriber's code.
    struct CancelOutcome: Equatable {
        var upstreamCancels: Int
        var valuesAfterCancel: Int
    }

    /// Rule 3.13 for subscribers: whether the upstream subscription was let go.
    struct ReleaseOutcome: Equatable {
        var afterCancel: Bool
        var afterCompletion: Bool
    }

    let name: String
    let secondSubscription: @Sendable () async -> SecondSubscriptionOutcome
    let cancelTwice: @Sendable () async -> CancelOutcome
    let release: @Sendable () async -> ReleaseOutcome

    var testDescription: String { name }

    static func entry<F: Error>(_ name: String, _ failure: F.Type, attach: @escaping Attach<F>) -> SubscriberEntry {
        SubscriberEntry(
            name: name,
            secondSubscription: { await checkSecondSubscription(attach) },
            cancelTwice: { await checkCancelTwice(attach) },
            release: { await checkRelease(attach) })
    }

    private static func checkSecondSubscription<F: Error>(_ attach: Attach<F>) async -> SecondSubscriptionOutcome {
        let publisher = TwiceSubscribing<F>()
        let attached = await attach(Unchecked(AnyPublisher(publisher)), ValueCounter())
        _ = await eventually { (publisher.second.subscriptions.first?.cancelCount ?? 0) > 0 }
        let outcome = SecondSubscriptionOutcome(
            first: publisher.first.subscriptions.first?.cancelCount ?? -1,
            second: publisher.second.subscriptions.first?.cancelCount ?? -1)
        attached.cancel()
        publisher.first.detachAll()
        publisher.second.detachAll()
        return outcome
    }

    private static func checkCancelTwice<F: Error>(_ attach: Attach<F>) async -> CancelOutcome {
        let publisher = ControllablePublisher<Int, F>()
        defer { publisher.detachAll() }
        let counter = ValueCounter()
        let attached = await attach(Unchecked(AnyPublisher(publisher)), counter)
        _ = await eventually { !publisher.subscriptions.isEmpty }  // awaiters subscribe in a task
        guard let subscription = publisher.subscriptions.first else {
            return CancelOutcome(upstreamCancels: -1, valuesAfterCancel: -1)
        }
        attached.cancel()
        attached.cancel()
        _ = await eventually { subscription.cancelCount > 0 }
        let before = counter.count
        subscription.send(1)  // a value already on its way when the cancel came
        // Until the subscriber's code can run no more (its task ended, its closure was
        // released), the value could still reach it: only then is the count final.
        await attached.settled()
        return CancelOutcome(upstreamCancels: subscription.cancelCount, valuesAfterCancel: counter.count - before)
    }

    private static func checkRelease<F: Error>(_ attach: Attach<F>) async -> ReleaseOutcome {
        var outcome = ReleaseOutcome(afterCancel: false, afterCompletion: false)
        do {
            let publisher = WeakUpstream<F>()
            var attached: Attached? = await attach(Unchecked(AnyPublisher(publisher)), ValueCounter())
            guard await eventually({ publisher.isSubscribed }) else { return outcome }
            attached?.cancel()
            attached = nil
            outcome.afterCancel = await eventually { !publisher.isSubscribed }
            publisher.complete()  // lets a subscriber that kept it go, so it does not leak
        }
        do {
            let publisher = WeakUpstream<F>()
            let attached = await attach(Unchecked(AnyPublisher(publisher)), ValueCounter())
            guard await eventually({ publisher.isSubscribed }) else { return outcome }
            publisher.complete()
            outcome.afterCompletion = await eventually { !publisher.isSubscribed }
            withExtendedLifetime(attached) {}  // the subscriber lives on; only the subscription must go
        }
        return outcome
    }
}

/// A subscriber attached by a ``SubscriberEntry``: how to cancel it, and how to wait until its
/// code can run no more.
struct Attached: Sendable {
    let cancel: @Sendable () -> Void
    /// Returns once nothing can reach the subscriber's code: at once for a subscriber called
    /// synchronously, when the loop's task ended, when an isolated sink released its closure.
    var settled: @Sendable () async -> Void = {}
}

/// Opens a gate when the closure that holds it is released.
final class ClosureLifetime: Sendable {
    let released = ReleaseGate()
    deinit { released.open() }
}

/// Counts the values a subscriber's code saw.
final class ValueCounter: Sendable {
    private let state = Locked(0)
    var count: Int { state.withLock { $0 } }
    func bump() { state.withLock { $0 += 1 } }
}

/// An object for `Subscribers.Assign` that counts the assignments.
final class CountingObject: @unchecked Sendable {
    // @unchecked Sendable: `value` is written only by Assign, one value at a time (rule 3).
    let counter: ValueCounter
    init(_ counter: ValueCounter) { self.counter = counter }
    var value = 0 { didSet { counter.bump() } }
}

enum SubscriberRegistry {
    static let all: [SubscriberEntry] = [
        .entry("Subscribers.Sink", TestFailure.self) { publisher, counter in
            let cancellable = Unchecked(publisher.value.sink(receiveCompletion: { _ in }, receiveValue: { _ in counter.bump() }))
            return Attached { cancellable.value.cancel() }
        },
        .entry("Subscribers.Assign", Never.self) { publisher, counter in
            let cancellable = Unchecked(publisher.value.assign(to: \.value, on: CountingObject(counter)))
            return Attached { cancellable.value.cancel() }
        },
        .entry("subscribe(PassthroughSubject)", TestFailure.self) { publisher, counter in
            let subject = PassthroughSubject<Int, TestFailure>()
            let output = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in counter.bump() })
            // The subject too: `subscribe(_:)` holds it weakly, and its deinit cancels the input.
            let input = Unchecked((publisher.value.subscribe(subject), output, subject))
            return Attached { input.value.0.cancel() }
        },
    ] + ValuesVariant.allCases.map { variant in
        .entry(variant.name, TestFailure.self) { publisher, counter in
            let loop = Task {
                do {
                    for try await _ in variant.apply(publisher.value) { counter.bump() }
                } catch {}
            }
            return Attached(cancel: { loop.cancel() }, settled: { await loop.value })
        }
    } + [
        .entry("firstValue()", TestFailure.self) { publisher, counter in
            let task = Task { if (try? await publisher.value.firstValue()) != nil { counter.bump() } }
            return Attached(cancel: { task.cancel() }, settled: { await task.value })
        },
        .entry("lastValue()", TestFailure.self) { publisher, counter in
            let task = Task { if (try? await publisher.value.lastValue()) != nil { counter.bump() } }
            return Attached(cancel: { task.cancel() }, settled: { await task.value })
        },
        .entry("onlyValue()", TestFailure.self) { publisher, counter in
            let task = Task { if (try? await publisher.value.onlyValue()) != nil { counter.bump() } }
            return Attached(cancel: { task.cancel() }, settled: { await task.value })
        },
        .entry("sink(isolation:)", TestFailure.self) { publisher, counter in
            let lifetime = ClosureLifetime()
            let released = lifetime.released
            let cancellable = await MainActor.run {
                Unchecked(publisher.value.sink(isolation: MainActor.shared, receiveCompletion: { _ in },
                                               receiveValue: { _ in _ = lifetime; counter.bump() }))
            }
            return Attached(cancel: { cancellable.value.cancel() }, settled: {
                let released = await released.wait()
                #expect(released, "cancelled (by the time limit?) before the sink released its closures")
            })
        },
        .entry("sink(isolation:bufferingPolicy:)", TestFailure.self) { publisher, counter in
            let lifetime = ClosureLifetime()
            let released = lifetime.released
            let cancellable = await MainActor.run {
                Unchecked(publisher.value.sink(isolation: MainActor.shared, bufferingPolicy: .bufferingNewest(8),
                                               receiveCompletion: { _ in },
                                               receiveValue: { _ in _ = lifetime; counter.bump() }))
            }
            return Attached(cancel: { cancellable.value.cancel() }, settled: {
                let released = await released.wait()
                #expect(released, "cancelled (by the time limit?) before the sink released its closures")
            })
        },
    ]
}
