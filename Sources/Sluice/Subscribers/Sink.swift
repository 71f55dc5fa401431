import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// Usually made by ``Publisher/sink(receiveCompletion:receiveValue:)``. A second
    /// subscription is cancelled, as in Combine. After ``cancel()`` no more values or
    /// completion reach the closures.
    ///
    /// ```swift
    /// let sink = Subscribers.Sink<Int, Never>(
    ///     receiveCompletion: { print("completion:", $0) },
    ///     receiveValue: { print("value:", $0) })
    /// [1, 2].publisher.subscribe(sink)
    /// ```
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The closure to execute on receipt of a value.
        ///
        /// ```swift
        /// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
        /// sink.receiveValue(1)   // calls the closure directly: prints 1
        /// ```
        public let receiveValue: (Input) -> Void

        /// The closure to execute on completion.
        ///
        /// ```swift
        /// sink.receiveCompletion(.finished)   // calls the closure directly
        /// ```
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        /// Set once, when the sink completes or is cancelled; read on every value without a lock.
        @usableFromInline
        internal let isTerminated = Atomic<Bool>(false)

        private let subscription = Locked(SubscriptionSlot.awaiting)

        /// Creates a sink with the closures to run on completion and on each value.
        ///
        /// ```swift
        /// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
        /// ```
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// Stores the subscription and requests `.unlimited`; a second one is cancelled.
        ///
        /// ```swift
        /// [1, 2].publisher.subscribe(sink)   // receive(subscription:) requests .unlimited
        /// ```
        public func receive(subscription: any Subscription) {
            if self.subscription.withLock({ $0.attach(subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Runs `receiveValue` unless the sink has completed or been cancelled.
        ///
        /// ```swift
        /// Just(1).subscribe(sink)   // receive(_:) runs receiveValue: prints 1
        /// ```
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if !isTerminated.load(ordering: .acquiring) {
                receiveValue(value)
            }
            return .none
        }

        /// Runs `receiveCompletion` once, unless the sink was cancelled.
        ///
        /// ```swift
        /// Empty<Int, Never>().subscribe(sink)   // receive(completion:) runs receiveCompletion
        /// ```
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard subscription.withLock({ $0.terminate() }) != nil else { return }
            isTerminated.store(true, ordering: .releasing)
            receiveCompletion(completion)
        }

        /// Cancels the subscription; nothing reaches the closures afterwards. Idempotent.
        ///
        /// ```swift
        /// sink.cancel()
        /// ```
        public func cancel() {
            guard let upstream = subscription.withLock({ $0.terminate() }) else { return }
            isTerminated.store(true, ordering: .releasing)
            upstream?.cancel()
        }

        /// `"Sink"`, as Combine prints it.
        ///
        /// ```swift
        /// print(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))   // Sink
        /// ```
        public var description: String { "Sink" }

        /// An empty mirror, as Combine shows it.
        ///
        /// ```swift
        /// Mirror(reflecting: sink).children.isEmpty   // true
        /// ```
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// `"Sink"`, as Combine prints it.
        ///
        /// ```swift
        /// sink.playgroundDescription as? String   // "Sink"
        /// ```
        public var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior; it requests unlimited values.
    ///
    /// Keep the returned ``AnyCancellable``: deinitializing it cancels the subscription.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink(
    ///     receiveCompletion: { print("completion:", $0) },
    ///     receiveValue: { print("value:", $0) })
    /// ```
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    ///
    /// ```swift
    /// let cancellable = Just(1).sink { print($0) }
    /// ```
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
