extension Publishers {
    /// A publisher built from a closure that produces values on demand, without writing a `Subscription`
    /// class: the closure gets an ``Emitter`` (named after RxJava's emitter for `Observable.create`) that
    /// shows the outstanding demand, reports new requests and cancellation, and refuses values beyond the
    /// demand. The body runs once per subscriber, right after the subscriber has received its subscription.
    ///
    /// <!-- snippet: CreateFromValues -->
    /// ```swift
    /// let numbers = Publishers.Emitting<Int, Never> { emitter in
    ///     let source = Mutex((values: [3, 2, 1], out: 0))   // import Synchronization
    ///     emitter.onRequest { _ in
    ///         // onRequest can run re-entrantly and on several threads: take a value out
    ///         // before sending it, put it back if refused (and retry if demand came
    ///         // meanwhile), and finish once no value is left or out.
    ///         while let next = source.withLock({ s in s.values.popLast().map { s.out += 1; return $0 } }) {
    ///             let sent = emitter.send(next)
    ///             source.withLock { s in s.out -= 1; if !sent { s.values.append(next) } }
    ///             if !sent && emitter.demand == .none { return }
    ///         }
    ///         if source.withLock({ $0.values.isEmpty && $0.out == 0 }) { emitter.send(completion: .finished) }
    ///     }
    /// }
    /// ```
    public struct Emitting<Output, Failure: Error>: Publisher {
        /// The closure run for each subscriber.
        public let body: (Emitter) -> Void

        /// Creates a publisher that runs `body` for each subscriber.
        public init(_ body: @escaping (Emitter) -> Void) {
            self.body = body
        }

        /// Hands the subscriber its subscription, then runs the body with its emitter.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let emitter = Emitter(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: EmittingSubscription(emitter: emitter))
            body(emitter)
        }
    }
}

extension AnyPublisher {
    /// Creates a type-erased publisher from a demand-aware emitter closure; see ``Publishers/Emitting``.
    public static func emitting(
        _ body: @escaping (Publishers.Emitting<Output, Failure>.Emitter) -> Void
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(Publishers.Emitting(body))
    }
}

/// The subscription a ``Publishers/Emitting`` subscriber holds; it forwards to the emitter.
@usableFromInline
final class EmittingSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline let emitter: Publishers.Emitting<Output, Failure>.Emitter

    @inlinable
    init(emitter: Publishers.Emitting<Output, Failure>.Emitter) {
        self.emitter = emitter
    }

    @inlinable func request(_ demand: Subscribers.Demand) { emitter.request(demand) }
    @inlinable func cancel() { emitter.cancel() }

    @usableFromInline var description: String { "Emitting" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: ["demand": emitter.demand]) }
    @usableFromInline var playgroundDescription: Any { description }
}
