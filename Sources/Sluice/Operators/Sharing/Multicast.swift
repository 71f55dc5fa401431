extension Publishers {
    /// A connectable publisher that shares one subscription of its upstream among all its
    /// subscribers, through a subject.
    ///
    /// The subject is made by ``createSubject`` on first use (the first subscriber or the first
    /// ``connect()``), exactly once, even when threads race to it; the multicast keeps it (a connection
    /// refers to it weakly, as Combine's does). Each subscriber is subscribed to that subject, so it receives
    /// what the subject sends from then on, within its own demand: nothing from before it subscribed, and,
    /// through a `PassthroughSubject`, nothing sent while it has no demand. Nothing flows until
    /// ``connect()``.
    ///
    /// Demand: the upstream sees the subject's demand, not the subscribers'. Sluice's subjects,
    /// as Combine's, request `.unlimited` from the upstream once one of their subscribers has
    /// requested anything, and nothing before.
    ///
    /// Threads and lifetime are the subject's: each subscriber gets the subject's signals as
    /// the subject delivers them (one at a time, on the thread it delivers on), under a subscription
    /// named "Multicast" that forwards its requests and cancel to the subject's. Sluice's
    /// subjects let go of a subscriber once it cancels or completes; a subject of your own
    /// should do the same, or a cancelled subscriber stays alive as long as the subject.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements the subject shares.
        public let upstream: Upstream

        /// Makes the subject; called once, on first use, with no lock held. It must not
        /// subscribe to or connect this multicast (that traps: there is no subject yet).
        public let createSubject: () -> SubjectType

        @usableFromInline let subject = LazySubject<SubjectType>()
        /// A connection holds the subject strongly: for `share()` and `makeConnectable()`, whose subject no
        /// one else can see go (and a strong reference spares each value a weak load).
        @usableFromInline let connectionKeepsSubject: Bool

        /// Creates a multicast of `upstream` through the subject `createSubject` makes.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
            connectionKeepsSubject = false
        }

        /// A multicast whose connections keep its subject alive (`share()`, `makeConnectable()`).
        @usableFromInline
        init(upstream: Upstream, keepingSubject: Void, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
            connectionKeepsSubject = true
        }

        /// Subscribes `subscriber` to the subject; it receives only what the subject sends
        /// after this call, and a subject that has completed sends it the completion at once.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.get(createSubject).receive(subscriber: MulticastSubscriber(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream; cancelling the returned ``AnyCancellable``
        /// cancels that subscription.
        ///
        /// The connection holds the subject weakly, as Combine's does: the multicast and the
        /// subject's subscriptions keep it (Sluice's subjects' subscriptions do, until they
        /// end). Once all have let it go, the subject goes, and the connection passes nothing
        /// on; the upstream's subscription stays until the connection is cancelled.
        ///
        /// Each call subscribes again, as in Combine: connecting twice without cancelling
        /// subscribes the subject to the upstream twice, and a hot upstream's values then
        /// reach the subject (and every subscriber) twice. After the subject has completed,
        /// connecting again subscribes the upstream, but the subject sends nothing more.
        @inlinable
        public func connect() -> any Cancellable {
            upstream.subscribe(subject.get(createSubject), strongly: connectionKeepsSubject)
        }
    }
}

extension Publisher {
    /// Shares this publisher through a subject that `createSubject` makes on first use.
    ///
    /// The closure is called once per multicast (not per subscriber): every subscriber shares
    /// the one subject. Nothing flows until ``Publishers/Multicast/connect()``.
    ///
    /// <!-- snippet: MulticastSubject -->
    /// ```swift
    /// let shared = [1, 2, 3].publisher.multicast { PassthroughSubject<Int, Never>() }
    /// let first = shared.sink { received.append("first \($0)") }
    /// let second = shared.sink { received.append("second \($0)") }
    /// let connection = shared.connect()   // first 1, second 1, first 2, second 2, …
    /// ```
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Failure == Failure, S.Output == Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher through `subject`.
    ///
    /// Every multicast made with the same subject shares it, and values sent to the subject
    /// by other code reach the multicast's subscribers too.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Failure == Failure, S.Output == Output {
        Publishers.Multicast(upstream: self) { subject }
    }
}
