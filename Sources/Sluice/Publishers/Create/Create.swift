extension Publishers {
    /// A publisher built from a closure that produces values on demand, without writing a
    /// `Subscription` class: the closure gets a ``Producer`` that shows the outstanding demand,
    /// reports new requests and cancellation, and refuses values beyond the demand.
    ///
    /// The body runs once per subscriber, right after the subscriber has received its
    /// subscription.
    ///
    /// ```swift
    /// let countdown = Publishers.Create<Int, Never> { producer in
    ///     var next = 3
    ///     producer.onRequest { _ in
    ///         while next > 0, producer.send(next) { next -= 1 }
    ///         if next == 0 { producer.send(completion: .finished) }
    ///     }
    /// }
    /// ```
    public struct Create<Output, Failure: Error>: Publisher {
        /// The closure run for each subscriber.
        ///
        /// ```swift
        /// let body: (Publishers.Create<Int, Never>.Producer) -> Void = { $0.send(completion: .finished) }
        /// ```
        public let body: (Producer) -> Void

        /// Creates a publisher that runs `body` for each subscriber.
        ///
        /// ```swift
        /// let publisher = Publishers.Create<Int, Never> { producer in producer.send(completion: .finished) }
        /// ```
        public init(_ body: @escaping (Producer) -> Void) {
            self.body = body
        }

        /// Hands the subscriber its subscription, then runs the body with its producer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let producer = Producer(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: CreateSubscription(producer: producer))
            body(producer)
        }
    }
}

extension AnyPublisher {
    /// Creates a type-erased publisher from a demand-aware producer closure; see
    /// ``Publishers/Create``.
    ///
    /// ```swift
    /// let ticks = AnyPublisher<Int, Never>.create { producer in
    ///     producer.onRequest { _ in while producer.send(1) {} }
    /// }
    /// ```
    public static func create(
        _ body: @escaping (Publishers.Create<Output, Failure>.Producer) -> Void
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(Publishers.Create(body))
    }
}

/// The subscription a ``Publishers/Create`` subscriber holds; it forwards to the producer.
final class CreateSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    private let producer: Publishers.Create<Output, Failure>.Producer

    init(producer: Publishers.Create<Output, Failure>.Producer) {
        self.producer = producer
    }

    func request(_ demand: Subscribers.Demand) { producer.request(demand) }
    func cancel() { producer.cancel() }

    var description: String { "Create" }
    var customMirror: Mirror { Mirror(self, children: ["demand": producer.demand]) }
    var playgroundDescription: Any { description }
}
