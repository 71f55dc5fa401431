import Sluice

extension Publishers {
    /// A publisher whose values come from a closure that gets a ``Subscriber`` handle and sends to it
    /// (CombineExt's `Publishers.Create`): the closure runs once per subscription and returns a `Cancellable`
    /// that cleans up what it started.
    ///
    /// - Demand: the closure may send at any time, with or without demand. What the subscriber has not asked
    ///   for yet waits in a buffer without bound, oldest first, and goes out as the subscriber asks. For a
    ///   source that can wait for demand, use `Publishers.Emitting`, whose emitter refuses values beyond it.
    /// - Endings: `.finished` reaches the subscriber after the buffered values; a failure reaches it at once,
    ///   dropping what is still buffered. Sends after the completion are ignored (CombineExt traps on them).
    /// - Threads: the closure runs on the subscribing thread, after the subscriber has its subscription (and
    ///   any request made in `receive(subscription:)`). The handle may be used from any thread where `Output`
    ///   is `Sendable`; each signal reaches the subscriber on the thread that sent it, or of the request that
    ///   let it out of the buffer, one at a time and in order.
    /// - Cleanup: the returned `Cancellable` is cancelled once, on cancel or after the completion (CombineExt
    ///   cancels it only on cancel); a cancel during the closure takes effect as soon as it returns.
    ///
    /// <!-- snippet: CreateWithCleanup -->
    /// ```swift
    /// let lines = AnyPublisher<String, Never>.create { subscriber in
    ///     let token = log.observe { line in subscriber.send(line) }
    ///     return AnyCancellable { log.remove(token) }
    /// }
    /// let recorder = RecordingSubscriber<String, Never>(initialDemand: .max(1))
    /// lines.subscribe(recorder)
    /// log.append("first")
    /// log.append("second")              // buffered: the recorder asked for one
    /// #expect(recorder.values == ["first"])
    /// recorder.request(.max(1))
    /// #expect(recorder.values == ["first", "second"])
    /// recorder.cancel()                 // the observer is removed
    /// #expect(log.observerCount == 0)
    /// ```
    public struct Create<Output, Failure: Error>: Publisher {
        /// The closure run for each subscription: it gets the handle to send with and returns what to cancel
        /// when the subscription ends.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        private let factory: SubscriberHandler

        /// Creates the publisher; `factory` runs once per subscription.
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        /// Subscribes `subscriber` through a buffer, then runs the factory.
        public func receive<S: Sluice.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subject = PassthroughSubject<Output, Failure>()
            let cleanup = CreateCleanup()
            subject
                .buffer(size: .max, prefetch: .byRequest, whenFull: .dropNewest)
                .handleEvents(
                    receiveCompletion: { _ in cleanup.end() }, receiveCancel: { cleanup.end() }, isolation: nil)
                .subscribe(subscriber)
            cleanup.start(factory(Subscriber(subject: subject)))
        }
    }
}

extension Publishers.Create {
    /// The handle a ``Publishers/Create`` closure sends with (CombineExt's `Publishers.Create.Subscriber`).
    /// Sends beyond the subscriber's demand are buffered; sends after a completion or a cancel are ignored.
    public struct Subscriber {
        let subject: PassthroughSubject<Output, Failure>

        /// Sends a value: delivered now if the subscriber has demand and nothing is buffered, else buffered.
        public func send(_ input: Output) {
            subject.send(input)
        }

        /// Ends the stream: `.finished` after the buffered values, a failure at once.
        public func send(completion: Subscribers.Completion<Failure>) {
            subject.send(completion: completion)
        }
    }
}

extension Publishers.Create.Subscriber: Sendable where Output: Sendable {}

extension AnyPublisher {
    /// A type-erased ``Publishers/Create`` (CombineExt's initialiser): `factory` runs once per subscription with
    /// a handle to send values and a completion, and returns the `Cancellable` run when the subscription ends.
    public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
        self = Publishers.Create(factory: factory).eraseToAnyPublisher()
    }

    /// A type-erased ``Publishers/Create`` (CombineExt's `create`); see it for demand, threads and cleanup.
    public static func create(
        _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(factory)
    }
}

/// The factory's `Cancellable`, run once when the subscription ends (at once if it ended before the factory returned).
final class CreateCleanup: Sendable {
    private struct State {
        var cancellable: AnyCancellable?
        var ended = false
    }

    private let state = Locked(State())

    func start(_ cancellable: any Cancellable) {
        let erased = AnyCancellable(cancellable)
        let late = state.withLock { state -> AnyCancellable? in
            guard !state.ended else { return erased }
            state.cancellable = erased
            return nil
        }
        late?.cancel()
    }

    func end() {
        let cancellable = state.withLock { state -> AnyCancellable? in
            state.ended = true
            defer { state.cancellable = nil }
            return state.cancellable
        }
        cancellable?.cancel()
    }
}
