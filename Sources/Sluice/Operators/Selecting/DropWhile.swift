extension Publishers {
    /// A publisher that omits elements while a predicate holds, then republishes every element
    /// from the first that fails it.
    ///
    /// Each omitted element is replaced by one more requested upstream.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// Elements are omitted while this holds.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher omitting the leading elements of `upstream` that satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool, isolation: (any Actor)? = #isolation) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step = WhileStep<Output, Failure, Failure>(dropping: true, name: "DropWhile") { .success(predicate($0)) }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .ignore), isolation: isolation)
        }
    }

    /// A publisher that omits elements while a predicate that can throw holds; a thrown error
    /// cancels the upstream and fails the stream.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one omits elements of.
        public let upstream: Upstream

        /// Elements are omitted while this holds; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher omitting the leading elements of `upstream` that satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool, isolation: (any Actor)? = #isolation) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step = WhileStep<Output, Upstream.Failure, any Error>(dropping: true, name: "TryDropWhile") { element in
                Result { try predicate(element) }
            }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .ignore), isolation: isolation)
        }
    }

    /// A publisher that republishes elements while a predicate holds, and finishes (cancelling
    /// the upstream) at the first that fails it.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher this one republishes the prefix of.
        public let upstream: Upstream

        /// Elements are republished while this holds.
        public let predicate: (Upstream.Output) -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the leading elements of `upstream` that satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool, isolation: (any Actor)? = #isolation) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step = WhileStep<Output, Failure, Failure>(dropping: false, name: "PrefixWhile") { .success(predicate($0)) }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap), isolation: isolation)
        }
    }

    /// A publisher that republishes elements while a predicate that can throw holds; a thrown
    /// error cancels the upstream and fails the stream.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher this one republishes the prefix of.
        public let upstream: Upstream

        /// Elements are republished while this holds; an error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// The actor the closures run on (see ``Publisher/map(_:isolation:)``); nil: on the
        /// upstream's thread.
        public let isolation: (any Actor)?

        /// Creates a publisher republishing the leading elements of `upstream` that satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool, isolation: (any Actor)? = #isolation) {
            self.isolation = isolation
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let step = WhileStep<Output, Upstream.Failure, any Error>(dropping: false, name: "TryPrefixWhile") { element in
                Result { try predicate(element) }
            }
            upstream.receive(
                subscriber: GuardedOperatorSubscriber(step: step, downstream: subscriber, early: .trap), isolation: isolation)
        }
    }
}

/// The step of `drop(while:)` (omit while the predicate holds, then republish everything) and
/// `prefix(while:)` (republish while it holds, then finish), throwing or not.
@usableFromInline
struct WhileStep<Input, UpstreamFailure: Error, Failure: Error>: OperatorStep {
    @usableFromInline let dropping: Bool
    @usableFromInline let predicate: (Input) -> Result<Bool, Failure>
    @usableFromInline let convert: (UpstreamFailure) -> Failure
    @usableFromInline let name: String
    @usableFromInline var passed = false

    @inlinable
    init(dropping: Bool, name: String, convert: @escaping (UpstreamFailure) -> Failure, predicate: @escaping (Input) -> Result<Bool, Failure>) {
        self.dropping = dropping
        self.name = name
        self.convert = convert
        self.predicate = predicate
    }

    @inlinable static var canEnd: Bool { true }

    @inlinable
    mutating func receive(_ input: Input) -> StepResult<Input, Failure> {
        if passed { return .emit(input) }   // drop(while:) past the omitted prefix
        switch predicate(input) {
        case .failure(let failure): return .fail(failure)
        case .success(true): return dropping ? .drop : .emit(input)
        case .success(false):
            if !dropping { return .finish }
            passed = true
            return .emit(input)
        }
    }

    @inlinable func mapFailure(_ failure: UpstreamFailure) -> Failure { convert(failure) }
}

extension WhileStep where UpstreamFailure == Failure {
    @inlinable
    init(dropping: Bool, name: String, predicate: @escaping (Input) -> Result<Bool, Failure>) {
        self.init(dropping: dropping, name: name, convert: { $0 }, predicate: predicate)
    }
}

extension WhileStep where Failure == any Error {
    @inlinable
    init(dropping: Bool, name: String, predicate: @escaping (Input) -> Result<Bool, any Error>) {
        self.init(dropping: dropping, name: name, convert: { $0 }, predicate: predicate)
    }
}

extension Publisher {
    /// Omits elements while `predicate` holds, then republishes every element from the first
    /// that fails it.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool, isolation: (any Actor)? = #isolation) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Omits elements while a predicate that can throw holds; a thrown error cancels the
    /// upstream and fails the stream.
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool, isolation: (any Actor)? = #isolation) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Republishes elements while `predicate` holds, and finishes at the first that fails it.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool, isolation: (any Actor)? = #isolation) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate, isolation: isolation)
    }

    /// Republishes elements while a predicate that can throw holds; a thrown error cancels the
    /// upstream and fails the stream.
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool, isolation: (any Actor)? = #isolation) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate, isolation: isolation)
    }
}

extension Publishers.DropWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.TryDropWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.PrefixWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}

extension Publishers.TryPrefixWhile: ActorDeliveringPublisher {
    @inlinable var deliveryActor: (any Actor)? { isolation }
}
