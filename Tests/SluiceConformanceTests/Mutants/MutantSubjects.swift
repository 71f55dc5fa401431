import Sluice
import SluiceTesting

/// A broken subject: `send` calls every subscriber at once, on the sending thread, whatever
/// their demand and whatever else is being delivered (rules 2 and 3).
///
/// `@unchecked Sendable`: its one stored property, the subscribers, is behind a lock; what
/// it does wrong is when it calls them, which the recorders under test are built to take.
final class UnguardedSubject<Output: Sendable, Failure: Error>: Subject, @unchecked Sendable {
    private let subscribers = Locked<[AnySubscriber<Output, Failure>]>([])

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribers.withLock { $0.append(AnySubscriber(subscriber)) }
        subscriber.receive(subscription: Subscriptions.empty)
    }

    func send(_ value: Output) {
        for subscriber in subscribers.withLock({ $0 }) { _ = subscriber.receive(value) }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let ended = subscribers.withLock { subscribers in
            defer { subscribers = [] }
            return subscribers
        }
        for subscriber in ended { subscriber.receive(completion: completion) }
    }

    func send(subscription: any Subscription) { subscription.request(.unlimited) }
}

/// A subject that loses demand: it forwards to a real subject, but its subscribers'
/// subscriptions forget one request in `every` (the stress tests must see the demand lost).
final class RequestDroppingSubject<Base: Subject & Sendable>: Subject, Sendable {
    typealias Output = Base.Output
    typealias Failure = Base.Failure

    let base: Base
    let every: Int

    init(_ base: Base, every: Int) {
        self.base = base
        self.every = every
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        base.receive(subscriber: Forwarder(downstream: subscriber, every: every))
    }

    func send(_ value: Output) { base.send(value) }
    func send(completion: Subscribers.Completion<Failure>) { base.send(completion: completion) }
    func send(subscription: any Subscription) { base.send(subscription: subscription) }

    private struct Forwarder<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let downstream: Downstream
        let every: Int
        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: Dropping(base: subscription, every: every))
        }

        func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
        func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    }

    private final class Dropping: Subscription {
        let base: any Subscription
        let every: Int
        private let requests = Locked(0)

        init(base: any Subscription, every: Int) {
            self.base = base
            self.every = every
        }

        func request(_ demand: Subscribers.Demand) {
            let number = requests.withLock { count in
                count += 1
                return count
            }
            if !number.isMultiple(of: every) { base.request(demand) }
        }

        func cancel() { base.cancel() }
    }
}

/// A subject that never delivers the values of sender 1 (what a lossy bridge would look like
/// to the values stress test).
final class SenderDroppingSubject: Subject, Sendable {
    typealias Output = Tagged
    typealias Failure = Never

    private let base = PassthroughSubject<Tagged, Never>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Tagged, S.Failure == Never {
        base.receive(subscriber: subscriber)
    }

    func send(_ value: Tagged) {
        if value.sender != 1 { base.send(value) }
    }

    func send(completion: Subscribers.Completion<Never>) { base.send(completion: completion) }
    func send(subscription: any Subscription) { base.send(subscription: subscription) }
}

extension SenderDroppingSubject: SendableTaggedSubject {}
extension RequestDroppingSubject: SendableTaggedSubject where Base.Output == Tagged, Base.Failure == Never {}

/// A broken bridge: a publisher of `sequence` that reads one element ahead of what it sends,
/// so one more than the demand is read.
func readingAheadPublisher<S: AsyncSequence & Sendable>(_ sequence: S) -> AnyPublisher<S.Element, Never>
where S.Element: Sendable, S.Failure == Never {
    AnyPublisher(Producer<S.Element, Never> { sender in
        var iterator = sequence.makeAsyncIterator()
        var next = await iterator.next(isolation: nil)
        while let value = next {
            next = await iterator.next(isolation: nil)
            guard await sender.send(value) else { return }
        }
    })
}
